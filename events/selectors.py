"""Reads: events, rounds with their tables, the seating history, and standings.

Standings, stated once (docs/events.md, "Running an event"): players are ordered by
1. points: at each confirmed table, the event's points for the place reached (tied
   places share the average of the places they cover); a bye scores the average
   points of a seat at the round's smallest table;
2. opponents' strength: the average of the points (after the same round) of every
   opponent met, each meeting counted once (a player met twice counts twice);
3. wins: tables finished first (a shared first counts);
players level on all three share the place, listed by name. Every row says in words
which of these placed it against the players it was level with.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch, Q, QuerySet

from analytics.selectors import game_statistics
from clubs.models import Membership
from core.errors import NotFound
from events.models import Bye, Entry, Event, Round, Table, TableResult, TableSeat
from events.scoring import bye_points, table_points
from events.seat import SeatHistory, SeatRules
from events.seating import advantage_from_seat_figures
from games.registry import get_engine
from replays.giftlog import options_key


def event_list(*, user: AbstractBaseUser | None, club_id: int | None = None) -> QuerySet[Event]:
    """The events ``user`` may see (as :func:`event_visible`), soonest last."""
    shown = Q(club__isnull=True) & ~Q(status=Event.Status.DRAFT)
    if user is not None and user.is_authenticated:
        clubs = Membership.objects.filter(user=user).values("club_id")
        shown |= Q(club_id__in=clubs) & ~Q(status=Event.Status.DRAFT)
        shown |= Q(created_by=user) | Q(entries__user=user) | Q(entries__player__user=user)
    events = Event.objects.select_related("club").filter(shown).distinct()
    if club_id is not None:
        events = events.filter(club_id=club_id)
    return events


def club_calendar_events(*, club_id: int) -> QuerySet[Event]:
    """A club's events in its public calendar feed: every one but drafts."""
    return Event.objects.filter(club_id=club_id).exclude(status=Event.Status.DRAFT)


def event_get(*, event_id: int) -> Event:
    event = (
        Event.objects.select_related("club", "season__league", "created_by")
        .filter(pk=event_id)
        .first()
    )
    if event is None:
        raise NotFound("event_not_found", f"There is no event {event_id}.", event=event_id)
    return event


def event_detail(*, event_id: int) -> Event:
    """An event with its entries and rounds (tables, seats, results, byes) fetched at once."""
    event_get(event_id=event_id)
    seats = TableSeat.objects.select_related("entry__player").order_by("seat")
    tables = Table.objects.select_related(
        "result__submitted_by", "result__confirmed_by", "record"
    ).prefetch_related(Prefetch("seats", queryset=seats))
    return (
        Event.objects.select_related("club", "season")
        .prefetch_related(
            Prefetch("entries", queryset=Entry.objects.select_related("player")),
            Prefetch(
                "round_set",
                queryset=Round.objects.order_by("number").prefetch_related(
                    Prefetch("tables", queryset=tables),
                    Prefetch("byes", queryset=Bye.objects.select_related("entry__player")),
                ),
            ),
        )
        .get(pk=event_id)
    )


def event_visible(*, event: Event, user: AbstractBaseUser | None) -> bool:
    """Who sees an event by its id: anyone for an open event (no club) once it is not a
    draft; for a club's, its members; always its organiser and its players. Anyone with
    the link key sees the public page."""
    signed_in = user is not None and user.is_authenticated
    if signed_in and (
        event.created_by_id == user.pk
        or event.entries.filter(Q(user=user) | Q(player__user=user)).exists()
    ):
        return True
    if event.status == Event.Status.DRAFT:
        return (
            signed_in
            and event.club_id is not None
            and Membership.objects.filter(
                club_id=event.club_id,
                user=user,
                role__in=[Membership.Role.OWNER, Membership.Role.ADMIN],
            ).exists()
        )
    if event.club_id is None:
        return True
    return signed_in and Membership.objects.filter(club_id=event.club_id, user=user).exists()


def event_require_visible(*, event: Event, user: AbstractBaseUser | None) -> Event:
    if not event_visible(event=event, user=user):
        raise NotFound(
            "event_not_found", f"There is no event {event.pk}.", event=event.pk
        )  # the same answer as for no event: a private event's existence is not told
    return event


def event_by_link(*, key: str) -> Event:
    event = Event.objects.select_related("club").filter(link_key=key).first()
    if event is None:
        raise NotFound("event_not_found", "No event has this link: ask the organiser for it.")
    return event


