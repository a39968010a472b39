"""The balance lab has a queue of its own and an allowance per account.

The database is not transactional here, so a job's task (sent after commit) never
runs: every job created stays queued, as behind a busy worker.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.services import api_token_create
from analytics.models import SimulationJob
from config.celery import app
from tests.accounts.conftest import other_user, token_api, token_key, user  # noqa: F401

pytestmark = pytest.mark.django_db


def start(client, games: int = 10):
    return client.post(
        "/api/simulations/",
        {"game": "gift_swap", "players": 3, "games": games, "bots": "random"},
        format="json",
    )


def test_balance_lab_jobs_go_to_their_own_queue_not_the_leaderboards_one():
    def queue(task: str) -> str:
        return app.amqp.router.route({}, task)["queue"].name

    assert queue("analytics.simulation_run") == "simulations"
    assert queue("analytics.record_ingest") == "analytics"
    # A bulk import's batches on a queue of their own, so single uploads never wait behind them.
    assert queue("analytics.records_ingest") == "analytics_bulk"


@override_settings(SIMULATIONS_MAX_JOBS=2)
def test_an_account_may_have_only_so_many_unfinished_jobs(token_api, other_user):  # noqa: F811
    assert start(token_api).status_code == 201
    assert start(token_api).status_code == 201
    refused = start(token_api)
    assert refused.status_code == 429
    body = refused.json()
    assert set(body) == {"code", "message", "detail"}
    assert body["code"] == "quota_exceeded"
    assert body["detail"]["jobs"] == 2
    assert body["detail"]["max_jobs"] == 2
    assert SimulationJob.objects.count() == 2  # nothing stored on the refusal
    # Another account has its own allowance.
    _, key = api_token_create(user=other_user, name="ben's program")
    ben = APIClient()
    ben.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert start(ben).status_code == 201
    # A finished job, or one no worker touched for an hour, no longer counts.
    first = SimulationJob.objects.order_by("id").first()
    SimulationJob.objects.filter(pk=first.pk).update(state="done")
    assert start(token_api).status_code == 201
    SimulationJob.objects.filter(created_by__username="ana", state="queued").update(
        updated_at=timezone.now() - timedelta(hours=2)
    )
    assert start(token_api).status_code == 201


@override_settings(SIMULATIONS_MAX_JOBS=10, SIMULATIONS_MAX_QUEUED_GAMES=100)
def test_an_account_may_have_only_so_many_games_queued(token_api):  # noqa: F811
    assert start(token_api, games=60).status_code == 201
    refused = start(token_api, games=50)
    assert refused.status_code == 429
    detail = refused.json()["detail"]
    assert (detail["queued_games"], detail["games"], detail["max_queued_games"]) == (60, 50, 100)
    assert start(token_api, games=40).status_code == 201


@override_settings(SIMULATIONS_MAX_JOBS=1)
def test_the_dashboard_form_says_why_a_job_was_not_started(client, user):  # noqa: F811
    client.force_login(user)
    form = {"players": "3", "games": "10", "bots": "random"}
    assert client.post("/games/gift_swap/simulations/", form).status_code == 302
    page = client.post("/games/gift_swap/simulations/", form, follow=True)
    assert "The simulation was not started" in page.content.decode()
    assert SimulationJob.objects.count() == 1
