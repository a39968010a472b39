"""The club pages: clubs, a club, a league's standings, a player (a game's own pages,
recording, voiding and correcting it, are in ``clubs.game_pages``).

Thin views: forms check what was typed, ``clubs.services`` decide who may do
what (a refusal is shown with its status: 403 for a non-admin's POST), and
``clubs.selectors`` read. Everything a page shows is in words: game names,
rules variants, tie rules; never slugs or JSON.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.views.decorators.http import require_http_methods, require_POST

from clubs import charts, selectors, services
from clubs.forms import (
    TIE_BREAK_WORDS,
    TIE_RULE_WORDS,
    ClubCreateForm,
    InvitationForm,
    LeagueCreateForm,
    SeasonCreateForm,
    VoidForm,
    add_service_error,
)
from clubs.models import Club, ClubRecord, Invitation, League, Membership, Season, SeasonEntry
from core.errors import Forbidden, NotFound, ServiceError
from core.games import game_name, variant_words
from core.house_rules import field_name as house_rules_field
from replays.models import Player, Record
from replays.selectors import RecordRow, record_row

RECENT_GAMES = 20

ROLE_WORDS = {
    "member": (
        "As a member you record the games you play in its leagues, and you appear in "
        "their standings."
    ),
    "admin": (
        "As an admin you play like any member, and also invite people, create leagues and "
        "seasons, and void games entered by mistake."
    ),
    "owner": (
        "As an owner you run the club: everything an admin does, and deciding who is an admin."
    ),
}
ROLE_NAMES = {"member": "a member", "admin": "an admin", "owner": "an owner"}


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
    """A club's game as a list shows it: the record's row plus its league and void, or,
    for a game the club counts outside its seasons, where it comes from (an event)."""

    row: RecordRow
    entry: SeasonEntry | None
    league: League | None
    # Whether the viewer is offered "Correct…": a table game's submitter (after the
    # window the page says who may still correct it) or a club admin.
    correctable: bool = False
    source: str = ""

    @property
    def voided(self) -> bool:
        return self.entry is not None and self.entry.voided_at is not None

    @property
    def voided_by(self) -> str:
        user = self.entry.voided_by if self.entry is not None else None
        return user.get_username() if user is not None else "an admin"


def _game_rows(
    entries: Sequence[SeasonEntry | ClubRecord],
    *,
    with_league: bool,
    user: Any = None,
    is_admin: bool = False,
) -> list[GameRow]:
    user_id = user.pk if user is not None and user.is_authenticated else None
    rows = []
    for e in entries:
        if isinstance(e, ClubRecord):
            rows.append(GameRow(record_row(e.record), None, None, source=e.source))
            continue
        rows.append(
            GameRow(
                record_row(e.record),
                e,
                e.season.league if with_league else None,
                correctable=(
                    e.voided_at is None
                    and e.record.kind == Record.Kind.RESULT
                    and user_id is not None
                    and (is_admin or e.record.submitted_by_id == user_id)
                ),
            )
        )
    return rows


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
        "games": _game_rows(
            selectors.club_recent_games(club=club),
            with_league=True,
            user=request.user,
            is_admin=is_admin,
        ),
    }
    today = timezone.localdate()
    for item in leagues:
        season = item["season"]
        item["season_over"] = season is not None and season.ends_on < today
    if is_admin:
        assert membership is not None
        league_list = [item["league"] for item in leagues]
        wanted = request.GET.get("league", "")
        chosen = wanted if any(league.slug == wanted for league in league_list) else None
        context["invitation_form"] = forms.get("invitation_form") or InvitationForm()
        context["league_form"] = forms.get("league_form") or LeagueCreateForm()
        context["season_form"] = forms.get("season_form") or SeasonCreateForm(
            leagues=league_list, initial={"starts_on": today, "league": chosen}
        )
        context["invitations"] = _invitation_rows(club, membership)
        context["next_steps"] = _next_steps(leagues, members, context)
    context.update({k: v for k, v in forms.items() if not k.endswith("_form")})
    return context


INVITATIONS_SHOWN = 50
STATUS_WORDS = {
    Invitation.Status.PENDING: "pending",
    Invitation.Status.USED: "used",
    Invitation.Status.REVOKED: "revoked",
    Invitation.Status.EXPIRED: "expired",
}


def _invitation_rows(club: Club, membership: Membership) -> list[dict[str, Any]]:
    """The newest join links, each with its status, its maker and whether this admin may
    revoke it (a pending link; one for admins or owners only by an owner)."""
    now = timezone.now()
    rows = []
    for invitation in selectors.club_invitations(club=club)[:INVITATIONS_SHOWN]:
        status = invitation.status_at(now)
        rows.append(
            {
                "invitation": invitation,
                "status": STATUS_WORDS[status],
                "by": _person(invitation.created_by)[0] if invitation.created_by else "",
                "role": ROLE_NAMES.get(invitation.role, "a member"),
                "can_revoke": status == Invitation.Status.PENDING
                and (invitation.role == Membership.Role.MEMBER or membership.role == "owner"),
            }
        )
    return rows


def _next_steps(
    leagues: list[dict[str, Any]], members: list[dict[str, Any]], context: dict[str, Any]
) -> list[dict[str, Any]]:
    """An organiser's set-up, in order: a league, a season for it, people, a first game.

    Shown while something is left to do, each step saying what it is for and linking to
    the form that does it.
    """
    without_season = next((item["league"] for item in leagues if item["season"] is None), None)
    steps = [
        {
            "done": bool(leagues),
            "title": "Create a league",
            "why": "A league is one game with its scoring: points per place, ties, ranking.",
            "href": "#create-league",
            "action": "Create a league",
        },
        {
            "done": bool(leagues) and without_season is None,
            "title": "Give it a season",
            "why": "A season holds the games played between two dates and has its standings.",
            "href": (
                f"?league={without_season.slug}#create-season"
                if without_season is not None
                else "#create-season"
            ),
            "action": "Create a season",
        },
        {
            "done": len(members) > 1 or bool(context.get("invitations")),
            "title": "Invite the people you play with",
            "why": "Make a link and send it; they join (or sign up and join) from it.",
            "href": "#invite",
            "action": "Invite people",
        },
        {
            "done": bool(context["games"]),
            "title": "Record a game",
            "why": "Each league with a season has “Record a table game” for its members.",
            "href": "#leagues",
            "action": "See the leagues",
        },
    ]
    if all(step["done"] for step in steps[:3]):
        return []
    todo = next(step for step in steps if not step["done"])
    todo["first"] = True
    return steps


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


@login_required
@require_POST
def club_settings_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The admins' settings panel: whether the club's league games are analysed."""
    club = _found(selectors.club_get, slug=slug)
    wanted = request.POST.get("analyse_league_games") == "on"
    try:
        services.club_settings_update(club=club, user=request.user, analyse_league_games=wanted)
    except ServiceError as exc:
        return _refused(request, exc)
    messages.success(
        request,
        "League games entered from now on will be analysed."
        if wanted
        else "League games are no longer analysed automatically.",
    )
    return redirect(reverse("club-page", args=[club.slug]) + "#settings")


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
            games=_game_rows(
                list(selectors.season_entries(season=season)),
                with_league=False,
                user=request.user,
                is_admin=bool(membership and membership.is_admin),
            ),
            chart=(
                charts.standings_chart(history, names=names, title=f"Points through {season.name}")
                if history
                else None
            ),
        )
    return render(request, "clubs/league.html", context)


