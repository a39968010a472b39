"""Celery tasks: thin, named, keyword-only, idempotent."""

from celery import shared_task
from django.db import DatabaseError

from analytics import ratings, services


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
    return services.record_ingest(record_id=record_id)


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
