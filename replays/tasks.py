"""Celery tasks of the records app (thin: the work is in replays.outbox)."""

from celery import shared_task

from replays.outbox import announcements_dispatch as _dispatch


@shared_task(name="replays.announcements_dispatch", ignore_result=True)
def announcements_dispatch() -> int:
    """Periodic sweep: send announcements left pending (e.g. while the broker was down)."""
    return _dispatch()
