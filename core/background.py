"""Celery tasks in the background, with a broker or without one.

With a broker, :func:`task_submit` sends a task to a worker, as ``.delay()`` does.
Without one (``CELERY_TASK_ALWAYS_EAGER``: the embedded default ``bin/serve`` runs),
``.delay()`` would run the task inside the request, so a page waits for minutes of
work with nothing to show. :func:`task_submit` hands the task to a small pool of
threads in this process instead: the request answers at once and the task records its
own progress (a balance-lab job counts its games) for the page to poll.

The pool is bounded: ``BACKGROUND_WORKERS`` threads run tasks (one by default: the
embedded SQLite database takes one writer at a time), and at most
``BACKGROUND_QUEUE_MAX`` tasks wait or run; past that :class:`BackgroundFull` is
raised and the caller leaves its work queued, as it does when a broker is down.
``BACKGROUND_WORKERS = 0`` runs the task in the caller, as eager Celery does (the
test settings, so a test's transaction sees what the task wrote), and so does a
process that serves no requests (a management command: :func:`serving_mark`).

Tasks named in ``BACKGROUND_URGENT`` (a single upload's ingest) go ahead of the others
waiting (a bulk import's batches), so one club's upload reaches its leaderboard while
another club's history is still being ingested. Tasks named in ``BACKGROUND_LOW`` (the
analysis of a game: a minute of playouts) run in a lane of their own, one thread that
runs nothing else, one task after another: never in front of an ingest, and never
holding the pool's thread while an ingest waits (as a worker of their own queue does).
Tasks named in ``BACKGROUND_LAST`` (the replays' preparation, only a speed-up) wait
behind every other: a bulk import's long games would otherwise hold its ingest back for
many times the import's own time.

The pool yields to requests: a task that is not urgent starts only once no request has
run in this process for ``BACKGROUND_QUIET_SECONDS`` (core.apps tells it when requests
begin and end: :func:`request_began`, :func:`request_ended`), or after it waited
``BACKGROUND_QUIET_MAX_SECONDS`` (a server never quiet still gets its work done). The
pool's thread and the requests share one interpreter lock and, on SQLite, one writer: a
bulk import's ingest batches run between its requests would slow each request by the
batch in hand (an embedded import took 4x the import alone), so they wait for the
import's last answer; a single upload's ingest does not wait.

Work in the pool lives as long as the process: a job cut short by a restart stays
unfinished, as one is when a worker dies; tasks must be idempotent so that sending
them again finishes the work. Without a broker there is no beat either, so the pool
runs the sweeps itself (:func:`sweeps_start`, ``BACKGROUND_SWEEPS``): they find what a
restart lost (records with no analytics, announcements and import jobs never sent).
"""

from __future__ import annotations

import itertools
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import connections
from django.utils import timezone as django_timezone

logger = logging.getLogger("core.background")

_lock = threading.Lock()
_idle = threading.Condition(_lock)
# (0 urgent / 1 other / 2 last, arrival order, task name, kwargs, what to call with its
# result): urgent first, last last, then first come.
_Entry = tuple[int, int, str, dict[str, Any], Callable[[Any], None] | None]
_tasks: queue.PriorityQueue[_Entry] = queue.PriorityQueue()
_arrivals = itertools.count()
_threads: list[threading.Thread] = []
_pending = 0
_pending_by_name: dict[str, int] = {}
# The low lane (BACKGROUND_LOW): its own queue and thread, first come first served.
_low_tasks: queue.Queue[_Entry] = queue.Queue()
_low_threads: list[threading.Thread] = []
_pending_low = 0
# Requests of this process in flight, by the thread serving each, and when the last one
# ended (time.monotonic()). By thread, not a count: a thread serves one request at a time,
# so a request whose end was never signalled (a streaming response its caller never
# closed; a WSGI server must close it, Django's test client does only once it is read)
# is forgotten when its thread begins the next one, instead of holding the pool back
# for good.
_requests = threading.Condition(threading.Lock())
_requests_in_flight: set[int] = set()
_requests_ended_at = 0.0


