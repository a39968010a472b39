"""The analytics ingest in the background on the embedded default (no broker).

An import answers before its records are ingested: the ingest runs in the web
process's pool (core.background), a single upload's ingest goes ahead of a bulk
import's batches waiting there, and the pool's own sweeps find what a restart lost.
"""

from __future__ import annotations

import json
import threading

import pytest

from analytics import services
from analytics.models import GameSummary, PlayerResult
from core import background
from replays import imports, outbox
from replays.bulk import records_import
from replays.models import Announcement, Record

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def held_ingest(monkeypatch):
    """Ingest tasks wait for ``release`` before they start; ``ran`` lists them in order."""
    release = threading.Event()
    ran: list[tuple[str, list[int]]] = []
    bulk, single = services.records_ingest, services.record_ingest_or_quarantine
    in_batch = threading.local()

    def records_ingest(*, record_ids, **kwargs):
        assert release.wait(timeout=60)
        ran.append(("batch", list(record_ids)))
        in_batch.on = True
        try:
            return bulk(record_ids=record_ids, **kwargs)
        finally:
            in_batch.on = False

    def record_ingest(*, record_id, **kwargs):
        if not getattr(in_batch, "on", False):  # a batch ingests its records one by one
            assert release.wait(timeout=60)
            ran.append(("single", [record_id]))
        return single(record_id=record_id, **kwargs)

    monkeypatch.setattr(services, "records_ingest", records_ingest)
    monkeypatch.setattr(services, "record_ingest_or_quarantine", record_ingest)
    yield release, ran
    release.set()


def _ndjson(documents: list[dict]) -> str:
    return "\n".join(json.dumps(document) for document in documents)


def test_a_bulk_import_answers_before_its_ingest_runs(
    api, make_document, in_process_pool, held_ingest
):
    release, ran = held_ingest
    documents = [make_document(seed=300 + k) for k in range(5)]
    response = api.post(
        "/api/records/bulk/", _ndjson(documents), content_type="application/x-ndjson"
    )
    assert response.status_code == 200
    body = response.json()
    # Stored and answered while the ingest still waits in the pool: the answer says so.
    assert (body["stored"], body["analytics_pending"]) == (5, 5)
    assert ran == []
    assert PlayerResult.objects.count() == 0
    assert background.background_pending("analytics.records_ingest") == 1
    announcement = Announcement.objects.get()
    assert announcement.dispatched_at is not None  # taken by the pool, as a broker would
    release.set()
    assert background.background_wait(timeout=120)
    ids = [item["id"] for item in body["items"]]
    assert [kind for kind, _ in ran] == ["batch"]
    assert set(PlayerResult.objects.values_list("record_id", flat=True)) == set(ids)
    assert GameSummary.objects.get(game="secret_santa").games == 5
    again = api.post("/api/records/bulk/", _ndjson(documents), content_type="application/x-ndjson")
    assert (again.json()["present"], again.json()["analytics_pending"]) == (5, 0)


def test_an_import_job_answers_at_once_and_its_status_follows_the_analytics(
    api, make_document, in_process_pool, held_ingest, monkeypatch
):
    release, _ran = held_ingest
    # The job waits until the answer was read: the pool's thread could otherwise import a
    # chunk between the job's commit and the answer's counts (which read the chunks done),
    # and the answer said 3 records wait for analytics (a rare failure of this test).
    answered = threading.Event()
    job_run = imports.import_job_run

    def held_job_run(*, job_id):
        assert answered.wait(timeout=60)
        return job_run(job_id=job_id)

    monkeypatch.setattr(imports, "import_job_run", held_job_run)
    documents = [make_document(seed=320 + k) for k in range(3)]
    response = api.post("/api/imports/", _ndjson(documents), content_type="application/x-ndjson")
    assert response.status_code == 202
    job = response.json()
    answered.set()
    # The job itself waits in the pool too: nothing was imported inside the request (it
    # would have waited for the answer there, 60 s, and then said it was done).
    assert (job["done"], job["stored"], job["analytics_pending"]) == (False, 0, 0)
    # The job runs; its ingest waits, and the status says so. Read once the job ran: the
    # test database (SQLite, shared cache) refuses a read while the pool's thread writes
    # ("table is locked") instead of waiting, and the job's task then failed.
    for _ in range(1200):
        if background.background_pending("replays.import_job_run") == 0:
            break
        threading.Event().wait(0.05)
    status = api.get(f"/api/imports/{job['id']}/").json()
    assert (status["done"], status["stored"], status["analytics_pending"]) == (True, 3, 3)
    release.set()
    assert background.background_wait(timeout=120)
    assert api.get(f"/api/imports/{job['id']}/").json()["analytics_pending"] == 0
    assert PlayerResult.objects.values("record_id").distinct().count() == 3


def test_a_single_upload_goes_ahead_of_bulk_batches_waiting_in_the_pool(
    api, make_document, in_process_pool, held_ingest
):
    release, ran = held_ingest
    batches = []
    for k in range(3):
        body = api.post(
            "/api/records/bulk/",
            _ndjson([make_document(seed=340 + 2 * k), make_document(seed=341 + 2 * k)]),
            content_type="application/x-ndjson",
        ).json()
        batches.append(sorted(item["id"] for item in body["items"]))
    single = api.post("/api/records/", make_document(seed=399), format="json").json()["id"]
    assert background.background_pending("analytics.records_ingest") == 3
    assert background.background_pending("analytics.record_ingest") == 1
    release.set()
    assert background.background_wait(timeout=120)
    # The first batch had started (it was waiting on the release inside its task); the
    # single upload went next, ahead of the two batches queued before it.
    assert ran == [
        ("batch", batches[0]),
        ("single", [single]),
        ("batch", batches[1]),
        ("batch", batches[2]),
    ]
    assert Record.objects.filter(player_results__isnull=True).count() == 0


