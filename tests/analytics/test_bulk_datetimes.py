"""Records stored by a bulk upload sort with the others on every database.

A bulk upload writes its records through a raw cursor (replays.bulk); its
datetimes must be stored exactly as the ORM stores them, or the ratings, which
compare ``order_at`` in SQL (a recompute from a late record's key on), see a row
in the wrong place: on SQLite an aware datetime written raw was the text
``...+00:00``, which sorts after the ORM's ``...`` of the same instant (the
ratings' keyset paging of old spun forever on it inside its transaction).
"""

from __future__ import annotations

import importlib
import json
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from django.apps import apps as django_apps
from django.db import connection

from analytics.models import RatingApplication, RatingScope
from analytics.ratings import scope_recompute
from replays.models import Record

pytestmark = pytest.mark.django_db(transaction=True)

SECONDS = 10  # the whole test takes well under a second; a regression loops forever


@contextmanager
def deadline(seconds: int = SECONDS) -> Iterator[None]:
    """Fail (instead of hanging the suite) if the block runs longer than ``seconds``."""

    def expired(signum, frame):
        raise TimeoutError(f"still running after {seconds} s: the paging does not advance")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def santa(played_at: str, scores: list[int]) -> dict:
    return {
        "format": "giftlog/1",
        "game": "secret_santa",
        "players": ["Ana", "Ben", "Cleo"],
        "options": {},
        "meta": {"played_at": played_at},
        "result": {"scores": scores},
    }


def raw_datetimes(record_id: int) -> tuple[str, str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT CAST(played_at AS TEXT), CAST(created_at AS TEXT) FROM replays_record "
            "WHERE id = %s",
            [record_id],
        )
        return cursor.fetchone()


def test_a_late_upload_after_a_bulk_upload_is_ingested(api):
    bulk = api.post(
        "/api/records/bulk/",
        json.dumps(santa("2025-12-02T20:30:00+01:00", [30, 12, 7])),
        content_type="application/x-ndjson",
    )
    assert bulk.status_code == 200, bulk.json()
    assert bulk.json()["stored"] == 1
    with deadline():
        late = api.post(
            "/api/records/", santa("2025-12-01T20:30:00+00:00", [26, 20, 3]), format="json"
        )
    assert late.status_code == 201, late.json()
    scope = RatingScope.objects.get(key="game:secret_santa")
    applied = RatingApplication.objects.filter(scope=scope).order_by("order_at")
    assert [a.record_id for a in applied] == [late.json()["id"], bulk.json()["items"][0]["id"]]


def test_bulk_datetimes_are_stored_as_the_orm_stores_them(api):
    response = api.post(
        "/api/records/bulk/",
        json.dumps(santa("2025-12-02T20:30:00.250000+01:00", [30, 12, 7])),
        content_type="application/x-ndjson",
    )
    bulk = Record.objects.get(pk=response.json()["items"][0]["id"])
    assert bulk.played_at == datetime(2025, 12, 2, 19, 30, 0, 250000, tzinfo=UTC)
    twin = Record.objects.get(pk=bulk.pk)
    twin.pk, twin.digest = None, "x" * len(bulk.digest)
    twin.save()  # the same values, written by the ORM
    Record.objects.filter(pk=twin.pk).update(created_at=bulk.created_at)
    assert raw_datetimes(bulk.pk) == raw_datetimes(twin.pk)


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the text comparison is SQLite's")
def test_the_read_ends_on_a_key_stored_in_another_format(api):
    """A row whose stored text is not the ORM's (written raw by an older version).

    The ratings once paged through a scope by keyset and spun on such a row; they
    now read a scope in one ordered pass, which ends whatever the stored text.
    """
    api.post("/api/records/", santa("2025-12-01T20:30:00+00:00", [26, 20, 3]), format="json")
    last = api.post("/api/records/", santa("2025-12-02T20:30:00+00:00", [30, 12, 7]), format="json")
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE replays_record SET played_at = played_at || '+00:00' WHERE id = %s",
            [last.json()["id"]],
        )
    scope = RatingScope.objects.get(key="game:secret_santa")
    with deadline():
        assert scope_recompute(scope=scope) == 2


@pytest.mark.skipif(connection.vendor != "sqlite", reason="PostgreSQL stores timestamptz")
def test_the_migration_rewrites_datetimes_an_older_bulk_upload_stored(api):
    migration = importlib.import_module(
        "replays.migrations.0009_bulk_datetimes_as_the_orm_writes_them"
    )
    stored = api.post(
        "/api/records/", santa("2025-12-02T20:30:00+00:00", [30, 12, 7]), format="json"
    )
    pk = stored.json()["id"]
    want = raw_datetimes(pk)
    with connection.cursor() as cursor:  # as the raw cursor once wrote them
        cursor.execute(
            "UPDATE replays_record SET played_at = '2025-12-02 21:30:00+01:00', "
            "created_at = created_at || '+00:00' WHERE id = %s",
            [pk],
        )
    assert raw_datetimes(pk) != want
    migration.datetimes_normalise(django_apps, SimpleNamespace(connection=connection))
    assert raw_datetimes(pk) == want
    scope = RatingScope.objects.get(key="game:secret_santa")
    with deadline():
        assert scope_recompute(scope=scope) == 1