class BackgroundFull(RuntimeError):
    """The in-process pool already holds ``BACKGROUND_QUEUE_MAX`` tasks."""


def job_submit(
    name: str,
    kwargs: Mapping[str, Any],
    *,
    job_id: int,
    noun: str,
    submitted_here: set[int],
    queued: Callable[[str, str], None],
) -> None:
    """Send a long job (a lab's simulation, a game's analysis) to a worker, or to this
    process's pool: the request never runs it. A full pool, or a broker that is down,
    leaves the job queued: ``queued(code, message)`` stores why, and asking or reading
    it again sends it again (with :func:`restart_claim` after a restart)."""
    try:
        task_submit(name, kwargs=kwargs)
        if in_process():
            submitted_here.add(job_id)
    except BackgroundFull as exc:
        logger.warning("%s %s not started: %s", noun, job_id, exc)
        queued("busy", f"The server is busy with other work; the {noun} is queued.")
    except Exception as exc:  # kombu's OperationalError and friends: the broker is down
        if in_process():
            raise
        logger.warning("%s %s not sent to a worker: %s", noun, job_id, exc)
        queued("broker_unavailable", f"No worker could be reached; the {noun} is queued.")


def restart_claim(
    jobs: Any,
    *,
    pk: int,
    field: str,
    active: Sequence[str],
    stalled: timedelta,
    submitted_here: set[int] | frozenset[int],
) -> bool:
    """Whether the caller should send job ``pk`` again: a pool job a restart cut short.

    Only without a broker: a worker that dies hands its task back to the broker
    (``acks_late``), but this pool's queue lives in memory, so after a restart of the
    embedded server its unfinished jobs (``field`` in ``active``, not touched for
    ``stalled``) would stay unfinished for good. ``jobs`` is the model's manager or
    queryset, with an ``updated_at`` field. The claim is one conditional UPDATE: two
    readers at once send the job once; one sent by this process is never claimed.
    """
    if not in_process() or pk in submitted_here:
        return False
    now = django_timezone.now()
    return bool(
        jobs.filter(pk=pk, **{f"{field}__in": list(active)}, updated_at__lt=now - stalled).update(
            updated_at=now
        )
    )


def in_process() -> bool:
    """Whether tasks run in this process (no broker) rather than on a worker."""
    return bool(current_app.conf.task_always_eager)


_serving_pid = 0


def serving_mark() -> None:
    """This process serves requests: its pool may take tasks (``core.apps`` calls it).

    Only a serving process outlives the tasks it queues. A management command
    (``import_records``, ``demo_data``) would exit with its pool's work undone, so
    its tasks run in it, as eager Celery runs them.
    """
    global _serving_pid
    _serving_pid = os.getpid()


def pool_used() -> bool:
    """Whether :func:`task_submit` hands tasks to this process's threads (no broker, a
    serving process, ``BACKGROUND_WORKERS`` above 0); otherwise it sends them, as
    ``.delay()`` does (running them at once when there is no broker)."""
    return (
        in_process()
        and _serving_pid == os.getpid()
        and int(getattr(settings, "BACKGROUND_WORKERS", 1)) > 0
    )


