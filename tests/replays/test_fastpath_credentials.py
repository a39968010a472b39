"""Whom a session or token was, remembered for a minute on the API's fast path, and
never past a change: a revoked token, a logout, a new password or a deactivated account
is judged afresh at the next request, in every process (the shared generation)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.services import api_token_create, api_token_revoke
from core import credentials
from replays.api import fastpath
from tests.replays.test_fastpath_signed_in import clients, reader  # noqa: F401 (fixture)
from tests.replays.test_response_cache import each_cache, upload  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_memo():
    fastpath.memo.clear()
    yield
    fastpath.memo.clear()


@pytest.fixture
def counted(monkeypatch) -> list:
    """The users each throttle check counted the request for (fast path and DRF's)."""
    users: list = []
    check = fastpath.throttle_check

    def recording(request, user, **kwargs):
        users.append(user)
        return check(request, user, **kwargs)

    monkeypatch.setattr(fastpath, "throttle_check", recording)
    from core.api import throttling

    original = throttling.throttle_check

    def drf_recording(request, user, **kwargs):
        users.append(user)
        return original(request, user, **kwargs)

    monkeypatch.setattr(throttling, "throttle_check", drf_recording)
    return users


def step_url(make_document) -> str:
    record_id = upload(make_document("gift_swap", seed=4))
    url = f"/api/records/{record_id}/steps/3/"
    assert APIClient().get(url).status_code == 200  # the body cached
    return url


@pytest.mark.parametrize("who", ["token", "session"])
def test_a_remembered_client_reads_a_cached_body_with_no_query(
    make_document,
    reader,  # noqa: F811
    who,
    django_assert_num_queries,
):
    url = step_url(make_document)
    by = clients(reader)
    assert by[who].get(url).status_code == 200  # resolved, remembered
    with django_assert_num_queries(0):
        assert by[who].get(url).status_code == 200


@pytest.mark.parametrize("who", ["token", "session"])
def test_a_reader_stepping_every_few_seconds_is_resolved_once_a_minute(
    make_document,
    reader,  # noqa: F811
    who,
    monkeypatch,
    django_assert_num_queries,
):
    """A person steps through a replay every few seconds: with a memory of 5 s, a step
    every 5 s or more paid the session's or the token's lookup each time."""
    url = step_url(make_document)
    by = clients(reader)
    now = [1000.0]
    monkeypatch.setattr(credentials, "monotonic", lambda: now[0])  # this module's clock only
    assert by[who].get(url).status_code == 200  # resolved, remembered
    for _ in range(5):
        now[0] += 10  # a step every 10 s
        with django_assert_num_queries(0):
            assert by[who].get(url).status_code == 200
    now[0] += credentials.REMEMBER_SECONDS  # past the minute: resolved again
    with CaptureQueriesContext(connection) as resolved:
        assert by[who].get(url).status_code == 200
    assert len(resolved) >= 1


def test_a_revoked_token_is_refused_at_once_though_remembered(make_document, reader):  # noqa: F811
    url = step_url(make_document)
    token, key = api_token_create(user=reader, name="soon revoked")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get(url).status_code == 200
    assert client.get(url).status_code == 200  # remembered
    assert fastpath.memo.items, "remembered in this process"
    api_token_revoke(user=reader, token_id=token.pk)
    refused = client.get(url)
    assert refused.status_code == 401
    assert refused.json()["code"] == "token_revoked"


def test_a_deactivated_accounts_token_is_refused_at_once(make_document, reader):  # noqa: F811
    url = step_url(make_document)
    _, key = api_token_create(user=reader, name="inactive soon")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get(url).status_code == 200
    reader.is_active = False
    reader.save()
    assert client.get(url).status_code == 401


@pytest.mark.parametrize("change", ["logout", "password"])
def test_a_session_logged_out_or_with_a_new_password_is_anonymous_at_once(
    make_document,
    reader,  # noqa: F811
    counted,
    change,
):
    url = step_url(make_document)
    session = APIClient(REMOTE_ADDR="10.0.0.9")
    session.force_login(reader)
    assert session.get(url).status_code == 200
    assert session.get(url).status_code == 200  # remembered
    assert counted[-1] == reader
    cookie = session.cookies["sessionid"].value
    if change == "logout":
        session.logout()
        session.cookies["sessionid"] = cookie  # the old cookie, sent again
    else:
        user = get_user_model().objects.get(pk=reader.pk)
        user.set_password("another-long-password-2")
        user.save()
    counted.clear()
    assert session.get(url).status_code == 200  # a read: answered, as to anyone
    last = counted[-1]
    assert last is None or not last.is_authenticated, "judged afresh: no longer the reader"


def test_nothing_is_remembered_past_its_seconds_or_without_a_generation(
    make_document,
    reader,  # noqa: F811
    monkeypatch,
    django_assert_max_num_queries,
):
    url = step_url(make_document)
    by = clients(reader)
    monkeypatch.setattr(credentials, "REMEMBER_SECONDS", -1.0)
    assert by["token"].get(url).status_code == 200
    assert not fastpath.memo.get(next(iter(fastpath.memo.items), "")), "expired at once"
    monkeypatch.setattr(credentials, "REMEMBER_SECONDS", 5.0)
    assert by["token"].get(url).status_code == 200
    cache.delete(credentials.GENERATION)  # the cache emptied: what was remembered is not used
    calls = []
    original = fastpath._client

    def resolving(request):
        calls.append(request)
        return original(request)

    monkeypatch.setattr(fastpath, "_client", resolving)
    assert by["token"].get(url).status_code == 200
    assert by["token"].get(url).status_code == 200
    assert len(calls) == 1, "resolved again once, then remembered under the new generation"
