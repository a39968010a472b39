"""Writes of derived data. Every function here is idempotent."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError, connection, transaction
from django.utils import timezone

from analytics import selectors
from analytics.dashboard import dashboard_warm
from analytics.ingest import StreamProgress, records_batch_ingest
from analytics.models import GameSummary, IngestQuarantine
from analytics.ratings import ratings_deferred, ratings_rebuild
from analytics.rebuild import REBUILD_BATCH, derived_rows_clear, records_rebuild_stream
from analytics.summaries import game_summary_recompute
from replays.models import Record

logger = logging.getLogger(__name__)


def record_ingest(*, record_id: int, summary: bool = True) -> bool:
    """Derive a record's per-seat results, facts, ratings, statistics and summary.

    Returns False if the record is gone (deleted after it was announced).
    Running it twice for the same record leaves the same rows. A batch of one
    through :func:`analytics.ingest.records_batch_ingest` (``summary`` is kept
    for callers: the game's summary is always brought up to date, incrementally).
    """
    return bool(records_batch_ingest(record_ids=[record_id]))


# Records stored this long ago and still waiting for their ingest no longer hold a
# dashboard's warm-up back (a message lost, left to the sweep): the warm-up runs.
WARM_DEFER_SECONDS = 900


def dashboards_warm(*, record_ids: list[int]) -> None:
    """Render the dashboards of these records' games now, after their ingest committed.

    The first visit after a record lands then reads the page from the cache
    (analytics.dashboard). Only a speed-up: if it fails (the cache is away), the
    page computes itself on its next visit, so the ingest is not failed for it.

    A game whose other records stored lately still wait for their ingest (a bulk
    import's next batches) is left to the ingest that takes the last of them: each
    batch's rendering was out of date at the next batch's commit, and rendering every
    game's dashboards after each batch cost more than the batch's ingest (8.6 s against
    about 1.5 s a batch of 250 on two loaded cores), so a 10,000-game import reached
    complete dashboards many times its own time after it ended. Meanwhile a visitor
    computes the page, as before any warm-up: a stale page is never shown.
    """
    games = sorted(set(Record.objects.filter(pk__in=record_ids).values_list("game", flat=True)))
    since = timezone.now() - timedelta(seconds=WARM_DEFER_SECONDS)
    for game in games:
        try:
            if selectors.game_ingest_follows(game=game, stored_since=since):
                continue
            dashboard_warm(game=game)
        except Exception:
            logger.warning("dashboard of %s not warmed", game, exc_info=True)


def game_summary_refresh(*, game: str) -> GameSummary:
    """Recompute one game's summary in full (a GROUP BY): ``analytics.summaries``.

    An ingest no longer needs it (it adds its records' deltas); the nightly check
    and the tests compare with it.
    """
    return game_summary_recompute(game=game)


# --- quarantine: one record that fails never stops the others ----------------------------

ERROR_CHARS = 2000  # of an error kept with a quarantined record
TRANSIENT = (OperationalError, InterfaceError, IntegrityError)


def ingest_retry_delay(attempts: int) -> timedelta:
    """How long a quarantined record waits before its next try, after ``attempts`` failures.

    Doubles from ``INGEST_RETRY_SECONDS`` (default 300) up to ``INGEST_RETRY_MAX_SECONDS``
    (default a day): a record that failed for a passing reason is soon ingested, one
    that fails for good costs one try a day, and the sweep never spins on it.
    """
    base = int(getattr(settings, "INGEST_RETRY_SECONDS", 300))
    most = int(getattr(settings, "INGEST_RETRY_MAX_SECONDS", 24 * 3600))
    return timedelta(seconds=min(most, base * 2 ** min(max(attempts, 1) - 1, 32)))


def ingest_quarantine(*, record_id: int, error: str) -> IngestQuarantine | None:
    """Keep a record whose ingest failed aside, with the error and its next try.

    A record already quarantined counts one more attempt (the wait doubles).
    Returns None when the record is gone (deleted while it was being ingested).
    """
    now = timezone.now()
    with transaction.atomic():
        if not Record.objects.filter(pk=record_id).exists():
            return None
        IngestQuarantine.objects.bulk_create(
            [
                IngestQuarantine(
                    record_id=record_id,
                    error="",
                    attempts=0,
                    first_failed_at=now,
                    last_failed_at=now,
                    next_retry_at=now,
                )
            ],
            ignore_conflicts=True,
        )
        row = IngestQuarantine.objects.select_for_update().get(pk=record_id)
        row.attempts += 1
        row.error = error[:ERROR_CHARS]
        row.last_failed_at = now
        row.next_retry_at = now + ingest_retry_delay(row.attempts)
        row.save()
    return row


def _connection_usable() -> bool:
    try:
        return connection.connection is None or connection.is_usable()
    except Exception:
        return False


def record_ingest_or_quarantine(
    *, record_id: int, summary: bool = True, raise_transient: bool = False
) -> bool | None:
    """:func:`record_ingest`, but a failure of this one record quarantines it.

    Returns what ``record_ingest`` returns, or None if the record was quarantined.
    A lost database connection is no fault of the record: it propagates (nothing
    could be written anyway), as does, with ``raise_transient``, an error a second
    try may not meet (``TRANSIENT``: a lock timeout, a deadlock, a row a concurrent
    ingest wrote first), so a task retries it at once; the sweep, which passes no
    ``raise_transient``, quarantines a record whose error comes back every time.
    """
    try:
        return record_ingest(record_id=record_id, summary=summary)
    except Exception as exc:
        if (raise_transient and isinstance(exc, TRANSIENT)) or not _connection_usable():
            raise
        logger.warning("ingest of record %s failed; quarantined", record_id, exc_info=True)
        ingest_quarantine(record_id=record_id, error=f"{type(exc).__name__}: {exc}")
        return None


@dataclass
class IngestOutcome:
    """What an ingest of several records did."""

    ingested: int = 0
    quarantined: list[int] = field(default_factory=list)


def _records_ingest_each(record_ids: list[int], *, raise_transient: bool = False) -> IngestOutcome:
    outcome = IngestOutcome()
    for record_id in record_ids:
        done = record_ingest_or_quarantine(record_id=record_id, raise_transient=raise_transient)
        if done is None:
            outcome.quarantined.append(record_id)
        elif done:
            outcome.ingested += 1
    return outcome


def records_ingest_batch(record_ids: list[int], *, raise_transient: bool = False) -> IngestOutcome:
    """One batch through the set-based path; if it fails, its records one by one.

    A record whose ingest fails is quarantined and the others go on: the batch's
    transaction is rolled back and each record is ingested in its own
    (:func:`record_ingest_or_quarantine`). A lost connection, or with
    ``raise_transient`` an error a retry may not meet, propagates as it does there.
    """
    try:
        ingested = records_batch_ingest(record_ids=record_ids)
    except Exception as exc:
        if (raise_transient and isinstance(exc, TRANSIENT)) or not _connection_usable():
            raise
        logger.info("batch of %s records failed; ingesting them one by one", len(record_ids))
        return _records_ingest_each(record_ids, raise_transient=raise_transient)
    return IngestOutcome(ingested=len(ingested))


def records_ingest(*, record_ids: list[int], raise_transient: bool = False) -> int:
    """Ingest several records (a bulk import's batch); returns how many were ingested.

    In one transaction with a few set-based statements (``analytics.ingest``); a
    record whose ingest fails is quarantined and the others go on
    (:func:`records_ingest_batch`).
    """
    return records_ingest_batch(record_ids, raise_transient=raise_transient).ingested


def records_uningested_ingest(*, older_than: timedelta, limit: int = 500) -> int:
    """Ingest stored records that have no derived rows yet, and quarantined ones due a retry.

    The safety net under the outbox: an announcement is marked sent once the broker
    took it, but a message can still be lost after that (a worker SIGKILLed between
    taking a message from Redis and registering it as unacknowledged, a flushed
    broker). Records younger than ``older_than`` are left to their own message. A
    quarantined record waits for its ``next_retry_at``, so a record that keeps
    failing never holds up the ones behind it. Returns how many were ingested.
    """
    now = timezone.now()
    fresh = (
        Record.objects.filter(
            player_results__isnull=True,
            created_at__lt=now - older_than,
            ingest_quarantine__isnull=True,
        )
        .order_by("id")
        .values_list("id", flat=True)[:limit]
    )
    due = (
        IngestQuarantine.objects.filter(next_retry_at__lte=now)
        .order_by("next_retry_at", "record_id")
        .values_list("record_id", flat=True)[:limit]
    )
    return records_ingest(record_ids=sorted({*fresh, *due}))


def quarantine_retry(*, record_ids: list[int] | None = None) -> IngestOutcome:
    """Try quarantined records again now (all, or these), whatever their next try says.

    What an operator runs once the cause is fixed (``manage.py analytics_quarantine
    --retry``, the admin's action). Those that fail again stay quarantined.
    """
    rows = IngestQuarantine.objects.order_by("record_id")
    if record_ids is not None:
        rows = rows.filter(record_id__in=record_ids)
    ids = list(rows.values_list("record_id", flat=True))
    return _records_ingest_each(ids)


@dataclass
class RebuildReport:
    """What :func:`analytics_rebuild` did: records read, ingested, and quarantined."""

    records: int
    ingested: int
    quarantined: list[IngestQuarantine]


def analytics_rebuild(
    *, batch: int = REBUILD_BATCH, progress: Callable[[StreamProgress], None] | None = None
) -> RebuildReport:
    """Throw away every derived row and compute it again from the records alone.

    What a restore from a ``pg_dump`` of the records relies on, and what the fault
    tests compare the incremental figures with. The tables are emptied, the records
    streamed in played order, ``batch`` at a time (``analytics.rebuild``: each
    record's rows computed by the batch path's functions, the snapshots and summaries
    summed in memory and written once at the end; ``progress`` is told after each
    batch); the ratings are recomputed once at the end. A record whose ingest fails
    is quarantined (its batch goes through the batch path, record by record) and the
    rebuild goes on: it completes for every other record and reports the quarantined
    ones. Anything else that fails (the database, the ratings' recompute) is a
    failure of the rebuild and raises.
    """
    derived_rows_clear()
    outcome = IngestOutcome()

    def fallback(chunk: list[int]) -> None:
        done = records_ingest_batch(chunk)
        outcome.ingested += done.ingested
        outcome.quarantined += done.quarantined

    with ratings_deferred():  # one recompute per scope below, not one per late record
        streamed = records_rebuild_stream(
            records=Record.objects.all(), fallback=fallback, batch=batch, progress=progress
        )
    ratings_rebuild()  # quarantined records count in no scope (analytics.rating_scopes)
    quarantined = list(IngestQuarantine.objects.select_related("record").order_by("record_id"))
    return RebuildReport(
        records=streamed.records,
        ingested=streamed.records - len(quarantined),
        quarantined=quarantined,
    )
