"""Celery tasks: thin, named, keyword-only, idempotent."""

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError

from analytics import ratings, record_analysis, services, simulations, statistics

logger = logging.getLogger(__name__)


@shared_task(
    name="analytics.record_ingest",
    ignore_result=True,
    acks_late=True,  # safe: ingesting twice leaves the same rows
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    max_retries=5,
    soft_time_limit=540,  # a late record may recompute a whole scope
    time_limit=600,
)
def record_ingest(*, record_id: int) -> bool:
    """Ingest one record; a failure of the record itself quarantines it instead of retrying.

    Errors of the database (a lost connection, a lock timeout) are retried with
    backoff; anything else is the record's own and retrying at once would fail
    again, so it is quarantined for the sweep to try later
    (``services.record_ingest_or_quarantine``).
    """
    ingested = services.record_ingest_or_quarantine(record_id=record_id, raise_transient=True)
    if ingested:
        services.dashboards_warm(record_ids=[record_id])
        _league_analysis_later([record_id])
    return bool(ingested)


def _league_analysis_later(record_ids: list[int]) -> None:
    """Queue the analysis of those records entered in a league of a club that asks for it.

    After the ingest, never part of it: a failure here (the broker away) costs the
    automatic analysis of these games, which anyone may still ask for, not their ingest.
    """
    try:
        record_analysis.analysis_league_queue(record_ids=record_ids)
    except Exception:
        logger.warning("league analysis of %s not queued", record_ids, exc_info=True)


@shared_task(name="analytics.dashboards_warm", ignore_result=True)
def dashboards_warm(*, record_ids: list[int]) -> None:
    """Render the dashboards of these records' games, so the next visitor reads them cached.

    The ingest tasks now render them themselves, right after their commit
    (``services.dashboards_warm``): as a task of its own the warm-up waited behind every
    queued ingest of a bulk import, and each visitor meanwhile computed the page
    (docs/performance.md, "Dashboards"). Kept for messages queued before that change.
    """
    services.dashboards_warm(record_ids=record_ids)


@shared_task(
    name="analytics.ingest_sweep",
    ignore_result=True,
    acks_late=True,  # safe: it ingests only records with no derived rows, idempotently
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    max_retries=3,
    soft_time_limit=540,
    time_limit=600,
)
def ingest_sweep() -> int:
    """Beat, every INGEST_SWEEP_SECONDS: records whose ingest message was lost, and
    quarantined records due another try."""
    return services.records_uningested_ingest(
        older_than=timedelta(seconds=settings.INGEST_SWEEP_AFTER_SECONDS)
    )


@shared_task(
    name="analytics.ratings_rebuild",
    ignore_result=True,
    acks_late=True,  # safe: a full recompute gives the same ratings every time
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    max_retries=3,
    soft_time_limit=3300,
    time_limit=3600,
)
def ratings_rebuild() -> dict[str, int]:
    """Recompute every rating scope from its records (beat: nightly), logging any drift."""
    return ratings.ratings_rebuild()


@shared_task(
    name="analytics.statistics_recompute_all",
    ignore_result=True,
    acks_late=True,  # safe: a recompute replaces snapshots with fresh figures
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    max_retries=3,
    soft_time_limit=3300,
    time_limit=3600,
)
def statistics_recompute_all() -> int:
    """Nightly (CELERY_BEAT_SCHEDULE): compare incremental statistics with fresh ones, fix."""
    return len(statistics.statistics_recompute_all()["differences"])


@shared_task(
    name="analytics.simulation_run",
    ignore_result=True,
    acks_late=True,  # safe: a rerun goes on from the last saved batch; digests dedupe games
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    max_retries=5,
    soft_time_limit=3300,
    time_limit=3600,
)
def simulation_run(*, job_id: int) -> None:
    simulations.simulation_job_run(job_id=job_id)


@shared_task(
    name="analytics.records_ingest",
    ignore_result=True,
    acks_late=True,  # safe: ingesting twice leaves the same rows
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    max_retries=5,
    time_limit=600,
)
def records_ingest(*, record_ids: list[int]) -> int:
    """A bulk import's batch, announced once: ingested together (``analytics.ingest``)."""
    ingested = services.records_ingest(record_ids=record_ids, raise_transient=True)
    services.dashboards_warm(record_ids=record_ids)  # after the commit: no lock held
    _league_analysis_later(record_ids)
    return ingested


@shared_task(
    name="analytics.record_analyse",
    ignore_result=True,
    acks_late=True,  # safe: the same seed and settings give the same analysis, stored once
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    max_retries=3,
    # Under the broker's visibility timeout (900 s), so a running job is never handed
    # to a second worker; a game takes about a minute at the default settings.
    soft_time_limit=780,
    time_limit=840,
)
def record_analyse(*, analysis_id: int) -> str | None:
    """Analyse one stored record (routed to the ``analysis`` queue): ``record_analysis``."""
    row = record_analysis.analysis_run(analysis_id=analysis_id)
    return None if row is None else row.status


@shared_task(
    name="analytics.skill_figures_refresh",
    ignore_result=True,
    acks_late=True,  # safe: it replaces a game's figures with fresh ones
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    max_retries=3,
)
def skill_figures_refresh(*, game: str) -> int:
    """After an analysis: how often the better-deciding player wins, in ``game``."""
    return record_analysis.skill_figures_refresh(game=game)