def events_of_player(*, handle: str) -> QuerySet[Event]:
    return Event.objects.select_related("club").filter(entries__player__name=handle).distinct()


def events_of_user(*, user: AbstractBaseUser) -> QuerySet[Event]:
    return Event.objects.filter(Q(entries__user=user) | Q(entries__player__user=user)).distinct()


def entries_of(event: Event) -> list[Entry]:
    return list(event.entries.select_related("player", "user").order_by("player__name"))


def rounds_of(event: Event) -> list[Round]:
    seats = TableSeat.objects.select_related("entry__player").order_by("seat")
    tables = Table.objects.select_related("result", "record").prefetch_related(
        Prefetch("seats", queryset=seats)
    )
    return list(
        event.round_set.prefetch_related(
            Prefetch("tables", queryset=tables),
            Prefetch("byes", queryset=Bye.objects.select_related("entry__player")),
        ).order_by("number")
    )


def table_get(*, event: Event, round_number: int, table_number: int) -> Table:
    table = (
        Table.objects.select_related("round__event", "result")
        .filter(round__event=event, round__number=round_number, number=table_number)
        .first()
    )
    if table is None:
        raise NotFound(
            "table_not_found",
            f"Round {round_number} of {event.name} has no table {table_number}.",
            round=round_number,
            table=table_number,
        )
    return table


#: Below this many games at a table size, real play's seat figures are too noisy to
#: seat by: the bots' (the balance lab, simulated play of the same rules) are used instead.
SEAT_FIGURES_MIN_GAMES = 200


def seat_advantage(event: Event) -> dict[int, list[float]]:
    """What each seat is worth at each table size, for the event's game and house rules.

    Win share above the fair share, per seat (analytics' seat figures, read from its
    snapshots): real play where a table size has ``SEAT_FIGURES_MIN_GAMES`` games,
    else bot play of the same rules with as many, else every seat counts as fair.
    """
    figures = game_statistics(game=event.game, variant=options_key(event.options))
    advantage: dict[int, list[float]] = {}
    for side in ("simulated", "real"):  # real play last: it wins where it has enough games
        for n, size in ((figures.get(side) or {}).get("by_players") or {}).items():
            if int(size.get("records", 0)) >= SEAT_FIGURES_MIN_GAMES:
                advantage.update(advantage_from_seat_figures({n: size}))
    return advantage


def seat_rules(event: Event, round_number: int) -> SeatRules:
    engine = get_engine(event.game)
    return SeatRules(
        format=event.format,
        min_table=event.min_table or engine.min_players,
        max_table=event.max_table or engine.max_players,
        final_top_table=event.final_top_table,
        last_round=round_number == event.rounds,
        advantage=seat_advantage(event),
    )


def entry_names(event: Event) -> dict[int, str]:
    """Each entry's player name, for the seating's reasons."""
    return dict(Entry.objects.filter(event=event).values_list("pk", "player__name"))


def _confirmed_ranks(table: Table) -> list[int] | None:
    try:
        result = table.result
    except TableResult.DoesNotExist:
        return None
    if result.status != TableResult.Status.CONFIRMED:
        return None
    return list(result.result["ranks"])


@dataclass
class _Tally:
    points: dict[int, Fraction] = field(default_factory=lambda: defaultdict(Fraction))
    wins: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    games: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    byes: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    opponents: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    pending: int = 0


def _tally(event: Event, rounds: list[Round], up_to: int) -> _Tally:
    tally = _Tally()
    scheme = event.points_per_place or []
    smallest_allowed = seat_rules(event, 1).min_table
    for rnd in rounds:
        if rnd.number > up_to:
            break
        tables = list(rnd.tables.all())
        for table in tables:
            ids = [s.entry_id for s in table.seats.all()]
            ranks = _confirmed_ranks(table)
            if ranks is None:
                tally.pending += 1
                continue
            for entry_id, rank, pts in zip(ids, ranks, table_points(scheme, ranks), strict=True):
                tally.points[entry_id] += pts
                tally.games[entry_id] += 1
                tally.wins[entry_id] += rank == 1
                tally.opponents[entry_id].extend(o for o in ids if o != entry_id)
        size = min((len(t.seats.all()) for t in tables), default=smallest_allowed)
        for bye in rnd.byes.all():
            tally.points[bye.entry_id] += bye_points(scheme, size)
            tally.byes[bye.entry_id] += 1
    return tally


