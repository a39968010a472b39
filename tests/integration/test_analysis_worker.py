"""A game analysed by a real Celery worker that reads only the analysis queue, on Redis
and PostgreSQL: the request answers at once, the worker saves the result.

Runs whenever DATABASE_URL is PostgreSQL and CELERY_BROKER_URL is set (as in CI).
"""

from __future__ import annotations

import time

import pytest
import redis

from analytics import record_analysis
from analytics.models import RecordAnalysis
from games import analysis as engine_analysis
from tests.analytics.analysis_helpers import TINY, short_game, stored
from tests.integration.services import require_broker, require_postgres
from tests.integration.workers import (
    new_queue,
    routes_set,
    worker_env,
    worker_start,
    worker_stop,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_an_analysis_is_run_by_a_worker_of_the_analysis_queue(monkeypatch, tmp_path, make_document):
    require_postgres()
    broker = require_broker()
    queue, elsewhere = new_queue(), new_queue()
    log = tmp_path / "worker.log"
    # The worker reads only its analysis queue; everything else goes where none reads.
    env = worker_env(broker=broker, queue=queue)
    env["CELERY_TASK_DEFAULT_QUEUE"] = queue
    process = worker_start(env, log=log)
    from celery import current_app

    monkeypatch.setitem(current_app.conf, "task_always_eager", False)
    monkeypatch.setitem(current_app.conf, "task_default_queue", elsewhere)
    routes_set(monkeypatch, {record_analysis.TASK: {"queue": queue}})
    try:
        record = stored(short_game(make_document, seed=9))
        started = time.monotonic()
        row, queued = record_analysis.analysis_request(record=record, settings=TINY)
        assert queued
        assert time.monotonic() - started < 5, "the request waited for the analysis"
        deadline = time.monotonic() + 180
        while True:
            row.refresh_from_db()
            if row.status in ("done", "failed"):
                break
            assert process.poll() is None, "the worker process exited"
            assert time.monotonic() < deadline, f"not analysed within 180 s ({row.status})"
            time.sleep(0.5)
        assert row.status == "done", row.error
        result = engine_analysis.GameAnalysis.from_json(row.result)
        assert result.settings == TINY
        assert len(result.curve) == record.num_events + 1
        assert row.done == row.total > 0
        assert RecordAnalysis.objects.count() == 1
    finally:
        worker_stop(process)
        redis.Redis.from_url(broker).delete(queue, elsewhere)
        print(log.read_text()[-4000:])
