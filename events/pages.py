"""Event pages, phone first: the event, its organiser's desk, table slips with QR codes,
a table's result form, the standings; and the iCal feeds.

Thin views: ``events.services`` decide who may do what (a refusal is shown with
its status), ``events.selectors`` read. An event is seen by id by those
``selectors.event_visible`` allows, and by anyone through its public link.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.views.decorators.http import require_http_methods

from clubs.forms import add_service_error
from clubs.models import Club, Membership, Season
from core.errors import Forbidden, NotFound, ServiceError
from core.games import game_name, variant_words
from core.inputs import whole_number
from events import ical, selectors, services
from events.forms import EntryAddForm, EventCreateForm, SwapForm, TableResultForm
from events.models import Entry, Event, Round, Table, TableResult
from events.scoring import place_points
from events.selectors import number_words
from events.services.access import is_organiser, seat_of_user

FORMAT_WORDS = {
    Event.Format.SWISS: "Swiss: from round 2, players with similar points sit together",
    Event.Format.ROUND_ROBIN: "Round robin: meet as many different players as possible",
    Event.Format.RANDOM: "Random tables, balanced",
}
STATUS_WORDS = {
    Event.Status.DRAFT: "Being prepared",
    Event.Status.OPEN: "Taking entries",
    Event.Status.RUNNING: "Under way",
    Event.Status.FINISHED: "Finished",
}


def _visible(request: HttpRequest, event_id: int) -> Event:
    try:
        event = selectors.event_get(event_id=event_id)
        return selectors.event_require_visible(event=event, user=request.user)
    except NotFound as exc:
        raise Http404(exc.message) from exc


def _refused(request: HttpRequest, error: ServiceError) -> HttpResponse:
    return render(request, "clubs/refused.html", {"error": error}, status=error.status)


def points_words(event: Event) -> str:
    if not event.points_per_place:
        return (
            "At a table of n players, 1st scores n-1 points down to 0 for last; "
            "tied players share the points of the places they cover."
        )
    listed = ", ".join(
        number_words(place_points(event.points_per_place, len(event.points_per_place), p))
        for p in range(1, len(event.points_per_place) + 1)
    )
    return f"Points for 1st, 2nd, …: {listed} (0 after that); tied players share them."


def _event_context(request: HttpRequest, event: Event, *, public: bool) -> dict[str, Any]:
    detail = selectors.event_detail(event_id=event.pk)
    rounds = list(detail.round_set.all())
    organiser = not public and is_organiser(event=event, user=request.user)
    mine = set()
    if request.user.is_authenticated and not public:
        mine = {
            t.pk
            for r in rounds
            for t in r.tables.all()
            if seat_of_user(table=t, user=request.user) is not None
        }
    return {
        "event": detail,
        "public": public,
        "organiser": organiser,
        "game": game_name(event.game),
        "variant": variant_words(event.game, event.options),
        "format": FORMAT_WORDS.get(event.format, event.format),
        "status": STATUS_WORDS.get(event.status, event.status),
        "points": points_words(event),
        "rounds": rounds,
        "entries": list(detail.entries.all()),
        "my_tables": mine,
        "standings": selectors.standings(event=event),
        "my_player": next(
            (
                e.player.name
                for e in detail.entries.all()
                if request.user.is_authenticated and e.player.user_id == request.user.pk
            ),
            "",
        ),
        "can_join": (
            not public
            and request.user.is_authenticated
            and event.status == Event.Status.OPEN
            and not any(e.player.user_id == request.user.pk for e in detail.entries.all())
        ),
        "public_url": request.build_absolute_uri(
            reverse("event-public-page", args=[event.link_key])
        )
        if organiser
        else "",
    }


def event_list_page(request: HttpRequest) -> HttpResponse:
    """The events you may see (``?club=<slug>``: one club's): coming ones first, soonest
    first, then past ones, latest first."""
    club = Club.objects.filter(slug=request.GET.get("club", "")).first()
    events = selectors.event_list(user=request.user, club_id=club.pk if club else None)
    today = timezone.now() - timedelta(hours=12)  # tonight's event is still "coming"
    coming = list(events.filter(starts_at__gte=today).order_by("starts_at", "pk"))
    past = list(events.filter(starts_at__lt=today).order_by("-starts_at", "-pk"))
    for event in (*coming, *past):
        event.game_name = game_name(event.game)  # type: ignore[attr-defined]
    context = {"coming": coming, "past": past, "club": club}
    return render(request, "events/event_list.html", context)


def _admin_clubs(user: Any) -> list[Club]:
    return list(
        Club.objects.filter(
            memberships__user=user,
            memberships__role__in=[Membership.Role.OWNER, Membership.Role.ADMIN],
        ).order_by("name")
    )


@login_required
@require_http_methods(["GET", "POST"])
def event_create_page(request: HttpRequest) -> HttpResponse:
    """Make an event: a club's (its admins) or an open one (anyone signed in)."""
    clubs = _admin_clubs(request.user)
    seasons = list(
        Season.objects.filter(league__club__in=clubs)
        .select_related("league__club")
        .order_by("league__club__name", "league__name", "-starts_on")
    )
    form = EventCreateForm(
        request.POST or None,
        initial={"club": request.GET.get("club", "")},
        clubs=[(c.slug, c.name) for c in clubs],
        seasons=[(s.pk, f"{s.league.club.name}: {s.league.name}, {s.name}") for s in seasons],
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        club = next((c for c in clubs if c.slug == data["club"]), None)
        season = next((s for s in seasons if s.pk == data["season"]), None)
        try:
            event = services.event_create(
                user=request.user,
                club=season.league.club if season else club,
                name=data["name"],
                slug=slugify(data["name"])[:64] or "event",
                game=season.league.game if season else data["game"],
                options=season.league.options if season else {},
                format=data["format"],
                rounds=data["rounds"],
                final_top_table=data["final_top_table"],
                min_table=data["min_table"],
                max_table=data["max_table"],
                points_per_place=data["points_per_place"],
                starts_at=data["starts_at"],
                ends_at=data["ends_at"],
                location=data["location"],
                season=season,
            )
        except ServiceError as error:
            fields = {f: f for f in ("min_table", "ends_at", "season", "points_per_place")}
            add_service_error(form, error, fields=fields)
        else:
            messages.success(request, f"{event.name} is made: enter the players.")
            return redirect("event-organise", event_id=event.pk)
    return render(
        request, "events/event_create.html", {"form": form}, status=400 if form.errors else 200
    )


@require_http_methods(["GET", "POST"])
def event_page(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event: when and where, its rounds and tables, the standings; join from here."""
    event = _visible(request, event_id)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        try:
            services.entry_join(event=event, user=request.user)
        except ServiceError as error:
            return _refused(request, error)
        messages.success(request, f"You are entered in {event.name}.")
        return redirect("event-page", event_id=event.pk)
    return render(request, "events/event.html", _event_context(request, event, public=False))


def event_public_page(request: HttpRequest, key: str) -> HttpResponse:
    """The event for anyone with its link: times, tables and standings, no forms."""
    try:
        event = selectors.event_by_link(key=key)
    except NotFound as exc:
        raise Http404(exc.message) from exc
    return render(request, "events/event.html", _event_context(request, event, public=True))


ORGANISER_ACTIONS = (
    "add",
    "check_in",
    "check_out",
    "drop",
    "seat",
    "swap",
    "finish_round",
    "finish_event",
    "open",
)


@login_required
@require_http_methods(["GET", "POST"])
def organise_page(request: HttpRequest, event_id: int) -> HttpResponse:
    """The organiser's desk: check-in list, seat the next round, swap two players, finish."""
    event = _visible(request, event_id)
    if not is_organiser(event=event, user=request.user):
        return _refused(
            request,
            Forbidden("not_organiser", f"Only the organiser of {event.name} may do this."),
        )
    current = event.round_set.order_by("-number").first()
    seated = (
        [
            (s.entry_id, f"{s.entry.player.name} (table {t.number}, seat {s.seat + 1})")
            for t in current.tables.order_by("number")
            for s in t.seats.select_related("entry__player")
        ]
        if current is not None
        else []
    )
    add_form = EntryAddForm(prefix="add")
    swap_form = SwapForm(prefix="swap", seated=seated)
    swap_outcome = None
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "add":
                add_form = EntryAddForm(request.POST, prefix="add")
                if add_form.is_valid():
                    services.entry_add(
                        event=event,
                        user=request.user,
                        handle=add_form.cleaned_data["handle"].strip(),
                        checked_in=add_form.cleaned_data["checked_in"],
                    )
                    messages.success(request, f"{add_form.cleaned_data['handle']} is entered.")
                    return redirect("event-organise", event_id=event.pk)
            elif action in ("check_in", "check_out", "drop"):
                entry = get_object_or_404(
                    Entry, event=event, pk=whole_number(request.POST.get("entry", "")) or 0
                )
                if action == "drop":
                    services.entry_drop(entry=entry, user=request.user)
                else:
                    services.entry_check_in(
                        entry=entry, user=request.user, checked_in=action == "check_in"
                    )
                return redirect("event-organise", event_id=event.pk)
            elif action == "seat":
                rnd = services.round_seat_next(event=event, user=request.user)
                messages.success(request, f"Round {rnd.number} is seated.")
                return redirect("event-organise", event_id=event.pk)
            elif action == "swap" and current is not None:
                swap_form = SwapForm(request.POST, prefix="swap", seated=seated)
                if swap_form.is_valid():
                    swap_outcome = services.seat_swap(
                        event=event,
                        user=request.user,
                        round_number=current.number,
                        first=Entry.objects.get(pk=swap_form.cleaned_data["first"]),
                        second=Entry.objects.get(pk=swap_form.cleaned_data["second"]),
                    )
            elif action == "finish_round" and current is not None:
                services.round_finish(event=event, user=request.user, round_number=current.number)
                messages.success(request, f"Round {current.number} is finished.")
                return redirect("event-organise", event_id=event.pk)
            elif action == "finish_event":
                services.event_finish(event=event, user=request.user)
                messages.success(request, f"{event.name} is finished.")
                return redirect("event-page", event_id=event.pk)
            elif action == "open":
                services.event_status_set(event=event, user=request.user, status="open")
                return redirect("event-organise", event_id=event.pk)
        except ServiceError as error:
            messages.error(request, error.message)
            return redirect("event-organise", event_id=event.pk)
    event.refresh_from_db()
    context = _event_context(request, event, public=False)
    context.update(
        add_form=add_form,
        swap_form=swap_form,
        swap_outcome=swap_outcome,
        current=current,
        swappable=current is not None
        and current.status == Round.Status.SEATED
        and not TableResult.objects.filter(table__round=current).exists(),
    )
    return render(request, "events/organise.html", context)


def _table_url(request: HttpRequest, table: Table) -> str:
    event = table.round.event
    return request.build_absolute_uri(
        reverse("event-table-page", args=[event.pk, table.round.number, table.number])
    )


def slips_page(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """Printable table slips: the players in seat order and a QR code to the table's form."""
    event = _visible(request, event_id)
    rnd = next((r for r in selectors.rounds_of(event) if r.number == number), None)
    if rnd is None:
        raise Http404("No such round.")
    slips = []
    for table in rnd.tables.all():
        url = _table_url(request, table)
        slips.append(
            {
                "table": table,
                "url": url,
                "qr": segno.make(url, error="m").svg_inline(scale=3, title=f"Table {table.number}"),
            }
        )
    return render(
        request,
        "events/slips.html",
        {"event": event, "round": rnd, "slips": slips, "game": game_name(event.game)},
    )


@require_http_methods(["GET", "POST"])
def table_page(request: HttpRequest, event_id: int, number: int, table: int) -> HttpResponse:
    """The phone form of one table: its players in seat order, scores to type, and the
    second player's confirmation."""
    event = _visible(request, event_id)
    try:
        found = selectors.table_get(event=event, round_number=number, table_number=table)
    except NotFound as exc:
        raise Http404(exc.message) from exc
    seats = list(found.seats.select_related("entry__player").order_by("seat"))
    names = [s.entry.player.name for s in seats]
    pending = TableResult.objects.filter(table=found).select_related("submitted_by").first()
    form = TableResultForm(names=names)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        try:
            if request.POST.get("action") == "confirm":
                services.table_result_confirm(table=found, user=request.user)
                messages.success(request, f"Table {found.number}'s result is confirmed.")
                return redirect("event-table-page", event.pk, number, table)
            form = TableResultForm(request.POST, names=names)
            if form.is_valid():
                try:
                    services.table_result_submit(
                        table=found,
                        user=request.user,
                        scores=form.scores(),
                        confirm_unusual=bool(request.POST.get("confirm_unusual")),
                    )
                except ServiceError as error:
                    if error.status == 403:
                        raise
                    form.add_service_error(error)
                else:
                    messages.success(request, "Sent: another player of the table confirms it now.")
                    return redirect("event-table-page", event.pk, number, table)
        except ServiceError as error:
            return _refused(request, error)
    at_table = seat_of_user(table=found, user=request.user)
    organiser = is_organiser(event=event, user=request.user)
    can_confirm = (
        pending is not None
        and pending.status == TableResult.Status.PENDING
        and request.user.is_authenticated
        and pending.submitted_by_id != request.user.pk
        and (at_table is not None or organiser)
    )
    return render(
        request,
        "events/table.html",
        {
            "event": event,
            "table": found,
            "round_number": number,
            "seats": seats,
            "pending": pending,
            "form": form,
            "may_report": at_table is not None or organiser,
            "can_confirm": can_confirm,
            "game": game_name(event.game),
            "pending_rows": list(
                zip(
                    names,
                    pending.result.get("scores", []),
                    pending.result.get("ranks", []),
                    strict=False,
                )
            )
            if pending
            else [],
        },
    )


def standings_page(request: HttpRequest, event_id: int) -> HttpResponse:
    """Standings after any round, each row's tie-break in words."""
    event = _visible(request, event_id)
    after = whole_number(request.GET.get("after_round", ""), high=1000)
    table = selectors.standings(event=event, after_round=after)
    return render(
        request,
        "events/standings.html",
        {
            "event": event,
            "standings": table,
            "rounds": range(1, event.round_set.count() + 1),
            "points": points_words(event),
        },
    )


def club_events_ics(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's events as an iCal feed (drafts left out); readable without signing in."""
    club = get_object_or_404(Club, slug=slug)
    events = selectors.club_calendar_events(club_id=club.pk)
    body = ical.events_ics(events, name=f"{club.name} events", request=request)
    return HttpResponse(body, content_type="text/calendar; charset=utf-8")


def player_events_ics(request: HttpRequest, handle: str) -> HttpResponse:
    """The events a player is entered in, as an iCal feed (drafts left out)."""
    events = selectors.events_of_player(handle=handle).exclude(status=Event.Status.DRAFT)
    body = ical.events_ics(events, name=f"{handle}'s events", request=request)
    return HttpResponse(body, content_type="text/calendar; charset=utf-8")
