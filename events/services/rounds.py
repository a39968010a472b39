"""Writes: seating a round (through ``events.seat``), hand swaps, finishing rounds and events."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from clubs.services.access import audit
from core.errors import Conflict, Unprocessable
from events import seat
from events.models import Bye, Entry, Event, Round, Table, TableResult, TableSeat
from events.selectors import entry_names, seat_history, seat_rules
from events.services.access import require_organiser


def _event_locked(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


@transaction.atomic
def round_seat_next(
    *, event: Event, user: AbstractBaseUser | None, seed: int | None = None
) -> Round:
    """Seat the next round: the checked-in players who have arrived and not dropped.

    The tables come from :func:`events.seat.round_seat`; ``seed`` makes the draw
    reproducible (a random one is drawn and kept on the round when not given).
    Refused while the previous round is unfinished, after the last round, or
    when nobody is there to seat.
    """
    require_organiser(event=event, user=user)
    event = _event_locked(event)
    if event.status == Event.Status.FINISHED:
        raise Conflict("event_finished", f"{event.name} is finished.")
    last = event.round_set.order_by("-number").first()
    if last is not None and last.status != Round.Status.FINISHED:
        raise Conflict(
            "round_unfinished",
            f"Round {last.number} is not finished: confirm its results and finish it first.",
            round=last.number,
        )
    number = (last.number if last else 0) + 1
    if number > event.rounds:
        raise Conflict("no_more_rounds", f"{event.name} has {event.rounds} rounds, all seated.")
    playing = [e.pk for e in Entry.objects.filter(event=event) if e.plays_in(number)]
    rules = seat_rules(event, number)
    if len(playing) < rules.min_table:
        raise Unprocessable(
            "too_few_players",
            f"{len(playing)} players are checked in; a table needs at least {rules.min_table}.",
            players=len(playing),
            min_table=rules.min_table,
        )
    seed = secrets.randbelow(2**31) if seed is None else seed
    plan = seat.round_seat(
        rules=rules,
        round_number=number,
        entries=playing,
        history=seat_history(event, number),
        seed=seed,
        names=entry_names(event),
    )
    rnd = Round.objects.create(event=event, number=number, seed=seed, objective=plan.objective)
    for planned in plan.tables:
        table = Table.objects.create(round=rnd, number=planned.number, reason=planned.reason)
        TableSeat.objects.bulk_create(
            TableSeat(table=table, seat=i, entry_id=entry_id)
            for i, entry_id in enumerate(planned.seats)
        )
    Bye.objects.bulk_create(
        Bye(round=rnd, entry_id=entry_id, reason=reason)
        for entry_id, reason in zip(
            plan.byes, plan.bye_reasons or [""] * len(plan.byes), strict=True
        )
    )
    if event.status != Event.Status.RUNNING:
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])
    return rnd


@dataclass(frozen=True)
class SwapOutcome:
    round: Round
    before: dict[str, float]
    after: dict[str, float]

    @property
    def before_total(self) -> float:
        return seat.objective_total(self.before)

    @property
    def after_total(self) -> float:
        return seat.objective_total(self.after)

    @property
    def change(self) -> float:
        """After minus before: below 0 the swap made the seating better."""
        return self.after_total - self.before_total

    @property
    def change_abs(self) -> float:
        return abs(self.change)


def _planned(rnd: Round) -> list[seat.PlannedTable]:
    return [
        seat.PlannedTable(t.number, [s.entry_id for s in t.seats.order_by("seat")], t.reason)
        for t in rnd.tables.order_by("number")
    ]


@transaction.atomic
def seat_swap(
    *, event: Event, user: AbstractBaseUser | None, round_number: int, first: Entry, second: Entry
) -> SwapOutcome:
    """Swap two seated players of a round nobody has reported on yet; the objective before/after."""
    require_organiser(event=event, user=user)
    rnd = Round.objects.select_for_update().filter(event=event, number=round_number).first()
    if rnd is None:
        raise Unprocessable("round_not_found", f"Round {round_number} is not seated.")
    if rnd.status == Round.Status.FINISHED or TableResult.objects.filter(table__round=rnd).exists():
        raise Conflict(
            "round_played", f"Round {round_number} has results already: seats are fixed."
        )
    seats = {
        s.entry_id: s for s in TableSeat.objects.filter(table__round=rnd, entry__in=[first, second])
    }
    if first.pk == second.pk or len(seats) != 2:
        raise Unprocessable(
            "not_seated", "Choose two different players seated in this round.", round=round_number
        )
    history = seat_history(event, round_number)
    rules, names = seat_rules(event, round_number), entry_names(event)
    before = seat.seating_objective(tables=_planned(rnd), history=history, rules=rules, names=names)
    a, b = seats[first.pk], seats[second.pk]
    a.entry_id, b.entry_id = b.entry_id, a.entry_id
    TableSeat.objects.bulk_update([a, b], ["entry"])
    after = seat.seating_objective(tables=_planned(rnd), history=history, rules=rules, names=names)
    rnd.objective = after
    rnd.save(update_fields=["objective"])
    if event.club_id is not None:
        audit(
            actor=user,
            action="event.swap",
            club=event.club,
            target=rnd,
            before={"objective": before},
            after={"objective": after, "swapped": [first.player.name, second.player.name]},
        )
    return SwapOutcome(rnd, before, after)


@transaction.atomic
def round_finish(*, event: Event, user: AbstractBaseUser | None, round_number: int) -> Round:
    """Close a round once every table's result is confirmed."""
    require_organiser(event=event, user=user)
    rnd = Round.objects.select_for_update().filter(event=event, number=round_number).first()
    if rnd is None:
        raise Unprocessable("round_not_found", f"Round {round_number} is not seated.")
    if rnd.status == Round.Status.FINISHED:
        raise Conflict("round_finished", f"Round {round_number} is finished already.")
    waiting = [
        t.number
        for t in rnd.tables.all()
        if not TableResult.objects.filter(table=t, status=TableResult.Status.CONFIRMED).exists()
    ]
    if waiting:
        raise Conflict(
            "results_missing",
            "Tables " + ", ".join(map(str, waiting)) + " have no confirmed result yet.",
            tables=waiting,
        )
    rnd.status = Round.Status.FINISHED
    rnd.save(update_fields=["status"])
    return rnd


@transaction.atomic
def event_finish(*, event: Event, user: AbstractBaseUser | None) -> Event:
    """Close the event: every seated round must be finished (fewer rounds than planned is fine)."""
    require_organiser(event=event, user=user)
    event = _event_locked(event)
    if event.round_set.exclude(status=Round.Status.FINISHED).exists():
        raise Conflict("round_unfinished", "Finish the current round first.")
    if not event.round_set.exists():
        raise Conflict("no_rounds", f"{event.name} has not played a round.")
    event.status = Event.Status.FINISHED
    event.save(update_fields=["status"])
    if event.club_id is not None:
        audit(actor=user, action="event.finish", club=event.club, target=event)
    return event
