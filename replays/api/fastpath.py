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
which answers the refusal; so does any other ``Authorization`` scheme. Whom a session
or token was is remembered for a minute (``core.credentials``: its queries were most
of a signed-in read), and used only while no credential changed anywhere: the
credentials' generation is read in the same round trip as the throttle, and a change
(logout, password, ``is_active``, a token revoked) sends the request to the DRF view.

A step's body is read in the throttle's round trip too, with, if it is missing, what
building it needs (the record's header, the snapshot the step starts from), and a miss
is built here (``step_build``): a first visit pays neither DRF's cycle nor a second
round trip; the body is stored once the answer is sent
(``response_cache.StoredAfterResponse``).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.settings import api_settings

from core.api.throttling import VERDICT_ATTRIBUTE, throttle_check
from core.cache import TOKEN_MARK
from core.credentials import GENERATION, CredentialMemo, credentials_generation
from core.errors import ServiceError
from replays import response_cache, selectors

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


# Who a session or token was, for a minute (``core.credentials``): the session's or
# the token's queries were most of a signed-in read of a cached body.
memo = CredentialMemo()


def _credential(request: HttpRequest) -> str | None:
    """What names the client's identity: its session key, or its token's digest (None:
    neither, or an ``Authorization`` scheme that is not ours)."""
    header = request.META.get("HTTP_AUTHORIZATION")
    if header is None:
        key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
        return f"s:{key}" if key else None
    if header.lower().startswith("token "):
        return "t:" + hashlib.sha256(header.encode()).hexdigest()
    return None


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


# Builds a body the cache did not have, under the token read (request, URL kwargs, token,
# what it needs as read with the token: ``Needs``): (the body, its key: stored once the
# answer is sent; None if found meanwhile).
Build = Callable[[HttpRequest, dict[str, Any], str, list[bytes | None]], tuple[bytes, str | None]]
# The variants a miss of the target's body needs, read in the same round trip as the token
# and the body (only when the body is missing).
Needs = Callable[[HttpRequest, dict[str, Any]], list[str]]


def step_needs(request: HttpRequest, kwargs: dict[str, Any]) -> list[str]:
    return selectors.step_needs(kwargs["step"])


def step_build(
    request: HttpRequest, kwargs: dict[str, Any], token: str, found: list[bytes | None]
) -> tuple[bytes, str | None]:
    """A step's JSON, cached or built as the DRF view would build it
    (``selectors.record_step_json``); ``found``: the step's needs as read."""
    _, seat = _seat(request)
    answer = selectors.record_step_answer(
        kwargs["record_id"], step=kwargs["step"], seat=seat, token=token, needs=found
    )
    return answer.body, answer.key


def wrap(
    view: Callable[..., Any],
    target: Callable[[HttpRequest, dict[str, Any]], Target | None],
    build: Build | None = None,
    needs: Needs | None = None,
):
    """``view`` (an ``APIView.as_view()``) answering cached bodies first (see the module).

    With ``build``, a miss is built here too (the request's rules honoured as for a hit),
    from what ``needs`` names (read with the token and the body, in the throttle's round
    trip: a step's body is small, so it is read there rather than kept in this process),
    and stored once the answer is sent; a refusal it raises (a step or seat out of the
    record, a record missing) goes to the DRF view, which answers it in its own words.

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
        credential = _credential(request)
        remembered = memo.get(credential) if credential is not None else None
        if remembered is not None:
            user = remembered.user
            if credential is not None and credential.startswith("s:"):
                request.session.accessed = True  # as reading its user does: Vary: Cookie
        else:
            generation = credentials_generation() if credential is not None else None
            user = _client(request)  # after the generation: a change meanwhile replaces it
            if user is _UNKNOWN:
                return view(request, *args, **kwargs)
            if credential is not None:
                memo.put(credential, user, generation)
        token_name, variant = found
        # Counted, and the token (and the credentials' generation) read, in one round
        # trip (one Redis script); with ``build``, the body under the token too, or if
        # it is missing what building it needs.
        reads = [token_name] if credential is None else [token_name, GENERATION]
        under = []
        if build is not None:
            wanted = [variant, *(needs(request, kwargs) if needs is not None else ())]
            under = [response_cache.body_name(token_name, TOKEN_MARK, v) for v in wanted]
        verdict, (token, *seen), bodies = throttle_check(request, user, reads=reads, under=under)
        if remembered is not None and seen != [remembered.generation]:
            # A credential changed since: the DRF view judges this one afresh and counts
            # it for whom it finds (the window of whom it was counted one more).
            memo.forget(str(credential))
            return view(request, *args, **kwargs)
        setattr(request, VERDICT_ATTRIBUTE, verdict)
        if not verdict.allowed or (token is None and build is None):
            return view(request, *args, **kwargs)
        key: str | None = None
        if build is None:  # this process's copy first: a timeline is large
            body = response_cache.body_read(response_cache.body_name(token_name, token, variant))
            if body is None:
                return view(request, *args, **kwargs)
        elif (body := bodies[0]) is None:
            if token is None:  # nobody asked since the record changed: made now
                token = response_cache.token_taken(token_name)
            try:
                body, key = build(request, kwargs, token, bodies[1:])
            except ServiceError:
                return view(request, *args, **kwargs)
        response = (
            HttpResponse(body, content_type="application/json")
            if key is None
            else response_cache.StoredAfterResponse(body, key=key, content_type="application/json")
        )
        if vary:
            patch_vary_headers(response, [vary])
        for name, value in headers.items():
            response[name] = value
        return response

    return fast


class FastCachedGet:
    """Mixin for an ``APIView`` whose JSON GET bodies ``fast_target`` names in the cache."""

    fast_target: Callable[[HttpRequest, dict[str, Any]], Target | None]
    fast_build: Build | None = None
    fast_needs: Needs | None = None

    @classmethod
    def as_view(cls, **initkwargs: Any):
        view = super().as_view(**initkwargs)  # type: ignore[misc]
        return wrap(view, cls.fast_target, cls.fast_build, cls.fast_needs)
