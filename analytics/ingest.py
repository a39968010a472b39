"""Ingest of stored records, a batch at a time, with set-based writes.

A batch (a bulk import's ``analytics.records_ingest``, a slice of the nightly catch-up, a
rebuild's batch it could not take itself (``analytics.rebuild``), or one record) is
ingested in one transaction with a few statements whatever its size:

1. the records read with one query (their logs left out: each record carries the
   facts its validating replay computed, ``Record.replay_facts``), their seats with
   another, the results they had with a third;
2. their per-seat results upserted (``analytics.bulk_sql``: ``COPY`` and one
   ``INSERT ... ON CONFLICT DO UPDATE``);
3. the ratings brought up to date (``analytics.ratings.ratings_apply_records``, in
   played order);
4. their facts rows written and their contributions to the statistics snapshots
   summed per scope in memory, then each touched snapshot locked once and written
   once (``analytics.statistics.statistics_apply_many``);
5. each game's summary given the batch's deltas (``analytics.summaries``).

Every step is idempotent: a record whose contribution is already applied changes
nothing, a corrected one replaces its old contribution exactly. Locks are taken in
one order (results, rating scopes, facts, snapshots, summaries), so batches in
several workers never deadlock.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.db.models.functions import Coalesce

from analytics.bulk_sql import rows_upsert
from analytics.models import IngestQuarantine, PlayerResult
from analytics.ratings import ratings_apply_records
from analytics.statistics import UNKNOWN, statistics_apply_many
from analytics.summaries import SummaryDelta, game_summaries_apply, record_summary_contribution
from replays.giftlog import options_key
from replays.models import Record, Seat

logger = logging.getLogger(__name__)

STREAM_BATCH = 1000  # records per batch of the nightly catch-up (a rebuild: analytics.rebuild)
_RESULT_COLUMNS = (
    "record_id",
    "seat",
    "player_id",
    "game",
    "num_players",
    "score",
    "rank",
    "won",
    "variant",
)


def records_batch_ingest(*, record_ids: Sequence[int]) -> list[int]:
    """Ingest these records in one transaction; returns the ids found (in the order given).

    Records gone (deleted after they were announced) are skipped. Any error rolls
    the whole batch back and propagates: the caller decides (``analytics.services``
    tries the batch's records one by one, quarantining the ones that fail).
    """
    with transaction.atomic():
        found = {
            record.pk: record
            for record in Record.objects.filter(pk__in=list(record_ids)).defer("events")
        }
        records = [found[pk] for pk in dict.fromkeys(record_ids) if pk in found]
        if not records:
            return []
        ids = [record.pk for record in records]
        # Out of quarantine first, inside the transaction: the ratings count a record
        # only once it is out (analytics.rating_scopes), and a failure rolls this back.
        IngestQuarantine.objects.filter(pk__in=ids).delete()
        seats: dict[int, list[tuple[int, int, str, str]]] = defaultdict(list)
        for record_id, seat, player_id, name, kind in (
            Seat.objects.filter(record_id__in=ids)
            .order_by("record_id", "seat")
            .values_list("record_id", "seat", "player_id", "player__name", "player__kind")
        ):
            seats[record_id].append((seat, player_id, name, kind))
        had: dict[int, list[tuple[int, str, str, bool, int]]] = defaultdict(list)
        for record_id, player_id, name, kind, won, score in (
            PlayerResult.objects.filter(record_id__in=ids)
            .order_by("record_id", "seat")
            .values_list("record_id", "player_id", "player__name", "player__kind", "won", "score")
        ):
            had[record_id].append((player_id, name, kind, won, score))
        rows = []
        summaries: dict[int, Any] = {}
        for record in records:
            mine, summaries[record.pk] = record_results_derive(record, seats[record.pk])
            rows += mine
        # An upsert: a corrected result-only record is ingested again with new scores.
        # A batch none of whose records had results (an import's, a rebuild's) copies
        # them straight in.
        rows_upsert(
            PlayerResult._meta.db_table,
            _RESULT_COLUMNS,
            rows,
            conflict=["record_id", "seat"],
            update=["player_id", "score", "rank", "won", "variant", "num_players"],
            new=not had,
        )
        # Per game, club and season (analytics.ratings), in played order: a batch's
        # records are then appended to their scopes, none of them late to another.
        ratings_apply_records(records=sorted(records, key=_played_key))
        missing = [r.pk for r in records if r.replay_facts is None and r.kind != Record.Kind.RESULT]
        events = dict(Record.objects.filter(pk__in=missing).values_list("pk", "events"))
        before = statistics_apply_many(records=records, summaries=summaries, events=events)
        deltas: dict[str, SummaryDelta] = defaultdict(SummaryDelta)
        for record in records:
            old = before.get(record.pk)
            if old is UNKNOWN:  # counted before summaries were kept: what its results said
                old = record_summary_contribution(
                    simulated=record.simulated, seats=had.get(record.pk, [])
                )
            delta = deltas[record.game]  # unchanged: adds nothing, but the game is touched
            delta.add(old, -1)
            delta.add(summaries[record.pk], 1)
        game_summaries_apply(deltas)  # last: its lock is then held only for the commit
    return ids


def record_results_derive(
    record: Record, seats: Sequence[tuple[int, int, str, str]]
) -> tuple[list[tuple[Any, ...]], Any]:
    """A record's per-seat result rows (``_RESULT_COLUMNS``) and what it adds to its summary.

    ``seats``: (seat, player id, player name, player kind) in seat order. The one place
    both the batch path and a rebuild (``analytics.rebuild``) compute them, so the two
    write the same rows.
    """
    result = record.result
    winners = set(result.get("winners", []))
    variant = options_key(record.options)
    scores, ranks = result["scores"], result["ranks"]
    count = len(seats)
    rows = [
        (
            record.pk,
            seat,
            player_id,
            record.game,
            count,
            scores[seat],
            ranks[seat],
            seat in winners,
            variant,
        )
        for seat, player_id, _, _ in seats
    ]
    summary = record_summary_contribution(
        simulated=record.simulated,
        seats=[
            (player_id, name, kind, seat in winners, scores[seat])
            for seat, player_id, name, kind in seats
        ],
    )
    return rows, summary


def _played_key(record: Record) -> tuple[Any, int]:
    return (record.played_at or record.created_at, record.pk)


def played_order(records: QuerySet[Record]) -> QuerySet[Record]:
    """Records in the order they were played (``COALESCE(played_at, created_at), id``)."""
    return records.annotate(order_at=Coalesce("played_at", "created_at")).order_by("order_at", "pk")


@dataclass
class StreamProgress:
    """How far a stream of batches got: records done of the total, and seconds taken."""

    done: int
    total: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.done / self.seconds if self.seconds > 0 else 0.0


def records_stream_ingest(
    *,
    records: QuerySet[Record],
    batch: int = STREAM_BATCH,
    ingest: Callable[[list[int]], Any] | None = None,
    progress: Callable[[StreamProgress], None] | None = None,
) -> int:
    """Ingest every record of ``records`` in played order, ``batch`` at a time.

    The ids are read once, in order (a few MB for a million records); each batch
    then reads its records with one query. ``ingest`` takes a list of ids
    (default: :func:`records_batch_ingest`; ``analytics.services`` passes its
    version that quarantines a failing record and goes on). ``progress`` is called
    after each batch. Returns how many records were read.
    """
    ids = list(played_order(records).values_list("pk", flat=True))
    run = ingest or (lambda chunk: records_batch_ingest(record_ids=chunk))
    started = time.monotonic()
    for start in range(0, len(ids), batch):
        run(ids[start : start + batch])
        if progress is not None:
            done = min(start + batch, len(ids))
            progress(StreamProgress(done, len(ids), time.monotonic() - started))
    return len(ids)
