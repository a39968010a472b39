"""Celery tasks of the records app (thin: the work is in replays.outbox)."""

from celery import shared_task
from django.db import DatabaseError

from replays import imports, viewer_warm
from replays.outbox import announcements_dispatch as _dispatch


@shared_task(name="replays.announcements_dispatch", ignore_result=True)
def announcements_dispatch() -> int:
    """Periodic sweep: send announcements left pending (e.g. while the broker was down)."""
    return _dispatch()


@shared_task(
    name="replays.import_job_run",
    ignore_result=True,
    acks_late=True,  # safe: a chunk is claimed, imported and marked done in one transaction
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    max_retries=5,
    time_limit=3600,
)
def import_job_run(*, job_id: int) -> int:
    """Import chunks of a job until none is left (several of these share one job)."""
    return imports.import_job_run(job_id=job_id)


@shared_task(name="replays.import_jobs_sweep", ignore_result=True)
def import_jobs_sweep() -> int:
    """Periodic sweep: send again import jobs no worker took (e.g. the broker was down)."""
    return imports.import_jobs_sweep()


@shared_task(name="replays.records_viewer_warm", ignore_result=True, soft_time_limit=300)
def records_viewer_warm(*, record_ids: list[int]) -> int:
    """Prepare the replays of these records if they are long (``replays.viewer_warm``)."""
    return viewer_warm.records_viewer_warm(record_ids=record_ids)
