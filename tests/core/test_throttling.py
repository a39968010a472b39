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


@override_settings(REST_FRAMEWORK=LOW)
def test_a_new_x_forwarded_for_per_request_does_not_reset_the_anonymous_limit():
    client = APIClient()
    answers = [
        client.get("/api/games/", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}").status_code
        for n in range(6)
    ]
    assert answers == [200, 200, 200, 429, 429, 429]


@override_settings(REST_FRAMEWORK={**LOW, "NUM_PROXIES": 1})
def test_behind_one_proxy_the_address_it_appended_is_the_client():
    client = APIClient()
    # The client writes what it likes on the left; the proxy appends the real address.
    answers = [
        client.get("/api/games/", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}, 198.51.100.7").status_code
        for n in range(4)
    ]
    assert answers == [200, 200, 200, 429]
    other = client.get("/api/games/", HTTP_X_FORWARDED_FOR="10.0.0.1, 198.51.100.8")
    assert other.status_code == 200
