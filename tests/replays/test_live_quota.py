"""Live games open per account (and per address without one) are capped."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from replays.models import LiveGame
from replays.services import record_submit
from tests.accounts.conftest import token_api, token_key, user  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_counters():
    cache.clear()
    yield
    cache.clear()


def open_game(client):
    bots = {"1": "random", "2": "random"}
    body = {"game": "secret_santa", "players": ["me", "b1", "b2"], "bots": bots}
    return client.post("/api/live/", body, format="json")


@override_settings(LIVE_MAX_OPEN_GAMES=3)
def test_an_account_may_have_only_so_many_live_games_open(token_api):  # noqa: F811
    for _ in range(3):
        assert open_game(token_api).status_code == 201
    refused = open_game(token_api)
    assert refused.status_code == 429
    body = refused.json()
    assert set(body) == {"code", "message", "detail"}
    assert body["code"] == "quota_exceeded"
    assert body["detail"] == {"open_games": 3, "max_open_games": 3}
    assert LiveGame.objects.count() == 3
    # A finished game, or one opened more than LIVE_OPEN_HOURS ago, no longer counts.
    first, second = LiveGame.objects.order_by("id")[:2]
    LiveGame.objects.filter(pk=first.pk).update(status=LiveGame.Status.FINISHED)
    assert open_game(token_api).status_code == 201
    LiveGame.objects.filter(pk=second.pk).update(created_at=timezone.now() - timedelta(days=2))
    assert open_game(token_api).status_code == 201
    assert open_game(token_api).status_code == 429


@override_settings(LIVE_MAX_OPEN_GAMES=2)
def test_a_fork_counts_as_a_live_game_opened(token_api, make_document):  # noqa: F811
    record, _ = record_submit(document=make_document(seed=3, players=3))
    fork = {"step": 1, "seats": ["person", "random", "random"]}
    assert token_api.post(f"/api/records/{record.pk}/fork/", fork, format="json").status_code == 201
    assert open_game(token_api).status_code == 201
    refused = token_api.post(f"/api/records/{record.pk}/fork/", fork, format="json")
    assert refused.status_code == 429
    assert refused.json()["code"] == "quota_exceeded"


@override_settings(LIVE_MAX_OPEN_GAMES=2)
def test_a_client_without_an_account_may_open_so_many_per_address_per_hour():
    here = APIClient(REMOTE_ADDR="198.51.100.1")
    assert open_game(here).status_code == 201
    assert open_game(here).status_code == 201
    refused = here.post(
        "/api/live/",
        {"game": "gift_swap", "players": ["a", "b", "c"]},
        format="json",
        HTTP_X_FORWARDED_FOR="203.0.113.50",  # not trusted: NUM_PROXIES is 0
    )
    assert refused.status_code == 429
    body = refused.json()
    assert body["code"] == "quota_exceeded"
    assert refused["Retry-After"] == str(body["detail"]["retry_after"])
    assert open_game(APIClient(REMOTE_ADDR="198.51.100.2")).status_code == 201
    assert LiveGame.objects.count() == 3
