"""Cost budgets: how much work one client may ask for in a window, counted in units of work.

A request throttle counts requests, but one request can cost a thousand times
another (an export streams every record a filter finds). A budget counts the
work itself (records streamed, live games opened) per client in a fixed window
of the shared cache: ``budget_remaining`` says what is left before the work
starts, ``budget_charge`` counts what was done. Over budget, the caller raises
:class:`QuotaExceeded`: a 429 in the error shape with ``Retry-After`` (the end of
the window). The counters live in the cache every server process shares; if the
cache cannot be reached the budget is not enforced (logged), so an outage of the
cache never refuses work the database could do.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass

from django.core.cache import cache

from core.errors import ServiceError

logger = logging.getLogger("core.quotas")


class QuotaExceeded(ServiceError):
    """429 ``quota_exceeded``: the numbers are in ``detail``; ``retry_after`` when known."""

    status = 429

    def __init__(self, message: str, *, retry_after: int | None = None, **detail: object) -> None:
        if retry_after is not None:
            detail["retry_after"] = retry_after
        super().__init__("quota_exceeded", message, **detail)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Budget:
    """What is left of ``limit`` units in the current window, and when the window ends."""

    limit: int
    used: int
    retry_after: int

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.used)


def _window(name: str, ident: str, period: int, now: float) -> tuple[str, int]:
    start = int(now // period) * period
    retry_after = max(1, math.ceil(start + period - now))
    return f"quota:{name}:{ident}:{start}", retry_after


def budget_remaining(name: str, ident: str, *, limit: int, period: int) -> Budget:
    """The budget ``name`` of client ``ident`` in the current window (nothing is counted)."""
    key, retry_after = _window(name, ident, period, time.time())
    try:
        used = int(cache.get(key) or 0)
    except Exception as exc:  # the cache is away: do not refuse work for it
        logger.warning("budget %s not checked (cache unavailable): %s", name, exc)
        used = 0
    return Budget(limit=limit, used=used, retry_after=retry_after)


def budget_charge(name: str, ident: str, cost: int, *, period: int) -> None:
    """Count ``cost`` units of work for client ``ident`` in the current window."""
    if cost <= 0:
        return
    key, _ = _window(name, ident, period, time.time())
    try:
        cache.add(key, 0, timeout=period + 5)
        cache.incr(key, cost)
    except ValueError:  # the key expired between add and incr: start the count again
        cache.set(key, cost, timeout=period + 5)
    except Exception as exc:
        logger.warning("budget %s not counted (cache unavailable): %s", name, exc)
