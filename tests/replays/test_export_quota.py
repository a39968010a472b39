"""The export is bounded: pages that resume with a cursor, and a budget in records per client."""

from __future__ import annotations

import json
import re

import pytest
from django.core.cache import cache
from django.test import override_settings
from rest_framework.test import APIClient

from replays.services import record_submit
from tests.accounts.conftest import token_api, token_key, user  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_counters():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def five(make_document) -> list[int]:
    return [record_submit(document=make_document(seed=seed))[0].pk for seed in range(1, 6)]


def next_url(response) -> str | None:
    link = response.get("Link")
    if link is None:
        return None
    match = re.fullmatch(r'<(http://testserver)?([^>]+)>; rel="next"', link)
    assert match, link
    return match.group(2)


@override_settings(EXPORT_PAGE_RECORDS=3)
def test_an_export_is_a_page_and_its_link_resumes_it_without_gaps_or_repeats(api, five):
    first = api.get("/api/records/export/")
    assert first.status_code == 200
    lines = b"".join(first.streaming_content).splitlines()
    assert len(lines) == 3
    url = next_url(first)
    assert url is not None
    assert f"after={five[2]}" in url
    second = api.get(url)
    assert second.status_code == 200
    rest = b"".join(second.streaming_content).splitlines()
    assert len(rest) == 2
    assert next_url(second) is None
    whole = api.get("/api/records/export/", {"limit": 3})
    again = api.get(next_url(whole))
    documents = [json.loads(line) for line in [*lines, *rest]]
    everything = [
        json.loads(line)
        for line in [
            *b"".join(whole.streaming_content).splitlines(),
            *b"".join(again.streaming_content).splitlines(),
        ]
    ]
    assert documents == everything
    assert len({json.dumps(d, sort_keys=True) for d in documents}) == 5


def test_limit_and_after_are_checked(api, five):
    for params in ({"limit": "0"}, {"limit": "²"}, {"after": "-1"}, {"after": "x"}):
        response = api.get("/api/records/export/", params)
        assert response.status_code == 400, params
        body = response.json()
        assert body["code"] == "bad_filter"
        assert body["detail"]["field"] == next(iter(params))


@override_settings(EXPORT_PAGE_RECORDS=3, EXPORT_BUDGET_ANON=4, EXPORT_BUDGET_USER=100)
def test_an_anonymous_client_runs_out_of_budget_in_records_and_gets_a_429_with_retry_after(
    api, five, token_api  # noqa: F811
):
    first = api.get("/api/records/export/")
    assert len(b"".join(first.streaming_content).splitlines()) == 3
    # The page is cut to what is left of the budget, and still says where to resume.
    second = api.get(next_url(first))
    assert len(b"".join(second.streaming_content).splitlines()) == 1
    third = api.get(next_url(second))
    assert third.status_code == 429
    body = third.json()
    assert set(body) == {"code", "message", "detail"}
    assert body["code"] == "quota_exceeded"
    assert body["detail"]["budget"] == 4
    assert body["detail"]["used"] == 4
    retry = body["detail"]["retry_after"]
    assert 1 <= retry <= 3600
    assert third["Retry-After"] == str(retry)
    # A new X-Forwarded-For is not a new client (NUM_PROXIES is 0 by default).
    spoofed = api.get("/api/records/export/", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert spoofed.status_code == 429
    # An account has its own, larger budget.
    mine = token_api.get("/api/records/export/")
    assert mine.status_code == 200
    assert len(b"".join(mine.streaming_content).splitlines()) == 3


@override_settings(EXPORT_BUDGET_ANON=2)
def test_another_address_has_its_own_budget(five):
    assert APIClient(REMOTE_ADDR="198.51.100.1").get("/api/records/export/").status_code == 200
    assert APIClient(REMOTE_ADDR="198.51.100.1").get("/api/records/export/").status_code == 429
    assert APIClient(REMOTE_ADDR="198.51.100.2").get("/api/records/export/").status_code == 200


@override_settings(EXPORT_PAGE_RECORDS=3)
def test_the_records_page_says_when_its_export_file_holds_only_the_oldest(client, five):
    page = client.get("/records/").content.decode()
    assert "a file holds the 3 oldest" in page
    with override_settings(EXPORT_PAGE_RECORDS=10):
        assert "a file holds" not in client.get("/records/").content.decode()