def task_submit(
    name: str, *, kwargs: Mapping[str, Any], then: Callable[[Any], None] | None = None
) -> None:
    """Run the Celery task ``name`` in the background: on a worker, or in this process's pool.

    Raises what ``.delay()`` raises when the broker is down, and :class:`BackgroundFull`
    when the in-process pool is full; in both cases nothing runs. ``then`` is called
    with the task's result once it ran in the pool (None if it failed); never when the
    task was sent to a worker.
    """
    if not pool_used():
        current_app.signature(name, kwargs=dict(kwargs)).delay()
        return
    workers = int(getattr(settings, "BACKGROUND_WORKERS", 1))
    global _pending, _pending_low
    low = name in getattr(settings, "BACKGROUND_LOW", ())
    with _lock:
        limit = int(getattr(settings, "BACKGROUND_QUEUE_MAX", 50))
        if _pending >= limit:
            raise BackgroundFull(f"{_pending} background tasks are waiting or running.")
        _pending += 1
        _pending_by_name[name] = _pending_by_name.get(name, 0) + 1
        if low:
            _pending_low += 1
            _low_threads[:] = [thread for thread in _low_threads if thread.is_alive()]
            if not _low_threads:
                thread = threading.Thread(target=_work_low, name="background-low", daemon=True)
                thread.start()
                _low_threads.append(thread)
            _low_tasks.put((2, next(_arrivals), name, dict(kwargs), then))
            return
        # Daemon threads: stopping the server (Ctrl-C, a code reload) never waits for a
        # long job; one cut short stays unfinished, as when a worker dies.
        _threads[:] = [thread for thread in _threads if thread.is_alive()]
        while len(_threads) < workers:
            thread = threading.Thread(target=_work, name="background", daemon=True)
            thread.start()
            _threads.append(thread)
        rank = _rank(name)
        _tasks.put((rank, next(_arrivals), name, dict(kwargs), then))
    if rank == 0:
        with _requests:
            _requests.notify_all()  # a task waiting for a quiet moment steps aside


def _rank(name: str) -> int:
    if name in getattr(settings, "BACKGROUND_URGENT", ()):
        return 0
    return 2 if name in getattr(settings, "BACKGROUND_LAST", ()) else 1


def _urgent_waiting() -> bool:
    with _tasks.mutex:
        return bool(_tasks.queue) and _tasks.queue[0][0] == 0


def _work() -> None:
    while True:
        entry = _tasks.get()
        if entry[0] > 0:
            quiet_wait(interrupt=_urgent_waiting)
            if _urgent_waiting():  # it came while this one waited: it goes first
                _tasks.put(entry)
                continue
        _rank, _arrival, name, kwargs, then = entry
        _run(name, kwargs, then)


def _work_low() -> None:
    while True:
        _rank, _arrival, name, kwargs, then = _low_tasks.get()
        quiet_wait()
        _run(name, kwargs, then, low=True)


# --- yielding to requests ------------------------------------------------------------------


def request_began() -> None:
    """A request of this process began (``core.apps``, on ``request_started``)."""
    with _requests:
        _requests_in_flight.add(threading.get_ident())


def request_ended() -> None:
    """A request of this process ended (``core.apps``, on ``request_finished``)."""
    global _requests_ended_at
    with _requests:
        _requests_in_flight.discard(threading.get_ident())
        _requests_ended_at = time.monotonic()
        _requests.notify_all()


def quiet_wait(*, interrupt: Callable[[], bool] | None = None) -> float:
    """Wait for a quiet moment: no request in flight for ``BACKGROUND_QUIET_SECONDS``.

    Gives up after ``BACKGROUND_QUIET_MAX_SECONDS``, or as soon as ``interrupt()`` is true
    (an urgent task arrived). Returns the seconds waited. The pool's threads call it
    before each task but the urgent ones (see the module).
    """
    quiet = float(getattr(settings, "BACKGROUND_QUIET_SECONDS", 0.3))
    most = float(getattr(settings, "BACKGROUND_QUIET_MAX_SECONDS", 30))
    started = time.monotonic()
    if quiet <= 0:
        return 0.0
    with _requests:
        while True:
            now = time.monotonic()
            left = most - (now - started)
            if left <= 0 or (interrupt is not None and interrupt()):
                break
            if not _requests_in_flight:
                idle = now - _requests_ended_at
                if idle >= quiet:
                    break
                left = min(left, quiet - idle)
            _requests.wait(left)
    return time.monotonic() - started


