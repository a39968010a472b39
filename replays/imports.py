"""Import jobs: a large NDJSON upload imported in the background, chunk by chunk.

Why chunks in the database: several Celery workers on the ``imports`` queue
can share one job. A worker claims the next chunk with ``SELECT ... FOR UPDATE
SKIP LOCKED`` and stores the chunk's records and its "done" mark in one
transaction: no chunk is imported twice, and a chunk whose worker died (its
transaction rolled back, its lock released) is taken by the next worker. The
unique digest keeps a record from being stored twice even across jobs.

The job is committed before its tasks are sent: a broker that is down then costs
time, never the job (the client has its id; the sweep sends it when the broker is back).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import timedelta
from typing import IO, Any

import orjson
from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import F, QuerySet
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from core import background
from core.api.parsers import upload_limit
from core.errors import BadRequest, ServiceError
from core.inputs import MAX_DEPTH, TooLarge, json_loads
from replays.bulk import BATCH_SIZE, records_import
from replays.models import ImportChunk, ImportJob
from replays.selectors import records_awaiting_analytics

logger = logging.getLogger(__name__)

RUN_TASK = "replays.import_job_run"
CHUNK_LINES = BATCH_SIZE  # lines per chunk: one transaction each
MAX_TASKS = 4  # tasks enqueued per job: at most this many workers share it


def _raw_lines(stream: IO[bytes]) -> Iterator[tuple[int, bytes]]:
    """(line number, raw line) of NDJSON, or of a JSON array re-encoded one per line."""
    number = 0
    for raw in stream:
        number += 1
        stripped = raw.strip()
        if not stripped:
            continue
        if number == 1 and stripped[:1] == b"[":
            # A JSON array is read whole: at most the upload limit, not the import's.
            limit = upload_limit()
            rest = stream.read(limit + 1 - len(stripped))
            if len(stripped) + len(rest) > limit:
                raise TooLarge(limit, what="A JSON array (send NDJSON for larger imports)")
            try:
                whole = json_loads(stripped + rest, max_depth=MAX_DEPTH + 1, nul_escapes=True)
            except ServiceError:
                whole = None
            if isinstance(whole, list):
                for index, document in enumerate(whole, start=1):
                    yield index, orjson.dumps(document)
                return
            yield number, stripped
            for extra, line in enumerate(rest.split(b"\n"), start=2):
                if line.strip():
                    yield extra, line.strip()
            return
        yield number, stripped


def _line_check(number: int, raw: bytes) -> None:
    """What a chunk's text cannot hold refuses the import, naming the line.

    A chunk keeps its lines as text until a worker checks them (each line is then
    stored or refused on its own); a NUL byte or bytes that are not UTF-8 have no
    text form, so the upload is refused whole before anything of it is kept.
    """
    if b"\x00" in raw:
        raise BadRequest(
            "nul_character",
            f"Line {number} holds a NUL byte (0x00); text cannot hold it.",
            line=number,
        )
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest(
            "malformed_json", f"Line {number} is not UTF-8 text.", line=number, reason="not_utf8"
        ) from None


def import_job_create(
    *, stream: IO[bytes], submitted_by: Any = None, chunk_lines: int | None = None
) -> ImportJob:
    """Store the upload as chunks and enqueue workers; the job runs after commit."""
    chunk_lines = chunk_lines or CHUNK_LINES
    with transaction.atomic():
        job = ImportJob.objects.create(submitted_by=submitted_by)
        index = lines = 0
        numbers: list[int] = []
        texts: list[bytes] = []

        def flush() -> None:
            nonlocal index
            ImportChunk.objects.create(
                job=job,
                index=index,
                line_numbers=list(numbers),
                text=b"\n".join(texts).decode("utf-8"),
            )
            index += 1
            numbers.clear()
            texts.clear()

        for number, raw in _raw_lines(stream):
            _line_check(number, raw)
            numbers.append(number)
            texts.append(raw)
            lines += 1
            if len(numbers) >= chunk_lines:
                flush()
        if numbers:
            flush()
        if not lines:
            raise BadRequest("empty_upload", "The upload holds no records.")
        ImportJob.objects.filter(pk=job.pk).update(lines=lines, chunks=index)
        job.refresh_from_db()
        job_id = job.pk
        transaction.on_commit(lambda: import_job_dispatch(job_id=job_id), robust=True)
    return job


def import_job_dispatch(*, job_id: int) -> bool:
    """Send the job's tasks to the ``imports`` queue; False if the broker refused them.

    Without a broker the job goes to the web process's background pool
    (``core.background``): the request that uploaded it answers at once, as with one.

    The job is committed before this runs, so a broker that is down costs only time:
    the failure is logged and kept on the job (``attempts``, ``last_error``), and the
    periodic sweep (:func:`import_jobs_sweep`) sends it again. Sending a job twice is
    harmless: its chunks are claimed one by one, each imported once.
    """
    job = ImportJob.objects.filter(pk=job_id).first()
    if job is None:
        return False
    tasks = max(1, min(MAX_TASKS, job.chunks - job.chunks_done))
    if background.pool_used():
        tasks = 1  # the pool's threads take one task at a time: one runs every chunk
    try:
        for _ in range(tasks):
            background.task_submit(RUN_TASK, kwargs={"job_id": job_id})
    except Exception as exc:  # kombu's OperationalError and friends: the broker is down
        if isinstance(exc, background.BackgroundFull):
            logger.info("import job %s waits for room in the background pool: %s", job_id, exc)
        elif current_app.conf.task_always_eager:  # run in-process: the import itself failed
            logger.exception("import job %s failed; the sweep sends it again", job_id)
        else:
            logger.warning("import job %s not sent to a worker (the sweep will): %s", job_id, exc)
        ImportJob.objects.filter(pk=job_id).update(
            attempts=F("attempts") + 1, last_error=str(exc)[:500]
        )
        return False
    ImportJob.objects.filter(pk=job_id).update(
        dispatched_at=timezone.now(), attempts=F("attempts") + 1, last_error=""
    )
    return True


def import_jobs_pending(*, idle_seconds: float) -> QuerySet[ImportJob]:
    """Unfinished jobs with no sign of life for ``idle_seconds``: never sent to a worker,
    or sent and then no chunk done since (their messages were lost with the broker)."""
    idle_since = timezone.now() - timedelta(seconds=idle_seconds)
    last_seen = Greatest(
        Coalesce("progressed_at", "created_at"), Coalesce("dispatched_at", "created_at")
    )
    return (
        ImportJob.objects.filter(finished_at__isnull=True)
        .alias(last_seen=last_seen)
        .filter(last_seen__lt=idle_since)
        .order_by("id")
    )


RESEND_BACKOFF_CAP = 8  # a job sent n times waits up to 8x the idle time before the next


def _resend_due(job: ImportJob, *, now: Any, idle_seconds: float) -> bool:
    """A job never sent is always due; one sent before waits longer each time it is sent
    again without progress (it may only be waiting behind other jobs in a busy queue:
    each resend then only adds tasks that find nothing left to do)."""
    if job.dispatched_at is None:
        return True
    last_seen = max(job.dispatched_at, job.progressed_at or job.created_at)
    factor = min(RESEND_BACKOFF_CAP, 2 ** max(0, job.attempts - 1))
    return (now - last_seen).total_seconds() >= idle_seconds * factor


def import_jobs_unfinished() -> QuerySet[ImportJob]:
    """Every job not finished yet, oldest first (what an operator looks at in an outage)."""
    return ImportJob.objects.filter(finished_at__isnull=True).order_by("id")


def import_jobs_sweep(*, idle_seconds: float | None = None, limit: int = 100) -> int:
    """Send again the jobs no worker is working on (:func:`import_jobs_pending`); how many.

    Run by beat (``replays.import_jobs_sweep``): a job created while the broker was
    down, or whose queued messages a restarted broker lost, is imported once it is back.
    """
    if idle_seconds is None:
        idle_seconds = settings.IMPORT_SWEEP_AFTER_SECONDS
    sent = 0
    now = timezone.now()
    for job in import_jobs_pending(idle_seconds=idle_seconds)[:limit]:
        if not _resend_due(job, now=now, idle_seconds=idle_seconds):
            continue
        if not import_job_dispatch(job_id=job.pk):
            break  # the broker is still away; the next sweep tries again
        sent += 1
    if sent:
        logger.info("import sweep: %d queued import job(s) sent to workers again", sent)
    return sent


def import_chunk_run(*, job_id: int) -> bool:
    """Claim and import one pending chunk of the job; False when none is left to claim."""
    with transaction.atomic():
        chunk = (
            ImportChunk.objects.select_for_update(skip_locked=True)
            .filter(job_id=job_id, done=False)
            .order_by("index")
            .first()
        )
        if chunk is None:
            return False
        job = ImportJob.objects.get(pk=job_id)
        items = zip(chunk.line_numbers, chunk.text.encode().split(b"\n"), strict=True)
        outcomes = list(
            records_import(
                items,
                submitted_by=job.submitted_by,
                batch_size=len(chunk.line_numbers),
                raise_on_lost=True,
            )
        )
        stored = [o for o in outcomes if o.status == "stored"]
        present = sum(1 for o in outcomes if o.status == "present")
        refusals = [
            {"line": o.line, "error": o.error.as_dict()} for o in outcomes if o.error is not None
        ]
        ImportChunk.objects.filter(pk=chunk.pk).update(
            done=True,
            stored=len(stored),
            present=present,
            refusals=refusals,
            record_ids=[o.record_id for o in stored],
        )
        ImportJob.objects.filter(pk=job_id).update(
            progressed_at=timezone.now(),
            chunks_done=F("chunks_done") + 1,
            stored=F("stored") + len(stored),
            present=F("present") + present,
            refused=F("refused") + len(refusals),
        )
        ImportJob.objects.filter(
            pk=job_id, chunks_done__gte=F("chunks"), finished_at__isnull=True
        ).update(finished_at=timezone.now())
    return True


def import_job_run(*, job_id: int) -> int:
    """Import chunks of the job until none is left to claim; returns how many this call did."""
    done = 0
    while import_chunk_run(job_id=job_id):
        done += 1
    return done


def import_job_json(job: ImportJob) -> dict[str, Any]:
    """Progress of a job as the API shows it: counts, done or not, every refusal by line."""
    refusals = [
        refusal
        for refusals in job.chunk_rows.filter(done=True)
        .order_by("index")
        .values_list("refusals", flat=True)
        for refusal in refusals
    ]
    stored_ids = [
        record_id
        for ids in job.chunk_rows.filter(done=True).values_list("record_ids", flat=True)
        for record_id in ids
    ]
    return {
        "id": job.pk,
        "lines": job.lines,
        "stored": job.stored,
        "present": job.present,
        "refused": job.refused,
        "chunks": job.chunks,
        "chunks_done": job.chunks_done,
        "done": job.done,
        # Stored records analytics has not taken in yet: the dashboards are catching up.
        "analytics_pending": records_awaiting_analytics(record_ids=stored_ids),
        "created_at": job.created_at.isoformat(),
        "finished_at": job.finished_at.isoformat() if job.finished_at else None,
        "refusals": refusals,
    }
