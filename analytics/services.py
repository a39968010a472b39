"""Writes of derived data. Every function here is idempotent."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.db.models import Avg, Count, Q, Sum
from django.utils import timezone

from analytics.dashboard import dashboard_warm
from analytics.models import GameSummary, PlayerResult
from analytics.ratings import ratings_apply, ratings_deferred, ratings_rebuild
from analytics.statistics import statistics_apply, statistics_reset
from replays.giftlog import options_key
from replays.models import Record

logger = logging.getLogger(__name__)


@transaction.atomic
def record_ingest(*, record_id: int, summary: bool = True) -> bool:
    """Derive a record's per-seat results and refresh its game's summary.

    Returns False if the record is gone (deleted after it was announced).
    Running it twice for the same record leaves the same rows. ``summary=False``
    leaves the game summary (a GROUP BY over every result of the game) to the
    caller, which refreshes it once for many records (:func:`records_ingest`).
    """
    record = Record.objects.filter(pk=record_id).prefetch_related("seats").first()
    if record is None:
        return False
    result = record.result
    seats = sorted(record.seats.all(), key=lambda s: s.seat)
    PlayerResult.objects.bulk_create(
        [
            PlayerResult(
                record=record,
                seat=seat.seat,
                player_id=seat.player_id,
                game=record.game,
                num_players=len(seats),
                score=result["scores"][seat.seat],
                rank=result["ranks"][seat.seat],
                won=seat.seat in result["winners"],
                variant=options_key(record.options),
            )
            for seat in seats
        ],
        # An upsert: a corrected result-only record is ingested again with new scores.
        update_conflicts=True,
        unique_fields=["record", "seat"],
        update_fields=["player", "score", "rank", "won", "variant", "num_players"],
    )
    if summary:
        game_summary_refresh(game=record.game)
    ratings_apply(record=record)  # ratings per game, club and season (analytics.ratings)
    statistics_apply(record=record)
    return True


def dashboards_warm(*, record_ids: list[int]) -> None:
    """Render the dashboards of these records' games now, after their ingest committed.

    The first visit after a record lands then reads the page from the cache
    (analytics.dashboard). Only a speed-up: if it fails (the cache is away), the
    page computes itself on its next visit, so the ingest is not failed for it.
    """
    games = sorted(set(Record.objects.filter(pk__in=record_ids).values_list("game", flat=True)))
    for game in games:
        try:
            dashboard_warm(game=game)
        except Exception:
            logger.warning("dashboard of %s not warmed", game, exc_info=True)


def game_summary_refresh(*, game: str) -> GameSummary:
    """Recompute one game's summary from all its results (a GROUP BY, not a scan in Python)."""
    rows = (
        PlayerResult.objects.filter(game=game)
        .values("player__name")
        .annotate(
            games=Count("id"),
            wins=Count("id", filter=Q(won=True)),
            total=Sum("score"),
            average=Avg("score"),
        )
        .order_by("-wins", "-average", "player__name")
    )
    players = [
        {
            "player": row["player__name"],
            "games": row["games"],
            "wins": row["wins"],
            "average_score": round(float(row["average"]), 2),
        }
        for row in rows
    ]
    games = Record.objects.filter(game=game).count()
    summary, _ = GameSummary.objects.update_or_create(
        game=game, defaults={"games": games, "players": players}
    )
    return summary


def records_ingest(*, record_ids: list[int]) -> int:
    """Ingest several records (a bulk import's batch); returns how many were still there.

    Each record as :func:`record_ingest` does, in its own transaction, but each
    game's summary refreshed once at the end instead of once per record: the
    summary is a GROUP BY over all of the game's results, so per record it made a
    large import's ingest quadratic.
    """
    ingested = sum(record_ingest(record_id=record_id, summary=False) for record_id in record_ids)
    games = Record.objects.filter(pk__in=record_ids).values_list("game", flat=True).distinct()
    for game in sorted(set(games)):
        game_summary_refresh(game=game)
    return ingested


def records_uningested_ingest(*, older_than: timedelta, limit: int = 500) -> int:
    """Ingest stored records that have no derived rows yet; returns how many.

    The safety net under the outbox: an announcement is marked sent once the broker
    took it, but a message can still be lost after that (a worker SIGKILLed between
    taking a message from Redis and registering it as unacknowledged, a flushed
    broker). Records younger than ``older_than`` are left to their own message.
    """
    cutoff = timezone.now() - older_than
    ids = list(
        Record.objects.filter(player_results__isnull=True, created_at__lt=cutoff)
        .order_by("id")
        .values_list("id", flat=True)[:limit]
    )
    return records_ingest(record_ids=ids)


def analytics_rebuild() -> int:
    """Throw away every derived row and compute it again from the records alone.

    What a restore from a ``pg_dump`` of the records relies on, and what the fault
    tests compare the incremental figures with. Returns how many records it read.
    """
    with transaction.atomic():
        PlayerResult.objects.all().delete()
        GameSummary.objects.all().delete()
        statistics_reset()
    ids = list(Record.objects.order_by("id").values_list("id", flat=True))
    with ratings_deferred():  # one recompute per scope below, not one per late record
        for record_id in ids:
            record_ingest(record_id=record_id, summary=False)
    for game in Record.objects.values_list("game", flat=True).distinct():
        game_summary_refresh(game=game)
    ratings_rebuild()
    return len(ids)
