"""POST/GET /api/records/{id}/analysis/: asking for an analysis, following it, reading it.

The database is not transactional here, so a queued job's task (sent after commit)
never runs unless a test runs the commit hooks: a job asked for stays queued, as
behind a busy worker.
"""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.test import override_settings
from rest_framework.test import APIClient

from analytics import record_analysis
from analytics.models import RecordAnalysis
from config.celery import app
from replays.selectors import record_player_names
from tests.accounts.conftest import other_user, token_api, token_key, user  # noqa: F401
from tests.analytics.analysis_helpers import (
    TINY,
    result_only_document,
    short_game,
    stored,
    tiny_settings,  # noqa: F401
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_allowances():
    """Each test's accounts start with their hourly allowance whole (ids are reused)."""
    cache.clear()
    yield
    cache.clear()


def url(record_id: int) -> str:
    return f"/api/records/{record_id}/analysis/"


def test_analysis_runs_on_its_own_queue_not_the_ingest_one():
    def queue(task: str) -> str:
        return app.amqp.router.route({}, task)["queue"].name

    assert queue("analytics.record_analyse") == "analysis"
    assert queue("analytics.skill_figures_refresh") == "analysis"
    assert queue("analytics.record_ingest") == "analytics"


def test_none_yet_is_a_structured_404_and_an_unknown_record_another(api, make_document):
    record = stored(short_game(make_document))
    answer = api.get(url(record.pk))
    assert answer.status_code == 404
    body = answer.json()
    assert set(body) == {"code", "message", "detail"}
    assert body["code"] == "no_analysis"
    assert body["detail"] == {"record": record.pk}
    missing = api.get(url(record.pk + 1000))
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")


def test_asking_needs_an_account_even_where_anonymous_uploads_are_allowed(
    api, make_document, settings
):
    settings.ALLOW_ANONYMOUS_UPLOADS = True
    record = stored(short_game(make_document))
    answer = api.post(url(record.pk), {}, format="json")
    assert answer.status_code == 401
    assert answer.json()["code"] == "authentication_required"
    assert not RecordAnalysis.objects.exists()


def test_a_request_is_queued_at_once_and_asking_again_returns_the_same_job(
    token_api,  # noqa: F811
    make_document,
    tiny_settings,  # noqa: F811
    django_capture_on_commit_callbacks,
    monkeypatch,
):
    sent: list[dict] = []
    monkeypatch.setattr(
        record_analysis.background,
        "task_submit",
        lambda name, *, kwargs, then=None: sent.append({"name": name, **kwargs}),
    )
    record = stored(short_game(make_document))
    with django_capture_on_commit_callbacks(execute=True):
        first = token_api.post(url(record.pk), format="json")
    assert first.status_code == 202
    body = first.json()
    assert body["status"] == "queued"
    assert body["record"] == record.pk
    assert body["result"] is None
    assert body["current"] is True
    assert body["settings"] == TINY.to_json()
    assert body["progress"] == {"done": 0, "total": 0}
    assert sent == [{"name": "analytics.record_analyse", "analysis_id": body["id"]}]
    with django_capture_on_commit_callbacks(execute=True):
        again = token_api.post(url(record.pk), {}, format="json")
    assert again.status_code == 202
    assert again.json()["id"] == body["id"]
    assert RecordAnalysis.objects.count() == 1
    assert len(sent) == 1  # nothing queued twice
    # GET follows the same job.
    status = token_api.get(url(record.pk)).json()
    assert (status["id"], status["status"]) == (body["id"], "queued")
    # Other settings are another analysis.
    with django_capture_on_commit_callbacks(execute=True):
        seeded = token_api.post(url(record.pk), {"seed": 7}, format="json")
    assert seeded.json()["id"] != body["id"]
    assert seeded.json()["seed"] == 7
    assert token_api.get(url(record.pk) + "?seed=7").json()["id"] == seeded.json()["id"]


def test_a_finished_analysis_is_returned_whole_with_200(
    token_api,  # noqa: F811
    make_document,
    tiny_settings,  # noqa: F811
):
    record = stored(short_game(make_document))
    row, queued = record_analysis.analysis_request(record=record)
    assert queued
    record_analysis.analysis_run(analysis_id=row.pk)
    answer = token_api.post(url(record.pk), format="json")
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "done"
    result = body["result"]
    assert result["num_players"] == 3
    assert len(result["curve"]) == record.num_events + 1
    assert all(len(point) == 3 for point in result["curve"])
    assert result["decisions"]
    decision = result["decisions"][0]
    assert {"step", "seat", "chosen", "best", "moves", "loss", "mark", "simultaneous"} <= set(
        decision
    )
    assert decision["best"]["win"] >= decision["chosen"]["win"] - 1e-9
    moves = sum(1 for event in record.events if event["by"] != "chance")
    assert body["progress"] == {"done": moves, "total": moves}
    assert body["players"] == record_player_names(record)
    # Anyone may read it.
    assert APIClient().get(url(record.pk)).json()["id"] == body["id"]


def test_a_result_only_record_says_it_cannot_be_analysed(
    token_api,  # noqa: F811
    tiny_settings,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    record = stored(result_only_document())
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        answer = token_api.post(url(record.pk), format="json")
    assert callbacks == []  # nothing queued
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "unavailable"
    assert body["error"]["code"] == "result_only"
    assert "final scores" in body["error"]["message"]
    assert body["result"] is None
    assert APIClient().get(url(record.pk)).json()["status"] == "unavailable"


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"playouts": 0}, "bad_playouts", "playouts"),
        ({"playouts": "many"}, "bad_playouts", "playouts"),
        ({"playouts": 10**9}, "bad_playouts", "playouts"),
        ({"seed": -1}, "bad_seed", "seed"),
        ({"seed": True}, "bad_seed", "seed"),
        ({"bots": ["random"]}, "unknown_field", "bots"),
        ([1, 2], "bad_request", None),
        (None, "bad_request", None),
    ],
)
def test_a_bad_body_is_a_400_naming_the_field_and_queues_nothing(
    token_api,  # noqa: F811
    make_document,
    body,
    code,
    field,
):
    record = stored(short_game(make_document))
    answer = token_api.post(url(record.pk), json.dumps(body), content_type="application/json")
    assert answer.status_code == 400
    error = answer.json()
    assert error["code"] == code
    assert error["detail"].get("field") == field
    assert not RecordAnalysis.objects.exists()


