"""Reads compiled once (``core.queries.values_rows``) give the rows their queryset gives,
for every value they are called with afterwards, on the database the suite runs on."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.models import OuterRef, Subquery
from django.test.utils import CaptureQueriesContext

from core import queries
from replays.models import Player, Record, Seat
from tests.analytics.ratings_helpers import store, table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def compiled_fresh():
    queries._COMPILED.clear()
    yield
    queries._COMPILED.clear()


def _stored(games: int) -> list[int]:
    names = ["ana", "ben", "cleo", "dev"]
    return [
        store(table(names[: 2 + k % 3], [k % 5, 3, 1, 2][: 2 + k % 3], day=k)).pk
        for k in range(games)
    ]


def test_a_keyed_shape_gives_its_querysets_rows_with_their_converters():
    _stored(6)
    for game in ("gift_gift_gone", "gift_swap", "gift_gift_gone"):

        def build(game=game):
            fields = ("id", "meta", "result", "played_at", "created_at", "simulated")
            return (
                Record.objects.filter(game=game)
                .order_by("-created_at", "-id")
                .values_list(*fields)[:4]
            )

        rows = queries.values_rows(("test-records", game), build)
        assert rows == list(build())
        assert all(isinstance(row[3], dt.datetime) and row[3].tzinfo for row in rows)
        assert all(isinstance(row[1], dict) and isinstance(row[5], bool) for row in rows)
    assert len(queries._COMPILED) == 2  # one per key, the second call reused


def test_one_shape_serves_new_parameters_and_is_compiled_once():
    ids = _stored(8)

    def seats(chosen):
        name = Player.objects.filter(pk=OuterRef("player_id")).values("name")
        return lambda: (
            Seat.objects.filter(record_id__in=chosen)
            .order_by("record_id", "seat")
            .values_list("record_id", "seat", Subquery(name))
        )

    first, second = ids[:3], ids[4:7]
    assert queries.values_rows(("test-seats", 3), seats(first), first) == list(seats(first)())
    with CaptureQueriesContext(connection) as ran:
        again = queries.values_rows(("test-seats", 3), seats(second), second)
    assert again == list(seats(second)())
    assert {row[0] for row in again} == set(second)
    assert len(ran.captured_queries) == 1
    assert len(queries._COMPILED) == 1


def test_parameters_not_in_the_compiled_order_are_refused_and_the_rows_still_right():
    ids = _stored(4)

    def build():
        return Record.objects.filter(pk__in=ids[:2], num_events__gte=0).values_list("id")

    # The caller says the parameters are only the ids: the query has one more.
    rows = queries.values_rows(("test-wrong", 2), build, ids[:2])
    assert sorted(rows) == sorted(build())
    assert not queries._COMPILED


def test_past_the_limit_shapes_are_compiled_at_every_call(monkeypatch):
    _stored(2)
    monkeypatch.setattr(queries, "COMPILED_LIMIT", 1)
    for game in ("gift_gift_gone", "gift_swap", "secret_santa"):
        build = lambda game=game: Record.objects.filter(game=game).values_list("id")  # noqa: E731
        assert sorted(queries.values_rows(("test-limit", game), build)) == sorted(build())
    assert len(queries._COMPILED) == 1
