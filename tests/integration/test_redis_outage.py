"""The compose layout's one Redis (Celery's broker and Django's cache) stopped during mixed
traffic: no answer is a 5xx, no accepted record is lost, and the backlog drains after.

As compose.yaml runs it, one Redis serves both: this process's cache
(``core.cache.ResilientRedisCache``) and its Celery app, and a real worker (with beat
embedded, sweeping every second) whose broker and cache are the same Redis. The shared
Redis on 6379 is never touched: the test starts its own throw-away ``redis-server``.

A thread sends mixed traffic the whole time, as several clients would: reads of the
record, step, timeline and list API (the cached fast path) and the replay page, single
uploads, bulk uploads and import jobs. Redis is shut down in the middle of it, then
started again, empty (as a restarted container without persistence: what the broker had
queued is gone). Then:

* no answer was a 5xx (throttles failed open, pages were built from the database);
* every upload answered 201, every bulk line and every import was accepted, and each
  accepted record is stored: the imports accepted while Redis was down, and those whose
  queued messages the restart lost, are sent again by the import sweep;
* the outbox drains (no announcement pending) and every record is ingested;
* reads after the outage answer what is stored (the list counts every record).
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections import Counter
from collections.abc import Iterator

import pytest
from celery import current_app
from django.db import connection
from rest_framework.test import APIClient

from analytics.models import PlayerResult
from core import cache as core_cache
from replays import response_cache
from replays.models import Announcement, ImportJob, Record, Seat
from replays.selectors import record_player_names
from tests.integration.services import missing_service, require_postgres
from tests.integration.test_broker_outage import ThrowAwayRedis, point_celery_at
from tests.integration.workers import new_queue, route_here, worker_env, worker_start, worker_stop

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

BEFORE, DURING, AFTER = 3.0, 6.0, 3.0  # seconds of traffic in each phase
SLOWEST_BOUND = 10.0  # seconds: no answer took longer (none waits on Redis; CI is loaded)
DRAIN_BOUND = 40  # seconds from the end of the traffic to every job and record done


@pytest.fixture
def one_redis(tmp_path, settings) -> Iterator[ThrowAwayRedis]:
    """A Redis of our own as this process's broker and cache, as in compose.yaml."""
    import shutil

    if shutil.which("redis-server") is None:
        missing_service("redis-server (to start a throw-away Redis)")
    server = ThrowAwayRedis(tmp_path)
    server.start()
    saved = current_app.conf.broker_url
    point_celery_at(server.url)
    settings.CACHES = {
        "default": {
            "BACKEND": "core.cache.ResilientRedisCache",
            "LOCATION": server.url,
            "KEY_PREFIX": "giftbox",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 2},
        }
    }
    settings.CACHE_RETRY_SECONDS = 1
    core_cache.breaker_reset()
    response_cache.local_bodies.clear()
    yield server
    point_celery_at(saved)
    core_cache.breaker_reset()
    response_cache.local_bodies.clear()
    if server.ping():
        server.stop()


class Traffic(threading.Thread):
    """Mixed requests in a loop until stopped; every answer's status is kept by phase."""

    def __init__(self, documents: Iterator[dict], seed_ids: list[int]) -> None:
        super().__init__(daemon=True)
        self.documents = documents
        self.read_ids = list(seed_ids)
        self.phase = "before"
        self.halt = threading.Event()
        self.statuses: Counter[tuple[str, str, int]] = Counter()
        self.slowest: dict[tuple[str, str], float] = {}  # (phase, kind): seconds
        self.rounds: Counter[str] = Counter()  # rounds finished, by the phase they ended in
        self.server_errors: list[tuple[str, str, int, bytes]] = []
        self.uploaded: list[int] = []
        self.bulk_stored: list[int] = []
        self.jobs: dict[int, int] = {}  # job id: lines sent
        self.failure: BaseException | None = None

    def note(self, kind: str, response, started: float) -> None:
        took = time.monotonic() - started
        key = (self.phase, kind)
        self.slowest[key] = max(self.slowest.get(key, 0.0), took)
        self.statuses[(self.phase, kind, response.status_code)] += 1
        if response.status_code >= 500:
            self.server_errors.append(
                (self.phase, kind, response.status_code, response.content[:300])
            )

    def run(self) -> None:
        client = APIClient()
        try:
            for turn in itertools.count():
                if self.halt.is_set():
                    break
                self.one_round(client, turn)
                self.rounds[self.phase] += 1
        except BaseException as exc:  # shown by the test, which fails on it
            self.failure = exc
        finally:
            connection.close()  # this thread's database connection

    def one_round(self, client: APIClient, turn: int) -> None:
        record_id = self.read_ids[turn % len(self.read_ids)]
        for kind, url in (
            ("detail", f"/api/records/{record_id}/"),
            ("step", f"/api/records/{record_id}/steps/3/"),
            ("step-seat", f"/api/records/{record_id}/steps/3/?seat=1"),
            ("timeline", f"/api/records/{record_id}/timeline/"),
            ("list", "/api/records/"),
            ("page", f"/records/{record_id}/"),
        ):
            started = time.monotonic()
            response = client.get(url)
            self.note(kind, response, started)
            assert response.status_code == 200 or response.status_code >= 500, (url, response)
        document = next(self.documents)
        started = time.monotonic()
        response = client.post("/api/records/", document, format="json")
        self.note("upload", response, started)
        if response.status_code == 201:
            self.uploaded.append(response.json()["id"])
            self.read_ids.append(response.json()["id"])
        if turn % 2 == 0:
            lines = "\n".join(json.dumps(next(self.documents)) for _ in range(2))
            started = time.monotonic()
            response = client.post("/api/records/bulk/", lines, content_type="application/x-ndjson")
            self.note("bulk", response, started)
            if response.status_code == 200:
                items = response.json()["items"]
                assert [item["status"] for item in items] == ["stored", "stored"], items
                self.bulk_stored += [item["id"] for item in items]
        else:
            lines = "\n".join(json.dumps(next(self.documents)) for _ in range(3))
            started = time.monotonic()
            response = client.post("/api/imports/", lines, content_type="application/x-ndjson")
            self.note("import", response, started)
            if response.status_code == 202:
                self.jobs[response.json()["id"]] = 3


