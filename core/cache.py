"""One Redis client per cache and process, for the hot paths that pipeline commands.

Django's ``RedisCache`` builds a new client object for every call and has no
pipeline; the throttle and the response cache send several commands in one
round trip, through this client, on the same connection pool and key prefix.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache


def shared_redis() -> Any | None:
    """The default cache's Redis client, or None when the cache is not Redis.

    Kept on the cache's client object: ``override_settings(CACHES=...)`` makes a
    new cache and so a new client; redis-py's pool reconnects after a fork.
    """
    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        return None
    inner = backend._cache
    client = getattr(inner, "giftbox_shared_client", None)
    if client is None:
        client = inner.get_client(write=True)
        inner.giftbox_shared_client = client
    return client
