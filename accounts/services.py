"""Writes for accounts: sign-up, API tokens, merging players."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import ApiToken, SiteSettings
from core.errors import BadRequest, Forbidden, NotFound
from replays.models import Player

LAST_USED_PRECISION = timedelta(minutes=1)


def token_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


@transaction.atomic
def user_signup(*, username: str, email: str, password: str) -> AbstractBaseUser:
    """Create an account, and the player of the same handle linked to it when that is free.

    The caller has validated the fields (the sign-up form does); this checks
    only what may change between the form and the write: whether sign-up is open.
    """
    if not SiteSettings.current().signup_open:
        raise Forbidden("signup_closed", "Sign-up is closed on this site.")
    owners = list(
        get_user_model().objects.filter(email__iexact=email).values_list("username", flat=True)
    )
    user = get_user_model().objects.create_user(username=username, email=email, password=password)
    if owners:
        transaction.on_commit(lambda: _email_taken_notify(email, username, owners))
    player = Player.objects.filter(name=username).first()
    if player is None:
        Player.objects.create(name=username, user=user)
    elif player.user_id is None and not player.seats.exists():
        # A handle nobody has played under yet (an admin made it): it is free.
        player.user = user
        player.save(update_fields=["user"])
    return user


def _email_taken_notify(email: str, username: str, owners: list[str]) -> None:
    """Tell the owner of ``email`` that a new account gave it, instead of telling the
    person signing up that it is taken (which would say whose address is registered)."""
    body = render_to_string(
        "accounts/signup_email_taken.txt",
        {"email": email, "username": username, "owners": owners},
    )
    send_mail(
        "A new giftbox account was made with your e-mail address",
        body,
        None,
        [email],
        fail_silently=True,
    )


def api_token_create(*, user: AbstractBaseUser, name: str) -> tuple[ApiToken, str]:
    """Make a token; returns it and its key. The key is not stored: show it now or never."""
    name = name.strip()
    if not name:
        raise BadRequest("invalid_request", "Give the token a name.", field="name")
    if len(name) > 100:
        raise BadRequest("invalid_request", "A token name is at most 100 characters.", field="name")
    key = secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name, prefix=key[: ApiToken.PREFIX_LENGTH], key_hash=token_hash(key)
    )
    return token, key


def api_token_revoke(*, user: AbstractBaseUser, token_id: int) -> ApiToken:
    """Revoke one of ``user``'s tokens; another user's token is not found (404)."""
    token = ApiToken.objects.filter(pk=token_id, user=user).first()
    if token is None:
        raise NotFound("not_found", f"You have no API token {token_id}.")
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def api_token_touch(*, token: ApiToken) -> None:
    """Note that the token was used, at most once a minute (not a write per request)."""
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_PRECISION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
