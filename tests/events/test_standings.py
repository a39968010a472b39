"""Standings on hand-built events: points by place, then opponents' strength, then wins."""

from __future__ import annotations

from fractions import Fraction

import pytest

from events.models import Bye, Entry, Event, Round, Table, TableResult, TableSeat
from events.scoring import bye_points, table_points
from events.selectors import standings
from replays.models import Player
from tests.clubs.conftest import make_user
from tests.events.conftest import STARTS


def _event(points_per_place: list[int] | None = None) -> tuple[Event, dict[str, Entry]]:
    event = Event.objects.create(
        name="Hand built",
        slug="hand",
        game="gift_gift_gone",
        starts_at=STARTS,
        points_per_place=points_per_place or [],
        created_by=make_user("org"),
    )
    entries = {
        name: Entry.objects.create(
            event=event, player=Player.objects.create(name=name), checked_in=True
        )
        for name in "ABCDEF"
    }
    return event, entries


def _round(event, entries, number, tables, byes=()) -> None:
    rnd = Round.objects.create(event=event, number=number, seed=0, status="finished")
    for t, (names, ranks) in enumerate(tables, start=1):
        table = Table.objects.create(round=rnd, number=t)
        for seat, name in enumerate(names):
            TableSeat.objects.create(table=table, seat=seat, entry=entries[name])
        TableResult.objects.create(
            table=table, document={}, result={"ranks": ranks}, status="confirmed"
        )
    for name in byes:
        Bye.objects.create(round=rnd, entry=entries[name])


def _rows(event, after_round=None):
    return {r.player: r for r in standings(event=event, after_round=after_round).rows}


def test_table_points_default_scheme_and_shared_places() -> None:
    assert table_points([], [1, 2, 3, 4]) == [3, 2, 1, 0]
    # two tied for first share 3 and 2
    assert table_points([], [1, 1, 3, 4]) == [Fraction(5, 2), Fraction(5, 2), 1, 0]
    assert table_points([4, 2, 1], [1, 2, 3, 4]) == [4, 2, 1, 0]
    assert bye_points([], 3) == 1  # (2 + 1 + 0) / 3


@pytest.mark.django_db
def test_points_then_strength_of_schedule_round_by_round() -> None:
    event, e = _event()
    _round(event, e, 1, [("ABC", [1, 2, 3]), ("DEF", [1, 2, 3])])
    _round(event, e, 2, [("AEC", [1, 2, 3]), ("DBF", [2, 1, 3])])

    after_one = standings(event=event, after_round=1).rows
    # A and D: 2 points, opponents' average 0.5, one win each: a shared first place
    assert [(r.place, r.player) for r in after_one] == [
        (1, "A"),
        (1, "D"),
        (3, "B"),
        (3, "E"),
        (5, "C"),
        (5, "F"),
    ]
    assert "shares the place with D" in after_one[0].explanation

    rows = _rows(event)
    assert rows["A"].points == 4
    assert rows["A"].place == 1
    assert "no one else has as many" in rows["A"].explanation
    # B and D both have 3; B met A (4), C (0), D (3), F (0): 7/4; D met E, F, B, F: 5/4
    assert (rows["B"].points, rows["D"].points) == (3, 3)
    assert rows["B"].strength == Fraction(7, 4)
    assert rows["D"].strength == Fraction(5, 4)
    assert (rows["B"].place, rows["D"].place) == (2, 3)
    assert "against D by opponents' average 1.75 (D 1.25)" in rows["B"].explanation
    # C and F have 0 points; C met stronger players
    assert (rows["C"].place, rows["F"].place) == (5, 6)


@pytest.mark.django_db
def test_wins_break_a_tie_on_points_and_strength() -> None:
    event, e = _event(points_per_place=[1, 1, 0])  # first and second score alike
    _round(event, e, 1, [("ABC", [1, 2, 3]), ("DEF", [1, 2, 3])])
    rows = _rows(event)
    assert rows["A"].points == rows["B"].points == 1
    assert rows["A"].strength == rows["B"].strength == Fraction(1, 2)
    assert rows["A"].place == 1
    assert rows["B"].place == 3
    assert "against B and E by wins: 1 (B 0, E 0)" in rows["A"].explanation
    assert "shares the place with D" in rows["A"].explanation


@pytest.mark.django_db
def test_bye_scores_the_average_of_the_smallest_table() -> None:
    event, e = _event()
    _round(event, e, 1, [("ABCD", [1, 2, 3, 4])], byes="EF")
    rows = _rows(event)
    assert rows["E"].points == Fraction(3, 2)
    assert rows["E"].byes == 1
    assert rows["E"].games == 0
    assert rows["E"].strength == 0


@pytest.mark.django_db
def test_unconfirmed_tables_do_not_count() -> None:
    event, e = _event()
    _round(event, e, 1, [("ABC", [1, 2, 3])])
    TableResult.objects.update(status="pending")
    result = standings(event=event)
    assert result.pending_tables == 1
    assert all(r.points == 0 for r in result.rows)
