"""Real Celery worker processes for the fault tests (started, killed, restarted)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def database_url(application_name: str = "") -> str:
    """The test database's URL; ``application_name`` shows in ``pg_stat_activity``."""
    db = connection.settings_dict
    query = f"?application_name={application_name}" if application_name else ""
    return (
        f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}{query}"
    )


def waiting_on_a_lock(application_name: str) -> bool:
    """Whether a process connected as ``application_name`` waits for a lock, in a query."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE application_name = %s AND wait_event_type = 'Lock'",
            [application_name],
        )
        return cursor.fetchone()[0] > 0


@contextmanager
def table_locked(table: str) -> Iterator[None]:
    """Hold a lock on ``table`` from a second connection: others may read it, but a
    writer waits inside its transaction until the block ends (SHARE mode)."""
    db = connection.settings_dict
    with psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db["PASSWORD"] or None,
        dbname=db["NAME"],
    ) as other:
        with other.cursor() as cursor:
            cursor.execute(f'LOCK TABLE "{table}" IN SHARE MODE')
            yield
        other.rollback()


def new_queue() -> str:
    return f"test-{uuid.uuid4().hex[:8]}"


def worker_env(*, broker: str, queue: str, **extra: str) -> dict[str, str]:
    """The environment of a worker on the test database and its own queue (its
    database connections are named after the queue)."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": "test-only-secret-key",
        "DATABASE_URL": database_url(application_name=queue),
        "CELERY_BROKER_URL": broker,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        # Whatever the worker itself sends (analytics, imports) stays on this queue too.
        "CELERY_ANALYTICS_QUEUE": queue,
        "CELERY_ANALYTICS_BULK_QUEUE": queue,
        "CELERY_IMPORTS_QUEUE": queue,
        "CELERY_SIMULATIONS_QUEUE": queue,
        "CELERY_ANALYSIS_QUEUE": queue,
        "CELERY_REPLAYS_QUEUE": queue,
        **extra,
    }


def route_here(monkeypatch: Any, queue: str) -> None:
    """Send this process's tasks to the test's own queue, past the production routes
    (``CELERY_TASK_ROUTES`` puts analytics and imports on queues of their own)."""
    from celery import current_app

    monkeypatch.setitem(current_app.conf, "task_always_eager", False)
    monkeypatch.setitem(current_app.conf, "task_default_queue", queue)
    routes_set(monkeypatch, {})


def routes_set(monkeypatch: Any, routes: dict[str, Any]) -> None:
    """Route this process's tasks by ``routes`` from now on: Celery prepares the routes
    once (``amqp._rtable``) and builds the router once, so both are made again."""
    from celery import current_app

    monkeypatch.setitem(current_app.conf, "task_routes", routes)
    current_app.amqp.flush_routes()
    monkeypatch.setattr(current_app.amqp, "router", current_app.amqp.Router())


def worker_start(
    env: dict[str, str], *args: str, log: Path, pool: str = "solo"
) -> subprocess.Popen[Any]:
    """A worker in a process group of its own (``worker_kill`` kills the whole group,
    as an OOM kill or ``docker kill`` of the container would)."""
    handle = log.open("a")
    pool_args = ["--pool=solo"] if pool == "solo" else ["--pool=prefork", "--concurrency=2"]
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            *pool_args,
            "--without-gossip",
            "--without-mingle",
            "--loglevel=INFO",
            "-Q",
            env["CELERY_TASK_DEFAULT_QUEUE"],
            *args,
        ],
        cwd=ROOT,
        env=env,
        stdout=handle,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def worker_kill(process: subprocess.Popen[Any]) -> None:
    """SIGKILL the worker and its pool processes at once: nothing gets to clean up."""
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


def worker_stop(process: subprocess.Popen[Any]) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
