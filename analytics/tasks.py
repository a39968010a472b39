"""Celery tasks: thin, named, keyword-only, idempotent."""

from celery import shared_task
from django.db import DatabaseError

from analytics import services


@shared_task(
    name="analytics.record_ingest",
    ignore_result=True,
    acks_late=True,  # safe: ingesting twice leaves the same rows
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    max_retries=5,
)
def record_ingest(*, record_id: int) -> bool:
    return services.record_ingest(record_id=record_id)


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
    """A bulk import's batch, announced once: each record through ``record_ingest``."""
    return sum(services.record_ingest(record_id=record_id) for record_id in record_ids)
