"""The cache (Redis) away: every page and endpoint still answers, throttles fail open.

The cache is pointed at a port where nothing listens (or at a socket that never
answers), with the production backend (``core.cache.ResilientRedisCache``): reads are
built from the database, writes are stored, a throttle lets requests through with one
warning, and after a failure the process skips Redis for a while instead of trying it
on every call. The fault test on the compose layout (one real Redis for the broker and
the cache, stopped during traffic) is tests/integration/test_redis_outage.py.
"""

from __future__ import annotations

import json
import logging
import runpy
import socket
import time
from collections.abc import Iterator

import pytest
import redis.connection
from django.conf import settings
from django.test import override_settings
from rest_framework.test import APIClient

from core import cache as core_cache
from replays import response_cache
from replays.models import Record
from tests.ports import closed_port

pytestmark = pytest.mark.django_db

LOW = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "2/min", "user": "2/min"}}


def redis_cache(port: int, *, timeout: float = 0.3) -> dict:
    return {
        "default": {
            "BACKEND": "core.cache.ResilientRedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "KEY_PREFIX": "giftbox",
            "OPTIONS": {"socket_connect_timeout": timeout, "socket_timeout": timeout},
        }
    }


@pytest.fixture(autouse=True)
def fresh_breaker() -> Iterator[None]:
    core_cache.breaker_reset()
    response_cache.local_bodies.clear()
    response_cache._owed.clear()
    yield
    core_cache.breaker_reset()
    response_cache.local_bodies.clear()
    response_cache._owed.clear()


@pytest.fixture
def cache_away(settings) -> int:
    port = closed_port()
    settings.CACHES = redis_cache(port)
    return port


@pytest.fixture
def connects(monkeypatch) -> list[float]:
    """Every connection redis-py opens (attempts included), by time."""
    opened: list[float] = []
    original = redis.connection.AbstractConnection.connect

    def counted(self, *args, **kwargs):
        opened.append(time.monotonic())
        return original(self, *args, **kwargs)

    monkeypatch.setattr(redis.connection.AbstractConnection, "connect", counted)
    return opened


def test_reads_and_writes_are_served_with_the_cache_away(
    cache_away, make_document, caplog, django_capture_on_commit_callbacks
):
    caplog.set_level(logging.WARNING, logger="core.cache")
    client = APIClient()
    document = make_document("gift_trap", seed=3, players=3)
    created = client.post("/api/records/", document, format="json")
    assert created.status_code == 201, created.content[:300]
    record_id = created.json()["id"]
    last = Record.objects.get(pk=record_id).num_events

    for url in (
        f"/api/records/{record_id}/",
        f"/api/records/{record_id}/steps/{last // 2}/",
        f"/api/records/{record_id}/steps/{last // 2}/?seat=1",
        f"/api/records/{record_id}/steps/{last}/",
        f"/api/records/{record_id}/timeline/",
        f"/api/records/{record_id}/timeline/?seat=2",
        "/api/records/",
        "/api/records/?game=gift_trap",
        f"/records/{record_id}/",
        f"/records/{record_id}/embed/",
        "/games/gift_trap/",
        "/",
    ):
        for _ in range(2):  # the second time nothing comes from a cache either
            response = client.get(url)
            assert response.status_code == 200, (url, response.content[:300])
    detail = client.get(f"/api/records/{record_id}/").json()
    assert detail["events"] == document["events"]
    assert len(client.get("/api/records/").json()["results"]) == 1

    lines = [json.dumps(make_document("secret_santa", seed=10 + n)) for n in range(3)]
    bulk = client.post("/api/records/bulk/", "\n".join(lines), content_type="application/x-ndjson")
    assert bulk.status_code == 200, bulk.content[:300]
    assert bulk.json()["stored"] == 3
    lines = [json.dumps(make_document("gift_swap", seed=20 + n)) for n in range(3)]
    with django_capture_on_commit_callbacks(execute=True):  # the job runs in-process here
        imported = client.post(
            "/api/imports/", "\n".join(lines), content_type="application/x-ndjson"
        )
    assert imported.status_code == 202, imported.content[:300]
    assert client.get(imported["Location"]).json()["stored"] == 3
    assert Record.objects.count() == 7
    # The list answers what is stored now, not a copy from before the writes.
    assert len(client.get("/api/records/").json()["results"]) == 7
    warnings = [r for r in caplog.records if r.name == "core.cache"]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert "cache unavailable" in warnings[0].getMessage()