def _run(
    name: str, kwargs: dict[str, Any], then: Callable[[Any], None] | None, *, low: bool = False
) -> None:
    global _pending, _pending_low
    result = None
    try:
        result = current_app.signature(name, kwargs=kwargs).apply(throw=True).result
    except Exception:
        logger.exception("background task %s %s failed", name, kwargs)
    finally:
        connections.close_all()  # this thread's own connections; the next task opens its own
        try:
            if then is not None:
                then(result)
        finally:
            with _lock:
                _pending -= 1
                _pending_by_name[name] -= 1
                if low:
                    _pending_low -= 1
                _idle.notify_all()


def background_pending(name: str | None = None) -> int:
    """Tasks waiting or running in this process's pool (those named ``name``, if given)."""
    with _lock:
        return _pending if name is None else _pending_by_name.get(name, 0)


def background_wait(timeout: float | None = None) -> bool:
    """Wait until the pool has nothing waiting or running; False if ``timeout`` passed first."""
    with _lock:
        return _idle.wait_for(lambda: _pending == 0, timeout=timeout)


# --- the sweeps, without beat --------------------------------------------------------------

_sweeper: threading.Thread | None = None
_sweeper_pid = 0


def sweeps_start() -> bool:
    """Start this process's sweeper thread once, if the pool is used; True if it started.

    Called as a request begins (``core.apps``): a web process that serves runs the sweeps,
    a management command never does. A forked process starts its own.
    """
    global _sweeper, _sweeper_pid
    if _sweeper_pid == os.getpid():  # every request asks: the answer is known
        return False
    if not pool_used() or not getattr(settings, "BACKGROUND_SWEEPS", ()):
        return False
    with _lock:
        if _sweeper is not None and _sweeper_pid == os.getpid() and _sweeper.is_alive():
            return False
        _sweeper_pid = os.getpid()
        _sweeper = threading.Thread(target=_sweep_forever, name="background-sweeps", daemon=True)
        _sweeper.start()
    return True


def _sweep_forever() -> None:
    last: dict[str, float] = {}
    busy: set[str] = set()
    while True:
        try:
            sweeps_due(last=last, busy=busy)
        except Exception:
            logger.exception("background sweeps")
        time.sleep(float(getattr(settings, "BACKGROUND_SWEEP_TICK_SECONDS", 5)))


def sweeps_due(*, last: dict[str, float], busy: set[str], now: float | None = None) -> list[str]:
    """Hand the pool the beat entries named in ``BACKGROUND_SWEEPS`` that are due.

    An entry is due when the pool is idle, its low lane aside (a sweep would otherwise
    find work the pool already holds, and do it twice) and either it never ran, its beat
    interval passed, or its last run found work (it returns a count: there may be more,
    as after a restart that lost a large import's ingest). ``last`` and ``busy`` carry
    what earlier calls saw (when each was sent; which found work). Sweeps run in the
    pool, so the embedded database still has one background writer. Returns the entries
    sent.
    """
    now = time.monotonic() if now is None else now
    with _lock:
        busy_lanes = _pending - _pending_low  # the low lane holds no work a sweep finds
    if busy_lanes:
        return []
    sent = []
    for entry in getattr(settings, "BACKGROUND_SWEEPS", ()):
        beat = settings.CELERY_BEAT_SCHEDULE[entry]
        schedule = beat["schedule"]
        interval = schedule.total_seconds() if isinstance(schedule, timedelta) else 60.0
        if entry in last and entry not in busy and now - last[entry] < interval:
            continue
        last[entry] = now
        busy.discard(entry)

        def found(result: Any, entry: str = entry) -> None:
            if isinstance(result, int) and result > 0:
                busy.add(entry)

        try:
            task_submit(beat["task"], kwargs={}, then=found)
        except BackgroundFull:
            break
        sent.append(entry)
    return sent
