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