def test_throttle_fails_open_with_one_warning(cache_away, caplog):
    caplog.set_level(logging.WARNING, logger="core.cache")
    client = APIClient()
    with override_settings(REST_FRAMEWORK=LOW):
        answers = [client.get("/api/games/").status_code for _ in range(6)]
        answers += [client.get("/api/records/").status_code for _ in range(4)]
    assert answers == [200] * 10
    warnings = [r for r in caplog.records if r.name == "core.cache"]
    assert len(warnings) == 1
    assert "throttles let requests through" in warnings[0].getMessage()


def test_after_a_failure_redis_is_skipped_then_tried_again(settings, connects, monkeypatch):
    settings.CACHES = redis_cache(closed_port())
    # Long enough that eight requests on a loaded machine all fall inside it; the clock
    # is then moved past it rather than slept through.
    settings.CACHE_RETRY_SECONDS = 30
    client = APIClient()
    for _ in range(8):
        assert client.get("/api/records/").status_code == 200
    assert len(connects) == 1  # the first failure opened the breaker: no more attempts
    assert core_cache.cache_down()
    later = time.monotonic() + 31
    monkeypatch.setattr(core_cache.time, "monotonic", lambda: later)
    assert not core_cache.cache_down()
    assert client.get("/api/records/").status_code == 200
    assert len(connects) == 2  # one ping once the breaker's time ran out, refused again
    assert core_cache.cache_down()


def test_a_redis_that_never_answers_costs_one_timeout(settings, connects):
    """A host that takes the connection but never replies (a hung or partitioned Redis):
    the first call waits for the socket timeout, the next ones are not held up."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)
        settings.CACHES = redis_cache(silent.getsockname()[1], timeout=0.3)
        client = APIClient()
        started = time.monotonic()
        answers = [client.get("/api/records/").status_code for _ in range(10)]
        took = time.monotonic() - started
    assert answers == [200] * 10
    assert 0.3 <= took < 2.0, took
    assert len(connects) == 1


def test_token_drops_that_failed_are_sent_when_redis_answers_again(monkeypatch, settings):
    """A write while Redis is away cannot drop the cached bodies it changes; when Redis
    answers again (it may come back with its data), they are dropped before any read."""
    settings.CACHES = redis_cache(closed_port())
    settings.CACHE_RETRY_SECONDS = 0.05
    response_cache._delete([response_cache.record_token_name(7)])  # refused: owed
    assert core_cache.cache_down()
    assert response_cache._owed == {response_cache.record_token_name(7)}

    calls: list[tuple] = []

    class Back:
        def ping(self) -> bool:
            calls.append(("ping",))
            return True

        def delete(self, *keys: str) -> int:
            calls.append(("delete", *sorted(keys)))
            return len(keys)

        def mget(self, keys):
            calls.append(("mget", *keys))
            return [None for _ in keys]

    monkeypatch.setattr(core_cache, "_client_of", lambda backend: Back())
    time.sleep(0.06)
    assert response_cache.tokens_read(["rc:token:list"]) == [None]
    assert calls[0] == ("ping",)
    assert calls[1][0] == "delete"
    dropped = {key.split(":", 2)[2] for key in calls[1][1:]}
    assert dropped == {response_cache.LIST_TOKEN, response_cache.record_token_name(7)}
    assert calls[2][0] == "mget"
    assert response_cache._owed == set()
    assert not core_cache.cache_down()


def test_production_settings_use_the_resilient_cache_with_bounded_timeouts(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "x")
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://redis:6379/0")
    monkeypatch.delenv("CACHE_URL", raising=False)
    monkeypatch.delenv("REDIS_URL", raising=False)
    produced = runpy.run_path(str(settings.BASE_DIR / "config" / "settings.py"))
    cache = produced["CACHES"]["default"]
    assert cache["BACKEND"] == "core.cache.ResilientRedisCache"
    assert cache["LOCATION"] == "redis://redis:6379/0"  # one Redis: broker and cache
    assert 0 < cache["OPTIONS"]["socket_connect_timeout"] <= 1
    assert 0 < cache["OPTIONS"]["socket_timeout"] <= 2
    tasks = {entry["task"] for entry in produced["CELERY_BEAT_SCHEDULE"].values()}
    assert {"replays.announcements_dispatch", "replays.import_jobs_sweep"} <= tasks


def test_one_redis_client_serves_every_call_of_a_cache():
    """Django's Redis cache built a new client object (its callbacks set up again) for
    every call; ours keeps one per connection pool: the same for reads and writes on one
    server, and a new cache (``override_settings``) has its own."""
    first = core_cache.ResilientRedisCache("redis://127.0.0.1:1/0", {})
    client = first._cache.get_client("key")
    assert first._cache.get_client("other", write=True) is client
    assert client.connection_pool is first._cache._get_connection_pool(True)
    second = core_cache.ResilientRedisCache("redis://127.0.0.1:1/0", {})
    assert second._cache.get_client("key") is not client
