"""The club pages: clubs, a club, a league's standings, a player, and the table-game form.

Thin views: forms check what was typed, ``clubs.services`` decide who may do
what (a refusal is shown with its status: 403 for a non-admin's POST), and
``clubs.selectors`` read. Everything a page shows is in words: game names,
rules variants, tie rules; never slugs or JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from clubs import charts, selectors, services
from clubs.forms import (
    TIE_BREAK_WORDS,
    TIE_RULE_WORDS,
    ClubCreateForm,
    InvitationForm,
    LeagueCreateForm,
    SeasonCreateForm,
    TableGameForm,
    VoidForm,
    add_service_error,
)
from clubs.models import Club, League, Season, SeasonEntry
from core.errors import Forbidden, NotFound, ServiceError
from core.games import game_name, variant_words
from core.house_rules import field_name as house_rules_field
from replays.models import Player
from replays.selectors import RecordRow, record_row

RECENT_GAMES = 20


def _found(lookup: Any, **kwargs: Any) -> Any:
    try:
        return lookup(**kwargs)
    except NotFound as exc:
        raise Http404(exc.message) from exc


def _refused(request: HttpRequest, error: ServiceError) -> HttpResponse:
    return render(request, "clubs/refused.html", {"error": error}, status=error.status)


def _is_admin(request: HttpRequest, club: Club) -> bool:
    membership = selectors.membership_of(club=club, user=request.user)
    return bool(membership and membership.is_admin)


def _not_admin(club: Club) -> Forbidden:
    return Forbidden("not_club_admin", f"Only admins and owners of {club.name} may do this.")


def _place(number: int) -> str:
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def league_rules_words(league: League) -> dict[str, str]:
    """A league's scoring in sentences: points per place, tie rule, ranking, tie-breaks."""
    points = ", ".join(f"{_place(n)} {p}" for n, p in enumerate(league.points_per_place, start=1))
    breaks = [TIE_BREAK_WORDS.get(t, t) for t in league.tie_breaks]
    return {
        "game": game_name(league.game),
        "variant": variant_words(league.game, league.options) or "standard rules",
        "points": f"Points per place: {points}; later places 0.",
        "ties": TIE_RULE_WORDS.get(league.tie_rule, league.tie_rule) + ".",
        "min_games": (
            f"Ranked after {league.min_games} games." if league.min_games else "Everyone is ranked."
        ),
        "tie_breaks": (
            "Equal points: ahead is who has " + ", then ".join(breaks) + "."
            if breaks
            else "Equal points share a place."
        ),
    }


def _person(user: Any) -> tuple[str, str]:
    """(name shown, player handle) of a member: their player's display name, else username."""
    player = next(iter(user.players.all()), None)
    if player is None:
        return user.get_username(), ""
    return player.display_name or player.name, player.name


@dataclass(frozen=True)
class GameRow:
    """A season entry as a list shows it: the record's row plus its league and void."""

    row: RecordRow
    entry: SeasonEntry
    league: League | None

    @property
    def voided(self) -> bool:
        return self.entry.voided_at is not None

    @property
    def voided_by(self) -> str:
        user = self.entry.voided_by
        return user.get_username() if user is not None else "an admin"


def _game_rows(entries: list[SeasonEntry], *, with_league: bool) -> list[GameRow]:
    return [
        GameRow(record_row(e.record), e, e.season.league if with_league else None) for e in entries
    ]


# --- clubs -----------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def club_list_page(request: HttpRequest) -> HttpResponse:
    """Every club, and for a logged-in visitor a form to make one."""
    form = ClubCreateForm(request.POST or None)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        if form.is_valid():
            try:
                club = services.club_create(
                    user=request.user,
                    name=form.cleaned_data["name"],
                    slug=form.cleaned_data["slug"],
                    description=form.cleaned_data["description"],
                )
            except ServiceError as exc:
                add_service_error(form, exc, fields={"slug": "slug"})
            else:
                messages.success(request, f"{club.name} is made; you are its owner.")
                return redirect("club-page", slug=club.slug)
    my_clubs = (
        set(selectors.user_clubs(user=request.user).values_list("club_id", flat=True))
        if request.user.is_authenticated
        else set()
    )
    return render(
        request,
        "clubs/club_list.html",
        {"clubs": selectors.club_list(), "form": form, "my_clubs": my_clubs},
        status=400 if form.errors else 200,
    )


