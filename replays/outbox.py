"""Dispatching the transactional outbox to Celery.

``replays`` never imports ``analytics``: announcements go out as Celery task
*names*. A broker that is down leaves the rows pending; the periodic sweep
(``replays.announcements_dispatch`` in the beat schedule) sends them later.

Without a broker (the embedded default) they go to the web process's background pool
(``core.background``) rather than running in the request that stored the records: a
bulk import answers as fast as with a broker and the dashboards follow. A pool that is
full leaves the rows pending, as a broker that is down does, for the pool's own sweep.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

from celery import current_app
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from core import background
from replays.models import Announcement

logger = logging.getLogger(__name__)

TOPIC_TASKS = {
    Announcement.TOPIC_RECORD_STORED: "analytics.record_ingest",
    Announcement.TOPIC_RECORDS_STORED: "analytics.records_ingest",  # a bulk batch
}


VIEWER_WARM_TASK = "replays.records_viewer_warm"


def _task_kwargs(announcement: Announcement) -> dict:
    if announcement.topic == Announcement.TOPIC_RECORDS_STORED:
        return {"record_ids": list(announcement.record_ids)}
    return {"record_id": announcement.record_id}


SWEEP_BATCH = 500


def announcements_pending() -> QuerySet[Announcement]:
    """Announcements the broker has not taken yet, oldest first (what the sweep sends)."""
    return Announcement.objects.filter(dispatched_at__isnull=True).order_by("id")


def announcements_dispatch(*, ids: Iterable[int] | None = None, limit: int = SWEEP_BATCH) -> int:
    """Send pending announcements (the given ones, or the oldest ``limit``); returns how many.

    Sending twice is harmless (analytics tasks are idempotent), so a row is
    marked dispatched only after the broker took the message.
    """
    pending = announcements_pending()
    if ids is not None:
        pending = pending.filter(id__in=list(ids))
    sent = 0
    for announcement in pending[:limit]:
        task_name = TOPIC_TASKS[announcement.topic]
        try:
            background.task_submit(task_name, kwargs=_task_kwargs(announcement))
        except background.BackgroundFull as exc:  # the pool's sweep sends the rest later
            logger.info("announcement %s left for the sweep: %s", announcement.pk, exc)
            break
        except Exception as exc:  # the broker is down: keep the row for the sweep
            logger.warning("announcement %s not dispatched: %s", announcement.pk, exc)
            Announcement.objects.filter(pk=announcement.pk).update(
                attempts=announcement.attempts + 1, last_error=str(exc)[:500]
            )
            if not current_app.conf.task_always_eager:
                break  # the broker is unreachable; the sweep will retry the rest
            continue
        with transaction.atomic():
            Announcement.objects.filter(pk=announcement.pk).update(
                dispatched_at=timezone.now(), attempts=announcement.attempts + 1
            )
        sent += 1
    return sent


def records_announce(*, record_ids: Sequence[int], batch: bool = False) -> None:
    """Tell analytics, once this transaction commits, that these records are new or changed.

    The one way any app announces records (a new record, a bulk batch, a club entry or
    void, a corrected result, merged players). The outbox row is written in the caller's
    transaction, so a broker that is down delays the news but never loses it (the sweep
    re-sends pending rows), and no app below analytics imports it: the task is named.
    ``batch`` writes one row naming every record (a bulk import's batch); otherwise one
    row per record, in the order given (analytics ingests them in that order).
    """
    if not record_ids:
        return
    if batch:
        rows = [
            Announcement.objects.create(
                topic=Announcement.TOPIC_RECORDS_STORED, record_ids=sorted(record_ids)
            )
        ]
    else:
        rows = [Announcement.objects.create(record_id=pk) for pk in record_ids]
    ids = [row.pk for row in rows]
    transaction.on_commit(lambda: announcements_dispatch(ids=ids), robust=True)
    warmed = sorted(record_ids)
    transaction.on_commit(lambda: _viewer_warm_later(warmed, batch=batch), robust=True)


def _viewer_warm_later(record_ids: list[int], *, batch: bool = False) -> None:
    """Queue the replays' preparation of the long records among these (``replays.viewer_warm``).

    Only a speed-up, so not in the outbox: a broker away costs the first visitor the
    wait, never the record. It goes where the ingest goes (a worker, or the web
    process's pool behind everything else there: ``BACKGROUND_LAST``), never into the
    request that stored the records. A bulk batch in a process with neither (``manage.py
    import_records`` without a broker) is not prepared: run there, the preparation of
    its long games took 91 of a 300-game import's 94 s (3 games/s instead of hundreds;
    docs/performance.md, "Import"), and the first visitor of each builds it as before.
    """
    if batch and background.in_process() and not background.pool_used():
        return
    try:
        background.task_submit(VIEWER_WARM_TASK, kwargs={"record_ids": record_ids})
    except Exception as exc:  # the broker is away, or the pool full: only a speed-up lost
        logger.warning("replay preparation of %d records not queued: %s", len(record_ids), exc)
