"""Budgets and login limits counted in Redis, the cache every web process shares in production.

Two clients stand for two gunicorn processes: what one counts, the other sees. On the
embedded default (a per-process memory cache) the same tests run in tests/replays and
tests/accounts; here the counters go through Django's Redis cache (``incr`` and ``add``).
"""

from __future__ import annotations

import os
import uuid

import pytest
from django.test import Client
from rest_framework.test import APIClient

from core.quotas import budget_charge, budget_remaining
from replays.services import record_submit
from tests.integration.services import missing_service

pytestmark = [pytest.mark.services, pytest.mark.django_db]

REDIS = os.environ.get("CACHE_URL") or os.environ.get("CELERY_BROKER_URL", "")


@pytest.fixture(autouse=True)
def redis_cache(settings):
    if not REDIS.startswith("redis"):
        missing_service("CELERY_BROKER_URL or CACHE_URL (Redis)")
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS,
            "KEY_PREFIX": f"test-{uuid.uuid4().hex}",  # this test's own keys
        }
    }


def test_a_budget_is_counted_atomically_in_redis():
    ident = uuid.uuid4().hex
    assert budget_remaining("t", ident, limit=10, period=60).remaining == 10
    budget_charge("t", ident, 4, period=60)
    budget_charge("t", ident, 3, period=60)
    budget = budget_remaining("t", ident, limit=10, period=60)
    assert (budget.used, budget.remaining) == (7, 3)
    assert 1 <= budget.retry_after <= 60


def test_the_export_budget_holds_across_processes(settings, make_document):
    settings.EXPORT_BUDGET_ANON = 3
    for seed in range(1, 5):
        record_submit(document=make_document(seed=seed))
    first = APIClient(REMOTE_ADDR="198.51.100.60").get("/api/records/export/")
    assert first.status_code == 200
    assert len(b"".join(first.streaming_content).splitlines()) == 3
    second = APIClient(REMOTE_ADDR="198.51.100.60").get("/api/records/export/")
    assert second.status_code == 429
    assert second.json()["code"] == "quota_exceeded"


def test_the_login_limit_holds_across_processes(settings, django_user_model):
    settings.LOGIN_FAILURE_LIMIT = 2
    django_user_model.objects.create_user("ana", "ana@example.org", "right-horse-staple")
    for _ in range(2):
        wrong = Client(REMOTE_ADDR="198.51.100.61").post(
            "/accounts/login/", {"username": "ana", "password": "wrong"}
        )
        assert wrong.status_code == 200
    refused = Client(REMOTE_ADDR="198.51.100.61").post(
        "/accounts/login/", {"username": "ana", "password": "right-horse-staple"}
    )
    assert refused.status_code == 429