def _club_context(request: HttpRequest, club: Club, **forms: Any) -> dict[str, Any]:
    membership = selectors.membership_of(club=club, user=request.user)
    is_admin = bool(membership and membership.is_admin)
    members = [
        {"membership": m, "name": name, "handle": handle}
        for m in selectors.club_members(club=club).prefetch_related("user__players")
        for name, handle in [_person(m.user)]
    ]
    leagues = [
        {
            "league": league,
            "rules": league_rules_words(league),
            "season": selectors.season_current(league=league),
        }
        for league in selectors.club_leagues(club=club)
    ]
    context: dict[str, Any] = {
        "club": club,
        "membership": membership,
        "is_admin": is_admin,
        "members": members,
        "leagues": leagues,
        "games": _game_rows(selectors.club_recent_entries(club=club), with_league=True),
    }
    if is_admin:
        league_list = [item["league"] for item in leagues]
        context["invitation_form"] = forms.get("invitation_form") or InvitationForm()
        context["league_form"] = forms.get("league_form") or LeagueCreateForm()
        context["season_form"] = forms.get("season_form") or SeasonCreateForm(
            leagues=league_list, initial={"starts_on": timezone.localdate()}
        )
    context.update({k: v for k, v in forms.items() if not k.endswith("_form")})
    return context


def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = _found(selectors.club_get, slug=slug)
    return render(request, "clubs/club.html", _club_context(request, club))


def _club_form_page(request: HttpRequest, club: Club, status: int, **forms: Any) -> HttpResponse:
    return render(request, "clubs/club.html", _club_context(request, club, **forms), status=status)


