"""A full rebuild of the ingest's rows: every record again, from empty tables.

``analytics.services.analytics_rebuild`` streams every record in played order through
:func:`records_rebuild_stream`. It computes each record's rows with the batch path's
own functions (``analytics.ingest.record_results_derive``,
``analytics.statistics.record_facts_build`` and ``facts_contribution``), so it writes
the rows a batch ingest writes (tests/analytics/test_rebuild.py compares every
analytics model). It differs in what it need not do, since it starts from empty
tables that it emptied itself (``TRUNCATE``):

- no former rows to read or lock: a batch's results and facts are copied straight
  into their tables (a row that exists after all, a concurrent ingest's, sends that
  batch through the batch path instead);
- the snapshots and summaries are not read and written per batch: the batches'
  contributions are summed in memory and each snapshot and summary is written once,
  at the end (a few thousand rows however many records);
- on PostgreSQL, when the caller holds no transaction, a batch's rows are written by
  a second connection in a thread while the next batch is computed, so the server
  stores batch k while Python computes batch k + 1 (the writes were most of the wall
  time: docs/performance.md, "Analytics ingest").

A batch that fails (a record's facts cannot be computed, a row exists already) goes
through the batch path (``analytics.services.records_ingest_batch``: its records one by
one if need be, the failing one quarantined), whose writes add to the snapshots as
they go; the sums written at the end are added to what is there, so both count once.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import orjson
from django.db import connection, transaction
from django.db.models import QuerySet, TextField
from django.db.models.expressions import RawSQL
from django.db.models.functions import Cast
from django.utils import timezone

from analytics import statistics
from analytics.bulk_sql import rows_copy, rows_upsert
from analytics.ingest import _RESULT_COLUMNS, StreamProgress, played_order, record_results_derive
from analytics.models import (
    GameSummary,
    IngestQuarantine,
    PlayerResult,
    RecordFacts,
    StatisticsSnapshot,
)
from analytics.statistics import (
    FACT_COLUMNS,
    Scope,
    _snapshots_add,
    facts_contribution,
    facts_row,
)
from analytics.stats import counters_accumulate
from analytics.summaries import SummaryDelta, game_summaries_apply
from replays.models import Record, Seat

logger = logging.getLogger(__name__)

REBUILD_BATCH = 2000  # records per batch of a rebuild
_READ = ("id", "game", "kind", "simulated", "num_events", "played_at", "created_at")
_JSON = ("options", "meta", "result", "replay_facts")  # read as text, parsed by orjson
_FIELDS = (*_READ, *_JSON)


def derived_rows_clear() -> None:
    """Empty the tables a rebuild fills (results, facts, snapshots, summaries).

    ``TRUNCATE`` on PostgreSQL: a ``DELETE`` of every row wrote each one to the log and
    left the dead rows to vacuum, in the tables the rebuild then fills again.
    """
    models = (PlayerResult, GameSummary, RecordFacts, StatisticsSnapshot)
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f"TRUNCATE {', '.join(m._meta.db_table for m in models)}")
        else:
            for model in models:
                model.objects.all().delete()


@dataclass
class _Batch:
    """One batch computed: its rows, and what it adds to the snapshots and summaries."""

    ids: list[int]
    results: list[tuple[Any, ...]] = field(default_factory=list)
    facts: list[tuple[Any, ...]] = field(default_factory=list)
    by_set: dict[tuple[Scope, ...], dict[str, Any]] = field(default_factory=dict)
    summaries: dict[str, SummaryDelta] = field(default_factory=lambda: defaultdict(SummaryDelta))


def _ids(ids: Sequence[int]) -> Any:
    """A filter value for ``pk__in``: one array parameter on PostgreSQL, not 2,000.

    (psycopg splits and converts a query with thousands of placeholders in Python.)
    """
    if connection.vendor == "postgresql":
        return RawSQL("SELECT unnest(%s::bigint[])", [list(ids)])
    return list(ids)


def _records_read(ids: Sequence[int]) -> list[Record]:
    """The batch's records in the order of ``ids``, without their logs (deferred).

    The JSON columns are read as text and parsed with orjson (Django's ``JSONField``
    parses each with the standard library's json, several times slower).
    """
    # In the model's field order: ``from_db`` takes the values in that order.
    names = [f.attname for f in Record._meta.concrete_fields if f.attname in _FIELDS]
    read = [f"{name}_text" if name in _JSON else name for name in names]
    casts = {f"{name}_text": Cast(name, TextField()) for name in _JSON}
    found = {}
    for row in (
        Record.objects.filter(pk__in=_ids(ids)).annotate(**casts).values_list(*read).order_by()
    ):
        values = [
            (None if value is None else orjson.loads(value)) if name in _JSON else value
            for name, value in zip(names, row, strict=True)
        ]
        record = Record.from_db(connection.alias, names, values)
        found[record.pk] = record
    return [found[pk] for pk in ids if pk in found]


def _batch_compute(ids: list[int], now: Any) -> _Batch:
    """The batch's rows, computed as the batch path computes them for records without rows."""
    batch = _Batch(ids=ids)
    records = _records_read(ids)
    seats: dict[int, list[tuple[int, int, str, str]]] = defaultdict(list)
    for record_id, seat, player_id, name, kind in (
        Seat.objects.filter(record_id__in=_ids(ids))
        .order_by("record_id", "seat")
        .values_list("record_id", "seat", "player_id", "player__name", "player__kind")
    ):
        seats[record_id].append((seat, player_id, name, kind))
    missing = [r.pk for r in records if r.replay_facts is None and r.kind != Record.Kind.RESULT]
    events = dict(Record.objects.filter(pk__in=missing).values_list("pk", "events"))
    batch.ids = [record.pk for record in records]
    for record in records:
        rows, summary = record_results_derive(record, seats[record.pk])
        batch.results += rows
        # Through the module: the one function the batch path calls too (and patches reach).
        facts = statistics.record_facts_build(
            record=record, existing=None, events=events.get(record.pk)
        )
        facts.applied = facts_contribution(facts)
        facts.summary_applied = summary
        batch.facts.append(facts_row(facts, now))
        key = tuple(tuple(scope) for scope in facts.applied["scopes"])
        counters_accumulate(batch.by_set.setdefault(key, {}), facts.applied["counters"])
        batch.summaries[record.game].add(summary, 1)
    return batch


class _RowsExist(Exception):
    """A row of the batch was there already (a concurrent ingest's)."""


def _batch_write(batch: _Batch) -> None:
    """Copy the batch's results and facts into their empty tables, in one transaction."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:  # derived rows: a crash means rebuild again
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
        IngestQuarantine.objects.filter(pk__in=_ids(batch.ids)).delete()  # as the batch path does
        for table, columns, rows, key in (
            (PlayerResult._meta.db_table, _RESULT_COLUMNS, batch.results, ["record_id", "seat"]),
            (RecordFacts._meta.db_table, FACT_COLUMNS, batch.facts, ["record_id"]),
        ):
            if not rows:
                continue
            if connection.vendor == "postgresql":
                written = rows_copy(table, columns, rows, conflict=key, returning=columns[0])
            else:  # multi-row inserts, a row that exists skipped (and counted below)
                written = rows_upsert(table, columns, rows, conflict=key, returning=columns[0])
            if written is None or len(written) != len(rows):
                raise _RowsExist(table)


class _Writer:
    """Writes batches in a thread with its own connection, or inline.

    The thread is used on PostgreSQL when the caller holds no transaction (a second
    connection could not see the caller's uncommitted records); elsewhere (SQLite, a
    test's transaction) each batch is written inline, in the caller's connection.
    """

    def __init__(self) -> None:
        threaded = connection.vendor == "postgresql" and not connection.in_atomic_block
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="rebuild-writer") if threaded else None

    def submit(self, batch: _Batch) -> Future[None]:
        if self.pool is not None:
            return self.pool.submit(_batch_write, batch)
        future: Future[None] = Future()
        try:
            _batch_write(batch)
            future.set_result(None)
        except Exception as exc:
            future.set_exception(exc)
        return future

    def close(self) -> None:
        if self.pool is not None:
            self.pool.submit(lambda: connection.close()).result()  # the thread's own one
            self.pool.shutdown()


@dataclass
class RebuildOutcome:
    """What :func:`records_rebuild_stream` did: records read, and batches it handed on."""

    records: int = 0
    handed_on: int = 0  # batches that went through ``fallback``


def records_rebuild_stream(
    *,
    records: QuerySet[Record],
    fallback: Callable[[list[int]], Any],
    batch: int = REBUILD_BATCH,
    progress: Callable[[StreamProgress], None] | None = None,
) -> RebuildOutcome:
    """Ingest every record of ``records`` (a queryset) in played order into emptied tables.

    Call after :func:`derived_rows_clear`, with the ratings deferred (the caller
    recomputes them after). ``fallback`` takes the ids of a batch that could not be
    computed or written here (``analytics.services.records_ingest_batch``).
    ``progress`` is told after each batch is written. The snapshots and summaries
    are written at the end, in one transaction.
    """
    ids = list(played_order(records).values_list("pk", flat=True))
    outcome = RebuildOutcome(records=len(ids))
    by_set: dict[tuple[Scope, ...], dict[str, Any]] = {}
    summaries: dict[str, SummaryDelta] = defaultdict(SummaryDelta)
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    writer = _Writer()
    started = time.monotonic()
    pending: tuple[_Batch, Future[None]] | None = None
    done = 0

    def settle(item: tuple[_Batch, Future[None]]) -> None:
        nonlocal done
        computed, future = item
        try:
            future.result()
        except Exception:
            logger.warning(
                "rebuild: a batch could not be written; the batch path takes it", exc_info=True
            )
            outcome.handed_on += 1
            fallback(computed.ids)
        else:
            for key, summed in computed.by_set.items():
                counters_accumulate(by_set.setdefault(key, {}), summed)
            for game, delta in computed.summaries.items():
                summaries[game].merge(delta)
        done += len(computed.ids)
        if progress is not None:
            progress(StreamProgress(done, len(ids), time.monotonic() - started))

    try:
        for start in range(0, len(ids), batch):
            chunk = ids[start : start + batch]
            try:
                computed = _batch_compute(chunk, now)
            except Exception:
                logger.warning("rebuild: a batch failed; the batch path takes it", exc_info=True)
                computed = None
            if pending is not None:
                settle(pending)
                pending = None
            if computed is None:
                outcome.handed_on += 1
                fallback(chunk)
                done += len(chunk)
                if progress is not None:
                    progress(StreamProgress(done, len(ids), time.monotonic() - started))
                continue
            pending = (computed, writer.submit(computed))
        if pending is not None:
            settle(pending)
    finally:
        writer.close()
    _totals_write(by_set, summaries)
    return outcome


def _totals_write(
    by_set: dict[tuple[Scope, ...], dict[str, Any]], summaries: dict[str, SummaryDelta]
) -> None:
    """Add the stream's sums to the snapshots and summaries, each row written once."""
    deltas: dict[Scope, dict[str, Any]] = {}
    for key, summed in by_set.items():
        for scope in key:
            counters_accumulate(deltas.setdefault(scope, {}), summed)
    with transaction.atomic():
        # Summaries start from empty tallies, not None (which asks for a full recompute
        # from the results: a GROUP BY over every result of the game, for nothing).
        GameSummary.objects.bulk_create(
            [GameSummary(game=game, tallies={}) for game in sorted(summaries)],
            ignore_conflicts=True,
        )
        _snapshots_add(deltas)
        game_summaries_apply(summaries)
