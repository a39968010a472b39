"""Failed logins and password-reset requests are limited per account name and per address.

Without a limit, a login form answers as many password guesses as a client sends.
Every failed password check (Django's ``user_login_failed`` signal: the site's
login page and the admin's alike) counts once for the account name tried and once
for the client's address (``NUM_PROXIES``-aware, as the API throttle reads it), in
a window of ``LOGIN_FAILURE_SECONDS``. Once either count reaches
``LOGIN_FAILURE_LIMIT``, :class:`LoginLimitMiddleware` answers the next login
POST with a 429 page saying when to try again, before any password is checked.
The password-reset form (which sends mail) counts every request, per address and
per e-mail address given, up to ``PASSWORD_RESET_LIMIT``.

The counters live in the shared cache (``core.quotas``); if it is away they are not
enforced (logged), so a cache outage never locks people out.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse

from core.api.throttling import client_ident
from core.quotas import budget_charge, budget_remaining

LOGIN_NAME = "login-name"
LOGIN_ADDRESS = "login-addr"
RESET_EMAIL = "reset-email"
RESET_ADDRESS = "reset-addr"

# The URL names of the forms that check a password, and of the password-reset form.
LOGIN_URLS = ("login", "admin:login")
RESET_URLS = ("password_reset",)


def _key(value: str) -> str:
    """A fixed-length cache key part for what a client typed (any length, any characters)."""
    return hashlib.sha256(value.strip().casefold().encode()).hexdigest()[:32]


def _address(request: HttpRequest) -> str:
    return client_ident(request) or "unknown"


def login_failed(sender: Any, credentials: dict[str, Any], request: Any = None, **_: Any) -> None:
    """``user_login_failed`` receiver: count the failure for the name and the address."""
    period = settings.LOGIN_FAILURE_SECONDS
    name = credentials.get("username")
    if isinstance(name, str) and name:
        budget_charge(LOGIN_NAME, _key(name), 1, period=period)
    if isinstance(request, HttpRequest):
        budget_charge(LOGIN_ADDRESS, _address(request), 1, period=period)


def _wait(checks: list[tuple[str, str]], limit: int, period: int) -> int | None:
    """Seconds until the first exhausted window ends, or None if every one has room."""
    waits = []
    for name, ident in checks:
        budget = budget_remaining(name, ident, limit=limit, period=period)
        if budget.remaining <= 0:
            waits.append(budget.retry_after)
    return max(waits) if waits else None


def _paths(names: tuple[str, ...]) -> set[str]:
    paths = set()
    for name in names:
        try:
            paths.add(reverse(name))
        except NoReverseMatch:
            continue
    return paths


def _refused(request: HttpRequest, wait: int, what: str) -> HttpResponse:
    minutes = max(1, math.ceil(wait / 60))
    response = render(
        request,
        "accounts/too_many_attempts.html",
        {"what": what, "wait_seconds": wait, "wait_minutes": minutes},
        status=429,
    )
    response["Retry-After"] = str(wait)
    return response


class LoginLimitMiddleware:
    """Refuses login and password-reset POSTs past their limits (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST":
            refused = self._check(request)
            if refused is not None:
                return refused
        return self.get_response(request)

    def _check(self, request: HttpRequest) -> HttpResponse | None:
        path = request.path_info
        if path in _paths(LOGIN_URLS):
            checks = [(LOGIN_ADDRESS, _address(request))]
            name = request.POST.get("username", "")
            if name:
                checks.append((LOGIN_NAME, _key(name)))
            limit, period = settings.LOGIN_FAILURE_LIMIT, settings.LOGIN_FAILURE_SECONDS
            wait = _wait(checks, limit, period)
            return None if wait is None else _refused(request, wait, "failed logins")
        if path in _paths(RESET_URLS):
            checks = [(RESET_ADDRESS, _address(request))]
            email = request.POST.get("email", "")
            if email:
                checks.append((RESET_EMAIL, _key(email)))
            limit, period = settings.PASSWORD_RESET_LIMIT, settings.LOGIN_FAILURE_SECONDS
            wait = _wait(checks, limit, period)
            if wait is not None:
                return _refused(request, wait, "password-reset requests")
            for name, ident in checks:
                budget_charge(name, ident, 1, period=period)
        return None