# --- players ---------------------------------------------------------------------


def player_page(request: HttpRequest, handle: str) -> HttpResponse:
    """A player's clubs, results and recent games; their bot play (games against the
    service's bots) hidden from the list unless ``?play=all``, and marked when shown."""
    player: Player = _found(selectors.player_get, handle=handle)
    play_all = request.GET.get("play") == "all"
    recent = selectors.player_recent_records(player=player, simulated=play_all)
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
            "games": [record_row(r) for r in recent],
            "play_all": play_all,
            "hidden_simulated": 0 if play_all else selectors.player_simulated_count(player=player),
            "results": results,
        },
    )


# --- invitations -----------------------------------------------------------------

JOIN_INTENT = "club_join_intent"  # session: hashes of links this browser asked to join with


def _intent(request: HttpRequest) -> list[str]:
    return list(request.session.get(JOIN_INTENT, []))


def _intent_set(request: HttpRequest, invitation: Invitation, *, wanted: bool) -> None:
    hashes = [h for h in _intent(request) if h != invitation.key_hash]
    if wanted:
        hashes.append(invitation.key_hash)
    if hashes:
        request.session[JOIN_INTENT] = hashes[-5:]
    else:
        request.session.pop(JOIN_INTENT, None)


def _joined(request: HttpRequest, membership: Membership, invitation: Invitation) -> HttpResponse:
    _intent_set(request, invitation, wanted=False)
    club = membership.club
    role = ROLE_NAMES.get(membership.role, "a member")
    messages.success(
        request,
        f"Welcome to {club.name}: you are {role} now. Record a game from one of its leagues, "
        "or follow its standings.",
    )
    return redirect("club-page", slug=club.slug)


