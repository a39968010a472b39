"""Redis stopped while records are uploaded: every upload still succeeds, and analytics
catch up once Redis is back, through the outbox sweep.

The shared Redis on 6379 is never touched: the test starts its own throw-away
``redis-server`` (port 6390 when free), points this process and a real worker (with
beat embedded, sweeping every 2 s) at it, shuts it down while uploading, then starts
it again on the same port. Uploads answer 201 while it is down (the record and its
announcement are one transaction; the announcement just stays pending), and once it
is back every announcement goes out and every record is ingested within
``CATCH_UP_BOUND`` seconds; the derived data then equals a fresh computation.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from celery import current_app
from rest_framework.test import APIClient

from analytics.models import PlayerResult
from analytics.services import analytics_rebuild
from games.registry import engine_slugs
from replays.models import Announcement, Record, Seat
from tests.analytics.dump import analytics_dump
from tests.integration.services import missing_service, require_postgres
from tests.integration.workers import new_queue, route_here, worker_env, worker_start, worker_stop

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

SWEEP_SECONDS = 2
CATCH_UP_BOUND = 60  # seconds from Redis back to every record ingested


def free_port(preferred: int) -> int:
    for port in (preferred, 0):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return probe.getsockname()[1]
    raise RuntimeError("no free port")


class ThrowAwayRedis:
    """A redis-server of our own: no persistence, so a restart starts empty."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port(6390)
        self.folder = folder
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def ping(self) -> bool:
        answer = subprocess.run(
            ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True
        )
        return answer.stdout.strip() == "PONG"

    def start(self) -> None:
        subprocess.run(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "yes",
                "--dir",
                str(self.folder),
                "--pidfile",
                str(self.folder / "redis.pid"),
                "--logfile",
                str(self.folder / "redis.log"),
            ],
            check=True,
        )
        deadline = time.monotonic() + 10
        while not self.ping():
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        subprocess.run(
            ["redis-cli", "-p", str(self.port), "shutdown", "nosave"], capture_output=True
        )
        deadline = time.monotonic() + 10
        while self.ping():
            assert time.monotonic() < deadline, "redis-server did not stop"
            time.sleep(0.05)


def point_celery_at(url: str) -> None:
    """This process's Celery app publishes to ``url`` from now on (pools rebuilt)."""
    # Celery copies broker_url into the read and write URLs when it is configured.
    current_app.conf.broker_url = current_app.conf.broker_write_url = url
    current_app.conf.broker_read_url = url
    current_app._pool = None
    current_app.amqp._producer_pool = None


@pytest.fixture
def redis(tmp_path, monkeypatch) -> Iterator[ThrowAwayRedis]:
    if shutil.which("redis-server") is None:
        missing_service("redis-server (to start a throw-away Redis)")
    server = ThrowAwayRedis(tmp_path)
    server.start()
    saved = current_app.conf.broker_url
    point_celery_at(server.url)
    yield server
    point_celery_at(saved)
    server.stop()


def upload(client: APIClient, document: dict) -> int:
    response = client.post("/api/records/", document, format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def wait_until(condition, *, bound: float, what: str, worker) -> float:
    started = time.monotonic()
    while not condition():
        assert worker.poll() is None, "the worker exited"
        assert time.monotonic() - started < bound, f"{what} not within {bound} s"
        time.sleep(0.2)
    return time.monotonic() - started


def test_uploads_succeed_while_redis_is_down_and_analytics_catch_up(
    redis, make_document, monkeypatch, tmp_path
):
    require_postgres()
    queue = new_queue()
    monkeypatch.setitem(current_app.conf, "task_always_eager", False)
    monkeypatch.setitem(current_app.conf, "task_default_queue", queue)
    route_here(monkeypatch, queue)
    env = worker_env(broker=redis.url, queue=queue, OUTBOX_SWEEP_SECONDS=str(SWEEP_SECONDS))
    log = tmp_path / "worker.log"
    worker = worker_start(env, "--beat", "--schedule", str(tmp_path / "beat"), log=log)
    client = APIClient()
    games = engine_slugs()
    try:
        before = [upload(client, make_document(game, seed=500)) for game in games]
        wait_until(
            lambda: (
                PlayerResult.objects.filter(record_id__in=before).count()
                == Seat.objects.filter(record_id__in=before).count()
            ),
            bound=60,
            what="ingest before the outage",
            worker=worker,
        )

        redis.stop()
        during = [
            upload(client, make_document(games[n % len(games)], seed=600 + n)) for n in range(10)
        ]
        pending = Announcement.objects.filter(record_id__in=during)
        assert pending.count() == len(during)
        assert all(a.dispatched_at is None and a.attempts >= 1 for a in pending)
        assert not PlayerResult.objects.filter(record_id__in=during).exists()
        for record_id in during:  # stored and readable while the broker is away
            assert client.get(f"/api/records/{record_id}/").status_code == 200

        redis.start()
        took = wait_until(
            lambda: (
                PlayerResult.objects.count() == Seat.objects.count()
                and not Announcement.objects.filter(dispatched_at__isnull=True).exists()
            ),
            bound=CATCH_UP_BOUND,
            what="every record ingested after Redis came back",
            worker=worker,
        )
        print(f"analytics caught up {took:.1f} s after Redis came back")
    except AssertionError:
        print(log.read_text()[-4000:])
        raise
    finally:
        worker_stop(worker)

    assert Record.objects.count() == len(before) + len(during)
    incremental = analytics_dump()
    analytics_rebuild()
    assert analytics_dump() == incremental
