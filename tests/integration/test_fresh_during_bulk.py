"""A single upload reaches analytics while a long bulk ingest is queued (real workers).

The workers run as docs/operations.md says: one on the analytics queue (a single
upload's ``analytics.record_ingest``), one on the import queues, which hold a bulk
import's ``analytics.records_ingest`` batches. A club's upload is then never behind
another club's history being ingested.
"""

from __future__ import annotations

import time

import pytest

from analytics.models import PlayerResult
from replays.bulk import records_import
from replays.models import Announcement, Record
from replays.services import record_submit
from tests.integration.services import require_broker, require_postgres
from tests.integration.workers import (
    new_queue,
    routes_set,
    worker_env,
    worker_start,
    worker_stop,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

BULK_RECORDS = 400
BULK_BATCH = 20


@pytest.fixture
def workers(monkeypatch, tmp_path):
    """The analytics worker and the import worker, each on its own queue of this test."""
    require_postgres()
    broker = require_broker()
    analytics, bulk = new_queue(), new_queue()
    queues = {"CELERY_ANALYTICS_QUEUE": analytics, "CELERY_ANALYTICS_BULK_QUEUE": bulk}
    logs = [tmp_path / "analytics.log", tmp_path / "bulk.log"]
    processes = [
        worker_start(worker_env(broker=broker, queue=analytics, **queues), log=logs[0]),
        worker_start(
            worker_env(broker=broker, queue=bulk, CELERY_IMPORTS_QUEUE=bulk, **queues),
            log=logs[1],
        ),
    ]
    from celery import current_app

    monkeypatch.setitem(current_app.conf, "task_always_eager", False)
    monkeypatch.setitem(current_app.conf, "task_default_queue", analytics)
    # As config.settings routes them: batches to the bulk queue, the rest to analytics.
    routes_set(
        monkeypatch,
        {"analytics.records_ingest": {"queue": bulk}, "analytics.*": {"queue": analytics}},
    )
    yield processes
    for process in processes:
        worker_stop(process)
    for log in logs:
        print(log.read_text()[-3000:])


def test_a_single_upload_is_ingested_while_a_bulk_import_waits_its_turn(workers, make_document):
    documents = [(k, make_document(seed=5000 + k)) for k in range(1, BULK_RECORDS + 1)]
    bulk_ids = [
        outcome.record_id
        for outcome in records_import(documents, batch_size=BULK_BATCH)
        if outcome.status == "stored"
    ]
    assert len(bulk_ids) == BULK_RECORDS
    assert Announcement.objects.filter(dispatched_at__isnull=True).count() == 0
    document = make_document("gift_swap", seed=9001)
    record, created = record_submit(document=document)
    assert created
    deadline = time.monotonic() + 90
    while not PlayerResult.objects.filter(record=record).exists():
        assert time.monotonic() < deadline, "the single upload was not ingested within 90 s"
        assert all(process.poll() is None for process in workers), "a worker exited"
        time.sleep(0.1)
    # The bulk ingest is still under way: the upload did not wait for it.
    waiting = Record.objects.filter(pk__in=bulk_ids, player_results__isnull=True).count()
    assert waiting > 0
    # And the bulk ingest does finish, on its own worker.
    deadline = time.monotonic() + 600
    while Record.objects.filter(pk__in=bulk_ids, player_results__isnull=True).exists():
        assert time.monotonic() < deadline, "the bulk ingest did not finish within 10 min"
        assert all(process.poll() is None for process in workers), "a worker exited"
        time.sleep(0.5)
    ingested = PlayerResult.objects.filter(record_id__in=bulk_ids).values("record").distinct()
    assert ingested.count() == BULK_RECORDS
