"""A record whose ingest fails is quarantined, not a wall.

Before, the ingest sweep took the oldest uningested record first and failed on
it every run, so the records behind it were never ingested, and
``analytics_rebuild`` deleted the derived rows and then stopped (exit 1) at it.
Here a failure of one record (a monkeypatched one, and a value its column
cannot hold) is kept aside with its error and retried with a growing wait; the
sweep and the rebuild go on past it and report it; a retry after the fix
ingests it.
"""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import OperationalError, connection
from django.utils import timezone

from analytics import statistics
from analytics.models import IngestQuarantine, PlayerResult, RatingApplication
from analytics.services import (
    analytics_rebuild,
    ingest_retry_delay,
    record_ingest_or_quarantine,
    records_uningested_ingest,
)
from replays.models import Record
from tests.analytics.dump import analytics_dump
from tests.analytics.ratings_helpers import store, table

pytestmark = pytest.mark.django_db(transaction=True)

BASE = 300  # INGEST_RETRY_SECONDS' default


@pytest.fixture
def failing(monkeypatch):
    """Records (ids, or scores) whose statistics step raises, as a bug in one game's facts would."""
    ids: set[int | tuple[int, ...]] = set()
    real = statistics.record_facts_build

    def record_facts_build(*, record, **kwargs):
        if record.pk in ids or tuple(record.result["scores"]) in ids:
            raise RuntimeError(f"boom on record {record.pk}")
        return real(record=record, **kwargs)

    monkeypatch.setattr(statistics, "record_facts_build", record_facts_build)
    return ids


def three_records(failing: set) -> tuple[Record, Record, Record]:
    """A, B, C stored in that order; A's ingest fails (its own message quarantines it)."""
    failing.add((30, 12, 7))
    a = store(table(["Ana", "Ben", "Cleo"], [30, 12, 7], day=1))
    failing.discard((30, 12, 7))
    failing.add(a.pk)
    b = store(table(["Ana", "Ben", "Cleo"], [10, 28, 7], day=2))
    c = store(table(["Ana", "Ben", "Dev"], [10, 8, 27], day=3))
    return a, b, c


def age(*records: Record) -> None:
    Record.objects.filter(pk__in=[r.pk for r in records]).update(
        created_at=timezone.now() - timedelta(hours=2)
    )


def due(record: Record) -> None:
    IngestQuarantine.objects.filter(pk=record.pk).update(
        next_retry_at=timezone.now() - timedelta(seconds=1)
    )


def test_the_sweep_goes_past_a_failing_record_and_retries_it_with_backoff(failing):
    a, b, c = three_records(failing)
    quarantined = IngestQuarantine.objects.get()
    assert quarantined.record_id == a.pk
    assert quarantined.error == f"RuntimeError: boom on record {a.pk}"
    assert quarantined.attempts == 1
    assert not PlayerResult.objects.filter(record=a).exists(), "rolled back whole"
    # B's and C's messages were lost: no derived rows, and older than the sweep's wait.
    PlayerResult.objects.filter(record__in=[b, c]).delete()
    age(a, b, c)
    assert records_uningested_ingest(older_than=timedelta(hours=1)) == 2
    assert PlayerResult.objects.filter(record__in=[b, c]).count() == 6
    assert IngestQuarantine.objects.get().attempts == 1, "not due: not tried again"

    due(a)
    before = timezone.now()
    assert records_uningested_ingest(older_than=timedelta(hours=1)) == 0
    again = IngestQuarantine.objects.get()
    assert again.attempts == 2
    assert again.next_retry_at >= before + timedelta(seconds=2 * BASE), "the wait doubles"
    assert again.first_failed_at == quarantined.first_failed_at

    failing.clear()  # the cause is fixed
    due(a)
    assert records_uningested_ingest(older_than=timedelta(hours=1)) == 1
    assert not IngestQuarantine.objects.exists()
    assert PlayerResult.objects.filter(record=a).count() == 3
    applied = RatingApplication.objects.filter(scope__key="game:gift_gift_gone")
    assert sorted(applied.values_list("record_id", flat=True)) == [a.pk, b.pk, c.pk]


def test_the_wait_doubles_up_to_a_bound(settings):
    settings.INGEST_RETRY_SECONDS = 60
    settings.INGEST_RETRY_MAX_SECONDS = 3600
    assert [ingest_retry_delay(n).total_seconds() for n in (1, 2, 3, 6, 7, 500)] == [
        60,
        120,
        240,
        1920,
        3600,
        3600,
    ]


