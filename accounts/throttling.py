"""Rate limits per client: DRF's anonymous (by address) and per-user throttles.

DRF binds ``THROTTLE_RATES`` when the class is defined; these read the rates
when a request comes, so settings changed at run time (tests) take effect.
The counters live in Django's cache: the default local-memory cache counts
per process.
"""

from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle


class AnonThrottle(AnonRateThrottle):
    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class UserThrottle(UserRateThrottle):
    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
