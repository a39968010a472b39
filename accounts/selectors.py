"""Reads for accounts."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from accounts.models import ApiToken
from core.handles import handle_key, handle_lookalike
from replays.models import Player


def api_token_list(*, user: AbstractBaseUser) -> QuerySet[ApiToken]:
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-id")


def handle_lookalike_of(name: str) -> str | None:
    """An existing username or player name that ``name`` would be read as, or None.

    Compared by ``core.handles.handle_key`` (NFKC, case folding, look-alike letters
    made Latin). A player whose name differs only in case is not one: sign-up may
    take that player's handle, as every search ignores case.
    """
    key = handle_key(name)
    users = get_user_model().objects.filter(username__iexact=key).values_list(
        "username", flat=True
    )
    for other in users:
        if handle_lookalike(name, other):
            return other
    for other in Player.objects.filter(name__iexact=key).values_list("name", flat=True):
        if handle_lookalike(name, other) and name.casefold() != other.casefold():
            return other
    return None
