"""Rate limits per client: DRF's anonymous (by address) and per-user scopes, in one throttle.

The limits are DRF's ``AnonRateThrottle`` and ``UserRateThrottle`` exactly:
an anonymous client is counted by address in both scopes (``anon`` and
``user``), a signed-in user by id in ``user`` only; a scope's sliding window
drops what is older than its period, refuses when it holds the limit, and a
refusal says how long to wait as DRF computes it. The rates are read when a
request comes, so settings changed at run time (tests) take effect.

Why one class: DRF's two throttles read and wrote their histories with four
cache round trips per request, and rewrote the whole pickled history (up to
the limit's length) each time. With a Redis cache both scopes are checked and
counted by one Lua script, atomically, in one round trip, in which the replay
fast path (``replays.api.fastpath``) also reads a record's version token and the
body under it (or, for a step never asked, what building it needs). Without
Redis (the embedded default: a local-memory cache, counting per process) it keeps
DRF's own histories under DRF's keys.
The counters always live in the cache shared by every server process. When that
cache cannot be reached the throttle fails open: the request goes on, a warning is
logged (``core.cache``), and nothing is counted until the cache is back.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from core.cache import CACHE_ERRORS, TOKEN_MARK, cache_failed, keys_around, shared_redis

# Set on the Django request by the fast path once it has counted the request, so the
# DRF path it may hand over to does not count it a second time.
VERDICT_ATTRIBUTE = "_giftbox_throttle_verdict"

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}

# KEYS: one history list per scope (newest first), then keys only read. ARGV[1]:
# "now scopes limit period limit period ..." (one argument, and one string answered:
# packing and parsing a dozen of each was a tenth of a cached request). Per scope:
# drop the entries older than the period (DRF's ``<=``), then refuse at the limit or
# push ``now``; answers "allowed length oldest" ("-": none). Then, after "|", the
# value of each read key (the response cache's version tokens: the same round trip).
# Then, with ARGV[2] (a key's prefix) and ARGV[3...] (suffixes), keys named by the
# first read value (a token) between the prefix and a suffix: the first always, the
# others only if it is missing (a cached body, else what building it needs).
SCRIPT = """
local words = {}
for word in string.gmatch(ARGV[1], '%S+') do words[#words + 1] = word end
local now, scopes = tonumber(words[1]), tonumber(words[2])
local out = {}
for i = 1, scopes do
  local key = KEYS[i]
  local limit = tonumber(words[1 + 2 * i])
  local period = tonumber(words[2 + 2 * i])
  local oldest = redis.call('LINDEX', key, -1)
  while oldest and tonumber(oldest) <= now - period do
    redis.call('RPOP', key)
    oldest = redis.call('LINDEX', key, -1)
  end
  local length = redis.call('LLEN', key)
  local allowed = 0
  if length < limit then
    redis.call('LPUSH', key, words[1])
    redis.call('EXPIRE', key, period)
    allowed = 1
  end
  out[#out + 1] = allowed .. ' ' .. length .. ' ' .. (oldest or '-')
end
local values = {}
for i = scopes + 1, #KEYS do values[#values + 1] = redis.call('GET', KEYS[i]) or '' end
local reply = {table.concat(out, ' ') .. '|' .. table.concat(values, '|')}
local first = values[1]
if #ARGV < 3 or not first or first == '' then return reply end
reply[2] = redis.call('GET', ARGV[2] .. first .. ARGV[3])
if reply[2] then return reply end
for i = 4, #ARGV do reply[#reply + 1] = redis.call('GET', ARGV[2] .. first .. ARGV[i]) end
return reply
"""
SCRIPT_SHA = hashlib.sha1(SCRIPT.encode()).hexdigest()


@dataclass(frozen=True)
class Scope:
    """One sliding window: DRF's cache key for it, its limit and its period in seconds."""

    key: str
    limit: int
    period: int


@dataclass(frozen=True)
class Verdict:
    """Whether the request may go on; if not, DRF's wait in seconds (None: unknown)."""

    allowed: bool
    wait: float | None = None


def _rate(scope: str) -> tuple[int, int] | None:
    rate = api_settings.DEFAULT_THROTTLE_RATES.get(scope)
    if rate is None:
        return None
    number, period = rate.split("/")
    return int(number), _PERIODS[period[0]]


def client_ident(request: HttpRequest) -> str | None:
    """The client's address as DRF's throttles tell it: ``REMOTE_ADDR``, or with
    ``NUM_PROXIES`` = n > 0 the n-th ``X-Forwarded-For`` entry from the right (what the
    trusted proxies appended). Never an entry the client could choose itself."""
    return BaseThrottle().get_ident(request)


def throttle_scopes(request: HttpRequest, user: Any) -> list[Scope]:
    """The windows this request counts in: ``anon`` and ``user`` by address, or ``user`` by id."""
    authenticated = user is not None and user.is_authenticated
    named = [("user", user.pk)] if authenticated else [("anon", None), ("user", None)]
    scopes = []
    for name, ident in named:
        rate = _rate(name)
        if rate is None:
            continue
        key = f"throttle_{name}_{ident if ident is not None else client_ident(request)}"
        scopes.append(Scope(key, *rate))
    return scopes


def _wait(scope: Scope, now: float, length: int, oldest: float | None) -> float | None:
    """DRF's ``SimpleRateThrottle.wait`` for a refused window."""
    remaining = scope.period - (now - oldest) if oldest is not None else scope.period
    available = scope.limit - length + 1
    return remaining / available if available > 0 else None


def _verdict(refusals: list[float | None]) -> Verdict:
    if not refusals:
        return Verdict(True)
    return Verdict(False, max((w for w in refusals if w is not None), default=None))


def _redis_run(
    client: Any, scopes: list[Scope], now: float, reads: list[str], under: list[str]
) -> tuple[str, list[bytes | None]]:
    """One EVALSHA: count in ``scopes``, read ``reads`` and ``under`` (names as Django's
    cache names them, ``under``'s with ``core.cache.TOKEN_MARK``): the counts and reads as text,
    the values of ``under`` as bytes.

    The script is sent by its digest, not its text; a Redis that lost it refuses the
    EVALSHA without counting, so loading it and running again counts once.
    """
    from redis.exceptions import NoScriptError

    keys = [cache.make_key(f"{scope.key}:list") for scope in scopes]
    keys += [cache.make_key(name) for name in reads]
    words = [repr(now), str(len(scopes))]
    for scope in scopes:
        words += [str(scope.limit), str(scope.period)]
    around = keys_around(under) if under else []
    command = ("EVALSHA", SCRIPT_SHA, len(keys), *keys, " ".join(words), *around)
    try:
        reply = client.execute_command(*command)
    except NoScriptError:
        client.script_load(SCRIPT)
        reply = client.execute_command(*command)
    found = list(reply[1:]) + [None] * (len(under) + 1 - len(reply))
    return reply[0].decode(), found


def _redis_verdict(scopes: list[Scope], now: float, counted: str) -> Verdict:
    refusals = []
    words = counted.split()
    for index, scope in enumerate(scopes):
        allowed, length, oldest = words[3 * index : 3 * index + 3]
        if allowed != "1":
            first = float(oldest) if oldest != "-" else None
            refusals.append(_wait(scope, now, int(length), first))
    return _verdict(refusals)


def _cache_check(scopes: list[Scope], now: float) -> Verdict:
    """DRF's algorithm on the Django cache API, with DRF's keys and history lists."""
    histories = cache.get_many([scope.key for scope in scopes])
    refusals = []
    for scope in scopes:
        history = histories.get(scope.key, [])
        while history and history[-1] <= now - scope.period:
            history.pop()
        if len(history) >= scope.limit:
            refusals.append(_wait(scope, now, len(history), history[-1] if history else None))
            continue
        history.insert(0, now)
        cache.set(scope.key, history, scope.period)
    return _verdict(refusals)


def throttle_check(
    request: HttpRequest, user: Any, *, reads: Sequence[str] = (), under: Sequence[str] = ()
) -> tuple[Verdict, list[str | None], list[bytes | None]]:
    """Count the request in its windows (shared cache): may it go on? And read ``reads``
    and ``under``.

    ``reads`` are cache keys of short text values (version tokens) that a caller
    needs on every request: with Redis they come back in the same round trip.
    ``under`` are names of bytes values with ``core.cache.TOKEN_MARK`` where the first
    read value goes (a body under its version token): the first is read, the others only if it is
    missing; all None when the first read has no value.
    """
    scopes = throttle_scopes(request, user)
    now = time.time()
    missing: list[bytes | None] = [None] * len(under)
    try:
        client = shared_redis()
        if client is None:
            verdict = _cache_check(scopes, now) if scopes else Verdict(True)
            found = cache.get_many(list(reads)) if reads else {}
            values = [found.get(name) for name in reads]
            return verdict, values, _cache_under(under, values[0] if values else None)
        if not scopes and not reads:
            return Verdict(True), [], missing
        reply, bodies = _redis_run(client, scopes, now, list(reads), list(under))
    except CACHE_ERRORS as exc:
        # The counters are away: let the request through (a warning is logged, at most
        # once a minute) rather than refuse or fail every request until Redis is back.
        cache_failed(exc)
        return Verdict(True), [None] * len(reads), missing
    counted, _, read = reply.partition("|")
    values = [value or None for value in read.split("|")] if reads else []
    return _redis_verdict(scopes, now, counted), values, bodies


def _cache_under(under: Sequence[str], first: str | None) -> list[bytes | None]:
    """``under`` read from the Django cache as the script reads them from Redis."""
    if not under or first is None:
        return [None] * len(under)
    names = [name.replace(TOKEN_MARK, first) for name in under]
    body = cache.get(names[0])
    if body is not None:
        return [body] + [None] * (len(names) - 1)
    found = cache.get_many(names[1:])
    return [None, *(found.get(name) for name in names[1:])]


class RateThrottle(BaseThrottle):
    """The ``anon`` and ``user`` rates of ``DEFAULT_THROTTLE_RATES`` (see the module)."""

    def __init__(self) -> None:
        self.verdict = Verdict(True)

    def allow_request(self, request: Request, view: Any) -> bool:
        django_request = request._request
        verdict = getattr(django_request, VERDICT_ATTRIBUTE, None)
        if verdict is None:
            verdict, _, _ = throttle_check(django_request, request.user)
        self.verdict = verdict
        return verdict.allowed

    def wait(self) -> float | None:
        return self.verdict.wait
