"""The cache client, and what every use of it does when Redis is away: degrade, never fail.

The cache (Redis in a deployment, where one Redis is often also Celery's broker) only
ever holds copies: throttle counts, replay snapshots, cached bodies and dashboards. So
when it cannot be reached, a request must still be answered: reads are built from the
database, writes are stored, throttles let the request through. Three pieces do that:

* :class:`ResilientRedisCache`, the ``CACHES`` backend in a deployment: Django's
  ``RedisCache`` whose every call answers its "nothing cached" value (a miss, a failed
  ``add``) instead of raising when Redis fails;
* :func:`shared_redis`, the one client the hot paths pipeline their commands through;
  its callers catch :data:`CACHE_ERRORS` around the calls they already make and call
  :func:`cache_failed` (no extra round trip while Redis is up);
* a circuit breaker: after a failure this process skips Redis for
  ``CACHE_RETRY_SECONDS`` (no request waits for a connect timeout meanwhile), then
  pings it once; ``cache_recovered`` hooks (the response cache forgetting the tokens it
  could not drop) run when it answers again. The warning is logged at most once per
  ``WARN_EVERY`` seconds per process, with the number of failures since the last one.

Django's ``RedisCache`` builds a new client object for every call and has no
pipeline; the throttle and the response cache send several commands in one
round trip, through the shared client, on the same connection pool and key prefix.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

WARN_EVERY = 60.0  # seconds between two "cache unavailable" warnings of one process


class CacheUnavailable(RedisError):
    """Raised instead of calling Redis while the breaker is open (a recent failure)."""


# What a caller of the shared client catches: any Redis failure, and the open breaker.
CACHE_ERRORS: tuple[type[Exception], ...] = (RedisError,)


class _Breaker:
    """This process's view of the cache: up, or down until ``down_until`` (monotonic)."""

    def __init__(self) -> None:
        self.down_until = 0.0  # 0: closed (Redis used); else skipped until then
        self.failures = 0  # failures since the last warning
        self.warned_at: float | None = None
        self.outage_started: float | None = None


_breaker = _Breaker()
_recovered_hooks: list[Callable[[Any], None]] = []


def retry_seconds() -> float:
    return float(getattr(settings, "CACHE_RETRY_SECONDS", 5))


def cache_recovered(hook: Callable[[Any], None]) -> Callable[[Any], None]:
    """Register ``hook(client)``: run when Redis answers again after a failure here.

    A hook that raises a cache error keeps the breaker open (it runs again next time).
    """
    if hook not in _recovered_hooks:
        _recovered_hooks.append(hook)
    return hook


def cache_failed(exc: BaseException) -> None:
    """Note a failed cache call: open the breaker, and warn (at most once a minute)."""
    now = time.monotonic()
    if not isinstance(exc, CacheUnavailable):
        _breaker.down_until = now + retry_seconds()
        if _breaker.outage_started is None:
            _breaker.outage_started = now
    _breaker.failures += 1
    if _breaker.warned_at is None or now - _breaker.warned_at >= WARN_EVERY:
        logger.warning(
            "cache unavailable (%s): %d cache calls failed or skipped; throttles let "
            "requests through and pages are built from the database meanwhile; Redis "
            "is tried again every %g s",
            exc,
            _breaker.failures,
            retry_seconds(),
        )
        _breaker.warned_at = now
        _breaker.failures = 0


def cache_down() -> bool:
    """Whether this process is skipping the cache now (a failure in the last seconds)."""
    return bool(_breaker.down_until) and time.monotonic() < _breaker.down_until


def breaker_reset() -> None:
    """Forget every failure (tests; a process that must start from a known state)."""
    _breaker.__init__()  # type: ignore[misc]


def _client_of(backend: RedisCache) -> Any:
    inner = backend._cache
    client = getattr(inner, "giftbox_shared_client", None)
    if client is None:
        client = inner.get_client(write=True)
        inner.giftbox_shared_client = client
    return client


def _guard(backend: RedisCache) -> None:
    """Raise :class:`CacheUnavailable` while the breaker is open; once it has run its
    time, ping Redis (once) and run the recovery hooks before letting calls through."""
    if not _breaker.down_until:
        return
    if time.monotonic() < _breaker.down_until:
        raise CacheUnavailable("skipped after a recent failure")
    client = _client_of(backend)
    try:
        client.ping()
        for hook in _recovered_hooks:
            hook(client)
    except RedisError as exc:
        cache_failed(exc)
        raise
    started = _breaker.outage_started
    outage = time.monotonic() - started if started is not None else 0.0
    logger.warning(
        "cache reachable again after %.0f s (%d cache calls failed or skipped since the "
        "last warning)",
        outage,
        _breaker.failures,
    )
    breaker_reset()


