"""The one door between the events app and the seating optimiser: who sits where in a round.

Everything the events app asks of seating goes through this module's functions,
:func:`round_seat` (the tables of a new round) and :func:`seating_objective` (what a
seating costs, before and after a hand swap). The seating itself is pure and lives in
``events.seating`` and ``events.tables`` (docs/events.md, "Seating"), which know players
by name; this module translates the app's entry ids to names and back, and a round's
history and points to the optimiser's terms. It reads no database: the selectors pass
in what it needs (``events.selectors.seat_rules`` and ``seat_history``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from events import seating, tables

#: The objective's parts, as stored on a round and shown to organisers (lower is better).
OBJECTIVE_PARTS = seating.PARTS


@dataclass(frozen=True)
class SeatHistory:
    """What happened before the round being seated.

    ``rounds`` lists each earlier round's tables, each table its entry ids in seat
    order; ``round_byes`` who sat out in each of those rounds; ``points`` are the points
    so far by entry id; ``byes`` how many byes each entry has had (kept for a history
    built without ``round_byes``).
    """

    rounds: list[list[list[int]]] = field(default_factory=list)
    points: dict[int, float] = field(default_factory=dict)
    byes: dict[int, int] = field(default_factory=dict)
    round_byes: list[list[int]] = field(default_factory=list)


@dataclass(frozen=True)
class PlannedTable:
    number: int  # from 1
    seats: list[int]  # entry ids, seat 0 first
    reason: str  # why these players sit together, for the organiser


@dataclass(frozen=True)
class SeatPlan:
    tables: list[PlannedTable]
    byes: list[int]  # entry ids not seated this round
    objective: dict[str, float]  # the seating's cost by part (OBJECTIVE_PARTS)
    bye_reasons: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SeatRules:
    """What the event asks of a round: its format, the table sizes allowed, and what a
    seat is worth at each table size (``{n: [win share above fair, seat 1 first]}``,
    from the game's measured figures; empty: every seat counts as fair)."""

    format: str  # events.models.Event.Format value
    min_table: int
    max_table: int
    final_top_table: bool = False
    last_round: bool = False
    advantage: Mapping[int, Sequence[float]] = field(default_factory=dict)


def table_sizes(n: int, min_size: int, max_size: int) -> tuple[list[int], int]:
    """Table sizes for ``n`` players and the number of byes (``events.tables.table_sizes``):
    every table within the game's range, the fewest tables, sizes as equal as possible,
    and the fewest byes when no split seats everyone."""
    split = tables.table_sizes(n, min_size, max_size)
    return list(split.sizes), split.byes


class _Names:
    """Entry ids as the names the optimiser and its reasons speak of (unique per event)."""

    def __init__(self, ids: Sequence[int], names: Mapping[int, str] | None) -> None:
        given = dict(names or {})
        counts: dict[str, int] = {}
        for entry in ids:
            label = given.get(entry) or f"entry {entry}"
            counts[label] = counts.get(label, 0) + 1
        self.name: dict[int, str] = {}
        for entry in ids:
            label = given.get(entry) or f"entry {entry}"
            self.name[entry] = label if counts[label] == 1 else f"{label} (#{entry})"
        self.entry = {label: entry for entry, label in self.name.items()}


def _all_ids(entries: Sequence[int], history: SeatHistory) -> list[int]:
    ids = set(entries) | set(history.points) | set(history.byes)
    for rnd in history.rounds:
        for table in rnd:
            ids.update(table)
    for byes in history.round_byes:
        ids.update(byes)
    return sorted(ids)


def _history_rounds(history: SeatHistory, names: _Names) -> list[seating.Round]:
    rounds = [
        seating.Round(
            tables=tuple(tuple(names.name[e] for e in table) for table in rnd),
            byes=tuple(
                names.name[e]
                for e in (history.round_byes[i] if i < len(history.round_byes) else [])
            ),
        )
        for i, rnd in enumerate(history.rounds)
    ]
    if not history.round_byes:  # only counts known: one empty round per bye had
        for entry, count in history.byes.items():
            rounds += [seating.Round(tables=(), byes=(names.name[entry],))] * count
    return rounds


def _format(rules: SeatRules) -> seating.Format:
    if rules.final_top_table and rules.last_round:
        return seating.Format.FINAL
    return seating.Format(rules.format)


def round_seat(
    *,
    rules: SeatRules,
    round_number: int,
    entries: list[int],
    history: SeatHistory,
    seed: int,
    names: Mapping[int, str] | None = None,
) -> SeatPlan:
    """The tables of round ``round_number`` for ``entries`` (entry ids), reproducible by ``seed``.

    ``events.seating.seat_round`` searches the seating with the lowest cost (repeat
    meetings, seat balance, same neighbour, score spread in swiss rounds and the final,
    same seat) within its step budget; every table comes with its reasons, in the words
    of ``names`` (a player's name by entry id).
    """
    label = _Names(_all_ids(entries, history), names)
    points = {label.name[e]: p for e, p in history.points.items()}
    plan = seating.seat_round(
        [label.name[e] for e in entries],
        _history_rounds(history, label),
        low=rules.min_table,
        high=rules.max_table,
        advantage=rules.advantage,
        format=_format(rules),
        points=points,
        seed=seed,
    )
    planned = [
        # Shown under the table's own heading: without the optimiser's "Table n: ".
        PlannedTable(
            number,
            [label.entry[p] for p in table],
            plan.reasons[number - 1].removeprefix(f"Table {number}: "),
        )
        for number, table in enumerate(plan.round.tables, start=1)
    ]
    return SeatPlan(
        tables=planned,
        byes=[label.entry[p] for p in plan.round.byes],
        objective=_parts(plan.cost),
        bye_reasons=list(plan.bye_reasons),
    )


def _parts(cost: seating.Cost) -> dict[str, float]:
    return {part: round(float(cost.parts.get(part, 0.0)), 4) for part in OBJECTIVE_PARTS}


def seating_objective(
    *,
    tables: list[PlannedTable],
    history: SeatHistory,
    rules: SeatRules | None = None,
    names: Mapping[int, str] | None = None,
) -> dict[str, float]:
    """What a seating costs, part by part (lower is better): the optimiser's own objective,
    so a hand swap shows what it gains or loses in the terms the seating was chosen by."""
    seated = [e for table in tables for e in table.seats]
    label = _Names(_all_ids(seated, history), names)
    proposed = seating.Round(tables=tuple(tuple(label.name[e] for e in t.seats) for t in tables))
    fmt = _format(rules) if rules is not None else seating.Format.SWISS
    uses_points = fmt in (seating.Format.SWISS, seating.Format.FINAL)
    weights = seating.Weights()
    if not uses_points:
        weights = seating.Weights(score_spread=0.0)
    cost = seating.objective(
        proposed,
        _history_rounds(history, label),
        advantage=rules.advantage if rules is not None else {},
        points={label.name[e]: p for e, p in history.points.items()} if uses_points else None,
        weights=weights,
    )
    return _parts(cost)


def objective_total(objective: dict[str, Any]) -> float:
    return float(sum(float(v) for v in objective.values()))
