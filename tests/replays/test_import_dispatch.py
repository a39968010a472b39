"""An import while the broker is down is accepted (202, its id) and sent later by the sweep.

The broker is made to refuse every message (as kombu does when Redis is away); tasks
run eagerly once it is "back", so the sweep's re-sent job is imported in-process here.
The same with a real worker and a real Redis stopped: tests/integration/test_redis_outage.py.
"""

from __future__ import annotations

import json
import logging
from datetime import timedelta

import pytest
from celery import current_app
from celery.canvas import Signature
from django.core.management import call_command
from django.utils import timezone
from kombu.exceptions import OperationalError

from replays import imports
from replays.models import ImportJob, Record

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def broker_down(monkeypatch):
    """Tasks are published (not eager) and every publish fails as with Redis away."""
    sent: list[dict] = []

    def refused(self, *args, **kwargs):
        sent.append(dict(self.kwargs))
        raise OperationalError("Error 111 connecting to redis:6379. Connection refused.")

    monkeypatch.setitem(current_app.conf, "task_always_eager", False)
    monkeypatch.setattr(Signature, "delay", refused)
    return sent


def ndjson(make_document, seeds) -> str:
    return "\n".join(json.dumps(make_document("gift_swap", seed=seed)) for seed in seeds)


def test_an_import_while_the_broker_is_down_is_accepted_and_swept_later(
    api, make_document, broker_down, monkeypatch, caplog
):
    caplog.set_level(logging.WARNING, logger="replays.imports")
    response = api.post(
        "/api/imports/", ndjson(make_document, (1, 2, 3)), content_type="application/x-ndjson"
    )
    assert response.status_code == 202, response.content[:300]
    body = response.json()
    job = ImportJob.objects.get(pk=body["id"])
    assert response["Location"].endswith(f"/api/imports/{job.pk}/")
    assert broker_down == [{"job_id": job.pk}]  # one try, refused
    assert (job.dispatched_at, job.attempts) == (None, 1)
    assert "Connection refused" in job.last_error
    assert any(f"import job {job.pk} not sent" in r.getMessage() for r in caplog.records)
    assert not Record.objects.exists()

    # Still down: the sweep tries, fails, keeps the job.
    assert imports.import_jobs_sweep(idle_seconds=0) == 0
    job.refresh_from_db()
    assert (job.dispatched_at, job.attempts, job.finished_at) == (None, 2, None)

    # The broker is back (tasks run in-process here): the sweep sends it, it is imported.
    monkeypatch.undo()
    assert current_app.conf.task_always_eager
    assert imports.import_jobs_sweep(idle_seconds=0) == 1
    job.refresh_from_db()
    assert job.finished_at is not None
    assert job.dispatched_at is not None
    assert (job.stored, job.refused, job.attempts, job.last_error) == (3, 0, 3, "")
    assert Record.objects.count() == 3
    assert api.get(f"/api/imports/{job.pk}/").json()["done"] is True
    assert imports.import_jobs_sweep(idle_seconds=0) == 0  # nothing left to send


def test_the_sweep_sends_only_jobs_no_worker_is_working_on(api, make_document, broker_down):
    def job_made() -> ImportJob:
        response = api.post(
            "/api/imports/", ndjson(make_document, (5,)), content_type="application/x-ndjson"
        )
        assert response.status_code == 202
        return ImportJob.objects.get(pk=response.json()["id"])

    long_ago = timezone.now() - timedelta(minutes=10)
    never_sent = job_made()
    ImportJob.objects.filter(pk=never_sent.pk).update(created_at=long_ago)
    just_made = job_made()  # its own dispatch failed a moment ago: not the sweep's yet
    lost = job_made()  # sent long ago, no chunk done since: its messages were lost
    ImportJob.objects.filter(pk=lost.pk).update(created_at=long_ago, dispatched_at=long_ago)
    working = job_made()  # sent long ago, but a worker finished a chunk just now
    ImportJob.objects.filter(pk=working.pk).update(
        created_at=long_ago, dispatched_at=long_ago, progressed_at=timezone.now()
    )
    finished = job_made()
    ImportJob.objects.filter(pk=finished.pk).update(created_at=long_ago, finished_at=long_ago)

    pending = set(imports.import_jobs_pending(idle_seconds=120).values_list("id", flat=True))
    assert pending == {never_sent.pk, lost.pk}
    assert just_made.pk in set(
        imports.import_jobs_pending(idle_seconds=0).values_list("id", flat=True)
    )


def test_a_job_sent_again_without_progress_waits_longer_each_time(api, make_document, monkeypatch):
    """A job may be waiting behind others in a busy queue: resending it every sweep would
    pile up tasks, so each resend without progress doubles the wait (up to 8x)."""
    sent: list[int] = []
    monkeypatch.setattr(
        imports, "import_job_dispatch", lambda *, job_id: sent.append(job_id) or True
    )
    job = ImportJob.objects.create(lines=1, chunks=1)
    now = timezone.now()

    def idle(minutes: float, attempts: int) -> None:
        ImportJob.objects.filter(pk=job.pk).update(
            created_at=now - timedelta(hours=2),
            dispatched_at=now - timedelta(minutes=minutes),
            attempts=attempts,
        )

    for minutes, attempts, due in [
        (3, 1, True),  # sent once, 3 min without progress: past the 2 min idle time
        (3, 2, False),  # sent twice: waits 4 min
        (5, 2, True),
        (7, 3, False),  # three times: 8 min
        (15, 6, False),  # at most 8x: 16 min
        (17, 6, True),
    ]:
        idle(minutes, attempts)
        sent.clear()
        assert imports.import_jobs_sweep(idle_seconds=120) == int(due), (minutes, attempts)
        assert sent == ([job.pk] if due else [])


def test_the_backlog_command_shows_pending_work_and_sends_it(
    api, make_document, broker_down, monkeypatch
):
    from io import StringIO

    response = api.post(
        "/api/imports/", ndjson(make_document, (7, 8)), content_type="application/x-ndjson"
    )
    job_id = response.json()["id"]
    stored = api.post("/api/records/", make_document("secret_santa", seed=9), format="json")
    assert stored.status_code == 201
    out = StringIO()
    call_command("backlog", stdout=out)
    shown = out.getvalue()
    assert "announcements pending: 1 (oldest stored" in shown
    assert "import jobs unfinished: 1" in shown
    assert f"#{job_id}" in shown
    assert "never sent" in shown
    assert "Connection refused" in shown

    monkeypatch.undo()
    out = StringIO()
    call_command("backlog", "--dispatch", stdout=out)
    assert "sent 1 announcement(s) and 1 import job(s)" in out.getvalue()
    assert Record.objects.count() == 3
    out = StringIO()
    call_command("backlog", stdout=out)
    assert out.getvalue() == "announcements pending: 0\nimport jobs unfinished: 0\n"