def shared_redis() -> Any | None:
    """The default cache's Redis client, or None when the cache is not Redis.

    Raises :class:`CacheUnavailable` (one of :data:`CACHE_ERRORS`) while the breaker
    is open: callers catch it with the errors of the calls they make on the client.
    Kept on the cache's client object: ``override_settings(CACHES=...)`` makes a
    new cache and so a new client; redis-py's pool reconnects after a fork.
    """
    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        return None
    if _breaker.down_until:
        _guard(backend)
    return _client_of(backend)


# Where a version token goes in a key name given to ``keys_around``.
TOKEN_MARK = "\0token\0"


def keys_around(names: Sequence[str]) -> list[str]:
    """``[prefix, suffix, ...]``: ``names`` (each with ``TOKEN_MARK`` where a token goes)
    as the cache spells them, split around the token. A Lua script then names each key
    as ``prefix .. token .. suffix`` once it has read the token, in the same round trip
    (``replays.response_cache.bodies_read``, ``core.api.throttling``). The names share
    their prefix: only what follows the token differs."""
    prefix, suffixes = "", []
    for name in names:
        prefix, _, suffix = cache.make_key(name).partition(TOKEN_MARK)
        suffixes.append(suffix)
    return [prefix, *suffixes]


class _ClientKeptRedisCacheClient(RedisCacheClient):
    """Django's client wrapper, keeping one redis-py client per connection pool.

    Django builds a new redis-py client object for every call, and building one sets
    up its ~170 response callbacks: 50-150 µs on each cache read of a request (a
    step's first visit reads a snapshot, a cached page its body). A redis-py client is
    thread-safe (each command takes a connection from the pool), so one per pool is
    enough.
    """

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        kept: dict[int, Any] = self.__dict__.setdefault("_kept_clients", {})
        client = kept.get(index)
        if client is None:
            client = kept[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client


class ResilientRedisCache(RedisCache):
    """Django's Redis cache that answers "not cached" when Redis fails, instead of raising.

    A read answers its default (a miss), a write is dropped (``add`` answers False,
    ``set_many`` every key as not set), and the failure opens the breaker (see the
    module), so the next calls of this process do not wait for Redis. Everything
    cached is a copy of what the database holds, so a miss is always safe.
    """

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _ClientKeptRedisCacheClient

    def _run(self, fallback: Any, call: Callable[[], Any]) -> Any:
        try:
            if _breaker.down_until:
                _guard(self)
            return call()
        except RedisError as exc:
            cache_failed(exc)
            return fallback

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        parent = super()
        return self._run(False, lambda: parent.add(key, value, timeout, version))

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        parent = super()
        return self._run(default, lambda: parent.get(key, default, version))

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        parent = super()
        self._run(None, lambda: parent.set(key, value, timeout, version))

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        parent = super()
        return self._run(False, lambda: parent.touch(key, timeout, version))

    def delete(self, key: Any, version: Any = None) -> Any:
        parent = super()
        return self._run(False, lambda: parent.delete(key, version))

    def get_many(self, keys: Any, version: Any = None) -> Any:
        parent = super()
        return self._run({}, lambda: parent.get_many(keys, version))

    def has_key(self, key: Any, version: Any = None) -> Any:
        parent = super()
        return self._run(False, lambda: parent.has_key(key, version))

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        parent = super()
        return self._run(list(data), lambda: parent.set_many(data, timeout, version))

    def delete_many(self, keys: Any, version: Any = None) -> None:
        parent = super()
        self._run(None, lambda: parent.delete_many(keys, version))

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> Any:
        # No count can be kept while Redis is away: the caller's own miss handling
        # (``ValueError``: no such key) applies, as for a key that expired.
        try:
            if _breaker.down_until:
                _guard(self)
            return super().incr(key, delta, version)
        except RedisError as exc:
            cache_failed(exc)
            raise ValueError(f"Key {key!r} not found (the cache is unavailable).") from exc

    def clear(self) -> Any:
        parent = super()
        return self._run(False, lambda: parent.clear())
