"""Ratings through real Celery workers, Redis and PostgreSQL.

1. A record uploaded with ``POST /api/records/`` is on its leaderboard within seconds.
2. Records uploaded out of order, in parallel, by several processes, ingested by
   several workers at once, give the ratings of one in-order openskill loop.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analytics.models import PlayerRating, RatingApplication, RatingHistory, RatingScope
from replays.models import Announcement, Record
from tests.analytics.ratings_helpers import openskill_ratings, table
from tests.integration.services import require_broker, require_postgres
from tests.integration.workers import (
    new_queue,
    route_here,
    worker_env,
    worker_start,
    worker_stop,
)

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def service_env(queue: str) -> dict[str, str]:
    return worker_env(broker=os.environ.get("CELERY_BROKER_URL", ""), queue=queue)


@pytest.fixture
def workers(monkeypatch, tmp_path):
    """``workers(n)``: n separate worker processes (solo pool) on a queue of this test."""
    require_postgres()
    broker = require_broker()
    queue = new_queue()
    route_here(monkeypatch, queue)
    started: list[subprocess.Popen] = []

    def start(n: int = 1) -> str:
        for _ in range(n):
            number = len(started)
            started.append(
                worker_start(
                    worker_env(broker=broker, queue=queue),
                    "-n",
                    f"{queue}-{number}@%h",
                    log=tmp_path / f"worker-{number}.log",
                )
            )
        return queue

    yield start
    for process in started:
        worker_stop(process)
    for log in sorted(tmp_path.glob("worker-*.log")):
        print(log.read_text()[-3000:])


def wait_for(check, *, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"{what} did not happen within {seconds} s")


def test_uploaded_record_shows_on_its_leaderboard_within_seconds(workers, api):
    workers(1)
    # The first record also waits for the worker to start; the second is the measurement.
    first = table(["ana", "ben", "cleo"], [9, 4, 1], day=1)
    assert api.post("/api/records/", first, format="json").status_code == 201
    board = lambda: api.get("/api/leaderboards/", {"game": "gift_gift_gone"}).json()  # noqa: E731
    wait_for(lambda: board()["count"] == 3, seconds=90, what="the worker's first ingest")
    posted = time.monotonic()
    second = table(["ana", "ben", "dev"], [2, 8, 5], day=2)
    response = api.post("/api/records/", second, format="json")
    assert response.status_code == 201, response.json()
    body = wait_for(
        lambda: (b := board())["count"] == 4 and b, seconds=10, what="the leaderboard update"
    )
    elapsed = time.monotonic() - posted
    print(f"record visible on its leaderboard {elapsed:.2f} s after POST /api/records/")
    rows = {r["player"]: r for r in body["results"]}
    assert rows["dev"]["games"] == 1
    assert rows["ana"]["games"] == 2
    expected = openskill_ratings(
        [(["ana", "ben", "cleo"], [1, 2, 3]), (["ana", "ben", "dev"], [3, 1, 2])]
    )
    assert rows["dev"]["mu"] == pytest.approx(expected["dev"][0], abs=1e-9)


SUBMITTER = """
import json, sys
import django
django.setup()
from replays.services import record_submit
for document in json.load(open(sys.argv[1])):
    record_submit(document=document)
