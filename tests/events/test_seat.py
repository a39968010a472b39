"""The seating adapter: entry ids in, the optimiser's plan out, in names for the reasons."""

from __future__ import annotations

import pytest

from events.seat import (
    PlannedTable,
    SeatHistory,
    SeatRules,
    round_seat,
    seating_objective,
    table_sizes,
)


@pytest.mark.parametrize(
    ("n", "low", "high", "sizes", "byes"),
    [
        (13, 3, 5, [5, 4, 4], 0),  # the fewest tables, as equal as possible
        (12, 3, 5, [4, 4, 4], 0),
        (8, 3, 5, [4, 4], 0),
        (6, 3, 5, [3, 3], 0),
        (5, 3, 4, [4], 1),  # no split of 5 into 3s and 4s: one sits out
        (2, 3, 5, [], 2),
        (16, 2, 8, [8, 8], 0),
    ],
)
def test_table_sizes(n: int, low: int, high: int, sizes: list[int], byes: int) -> None:
    assert table_sizes(n, low, high) == (sizes, byes)


def test_round_seat_places_everyone_once_and_is_reproducible() -> None:
    rules = SeatRules(format="swiss", min_table=3, max_table=5)
    entries = list(range(100, 113))
    plan = round_seat(rules=rules, round_number=1, entries=entries, history=SeatHistory(), seed=4)
    seated = [e for t in plan.tables for e in t.seats]
    assert sorted(seated) == entries
    assert plan.byes == []
    assert [len(t.seats) for t in plan.tables] == [5, 4, 4]
    assert [t.number for t in plan.tables] == [1, 2, 3]
    again = round_seat(rules=rules, round_number=1, entries=entries, history=SeatHistory(), seed=4)
    assert again == plan


def test_bye_goes_to_someone_who_has_had_none_and_says_why() -> None:
    rules = SeatRules(format="random", min_table=3, max_table=4)
    entries = [1, 2, 3, 4, 5]
    history = SeatHistory(
        rounds=[[[1, 2, 3, 4]], [[2, 3, 4, 5]]], round_byes=[[5], [1]], points={}
    )
    names = {1: "ana", 2: "ben", 3: "cyd", 4: "dee", 5: "eve"}
    plan = round_seat(
        rules=rules, round_number=3, entries=entries, history=history, seed=1, names=names
    )
    assert len(plan.byes) == 1
    assert plan.byes[0] in (2, 3, 4), "ana and eve have sat out already"
    assert names[plan.byes[0]] in plan.bye_reasons[0]


def test_a_second_round_avoids_the_first_rounds_tables_and_says_so_in_names() -> None:
    """Round robin at 8 players in tables of 4: round 2 can part every pair of round 1
    but two per table, and the reasons speak of players by name."""
    rules = SeatRules(format="round_robin", min_table=4, max_table=4)
    names = dict(enumerate(["ana", "ben", "cyd", "dee", "eve", "fay", "gus", "hal"]))
    history = SeatHistory(rounds=[[[0, 1, 2, 3], [4, 5, 6, 7]]], round_byes=[[]])
    plan = round_seat(
        rules=rules, round_number=2, entries=list(names), history=history, seed=3, names=names
    )
    for table in plan.tables:
        first_table = sum(1 for e in table.seats if e < 4)
        assert first_table == 2, "two of each first-round table: the fewest repeats there are"
        assert any(names[e] in table.reason for e in table.seats)
    assert plan.objective["repeat"] > 0


def test_the_objective_of_a_hand_swap_is_the_optimisers_own() -> None:
    rules = SeatRules(format="round_robin", min_table=4, max_table=4)
    history = SeatHistory(rounds=[[[0, 1, 2, 3], [4, 5, 6, 7]]], round_byes=[[]])
    plan = round_seat(rules=rules, round_number=2, entries=list(range(8)), history=history, seed=3)
    same = seating_objective(tables=plan.tables, history=history, rules=rules)
    assert same == plan.objective
    # Back to the first round's tables: every pair meets again.
    worse = [PlannedTable(1, [0, 1, 2, 3], ""), PlannedTable(2, [4, 5, 6, 7], "")]
    assert seating_objective(tables=worse, history=history, rules=rules)["repeat"] > same["repeat"]
