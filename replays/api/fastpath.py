"""Cached record bodies answered before DRF's machinery, once its rules are honoured.

Why: with the bodies cached (``replays.response_cache``), what was left of a
request was DRF's cycle (request wrapping, negotiation, two throttles with
four cache round trips, rendering) — several times Django's own cost
(docs/performance.md). For an anonymous JSON GET this path does what DRF
would decide, in one cache round trip: authentication (no credentials: the
anonymous client), permission (reading is open to everyone), the throttle
(counted exactly as ``core.api.throttling.RateThrottle`` counts, in the same
pipeline as the version token read), content negotiation (JSON only: no
``format``, an ``Accept`` of nothing, ``*/*`` or ``application/json``). Then,
if the body of the current token is cached, it is the answer, with DRF's
headers. Anything else — credentials, another format, a query this path does
not know, a refusal, a miss — goes to the DRF view, told the throttle's
verdict so the request is counted once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

from core.api.throttling import VERDICT_ATTRIBUTE, throttle_check
from replays import response_cache

Target = tuple[str, str]  # (token name, body variant)
JSON_ACCEPTS = frozenset({"", "*/*", "application/json"})


def _anonymous_json(request: HttpRequest) -> bool:
    if request.method != "GET" or "HTTP_AUTHORIZATION" in request.META:
        return False
    if request.META.get("HTTP_ACCEPT", "").strip() not in JSON_ACCEPTS:
        return False
    if "format" in request.GET:
        return False
    user = getattr(request, "user", None)  # Django's session user, as DRF's session auth reads
    return user is None or not user.is_authenticated


def _seat(request: HttpRequest) -> tuple[bool, int | None]:
    """(understood, seat): no query, or exactly one ``seat`` of digits."""
    if not request.META.get("QUERY_STRING"):
        return True, None
    if set(request.GET) != {"seat"}:
        return False, None
    values = request.GET.getlist("seat")
    if len(values) != 1 or not values[0].isascii() or not values[0].isdigit():
        return False, None
    return True, int(values[0])


def detail_target(request: HttpRequest, kwargs: dict[str, Any]) -> Target | None:
    if request.META.get("QUERY_STRING"):
        return None
    return response_cache.record_target(kwargs["record_id"], response_cache.detail_variant())


def step_target(request: HttpRequest, kwargs: dict[str, Any]) -> Target | None:
    understood, seat = _seat(request)
    if not understood:
        return None
    variant = response_cache.step_variant(kwargs["step"], seat)
    return response_cache.record_target(kwargs["record_id"], variant)


def timeline_target(request: HttpRequest, kwargs: dict[str, Any]) -> Target | None:
    understood, seat = _seat(request)
    if not understood:
        return None
    return response_cache.record_target(kwargs["record_id"], response_cache.timeline_variant(seat))


def list_target(request: HttpRequest, kwargs: dict[str, Any]) -> Target | None:
    return response_cache.LIST_TOKEN, response_cache.list_variant(request)


def wrap(view: Callable[..., Any], target: Callable[[HttpRequest, dict[str, Any]], Target | None]):
    """``view`` (an ``APIView.as_view()``) answering cached bodies first (see the module).

    ``functools.wraps`` keeps ``cls``, ``initkwargs`` and ``csrf_exempt``: URL
    resolution, the OpenAPI schema and CSRF see the DRF view.
    """
    drf_view = view.cls(**view.initkwargs)  # type: ignore[attr-defined]
    if hasattr(drf_view, "get") and not hasattr(drf_view, "head"):
        drf_view.head = drf_view.get  # as View.setup does: HEAD is in Allow
    headers = dict(drf_view.default_response_headers)
    vary = headers.pop("Vary", None)

    @functools.wraps(view)
    def fast(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        found = target(request, kwargs) if _anonymous_json(request) else None
        if found is None:
            return view(request, *args, **kwargs)
        token_name, variant = found
        # Counted, and the token read, in one round trip (one Redis script).
        verdict, (token,) = throttle_check(request, None, reads=[token_name])
        setattr(request, VERDICT_ATTRIBUTE, verdict)
        if verdict.allowed and token is not None:
            body = response_cache.body_read(response_cache.body_name(token_name, token, variant))
            if body is not None:
                response = HttpResponse(body, content_type="application/json")
                if vary:
                    patch_vary_headers(response, [vary])
                for name, value in headers.items():
                    response[name] = value
                return response
        return view(request, *args, **kwargs)

    return fast


class FastCachedGet:
    """Mixin for an ``APIView`` whose JSON GET bodies ``fast_target`` names in the cache."""

    fast_target: Callable[[HttpRequest, dict[str, Any]], Target | None]

    @classmethod
    def as_view(cls, **initkwargs: Any):
        view = super().as_view(**initkwargs)  # type: ignore[misc]
        return wrap(view, cls.fast_target)