@login_required
@require_POST
def invitation_create_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Make a join link and show it once (only its hash is stored)."""
    club = _found(selectors.club_get, slug=slug)
    form = InvitationForm(request.POST)
    if not form.is_valid():
        return _club_form_page(request, club, 400, invitation_form=form)
    days = form.cleaned_data.get("days")
    try:
        _invitation, key = services.invitation_create(
            club=club,
            user=request.user,
            role=form.cleaned_data["role"],
            max_uses=form.cleaned_data.get("max_uses"),
            expires_at=timezone.now() + timedelta(days=days) if days else None,
        )
    except ServiceError as exc:
        return _refused(request, exc)
    link = request.build_absolute_uri(reverse("club-join-page", args=[key]))
    return _club_form_page(request, club, 201, invitation_link=link)


@login_required
@require_POST
def league_create_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = _found(selectors.club_get, slug=slug)
    form = LeagueCreateForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            league = services.league_create(
                club=club,
                user=request.user,
                name=data["name"],
                slug=data["slug"],
                game=data["game"],
                options=data["options"],
                points_per_place=data["points_per_place"],
                tie_rule=data["tie_rule"],
                min_games=data["min_games"],
                tie_breaks=data["tie_breaks"],
            )
        except ServiceError as exc:
            if exc.status == 403:
                return _refused(request, exc)
            option = exc.detail.get("option")
            fields = {
                f: f
                for f in ("slug", "game", "points_per_place", "tie_rule", "min_games", "tie_breaks")
            }
            if isinstance(option, str):  # a house rule: beside its field in the picker
                fields["options"] = house_rules_field(data["game"], option)
            add_service_error(form, exc, fields=fields)
        else:
            messages.success(request, f"League {league.name} is made: now give it a season.")
            return redirect("club-page", slug=club.slug)
    elif not _is_admin(request, club):
        return _refused(request, _not_admin(club))
    return _club_form_page(request, club, 400, league_form=form)


@login_required
@require_POST
def season_create_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = _found(selectors.club_get, slug=slug)
    leagues = list(selectors.club_leagues(club=club))
    form = SeasonCreateForm(request.POST, leagues=leagues)
    if form.is_valid():
        data = form.cleaned_data
        league = next(item for item in leagues if item.slug == data["league"])
        try:
            season = services.season_create(
                league=league,
                user=request.user,
                name=data["name"],
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
            )
        except ServiceError as exc:
            if exc.status == 403:
                return _refused(request, exc)
            add_service_error(form, exc, fields={"ends_on": "ends_on"})
        else:
            messages.success(request, f"Season {season.name} of {league.name} is made.")
            return redirect("club-page", slug=club.slug)
    elif not _is_admin(request, club):
        return _refused(request, _not_admin(club))
    return _club_form_page(request, club, 400, season_form=form)


@login_required
@require_POST
def club_leave_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = _found(selectors.club_get, slug=slug)
    try:
        services.membership_remove(
            club=club, user=request.user, username=request.user.get_username()
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("club-page", slug=club.slug)
    messages.success(request, f"You left {club.name}.")
    return redirect("club-list-page")


# --- leagues ---------------------------------------------------------------------


def _season_chosen(request: HttpRequest, league: League, seasons: list[Season]) -> Season | None:
    wanted = request.GET.get("season", "")
    if wanted:
        chosen = next((s for s in seasons if str(s.pk) == wanted), None)
        if chosen is None:
            raise Http404(f"{league.name} has no season {wanted}.")
        return chosen
    current = selectors.season_current(league=league)
    return next((s for s in seasons if current is not None and s.pk == current.pk), None)


def league_page(request: HttpRequest, slug: str, league_slug: str) -> HttpResponse:
    """Standings of one season (the current one unless ``?season=``), its games and chart."""
    club = _found(selectors.club_get, slug=slug)
    league = _found(selectors.league_get_by_slug, club=club, slug=league_slug)
    seasons = list(selectors.league_seasons(league=league))
    season = _season_chosen(request, league, seasons)
    membership = selectors.membership_of(club=club, user=request.user)
    context: dict[str, Any] = {
        "club": club,
        "league": league,
        "rules": league_rules_words(league),
        "seasons": seasons,
        "season": season,
        "membership": membership,
        "is_admin": bool(membership and membership.is_admin),
        "void_form": VoidForm(),
    }
    if season is not None:
        standings = selectors.season_standings(season=season)
        names = {row["player"]: row["display_name"] for row in standings}
        history = selectors.standings_history(season=season)
        context.update(
            ranked=[row for row in standings if row["ranked"]],
            unranked=[
                {**row, "needs": league.min_games - row["games"]}
                for row in standings
                if not row["ranked"]
            ],
            games=_game_rows(list(selectors.season_entries(season=season)), with_league=False),
            chart=(
                charts.standings_chart(history, names=names, title=f"Points through {season.name}")
                if history
                else None
            ),
        )
    return render(request, "clubs/league.html", context)


@login_required
@require_POST
def entry_void_page(
    request: HttpRequest, slug: str, league_slug: str, entry_id: int
) -> HttpResponse:
    club = _found(selectors.club_get, slug=slug)
    league = _found(selectors.league_get_by_slug, club=club, slug=league_slug)
    entry = (
        SeasonEntry.objects.select_related("season__league__club", "record")
        .filter(pk=entry_id, season__league=league)
        .first()
    )
    if entry is None:
        raise Http404(f"{league.name} has no game entry {entry_id}.")
    form = VoidForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        services.record_void(entry=entry, user=request.user, reason=reason)
    except ServiceError as exc:
        if exc.status == 403:
            return _refused(request, exc)
        messages.error(request, exc.message)
    else:
        messages.success(request, f"Game {entry.record_id} is voided: {reason}")
    return redirect(
        f"{reverse('league-page', args=[club.slug, league.slug])}?season={entry.season_id}"
    )


@login_required
@require_http_methods(["GET", "POST"])
def table_game_page(request: HttpRequest, slug: str, league_slug: str) -> HttpResponse:
    """Record a game played at a real table: players, final scores, when. One step, on a phone.

    The game goes to the league's season that covers the day it was played.
    """
    club = _found(selectors.club_get, slug=slug)
    league = _found(selectors.league_get_by_slug, club=club, slug=league_slug)
    members = [
        (handle, name)
        for m in selectors.club_members(club=club).prefetch_related("user__players")
        for name, handle in [_person(m.user)]
        if handle
    ]
    members.sort(key=lambda item: item[1].lower())
    form = TableGameForm(request.POST or None, game=league.game, members=members)
    membership = selectors.membership_of(club=club, user=request.user)
    status = 200
    if request.method == "POST":
        if membership is None:
            return _refused(
                request,
                Forbidden("not_a_member", f"Only members of {club.name} may record its games."),
            )
        status = 400
        if form.is_valid():
            played_on = timezone.localdate(form.cleaned_data["played_at"])
            season = selectors.season_for_day(league=league, day=played_on)
            if season is None:
                form.add_error(
                    "played_at",
                    f"No season of {league.name} covers {played_on:%d %B %Y}: "
                    "ask an admin to make one.",
                )
            else:
                document, guests = form.document(game=league.game, options=league.options)
                try:
                    entry, _created = services.season_entry_submit_document(
                        season=season, document=document, user=request.user, guests=guests
                    )
                except ServiceError as exc:
                    form.add_service_error(exc)
                    status = exc.status
                else:
                    messages.success(
                        request, f"Game recorded in {league.name}, season {season.name}."
                    )
                    url = reverse("league-page", args=[club.slug, league.slug])
                    return redirect(f"{url}?season={entry.season_id}")
    return render(
        request,
        "clubs/table_game.html",
        {
            "club": club,
            "league": league,
            "rules": league_rules_words(league),
            "form": form,
            "membership": membership,
        },
        status=status,
    )


# --- players ---------------------------------------------------------------------


def player_page(request: HttpRequest, handle: str) -> HttpResponse:
    player: Player = _found(selectors.player_get, handle=handle)
    results = [
        {"game": game_name(r.game), "games": r.games, "wins": r.wins, "average": r.average_score}
        for r in selectors.player_results_by_game(player=player)
    ]
    return render(
        request,
        "clubs/player.html",
        {
            "player": player,
            "name": player.display_name or player.name,
            "clubs": selectors.player_clubs(player_name=player.name).order_by("name"),
            "games": [record_row(r) for r in selectors.player_recent_records(player=player)],
            "results": results,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def club_join_page(request: HttpRequest, key: str) -> HttpResponse:
    """GET asks to confirm (a link preview must not join anyone); POST joins."""
    if request.method == "POST":
        try:
            membership = services.club_join(key=key, user=request.user)
        except ServiceError as exc:
            return render(request, "clubs/join.html", {"error": exc.message}, status=exc.status)
        messages.success(request, f"You are a member of {membership.club.name}.")
        return redirect("home")
    return render(request, "clubs/join.html", {"key": key})