def seat_history(event: Event, before_round: int) -> SeatHistory:
    """What the seating of round ``before_round`` must know of the rounds before it."""
    rounds = [r for r in rounds_of(event) if r.number < before_round]
    tally = _tally(event, rounds, before_round - 1)
    return SeatHistory(
        rounds=[[[s.entry_id for s in t.seats.all()] for t in r.tables.all()] for r in rounds],
        points={k: float(v) for k, v in tally.points.items()},
        byes=dict(tally.byes),
        round_byes=[[b.entry_id for b in r.byes.all()] for r in rounds],
    )


@dataclass(frozen=True)
class StandingRow:
    place: int
    entry_id: int
    player: str
    points: Fraction
    strength: Fraction  # opponents' average points
    wins: int
    games: int
    byes: int
    dropped: bool
    explanation: str

    @property
    def points_words(self) -> str:
        return number_words(self.points)

    @property
    def strength_words(self) -> str:
        return number_words(self.strength)


@dataclass(frozen=True)
class Standings:
    after_round: int
    rows: list[StandingRow]
    pending_tables: int  # tables of these rounds whose result is not confirmed yet


def number_words(value: Fraction) -> str:
    """2 for 2, 2.5 for 5/2, 2.33 for 7/3: how points read on a page."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


def _names(rows: list[tuple[Any, ...]]) -> str:
    names = [r[3] for r in rows]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _explain(key: tuple[Any, ...], others: list[tuple[Any, ...]]) -> str:
    """Why this row stands where it does against the rows level with it on points.

    Each tie-break is named with the players it separated this row from, so a
    row reads on its own: "Level on 3 points with Bea and Cai; against Bea by
    opponents' average 1.75 (Bea 1.25); shares the place with Cai (...)".
    """
    points, strength, wins, name = -key[0], -key[1], -key[2], key[3]
    pts = f"{number_words(points)} point{'' if points == 1 else 's'}"
    level = [o for o in others if o[3] != name and o[0] == key[0]]
    if not level:
        return f"{pts}: no one else has as many."
    parts = [f"Level on {pts} with {_names(level)}"]
    by_strength = [o for o in level if o[1] != key[1]]
    if by_strength:
        versus = ", ".join(f"{o[3]} {number_words(-o[1])}" for o in by_strength)
        parts.append(
            f"against {_names(by_strength)} by opponents' average {number_words(strength)} "
            f"({versus})"
        )
    same_strength = [o for o in level if o[1] == key[1]]
    by_wins = [o for o in same_strength if o[2] != key[2]]
    if by_wins:
        versus = ", ".join(f"{o[3]} {-o[2]}" for o in by_wins)
        parts.append(f"against {_names(by_wins)} by wins: {wins} ({versus})")
    shared = [o for o in same_strength if o[2] == key[2]]
    if shared:
        parts.append(
            f"shares the place with {_names(shared)} (same opponents' average "
            f"{number_words(strength)} and {wins} win{'' if wins == 1 else 's'}; listed by name)"
        )
    return "; ".join(parts) + "."


def standings(*, event: Event, after_round: int | None = None) -> Standings:
    """The standings after round ``after_round`` (default: the last round seated)."""
    rounds = rounds_of(event)
    last = rounds[-1].number if rounds else 0
    up_to = last if after_round is None else max(0, min(after_round, last))
    tally = _tally(event, rounds, up_to)
    entries = entries_of(event)
    strength: dict[int, Fraction] = {}
    for entry in entries:
        met = tally.opponents.get(entry.pk, [])
        strength[entry.pk] = (
            sum((tally.points[o] for o in met), Fraction(0)) / len(met) if met else Fraction(0)
        )
    keyed = sorted(
        (
            (-tally.points[e.pk], -strength[e.pk], -tally.wins[e.pk], e.player.name, e)
            for e in entries
        ),
        key=lambda k: k[:4],
    )
    rows = []
    previous: tuple[Any, ...] | None = None
    place = 0
    for index, key in enumerate(keyed):
        if previous is None or key[:3] != previous[:3]:
            place = index + 1
        previous = key
        entry = key[4]
        rows.append(
            StandingRow(
                place=place,
                entry_id=entry.pk,
                player=entry.player.name,
                points=tally.points[entry.pk],
                strength=strength[entry.pk],
                wins=tally.wins[entry.pk],
                games=tally.games[entry.pk],
                byes=tally.byes[entry.pk],
                dropped=entry.dropped_after is not None and entry.dropped_after < max(up_to, 1),
                explanation=_explain(key, keyed),
            )
        )
    return Standings(up_to, rows, tally.pending)
