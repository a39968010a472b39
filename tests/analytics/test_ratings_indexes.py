"""A recompute from nothing writes its rows without the tables' secondary indexes (PostgreSQL).

``analytics.ratings._indexes_rebuilt_after`` drops the history's and applications'
indexes while a scope that is most of the table is written, and makes them again
in the same transaction. These tests hold it to that: the indexes are all there
after, a failure half way puts back the indexes and the old rows, and a table
another transaction is using keeps its indexes (the recompute does not wait).
"""

from __future__ import annotations

import random

import psycopg
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from analytics import ratings
from analytics.models import PlayerRating, RatingApplication, RatingHistory
from tests.analytics.ratings_helpers import store, table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's indexes"),
]

NAMES = ["ana", "ben", "cleo", "dev", "eli", "fay"]
TABLES = (RatingHistory._meta.db_table, RatingApplication._meta.db_table)


def stored_games(count: int, seed: int) -> None:
    rng = random.Random(seed)
    with ratings.ratings_deferred():
        for k in range(count):
            names = rng.sample(NAMES, rng.choice([2, 3, 4]))
            store(table(names, [rng.randint(0, 3) for _ in names], day=k + rng.random() / 2))


def indexes() -> dict[str, str]:
    """Every index of the two tables, by name: its definition."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = ANY(%s)", [list(TABLES)]
        )
        return dict(cursor.fetchall())


def history() -> list[tuple]:
    order = ("scope_id", "order_at", "record_id", "player_id")
    fields = ("scope_id", "record_id", "player_id", "order_at", "mu", "sigma", "games", "wins")
    return list(RatingHistory.objects.order_by(*order).values_list(*fields))


def dropped(queries: CaptureQueriesContext) -> list[str]:
    return [
        q["sql"]
        for q in queries.captured_queries
        if "DROP INDEX" in q["sql"] or "DROP CONSTRAINT" in q["sql"]
    ]


def test_a_rebuild_drops_the_indexes_and_leaves_every_one_as_it_was():
    stored_games(12, seed=1)
    before = indexes()
    assert "rating_history_in_order" in before
    assert "rating_history_player" in before
    with CaptureQueriesContext(connection) as queries:
        ratings.ratings_rebuild()
    # The path ran (the scope's rows are the whole tables), and put everything back.
    assert len(dropped(queries)) == len(before) - 2  # all but the two primary keys
    assert indexes() == before
    rows = history()
    assert len(rows) == sum(r.games for r in PlayerRating.objects.all())
    ratings.ratings_rebuild()  # again, over its own rows: the same rows and indexes
    assert history() == rows
    assert indexes() == before


def test_a_rebuild_that_fails_half_way_keeps_the_old_rows_and_the_indexes(monkeypatch):
    stored_games(10, seed=2)
    ratings.ratings_rebuild()
    before, rows = indexes(), history()
    stored_games(4, seed=3)  # deferred: counted by the next rebuild only

    write = ratings._batch_apply

    def fail(*args, **kwargs):  # the rows written, the indexes not yet made again
        write(*args, **kwargs)
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(ratings, "_batch_apply", fail)
    with pytest.raises(RuntimeError, match="the disk is full"):
        ratings.ratings_rebuild()
    assert indexes() == before
    assert history() == rows
    monkeypatch.undo()
    ratings.ratings_rebuild()
    assert len(history()) > len(rows)
    assert indexes() == before


def test_a_table_in_use_keeps_its_indexes_and_the_rebuild_does_not_wait():
    stored_games(12, seed=4)
    ratings.ratings_rebuild()
    before, rows = indexes(), history()
    settings = connection.settings_dict
    other = psycopg.connect(
        dbname=settings["NAME"],
        user=settings["USER"],
        host=settings["HOST"],
        port=settings["PORT"] or None,
        password=settings["PASSWORD"] or None,
    )
    try:
        # A reader in an open transaction holds a lock on the history table.
        other.execute(f"SELECT count(*) FROM {RatingHistory._meta.db_table}").fetchone()
        with CaptureQueriesContext(connection) as queries:
            ratings.ratings_rebuild()
    finally:
        other.close()
    # The history kept its indexes; the applications, which nobody used, went without.
    drops = " ".join(dropped(queries))
    assert "rating_history" not in drops
    assert "ratinghistory" not in drops
    assert "rating_application_unique" in drops
    assert history() == rows
    assert indexes() == before
