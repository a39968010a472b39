"""The pages of one game in a league: record a table game, void it, correct its scores.

Apart from ``clubs.pages`` for size; the same thin views: forms check what was
typed, ``clubs.services`` decide who may do what (a refusal is shown with its
status), and a refusal of the stored record is put back on the form beside the
row or field it is about, and summarised at the form's top.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from clubs import selectors, services
from clubs.forms import ResultCorrectionForm, TableGameForm, VoidForm
from clubs.models import Club, League, SeasonEntry
from clubs.pages import _found, _person, _refused, league_rules_words
from core.errors import Forbidden, ServiceError
from core.games import game_name
from replays.selectors import record_row


def _game_words(entry: SeasonEntry) -> str:
    """A game as its players know it: "The game of Secret Santa of ana and cy on 3 Dec 2026"."""
    record = entry.record
    names = [
        seat.player.display_name or seat.player.name
        for seat in record.seats.select_related("player").order_by("seat")
    ]
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    played = record.played_at or record.created_at
    return (
        f"The game of {game_name(record.game)} of {who} on {timezone.localtime(played):%-d %b %Y}"
    )


def _league_entry(slug: str, league_slug: str, entry_id: int) -> tuple[Club, League, SeasonEntry]:
    club = _found(selectors.club_get, slug=slug)
    league = _found(selectors.league_get_by_slug, club=club, slug=league_slug)
    entry = (
        SeasonEntry.objects.select_related("season__league__club", "record")
        .filter(pk=entry_id, season__league=league)
        .first()
    )
    if entry is None:
        raise Http404(f"{league.name} has no game entry {entry_id}.")
    return club, league, entry


@login_required
@require_POST
def entry_void_page(
    request: HttpRequest, slug: str, league_slug: str, entry_id: int
) -> HttpResponse:
    club, league, entry = _league_entry(slug, league_slug, entry_id)
    form = VoidForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        services.record_void(entry=entry, user=request.user, reason=reason)
    except ServiceError as exc:
        if exc.status == 403:
            return _refused(request, exc)
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{_game_words(entry)} is voided: {reason}")
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
                        season=season,
                        document=document,
                        user=request.user,
                        guests=guests,
                        confirm_unusual=form.unusual_confirmed(form.scores()),
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


@login_required
@require_http_methods(["GET", "POST"])
def entry_correct_page(
    request: HttpRequest, slug: str, league_slug: str, entry_id: int
) -> HttpResponse:
    """Correct a table game's scores: its submitter within the window, club admins after.

    Someone who may not correct it (any more) is told why and who may; their POST is
    refused (403) by the service, as the API's is.
    """
    club, league, entry = _league_entry(slug, league_slug, entry_id)
    record = entry.record
    seats = list(record.seats.select_related("player").order_by("seat"))
    names = [seat.player.display_name or seat.player.name for seat in seats]
    access = services.correction_access(record=record, user=request.user)
    form = ResultCorrectionForm(
        request.POST or None, names=names, scores=list(record.result.get("scores") or [])
    )
    back = f"{reverse('league-page', args=[club.slug, league.slug])}?season={entry.season_id}"
    status = 200
    if request.method == "POST":
        if not access.allowed:
            return _refused(request, Forbidden(access.code, access.why))
        status = 400
        if form.is_valid():
            try:
                services.result_correct(
                    record=record,
                    user=request.user,
                    scores=form.scores(),
                    reason=form.cleaned_data["reason"],
                    confirm_unusual=form.unusual_confirmed(form.scores()),
                )
            except ServiceError as exc:
                if exc.status == 403:
                    return _refused(request, exc)
                form.add_service_error(exc)
                status = exc.status
            else:
                messages.success(
                    request, f"{_game_words(entry)} is corrected; the standings follow."
                )
                return redirect(back)
    return render(
        request,
        "clubs/correct.html",
        {
            "club": club,
            "league": league,
            "entry": entry,
            "game": _game_words(entry),
            "row": record_row(record),
            "access": access,
            "form": form,
            "back": back,
            "voided": entry.voided_at is not None,
        },
        status=status,
    )