def documents_made(make_document) -> Iterator[dict]:
    """Endless distinct games: a few simulated logs under new player names each time."""
    bases = [
        make_document(game, seed=seed, players=3)
        for seed, game in enumerate(["secret_santa", "gift_swap", "gift_gift_gone"])
    ]
    for n in itertools.count():
        base = bases[n % len(bases)]
        yield {**base, "players": [f"o{n}-{seat}" for seat in range(len(base["players"]))]}


def phase_run(traffic: Traffic, phase: str, seconds: float) -> None:
    """Let the traffic run ``seconds`` and end three rounds (two whole ones: one with a bulk
    upload, one with an import), however slow the machine."""
    started = time.monotonic()
    while time.monotonic() - started < seconds or traffic.rounds[phase] < 3:
        assert traffic.is_alive(), traffic.failure
        assert time.monotonic() - started < 60, f"three rounds of traffic took over 60 s ({phase})"
        time.sleep(0.1)


def wait_until(condition, *, bound: float, what: str, worker) -> float:
    started = time.monotonic()
    while not condition():
        assert worker.poll() is None, "the worker exited"
        assert time.monotonic() - started < bound, f"{what} not within {bound} s"
        time.sleep(0.25)
    return time.monotonic() - started


def test_one_redis_stopped_during_mixed_traffic(one_redis, make_document, monkeypatch, tmp_path):
    require_postgres()
    queue = new_queue()
    route_here(monkeypatch, queue)
    env = worker_env(
        broker=one_redis.url,
        queue=queue,
        CACHE_URL=one_redis.url,  # one Redis for both, as compose.yaml has it
        CACHE_RETRY_SECONDS="1",
        OUTBOX_SWEEP_SECONDS="1",
        IMPORT_SWEEP_SECONDS="1",
        IMPORT_SWEEP_AFTER_SECONDS="3",
        INGEST_SWEEP_SECONDS="1",
        INGEST_SWEEP_AFTER_SECONDS="3",
    )
    log = tmp_path / "worker.log"
    worker = worker_start(env, "--beat", "--schedule", str(tmp_path / "beat"), log=log)
    documents = documents_made(make_document)
    client = APIClient()
    seeded = []
    for _ in range(3):
        response = client.post("/api/records/", next(documents), format="json")
        assert response.status_code == 201, response.content[:300]
        seeded.append(response.json()["id"])
    traffic = Traffic(documents, seeded)
    try:
        traffic.start()
        phase_run(traffic, "before", BEFORE)
        traffic.phase = "during"
        one_redis.stop()
        phase_run(traffic, "during", DURING)
        one_redis.start()  # empty: the broker's queued messages are gone
        traffic.phase = "after"
        phase_run(traffic, "after", AFTER)
        traffic.halt.set()
        traffic.join(timeout=60)
        assert not traffic.is_alive(), "the traffic did not stop"
        if traffic.failure is not None:
            raise traffic.failure
        print(sorted(traffic.statuses.items()))
        print({key: round(took, 2) for key, took in sorted(traffic.slowest.items())})

        assert traffic.server_errors == []
        during = {kind for (phase, kind, _), n in traffic.statuses.items() if phase == "during"}
        assert {"detail", "list", "page", "upload", "bulk", "import"} <= during, during
        # Nothing waits long on the missing Redis: the breaker skips the cache, and a
        # publish to the missing broker is refused within its retry policy.
        assert max(traffic.slowest.values()) < SLOWEST_BOUND, traffic.slowest

        took = wait_until(
            lambda: (
                not ImportJob.objects.filter(finished_at__isnull=True).exists()
                and not Announcement.objects.filter(dispatched_at__isnull=True).exists()
                and PlayerResult.objects.count() == Seat.objects.count()
            ),
            bound=DRAIN_BOUND,
            what="every import job done, the outbox drained and every record ingested",
            worker=worker,
        )
        print(f"the backlog drained {took:.1f} s after the traffic")
    except AssertionError:
        print(log.read_text()[-6000:])
        raise
    finally:
        traffic.halt.set()
        worker_stop(worker)

    # 0 records lost: everything accepted is stored.
    stored = set(Record.objects.values_list("id", flat=True))
    assert set(traffic.uploaded) <= stored
    assert set(traffic.bulk_stored) <= stored
    jobs = ImportJob.objects.in_bulk(list(traffic.jobs))
    assert len(jobs) == len(traffic.jobs)
    for job_id, lines in traffic.jobs.items():
        job = jobs[job_id]
        assert (job.stored, job.refused, job.present) == (lines, 0, 0), job_id
    imported = sum(traffic.jobs.values())
    expected = len(seeded) + len(traffic.uploaded) + len(traffic.bulk_stored) + imported
    assert Record.objects.count() == expected
    # Reads after the outage answer what is stored, not a copy from before it.
    client = APIClient()
    listed = client.get("/api/records/?page_size=200")
    assert listed.status_code == 200
    assert len(listed.json()["results"]) == min(200, expected)
    newest = Record.objects.order_by("-id").first()
    detail = client.get(f"/api/records/{newest.pk}/")
    assert detail.status_code == 200
    assert detail.json()["players"] == record_player_names(newest)