def test_rebuild_completes_reports_the_record_and_a_retry_ingests_it(failing):
    a, b, c = three_records(failing)
    failing.clear()
    call_command("analytics_quarantine", "--retry", stdout=StringIO())
    reference = analytics_dump()  # every record ingested

    failing.add(a.pk)
    out = StringIO()
    call_command("analytics_rebuild", stdout=out)  # exits normally: no CommandError
    text = out.getvalue()
    assert "Rebuilt analytics from 3 records" in text
    assert "2 ingested, 1 quarantined." in text
    assert f"record {a.pk} (gift_gift_gone): RuntimeError: boom on record {a.pk}" in text
    assert PlayerResult.objects.filter(record__in=[b, c]).count() == 6
    applied = RatingApplication.objects.filter(scope__key="game:gift_gift_gone")
    assert sorted(applied.values_list("record_id", flat=True)) == [b.pk, c.pk]

    listing = StringIO()
    call_command("analytics_quarantine", stdout=listing)
    assert "1 quarantined record:" in listing.getvalue()
    assert f"record {a.pk} (gift_gift_gone), 1 attempt" in listing.getvalue()
    assert f"RuntimeError: boom on record {a.pk}" in listing.getvalue()

    still = StringIO()
    call_command("analytics_quarantine", "--retry", stdout=still)
    assert "Retried: 0 ingested, 1 still failing." in still.getvalue()
    assert IngestQuarantine.objects.get().attempts == 2

    failing.clear()
    fixed = StringIO()
    call_command("analytics_quarantine", "--retry", stdout=fixed)
    assert "Retried: 1 ingested, 0 still failing." in fixed.getvalue()
    assert "No quarantined records." in fixed.getvalue()
    assert analytics_dump() == reference, "the same figures as if it had never failed"


@pytest.mark.parametrize(
    "score",
    [
        2**63,  # past every backend's integers
        pytest.param(
            3_000_000_000,  # the upload that once stopped the sweep: past the 32-bit column
            marks=pytest.mark.skipif(
                connection.vendor != "postgresql", reason="SQLite's integers hold 64 bits"
            ),
        ),
    ],
)
def test_a_value_its_column_cannot_hold_is_quarantined_and_the_rebuild_completes(score):
    """A record stored before scores were bounded: the ingest overflows the score column."""
    good = store(table(["Ana", "Ben", "Cleo"], [30, 12, 7], day=1))
    poison = store(table(["Ana", "Ben", "Cleo"], [26, 12, 7], day=2))
    result = {**poison.result, "scores": [score, 12, 7]}
    Record.objects.filter(pk=poison.pk).update(result=result)
    report = analytics_rebuild()
    assert (report.records, report.ingested) == (2, 1)
    assert [q.record_id for q in report.quarantined] == [poison.pk]
    assert report.quarantined[0].error
    assert PlayerResult.objects.filter(record=good).count() == 3
    assert not PlayerResult.objects.filter(record=poison).exists()


def test_a_database_error_is_retried_by_the_task_not_quarantined(monkeypatch):
    record = store(table(["Ana", "Ben", "Cleo"], [30, 12, 7], day=1))

    def locked(*, record, **kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(statistics, "record_facts_build", locked)
    with pytest.raises(OperationalError):
        record_ingest_or_quarantine(record_id=record.pk, raise_transient=True)
    assert not IngestQuarantine.objects.exists()
    # The sweep and the rebuild take no exception: it is quarantined and retried later.
    assert record_ingest_or_quarantine(record_id=record.pk) is None
    assert IngestQuarantine.objects.get().error == "OperationalError: database is locked"


def test_operators_see_and_retry_quarantined_records_in_the_admin(failing, admin_client):
    a, _, _ = three_records(failing)
    page = admin_client.get("/admin/analytics/ingestquarantine/")
    assert page.status_code == 200
    assert f"RuntimeError: boom on record {a.pk}" in page.content.decode()
    response = admin_client.post(
        "/admin/analytics/ingestquarantine/",
        {"action": "retry", "_selected_action": [a.pk]},
        follow=True,
    )
    assert "0 ingested, 1 still failing" in response.content.decode()
    failing.clear()
    response = admin_client.post(
        "/admin/analytics/ingestquarantine/",
        {"action": "retry", "_selected_action": [a.pk]},
        follow=True,
    )
    assert "1 ingested, 0 still failing." in response.content.decode()
    assert not IngestQuarantine.objects.exists()
    assert PlayerResult.objects.filter(record=a).count() == 3
