"""Signed-in reads of the record endpoints take the cached fast path, and are judged right.

A step's, a timeline's or a record's body is the same whoever asks; only the throttle
(counted per user) and refused credentials depend on the client.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from accounts.services import api_token_create, api_token_revoke
from replays import selectors
from tests.replays.test_response_cache import each_cache, upload  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def reader():
    return get_user_model().objects.create_user("reader", "r@example.org", "pw-long-enough-1")


def clients(reader) -> dict[str, APIClient]:
    _, key = api_token_create(user=reader, name="bench")
    token = APIClient(REMOTE_ADDR="10.0.0.8")
    token.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    session = APIClient(REMOTE_ADDR="10.0.0.9")
    session.force_login(reader)
    return {"anonymous": APIClient(REMOTE_ADDR="10.0.0.10"), "token": token, "session": session}


def test_signed_in_reads_are_answered_from_the_cache_before_drf(make_document, monkeypatch, reader):
    record_id = upload(make_document("gift_economy", seed=3, players=3))
    urls = [
        f"/api/records/{record_id}/",
        f"/api/records/{record_id}/steps/6/?seat=1",
        f"/api/records/{record_id}/timeline/?seat=2",
    ]
    by = clients(reader)
    built = {url: by["anonymous"].get(url).content for url in urls}  # built and cached

    def never(*args, **kwargs):
        raise AssertionError("reached the DRF view")

    for name in ("record_detail_json", "record_step_json", "record_timeline_body"):
        monkeypatch.setattr(selectors, name, never)
    for who in ("token", "session", "anonymous"):
        for url in urls:
            response = by[who].get(url)
            assert response.status_code == 200, (who, url)
            assert response.content == built[url], (who, url)


def test_refused_tokens_are_refused_even_when_the_body_is_cached(make_document, reader):
    record_id = upload(make_document("gift_swap", seed=4))
    url = f"/api/records/{record_id}/steps/3/"
    assert APIClient().get(url).status_code == 200  # cached
    unknown = APIClient()
    unknown.credentials(HTTP_AUTHORIZATION="Token not-a-key")
    assert unknown.get(url).status_code == 401
    token, key = api_token_create(user=reader, name="old")
    revoked = APIClient()
    revoked.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert revoked.get(url).status_code == 200
    api_token_revoke(user=reader, token_id=token.pk)
    refused = revoked.get(url)
    assert refused.status_code == 401
    assert refused.json()["code"] == "token_revoked"
    reader.is_active = False
    reader.save()
    _, other_key = api_token_create(user=reader, name="inactive")
    inactive = APIClient()
    inactive.credentials(HTTP_AUTHORIZATION=f"Token {other_key}")
    assert inactive.get(url).status_code == 401


@pytest.mark.parametrize("who", ["token", "session"])
def test_a_signed_in_reader_is_counted_in_its_own_window(settings, make_document, reader, who):
    record_id = upload(make_document("gift_swap", seed=9))
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "2/min", "user": "4/min"},
    }
    url = f"/api/records/{record_id}/steps/3/"
    by = clients(reader)
    assert [by[who].get(url).status_code for _ in range(4)] == [200] * 4  # past anon's 2
    assert by[who].get(url).status_code == 429
    assert by["anonymous"].get(url).status_code == 200  # another client, its own window