"""


def test_parallel_out_of_order_uploads_equal_one_in_order_openskill_loop(workers, tmp_path):
    queue = workers(3)
    rng = random.Random(11)
    names = [f"p{i}" for i in range(8)]
    documents = []
    for k in range(48):
        seated = rng.sample(names, rng.randint(2, 4))
        scores = [rng.randint(0, 6) for _ in seated]  # small scores: many ties
        day = k // 2 if k % 6 else (k // 2) - 1  # some records share a played_at: id breaks it
        documents.append(table(seated, scores, day=max(day, 0) + (k % 2) * 0.25))
    rng.shuffle(documents)  # out of order
    uploaders = []
    for number in range(4):
        path = tmp_path / f"share-{number}.json"
        path.write_text(json.dumps(documents[number::4]))
        uploaders.append(
            subprocess.Popen(
                [sys.executable, "-c", SUBMITTER, str(path)],
                cwd=ROOT,
                env=service_env(queue),
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
        )
    for process in uploaders:
        output, _ = process.communicate(timeout=300)
        assert process.returncode == 0, output
    assert Record.objects.count() == len(documents)
    assert not Announcement.objects.filter(dispatched_at__isnull=True).exists()
    key = "game:gift_gift_gone"
    wait_for(
        lambda: (
            RatingApplication.objects.filter(scope__key=key).count() == len(documents)
            and not _busy()
        ),
        seconds=240,
        what="rating every record",
    )
    time.sleep(2)  # let any last redelivery finish: it must change nothing
    ordered = Record.objects.order_by("played_at", "id").prefetch_related("seats__player")
    games = [
        ([s.player.name for s in sorted(r.seats.all(), key=lambda s: s.seat)], r.result["ranks"])
        for r in ordered
    ]
    expected = openskill_ratings(games)
    got = {
        r.player.name: (r.mu, r.sigma)
        for r in PlayerRating.objects.filter(scope__key=key).select_related("player")
    }
    assert set(got) == set(expected)
    for name, (mu, sigma) in expected.items():
        assert got[name][0] == pytest.approx(mu, abs=1e-9), name
        assert got[name][1] == pytest.approx(sigma, abs=1e-9), name
    # Shuffled uploads: some records arrived late and made the scope recompute from them.
    assert RatingScope.objects.get(key=key).recomputes > 0
    # Each record exactly once, and each player's history counts up one game at a time.
    seats = sum(len(players) for players, _ in games)
    assert RatingHistory.objects.filter(scope__key=key).count() == seats
    for name in names:
        counts = list(
            RatingHistory.objects.filter(scope__key=key, player__name=name)
            .order_by("order_at", "record_id")
            .values_list("games", flat=True)
        )
        assert counts == list(range(1, len(counts) + 1)), name


def _busy() -> bool:
    """Some record is not yet ingested (its per-seat results are missing)."""
    from analytics.models import PlayerResult

    return PlayerResult.objects.values("record").distinct().count() < Record.objects.count()


APPLIER = """
import json, sys, time
import django
django.setup()
from django.db import transaction
from analytics.ratings import ratings_apply
from replays.models import Record
ids = json.load(open(sys.argv[1]))
time.sleep(max(0.0, float(sys.argv[2]) - time.time()))  # everyone starts at once
for record_id in ids:
    with transaction.atomic():
        ratings_apply(record=Record.objects.get(pk=record_id))
"""


def test_concurrent_ratings_apply_from_processes_equals_one_in_order_loop(tmp_path):
    """Four processes apply shuffled records to one scope at the same time.

    Unlike the worker test, nothing else serialises them (the game summary's row
    lock in ``record_ingest``): only the scope lock and the unique application.
    """
    from analytics.ratings import ratings_deferred
    from replays.services import record_submit

    require_postgres()
    rng = random.Random(5)
    names = [f"q{i}" for i in range(6)]
    with ratings_deferred():  # store only; the processes below do the rating
        records = [
            record_submit(
                document=table(
                    (seated := rng.sample(names, rng.randint(2, 4))),
                    [rng.randint(0, 5) for _ in seated],
                    day=k / 3,
                )
            )[0]
            for k in range(60)
        ]
    assert not PlayerRating.objects.exists()
    ids = [r.pk for r in records]
    rng.shuffle(ids)
    start_at = time.time() + 4
    env = service_env("unused")
    processes = []
    for number in range(4):
        share = ids[number::4] + ids[: 10 * (number + 1)]  # overlapping: duplicates too
        path = tmp_path / f"ids-{number}.json"
        path.write_text(json.dumps(share))
        processes.append(
            subprocess.Popen(
                [sys.executable, "-c", APPLIER, str(path), str(start_at)],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
        )
    for process in processes:
        output, _ = process.communicate(timeout=300)
        assert process.returncode == 0, output
    key = "game:gift_gift_gone"
    ordered = Record.objects.order_by("played_at", "id").prefetch_related("seats__player")
    games = [
        ([s.player.name for s in sorted(r.seats.all(), key=lambda s: s.seat)], r.result["ranks"])
        for r in ordered
    ]
    expected = openskill_ratings(games)
    got = {
        r.player.name: (r.mu, r.sigma)
        for r in PlayerRating.objects.filter(scope__key=key).select_related("player")
    }
    assert set(got) == set(expected)
    for name, (mu, sigma) in expected.items():
        assert got[name][0] == pytest.approx(mu, abs=1e-9), name
        assert got[name][1] == pytest.approx(sigma, abs=1e-9), name
    assert RatingApplication.objects.filter(scope__key=key).count() == len(records)
    seats = sum(len(players) for players, _ in games)
    assert RatingHistory.objects.filter(scope__key=key).count() == seats
