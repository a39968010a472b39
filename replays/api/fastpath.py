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
headers. Anything else — another format, a query this path does not know, a refusal,
a miss — goes to the DRF view, told the throttle's verdict so the request is
counted once.

A signed-in request (a session cookie, or ``Authorization: Token``) takes the same
path: these bodies are the same whoever asks, so only the throttle depends on the
client. Its user is found by the API's own authentication classes, exactly as DRF
finds it (a token's lookup, the session's user), and it is counted in its user's
window. Credentials they refuse (an unknown or revoked token) go to the DRF view,
which answers the refusal; so does any other ``Authorization`` scheme.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.settings import api_settings

from core.api.throttling import VERDICT_ATTRIBUTE, throttle_check
from replays import response_cache

Target = tuple[str, str]  # (token name, body variant)
JSON_ACCEPTS = frozenset({"", "*/*", "application/json"})


def _plain_json_get(request: HttpRequest) -> bool:
    if request.method != "GET":
        return False
    if request.META.get("HTTP_ACCEPT", "").strip() not in JSON_ACCEPTS:
        return False
    return "format" not in request.GET


_UNKNOWN = object()  # the client's credentials are for the DRF view to judge


def _client(request: HttpRequest) -> Any:
    """The user DRF's authentication would find (None: anonymous), or ``_UNKNOWN``.

    Without an ``Authorization`` header: the session's user, as DRF's
    ``SessionAuthentication`` reads it (a GET needs no CSRF token). With a
    ``Token`` header: the API's authentication classes in their order, as DRF runs
    them; a refusal, or any other scheme, is ``_UNKNOWN`` (the DRF view answers it).
    """
    header = request.META.get("HTTP_AUTHORIZATION")
    if header is None:
        user = getattr(request, "user", None)  # Django's session user (lazy)
        return user if user is not None and user.is_authenticated else None
    if not header.lower().startswith("token "):
        return _UNKNOWN
    drf_request = Request(
        request, authenticators=[auth() for auth in api_settings.DEFAULT_AUTHENTICATION_CLASSES]
    )
    try:
        user = drf_request.user
    except APIException:
        return _UNKNOWN
    return user if user is not None and user.is_authenticated else _UNKNOWN


def _seat(request: HttpRequest) -> tuple[bool, int | None]:
    """(understood, seat): no query, or exactly one ``seat`` of digits."""
    if not request.META.get("QUERY_STRING"):
        return True, None
    if set(request.GET) != {"seat"}:
        return False, None
    values = request.GET.getlist("seat")
    if len(values) != 1 or not values[0].isascii() or not values[0].isdigit():
        return False, None
    if len(values[0]) > 3:  # no table has a seat past 999: DRF's own answer says why
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
        found = target(request, kwargs) if _plain_json_get(request) else None
        if found is None:
            return view(request, *args, **kwargs)
        user = _client(request)
        if user is _UNKNOWN:
            return view(request, *args, **kwargs)
        token_name, variant = found
        # Counted, and the token read, in one round trip (one Redis script).
        verdict, (token,) = throttle_check(request, user, reads=[token_name])
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
