"""A real Celery worker process, a real Redis broker and PostgreSQL.

Runs whenever DATABASE_URL is PostgreSQL and CELERY_BROKER_URL is set (as in
CI). In CI (CI=true) a missing service fails the test instead of skipping it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from celery import current_app
from django.db import connection

from analytics.models import GameSummary, PlayerResult
from replays.models import Announcement
from replays.services import record_submit
from tests.integration.services import require_broker, require_postgres

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker(monkeypatch):
    require_postgres()
    broker = require_broker()
    db = connection.settings_dict
    queue = f"test-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": "test-only-secret-key",
        "DATABASE_URL": (
            f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}/{db['NAME']}"
        ),
        "CELERY_BROKER_URL": broker,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "CELERY_ANALYTICS_QUEUE": queue,
        "CELERY_IMPORTS_QUEUE": queue,
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--without-gossip",
            "--without-mingle",
            "--loglevel=INFO",
            "-Q",
            queue,
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    monkeypatch.setitem(current_app.conf, "task_always_eager", False)
    monkeypatch.setitem(current_app.conf, "task_default_queue", queue)
    # Every task to this test's own queue (production routes analytics and imports
    # to queues of their own, which this worker does not listen to).
    monkeypatch.setitem(current_app.conf, "task_routes", {})
    monkeypatch.setattr(current_app.amqp, "router", current_app.amqp.Router())
    yield process
    process.terminate()
    try:
        output, _ = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
    print(output[-4000:])


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
