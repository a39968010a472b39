"""Analysis on the embedded default (no broker): the pool's low lane runs it, so an
upload's ingest and the sweeps never wait behind a game being analysed."""

from __future__ import annotations

import threading
import time

import pytest

from analytics import record_analysis
from analytics.models import PlayerResult, RecordAnalysis
from core import background
from tests.accounts.conftest import token_api, token_key, user  # noqa: F401
from tests.analytics.analysis_helpers import short_game, stored, tiny_settings  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_upload_is_ingested_while_a_game_is_being_analysed(
    api,
    token_api,  # noqa: F811
    make_document,
    in_process_pool,
    tiny_settings,  # noqa: F811
    monkeypatch,
    settings,
):
    release, started = threading.Event(), threading.Event()
    real = record_analysis.analysis_run

    def held(**kwargs):
        started.set()
        assert release.wait(timeout=60)
        return real(**kwargs)

    monkeypatch.setattr(record_analysis, "analysis_run", held)
    # The test's in-memory SQLite has no busy timeout (a file, as bin/serve runs, waits
    # for the other writer): the test reads only while the pool is quiet, and the
    # sweeper thread stays off until the sweeps are looked at below.
    settings.BACKGROUND_SWEEPS = ()

    def quiet(but: int = 0) -> None:
        deadline = time.monotonic() + 60
        while background.background_pending() > but:
            assert time.monotonic() < deadline, "the pool's own thread is stuck"
            time.sleep(0.05)

    try:
        record = stored(short_game(make_document))
        quiet()  # its own ingest
        answer = token_api.post(f"/api/records/{record.pk}/analysis/", format="json")
        assert (answer.status_code, answer.json()["status"]) == (202, "queued")
        assert started.wait(timeout=30), "the analysis started in the pool"
        assert background.background_pending("analytics.record_analyse") == 1
        # The analysis holds its lane; an upload's ingest runs in the pool's own thread.
        upload = api.post("/api/records/", make_document(seed=77), format="json").json()["id"]
        quiet(but=1)  # everything but the analysis, still held, is done
        assert background.background_pending("analytics.record_analyse") == 1
        assert PlayerResult.objects.filter(record_id=upload).exists()
        # And the sweeps do not take the analysis for work of their own.
        settings.BACKGROUND_SWEEPS = ("analytics-ingest-sweep",)
        assert background.sweeps_due(last={}, busy=set()) == ["analytics-ingest-sweep"]
        quiet(but=1)
        assert RecordAnalysis.objects.get().status == "queued"
    finally:
        release.set()
    assert background.background_wait(timeout=120)
    assert RecordAnalysis.objects.get().status == "done"
