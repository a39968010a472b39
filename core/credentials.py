"""Who a session or an API token is, remembered for a minute, and forgotten at once
when any credential changes.

Why: a signed-in read of a cached record body paid for its client's identity before the
cached bytes: the session's row and its user (two queries), or the token's lookup (one),
more than the rest of the request (docs/performance.md, "The replay viewer"). Only the
throttle needs that identity there (the bodies are the same for everyone), so a process
remembers the user a credential resolved to for ``REMEMBER_SECONDS``
(``CredentialMemo``). A minute, not a few seconds: with 5 s, a reader taking a step
through a replay every 5 s or more paid the lookup at every step (and the bench's
signed-in first visits met it in their slowest samples: docs/performance.md). What is
remembered only picks the throttle's window, never what the answer holds, and a change
is honoured at the next request whatever the seconds (below); what the seconds bound is
a session expiring by its date, which no signal tells.

Never longer than a change: every change that can refuse a credential (a logout, a
session deleted, an account saved or deleted: its password, its ``is_active``; an API
token saved or deleted: its revocation) replaces the shared *generation*
(``credentials_changed``, now and again after the commit). A remembered identity carries
the generation read *before* the database was asked, and is used only while the
generation read with the request (in the same round trip as the throttle and the body's
token) is the same; a missing generation (the cache away or emptied) is never a match.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from time import monotonic
from typing import Any

from django.core.cache import cache
from django.db import transaction

from core.cache import CACHE_ERRORS, cache_failed, shared_redis

GENERATION = "credentials:generation"
REMEMBER_SECONDS = 60.0
REMEMBER_MAX = 10_000  # credentials a process remembers (emptied when full)


def credentials_generation() -> str | None:
    """The current generation, made now if there is none (None: the cache is away)."""
    fresh = uuid.uuid4().hex
    try:
        client = shared_redis()
        if client is None:
            cache.add(GENERATION, fresh, None)
            value = cache.get(GENERATION)
            return str(value) if value is not None else None
        key = cache.make_key(GENERATION)
        pipe = client.pipeline(transaction=False)  # one round trip, not two
        pipe.set(key, fresh, nx=True)
        pipe.get(key)
        _, found = pipe.execute()
    except CACHE_ERRORS as exc:
        cache_failed(exc)
        return None
    return found.decode() if found is not None else None


def credentials_changed() -> None:
    """A credential may have been refused: no process uses what it remembers any more.

    Now, and again after the commit: a reader that resolves a credential between the two
    (the change not committed yet, so the old answer) remembers it under a generation
    the second replacement drops.
    """
    _generation_replace()
    transaction.on_commit(_generation_replace, robust=True)


def _generation_replace() -> None:
    fresh = uuid.uuid4().hex
    try:
        client = shared_redis()
        if client is None:
            cache.set(GENERATION, fresh, None)
        else:
            client.set(cache.make_key(GENERATION), fresh)
    except CACHE_ERRORS as exc:
        # The cache is away: nothing read from it matches a remembered generation either
        # (a missing generation never does), so nothing remembered is used meanwhile.
        cache_failed(exc)


@dataclass(frozen=True)
class Remembered:
    user: Any
    generation: str
    until: float


class CredentialMemo:
    """This process's memory of credentials (a session key, a token's digest) to users."""

    def __init__(self) -> None:
        self.items: dict[str, Remembered] = {}

    def get(self, credential: str) -> Remembered | None:
        found = self.items.get(credential)
        if found is not None and found.until < monotonic():
            self.items.pop(credential, None)
            return None
        return found

    def put(self, credential: str, user: Any, generation: str | None) -> None:
        if generation is None:
            return
        if len(self.items) >= REMEMBER_MAX:
            self.items.clear()
        self.items[credential] = Remembered(user, generation, monotonic() + REMEMBER_SECONDS)

    def forget(self, credential: str) -> None:
        self.items.pop(credential, None)

    def clear(self) -> None:
        self.items.clear()


def _changed(**kwargs: Any) -> None:
    credentials_changed()


def credentials_signals_connect() -> None:
    """Connect the changes of Django's own credentials (accounts, sessions, logouts);
    ``accounts`` connects its API tokens'."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.signals import user_logged_out
    from django.contrib.sessions.models import Session
    from django.db.models.signals import post_delete, post_save

    user_model = get_user_model()
    user_logged_out.connect(_changed, dispatch_uid="core.credentials.logout")
    post_save.connect(_changed, sender=user_model, dispatch_uid="core.credentials.user_save")
    post_delete.connect(_changed, sender=user_model, dispatch_uid="core.credentials.user_delete")
    post_delete.connect(_changed, sender=Session, dispatch_uid="core.credentials.session_delete")


def credentials_changed_receiver(**kwargs: Any) -> None:
    """A signal receiver for other apps' credentials (``accounts``' API tokens)."""
    credentials_changed()
