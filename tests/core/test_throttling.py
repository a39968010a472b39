"""Rate limits: a 429 in the common error shape, with Retry-After."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

LOW = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "3/min", "user": "5/min"}}


@pytest.fixture(autouse=True)
def fresh_counters():
    cache.clear()
    yield
    cache.clear()


@override_settings(REST_FRAMEWORK=LOW)
def test_anonymous_clients_are_throttled_in_the_error_shape():
    client = APIClient()
    for _ in range(3):
        assert client.get("/api/games/").status_code == 200
    response = client.get("/api/records/")
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "throttled"
    assert set(body) == {"code", "message", "detail"}
    retry = body["detail"]["retry_after"]
    assert isinstance(retry, int)
    assert 1 <= retry <= 60
    assert response["Retry-After"] == str(retry)


@override_settings(REST_FRAMEWORK=LOW)
def test_users_have_their_own_higher_limit(token_api):
    for _ in range(5):
        assert token_api.get("/api/games/").status_code == 200
    assert token_api.get("/api/games/").status_code == 429
    assert APIClient().get("/api/games/").status_code == 200  # the address is counted apart
