"""Every copy the site keeps in Redis expires, so a Redis shared with the broker can be
bounded with ``maxmemory-policy volatile-lru`` (docs/operations.md): eviction then takes
only cached copies, never the broker's queues (which carry no expiry)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from core.credentials import GENERATION
from replays import response_cache
from tests.replays.test_response_cache import redis_cache_use

pytestmark = pytest.mark.django_db

# Kept without an expiry on purpose: small, one per site (what a credential change
# replaces; lost, it is made again and nothing remembered matches it).
LASTING = {GENERATION}


@pytest.fixture
def redis_cache(settings):
    response_cache.local_bodies.clear()
    yield redis_cache_use(settings)
    response_cache.local_bodies.clear()


def test_every_key_a_visit_leaves_in_redis_expires(redis_cache, make_document, django_user_model):
    from core.cache import shared_redis

    client = APIClient()
    document = make_document("gift_trap", seed=3)
    record_id = client.post("/api/records/", document, format="json").json()["id"]
    reader = django_user_model.objects.create_user("ttl-reader", "r@example.org", "long-pass-123")
    signed_in = APIClient()
    signed_in.force_login(reader)
    for who in (client, signed_in):
        for path in (
            f"/records/{record_id}/",
            f"/records/{record_id}/steps/5/table/",
            f"/records/{record_id}/steps/5/table/?seat=1",
            f"/api/records/{record_id}/",
            f"/api/records/{record_id}/steps/5/",
            f"/api/records/{record_id}/steps/7/?seat=0",
            f"/api/records/{record_id}/timeline/",
            "/api/records/",
            "/games/gift_trap/",
            "/api/leaderboards/?game=gift_trap",
            "/",
        ):
            response = who.get(path)
            assert response.status_code == 200, (path, response.status_code)
    redis = shared_redis()
    keys = [key.decode() for key in redis.scan_iter(match=f"{redis_cache}:*", count=1000)]
    assert len(keys) > 10, keys  # the visits above were cached
    lasting = sorted(k for k in keys if redis.ttl(k) == -1)  # -1: no expiry; -2: gone
    allowed = {cache.make_key(name) for name in LASTING}
    assert set(lasting) <= allowed, f"kept in Redis without an expiry: {lasting}"
