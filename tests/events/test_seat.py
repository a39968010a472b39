"""The seating adapter's placeholder: table sizes, byes, and a reproducible draw."""

from __future__ import annotations

import pytest

from events.seat import SeatHistory, SeatRules, round_seat, table_sizes


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
    other = round_seat(rules=rules, round_number=1, entries=entries, history=SeatHistory(), seed=5)
    assert other.tables != plan.tables


def test_bye_goes_to_someone_who_has_had_fewer() -> None:
    rules = SeatRules(format="random", min_table=3, max_table=4)
    entries = [1, 2, 3, 4, 5]
    history = SeatHistory(byes={1: 1, 2: 1, 3: 1, 4: 1})
    plan = round_seat(rules=rules, round_number=2, entries=entries, history=history, seed=1)
    assert plan.byes == [5]
    assert sorted(plan.tables[0].seats) == [1, 2, 3, 4]
