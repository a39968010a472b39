"""The one door between events and the seating optimiser: who sits where in a round.

Everything the events app asks of seating goes through this module's functions,
:func:`round_seat` (the tables of a new round) and :func:`seating_objective`
(what a seating costs, before and after a hand swap), so the optimiser can be
changed here without touching services, pages or the API.

The bodies below are the simple placeholder the optimiser replaces: players in a
seeded shuffled order, split into the fewest tables the allowed sizes permit,
sizes as equal as possible, byes only when no split fits; every objective part
reads 0. What stays when the optimiser arrives is the shape: :class:`SeatHistory`
in, :class:`SeatPlan` out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

OBJECTIVE_PARTS = ("repeat_meetings", "seat_fairness", "same_neighbour", "score_groups")


@dataclass(frozen=True)
class SeatHistory:
    """What happened before the round being seated.

    ``rounds`` lists each earlier round's tables, each table its entry ids in
    seat order; ``points`` are the points so far by entry id; ``byes`` how many
    byes each entry has had.
    """

    rounds: list[list[list[int]]] = field(default_factory=list)
    points: dict[int, float] = field(default_factory=dict)
    byes: dict[int, int] = field(default_factory=dict)


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


@dataclass(frozen=True)
class SeatRules:
    """What the event asks of a round: its format and the table sizes allowed."""

    format: str  # events.models.Event.Format value
    min_table: int
    max_table: int
    final_top_table: bool = False
    last_round: bool = False


def table_sizes(n: int, min_size: int, max_size: int) -> tuple[list[int], int]:
    """Table sizes for ``n`` players and the number of byes: fewest byes, then fewest tables.

    Sizes are as equal as possible, larger tables first: 13 players at tables of
    3 to 5 make 5, 4, 4 (no bye). When no split fits (5 players at tables of 3
    or 4), the fewest players sit out: 1 bye and a table of 4.
    """
    for byes in range(n + 1):
        seated = n - byes
        if seated == 0:
            return [], n
        tables = -(-seated // max_size)  # the fewest tables that hold everyone
        if tables * min_size <= seated:
            base, extra = divmod(seated, tables)
            return [base + 1] * extra + [base] * (tables - extra), byes
    return [], n


def round_seat(
    *,
    rules: SeatRules,
    round_number: int,
    entries: list[int],
    history: SeatHistory,
    seed: int,
) -> SeatPlan:
    """The tables of round ``round_number`` for ``entries`` (entry ids), reproducible by ``seed``.

    Placeholder: a seeded shuffle, split by :func:`table_sizes`; the byes go to
    those with the fewest byes so far (the last of the shuffled order among them).
    """
    rng = random.Random(seed)
    order = sorted(entries)
    rng.shuffle(order)
    sizes, bye_count = table_sizes(len(order), rules.min_table, rules.max_table)
    byes: list[int] = []
    if bye_count:
        by_fewest = sorted(range(len(order)), key=lambda i: (history.byes.get(order[i], 0), -i))
        byes = [order[i] for i in by_fewest[:bye_count]]
        order = [e for e in order if e not in byes]
    tables = []
    start = 0
    for number, size in enumerate(sizes, start=1):
        tables.append(
            PlannedTable(number, order[start : start + size], "Drawn at random (seeded).")
        )
        start += size
    return SeatPlan(tables, byes, seating_objective(tables=tables, history=history))


def seating_objective(*, tables: list[PlannedTable], history: SeatHistory) -> dict[str, float]:
    """What a seating costs, part by part (lower is better). Placeholder: all 0."""
    return dict.fromkeys(OBJECTIVE_PARTS, 0.0)


def objective_total(objective: dict[str, Any]) -> float:
    return float(sum(float(v) for v in objective.values()))
