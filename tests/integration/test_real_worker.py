"""A real Celery worker process, a real Redis broker and PostgreSQL.

Runs whenever DATABASE_URL is PostgreSQL and CELERY_BROKER_URL is set (as in
CI). In CI (CI=true) a missing service fails the test instead of skipping it.
"""

from __future__ import annotations

import time

import pytest

from analytics.models import GameSummary, PlayerResult
from replays.models import Announcement
from replays.services import record_submit
from tests.integration.services import require_broker, require_postgres
from tests.integration.workers import new_queue, route_here, worker_env, worker_start, worker_stop

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker(monkeypatch, tmp_path):
    """One real worker (solo pool) on a queue of this test; its log is printed at the end."""
    require_postgres()
    broker = require_broker()
    queue = new_queue()
    log = tmp_path / "worker.log"
    process = worker_start(worker_env(broker=broker, queue=queue), log=log)
    route_here(monkeypatch, queue)
    yield process
    worker_stop(process)
    print(log.read_text()[-4000:])


def test_record_reaches_analytics_through_a_real_worker(worker, make_document):
    document = make_document(seed=77)
    record, created = record_submit(document=document)
    assert created
    announcement = Announcement.objects.get(record=record)
    assert announcement.dispatched_at is not None, announcement.last_error
    # Nothing ran in this process: the summary can only come from the worker.
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if PlayerResult.objects.filter(record=record).count() == len(document["players"]):
            break
        assert worker.poll() is None, "the worker process exited"
        time.sleep(0.5)
    else:
        pytest.fail("the worker did not ingest the record within 90 s")
    scores = list(
        PlayerResult.objects.filter(record=record).order_by("seat").values_list("score", flat=True)
    )
    assert scores == record.result["scores"]
    assert GameSummary.objects.get(game=record.game).games == 1