def test_a_full_pool_leaves_announcements_to_the_pools_own_sweep(
    api, make_document, in_process_pool, held_ingest, settings
):
    release, _ran = held_ingest
    settings.BACKGROUND_QUEUE_MAX = 1
    for seed in (360, 361, 362):
        assert api.post("/api/records/", make_document(seed=seed), format="json").status_code in (
            200,
            201,
        )
    # One ingest waits in the pool; the others' announcements wait in the outbox.
    assert outbox.announcements_pending().count() == 2
    release.set()
    assert background.background_wait(timeout=120)
    settings.BACKGROUND_QUEUE_MAX = 50
    settings.BACKGROUND_SWEEPS = ("dispatch-pending-announcements",)
    assert background.sweeps_due(last={}, busy=set()) == ["dispatch-pending-announcements"]
    assert background.background_wait(timeout=120)
    assert outbox.announcements_pending().count() == 0
    assert Record.objects.filter(player_results__isnull=True).count() == 0
    assert PlayerResult.objects.values("record_id").distinct().count() == 3


def test_the_pools_sweep_ingests_what_a_restart_lost(
    make_document, in_process_pool, settings, monkeypatch
):
    # Records stored and announced, their ingest taken by a pool that then stopped: the
    # announcements are marked sent, nothing derived exists (a restart of bin/serve).
    monkeypatch.setattr(background, "task_submit", lambda name, *, kwargs, then=None: None)
    items = [(k, make_document(seed=380 + k)) for k in range(1, 4)]
    ids = [outcome.record_id for outcome in records_import(items)]
    monkeypatch.undo()
    assert outbox.announcements_pending().count() == 0
    assert PlayerResult.objects.count() == 0
    settings.INGEST_SWEEP_AFTER_SECONDS = 0
    settings.BACKGROUND_SWEEPS = ("analytics-ingest-sweep",)
    last: dict[str, float] = {}
    busy: set[str] = set()
    assert background.sweeps_due(last=last, busy=busy, now=1000.0) == ["analytics-ingest-sweep"]
    assert background.background_wait(timeout=120)
    assert set(PlayerResult.objects.values_list("record_id", flat=True)) == set(ids)
    # It found work, so it runs again at the next tick without waiting its interval (a
    # large loss takes several sweeps); once it finds none, it waits its interval.
    assert busy == {"analytics-ingest-sweep"}
    assert background.sweeps_due(last=last, busy=busy, now=1001.0) == ["analytics-ingest-sweep"]
    assert background.background_wait(timeout=120)
    assert busy == set()
    assert background.sweeps_due(last=last, busy=busy, now=1002.0) == []


def test_a_management_command_runs_the_ingest_in_itself(make_document, settings):
    # It serves no requests: it would exit before its pool did the work.
    settings.BACKGROUND_WORKERS = 1
    settings.CELERY_TASK_ALWAYS_EAGER = True
    background._serving_pid = 0
    (outcome,) = records_import([(1, make_document(seed=390))])
    assert background.background_pending() == 0
    assert PlayerResult.objects.filter(record_id=outcome.record_id).exists()


def test_sweeps_wait_while_the_pool_holds_work(in_process_pool, settings, held_ingest):
    release, _ran = held_ingest
    settings.BACKGROUND_SWEEPS = ("analytics-ingest-sweep",)
    background.task_submit("analytics.records_ingest", kwargs={"record_ids": []})
    # A sweep now could find the records the pool is about to ingest and do them twice.
    assert background.sweeps_due(last={}, busy=set()) == []
    release.set()


def test_the_replays_preparation_waits_behind_the_ingest(
    api, make_document, in_process_pool, held_ingest, monkeypatch
):
    """Long games' replays are prepared in the pool, never in the import's request, and
    after every ingest batch waiting there (BACKGROUND_LAST): preparing a bulk import's
    long games takes many times the import, the dashboards must not wait for it."""
    from replays import viewer_warm

    release, ran = held_ingest
    monkeypatch.setattr(viewer_warm, "WARM_MIN_EVENTS", 1)
    warm = viewer_warm.records_viewer_warm

    def records_viewer_warm(*, record_ids):
        ran.append(("warm", list(record_ids)))
        return warm(record_ids=record_ids)

    monkeypatch.setattr(viewer_warm, "records_viewer_warm", records_viewer_warm)
    batches = []
    for k in range(2):
        body = api.post(
            "/api/records/bulk/",
            _ndjson([make_document(seed=420 + 2 * k), make_document(seed=421 + 2 * k)]),
            content_type="application/x-ndjson",
        ).json()
        batches.append(sorted(item["id"] for item in body["items"]))
    assert ran == []  # nothing prepared inside the requests
    assert background.background_pending("replays.records_viewer_warm") == 2
    release.set()
    assert background.background_wait(timeout=120)
    # The first batch had started; the second batch's ingest went ahead of the first
    # batch's preparation, queued before it.
    assert ran == [
        ("batch", batches[0]),
        ("batch", batches[1]),
        ("warm", batches[0]),
        ("warm", batches[1]),
    ]
