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
test settings, so a test's transaction sees what the task wrote).

Work in the pool lives as long as the process: a job cut short by a restart stays
unfinished, as one is when a worker dies; tasks must be idempotent so that sending
them again finishes the work.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Mapping
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import connections

logger = logging.getLogger("core.background")

_lock = threading.Lock()
_idle = threading.Condition(_lock)
_tasks: queue.SimpleQueue[tuple[str, dict[str, Any]]] = queue.SimpleQueue()
_threads: list[threading.Thread] = []
_pending = 0


class BackgroundFull(RuntimeError):
    """The in-process pool already holds ``BACKGROUND_QUEUE_MAX`` tasks."""


def in_process() -> bool:
    """Whether tasks run in this process (no broker) rather than on a worker."""
    return bool(current_app.conf.task_always_eager)


def task_submit(name: str, *, kwargs: Mapping[str, Any]) -> None:
    """Run the Celery task ``name`` in the background: on a worker, or in this process's pool.

    Raises what ``.delay()`` raises when the broker is down, and :class:`BackgroundFull`
    when the in-process pool is full; in both cases nothing runs.
    """
    workers = int(getattr(settings, "BACKGROUND_WORKERS", 1))
    if not in_process() or workers <= 0:
        current_app.signature(name, kwargs=dict(kwargs)).delay()
        return
    global _pending
    with _lock:
        limit = int(getattr(settings, "BACKGROUND_QUEUE_MAX", 50))
        if _pending >= limit:
            raise BackgroundFull(f"{_pending} background tasks are waiting or running.")
        _pending += 1
        # Daemon threads: stopping the server (Ctrl-C, a code reload) never waits for a
        # long job; one cut short stays unfinished, as when a worker dies.
        _threads[:] = [thread for thread in _threads if thread.is_alive()]
        while len(_threads) < workers:
            thread = threading.Thread(target=_work, name="background", daemon=True)
            thread.start()
            _threads.append(thread)
        _tasks.put((name, dict(kwargs)))


def _work() -> None:
    while True:
        name, kwargs = _tasks.get()
        _run(name, kwargs)


def _run(name: str, kwargs: dict[str, Any]) -> None:
    global _pending
    try:
        current_app.signature(name, kwargs=kwargs).apply(throw=True)
    except Exception:
        logger.exception("background task %s %s failed", name, kwargs)
    finally:
        connections.close_all()  # this thread's own connections; the next task opens its own
        with _lock:
            _pending -= 1
            _idle.notify_all()


def background_pending() -> int:
    """Tasks waiting or running in this process's pool."""
    with _lock:
        return _pending


def background_wait(timeout: float | None = None) -> bool:
    """Wait until the pool has nothing waiting or running; False if ``timeout`` passed first."""
    with _lock:
        return _idle.wait_for(lambda: _pending == 0, timeout=timeout)
