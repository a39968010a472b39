"""Import jobs on their own queue with two real workers; a bulk import cut off mid-way.

Needs PostgreSQL and Redis (CI=true: a missing service fails the test).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import orjson
import pytest
from celery import current_app
from django.db import connection

from replays import imports
from replays.models import ImportJob, Record, Seat
from tests.conftest import make_illegal
from tests.integration.services import require_broker, require_postgres
from tests.integration.workers import routes_set

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _env(**extra: str) -> dict[str, str]:
    db = connection.settings_dict
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": "test-only-secret-key",
        "DATABASE_URL": (
            f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}/{db['NAME']}"
        ),
        **extra,
    }


def _corpus(make_document, count: int) -> list[dict]:
    """``count`` distinct games: a few simulated logs with different player names."""
    bases = [make_document(game, seed=s) for s, game in enumerate(["gift_swap", "secret_santa"])]
    documents = []
    for i in range(count):
        base = bases[i % len(bases)]
        names = [f"p{i}-{seat}" for seat in range(len(base["players"]))]
        documents.append({**base, "players": names})
    return documents


@pytest.fixture
def two_workers(monkeypatch):
    require_postgres()
    broker = require_broker()
    queue = f"imports-{uuid.uuid4().hex[:8]}"
    env = _env(CELERY_BROKER_URL=broker, CELERY_TASK_ALWAYS_EAGER="0", CELERY_IMPORTS_QUEUE=queue)
    processes = [
        subprocess.Popen(
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
                "-n",
                f"w{i}-{queue}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for i in range(2)
    ]
    monkeypatch.setitem(current_app.conf, "task_always_eager", False)
    # Publish to this run's broker with fresh connections, whatever an earlier test in
    # this process pointed the app at (the broker-outage test uses a throw-away Redis).
    for name in ("broker_url", "broker_read_url", "broker_write_url"):
        monkeypatch.setitem(current_app.conf, name, broker)
    current_app._pool = None
    current_app.amqp._producer_pool = None
    routes_set(monkeypatch, {imports.RUN_TASK: {"queue": queue}})
    yield processes
    outputs = []
    for process in processes:
        process.terminate()
        try:
            outputs.append(process.communicate(timeout=20)[0])
        except subprocess.TimeoutExpired:
            process.kill()
            outputs.append(process.communicate()[0])
    for output in outputs:
        print(output[-3000:])
    two_workers.outputs = outputs


def test_two_workers_share_a_job_and_store_every_record_once(two_workers, make_document):
    documents = _corpus(make_document, 120)
    bad, step = make_illegal(documents[5])
    lines = [orjson.dumps(d) for d in documents]
    lines[7] = orjson.dumps(bad)  # refused: its step is reported
    lines.append(lines[3])  # a duplicate in another chunk: present
    body = io.BytesIO(b"\n".join(lines) + b"\n")
    job = imports.import_job_create(stream=body, chunk_lines=6)
    assert job.chunks == 21
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.done:
            break
        time.sleep(0.5)
    assert job.done, f"{job.chunks_done} of {job.chunks} chunks done"
    assert (job.stored, job.present, job.refused) == (119, 1, 1)
    assert Record.objects.count() == 119
    digests = list(Record.objects.values_list("digest", flat=True))
    assert len(digests) == len(set(digests))
    assert Seat.objects.count() == sum(len(d["players"]) for i, d in enumerate(documents) if i != 7)
    view = imports.import_job_json(ImportJob.objects.get(pk=job.pk))
    assert view["refusals"] == [
        {"line": 8, "error": {**view["refusals"][0]["error"], "code": "illegal_event"}}
    ]
    assert view["refusals"][0]["error"]["detail"]["step"] == step
    # Both workers took part (each claims chunks with SKIP LOCKED).
    chunk_ids = job.chunk_rows.values_list("record_ids", flat=True)
    assert sum(len(ids) for ids in chunk_ids) == 119


def test_import_cut_off_mid_way_keeps_what_committed_and_runs_again_exactly_once(
    tmp_path, make_document
):
    require_postgres()
    documents = _corpus(make_document, 300)
    path = tmp_path / "club.ndjson"
    path.write_bytes(b"".join(orjson.dumps(d) + b"\n" for d in documents))
    command = [sys.executable, "manage.py", "import_records", str(path), "--batch-size", "10"]
    # Announcements go to a queue nobody reads: eager analytics in the importer would
    # reconnect it between records (Celery closes unusable connections around a task).
    queue = f"unread-{uuid.uuid4().hex[:8]}"
    env = _env(
        IMPORT_WORKERS="0",
        CELERY_BROKER_URL=require_broker(),
        CELERY_TASK_ALWAYS_EAGER="0",
        CELERY_TASK_DEFAULT_QUEUE=queue,
        CELERY_ANALYTICS_QUEUE=queue,
        CELERY_ANALYTICS_BULK_QUEUE=queue,
    )
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 60
    while Record.objects.count() < 20 and time.monotonic() < deadline:
        time.sleep(0.05)
    cuts = 0
    while process.poll() is None and time.monotonic() < deadline:
        # Cut the importer's connection (again, until one lands inside a query:
        # a cut between two queries can be healed by Django's health check).
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            cuts += sum(ok for (ok,) in cursor.fetchall())
        time.sleep(0.1)
    assert cuts, "the importer's connection was cut"
    out, err = process.communicate(timeout=120)
    assert process.returncode != 0, out[-2000:]
    stored_lines = [line for line in out.splitlines() if line.endswith(" stored")]
    not_stored = [line for line in err.splitlines() if "refused: not_stored" in line]
    committed = Record.objects.count()
    assert 20 <= committed < len(documents), "the cut came after the first batches, mid-way"
    assert len(stored_lines) == committed, "every line said stored is in the database"
    assert len(stored_lines) + len(not_stored) == len(documents)
    # Again: the rest is stored, what was committed is present; nothing twice.
    again = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr[-2000:]
    assert f"{len(documents) - committed} stored, {committed} already present, 0 refused" in (
        again.stdout
    )
    assert Record.objects.count() == len(documents)
    assert Record.objects.values("digest").distinct().count() == len(documents)