def test_get_refuses_an_unknown_query_and_a_bad_number(api, make_document):
    record = stored(short_game(make_document))
    assert api.get(url(record.pk) + "?colour=red").json()["code"] == "invalid_query"
    bad = api.get(url(record.pk) + "?seed=x")
    assert (bad.status_code, bad.json()["code"]) == (400, "bad_seed")


@override_settings(ANALYSIS_REQUESTS_PER_HOUR=2)
def test_an_account_may_ask_for_so_many_new_analyses_an_hour(
    token_api,  # noqa: F811
    make_document,
    tiny_settings,  # noqa: F811
):
    records = [stored(short_game(make_document, seed=seed)) for seed in (1, 2, 3)]
    assert token_api.post(url(records[0].pk), format="json").status_code == 202
    assert token_api.post(url(records[1].pk), format="json").status_code == 202
    # Asking again for one already there costs nothing.
    assert token_api.post(url(records[0].pk), format="json").status_code == 202
    refused = token_api.post(url(records[2].pk), format="json")
    assert refused.status_code == 429
    assert refused.json()["code"] == "quota_exceeded"
    assert refused.json()["detail"]["limit"] == 2
    assert RecordAnalysis.objects.count() == 2


def test_a_failed_analysis_is_queued_again_when_asked(
    token_api,  # noqa: F811
    make_document,
    tiny_settings,  # noqa: F811
):
    record = stored(short_game(make_document))
    row, _ = record_analysis.analysis_request(record=record)
    RecordAnalysis.objects.filter(pk=row.pk).update(
        status="failed", error={"code": "analysis_failed", "message": "x", "detail": {}}
    )
    answer = token_api.post(url(record.pk), format="json")
    assert answer.status_code == 202
    assert (answer.json()["id"], answer.json()["status"]) == (row.pk, "queued")
    assert answer.json()["error"] is None


def test_an_earlier_versions_analysis_is_shown_marked_not_current(
    api,
    make_document,
    tiny_settings,  # noqa: F811
):
    record = stored(short_game(make_document))
    row, _ = record_analysis.analysis_request(record=record)
    record_analysis.analysis_run(analysis_id=row.pk)
    RecordAnalysis.objects.filter(pk=row.pk).update(version="0+old")
    body = api.get(url(record.pk)).json()
    assert (body["id"], body["status"], body["current"]) == (row.pk, "done", False)
    # Asked for exactly (with settings), the current version has none.
    assert api.get(url(record.pk) + f"?seed={TINY.seed}").status_code == 404