@require_http_methods(["GET", "POST"])
def club_join_page(request: HttpRequest, key: str) -> HttpResponse:
    """The page an invitation link opens: which club, who invited, and as what.

    A GET never joins by itself (a link preview must not), except to finish a join this
    browser asked for with a POST before it had an account or was logged in: the POST of
    a visitor without an account is remembered in the session and sends them to sign up
    (or log in) with ``next`` back here, so they arrive a member, on the club's page.
    A link that was revoked, is used up or has expired says so, and what to do.
    """
    invitation = selectors.invitation_by_key(key=key)
    if invitation is None:
        error: ServiceError = NotFound("invitation_not_found", services.INVITATION_NOT_FOUND)
        return render(request, "clubs/join.html", {"error": error}, status=error.status)
    club = invitation.club
    user = request.user
    membership = selectors.membership_of(club=club, user=user)
    if membership is not None:
        _intent_set(request, invitation, wanted=False)
        messages.info(request, f"You are already a member of {club.name}.")
        return redirect("club-page", slug=club.slug)
    inviter = _person(invitation.created_by)[0] if invitation.created_by else ""
    context: dict[str, Any] = {
        "club": club,
        "invitation": invitation,
        "inviter": inviter,
        "role_name": ROLE_NAMES.get(invitation.role, "a member"),
        "role_words": ROLE_WORDS.get(invitation.role, ""),
    }
    refusal = services.invitation_refusal(invitation)
    if refusal is not None:
        _intent_set(request, invitation, wanted=False)
        return render(
            request, "clubs/join.html", {**context, "error": refusal}, status=refusal.status
        )
    wanted = invitation.key_hash in _intent(request)
    if request.method == "POST" and not user.is_authenticated:
        _intent_set(request, invitation, wanted=True)
        target = "login" if request.POST.get("account") == "existing" else "signup"
        return redirect(f"{reverse(target)}?{urlencode({'next': request.path})}")
    if request.method == "POST" or (wanted and user.is_authenticated):
        try:
            membership = services.club_join(key=key, user=user)
        except ServiceError as exc:
            _intent_set(request, invitation, wanted=False)
            return render(request, "clubs/join.html", {**context, "error": exc}, status=exc.status)
        return _joined(request, membership, invitation)
    return render(request, "clubs/join.html", context)


@login_required
@require_POST
def invitation_revoke_page(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    """Withdraw a pending link (admins; owners for admin invitations); audited."""
    club = _found(selectors.club_get, slug=slug)
    try:
        invitation = services.invitation_revoke(
            club=club, user=request.user, invitation_id=invitation_id
        )
    except NotFound as exc:
        raise Http404(exc.message) from exc
    except ServiceError as exc:
        if exc.status == 403:
            return _refused(request, exc)
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            f"The invitation link starting “{invitation.prefix}” is revoked: nobody can join "
            "with it any more.",
        )
    return redirect(f"{reverse('club-page', args=[club.slug])}#invitations")
