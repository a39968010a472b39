"""Writes for accounts: sign-up, API tokens, merging players."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import ApiToken, SiteSettings
from replays import outbox
from replays.errors import BadRequest, Forbidden, NotFound, Unprocessable
from replays.models import Announcement, Player, Record, Seat

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
    user = get_user_model().objects.create_user(username=username, email=email, password=password)
    player = Player.objects.filter(name=username).first()
    if player is None:
        Player.objects.create(name=username, user=user)
    elif player.user_id is None and not player.seats.exists():
        # A handle nobody has played under yet (an admin made it): it is free.
        player.user = user
        player.save(update_fields=["user"])
    return user


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


@transaction.atomic
def player_merge(*, keep: Player, merge: list[Player]) -> int:
    """Merge players who are one person into ``keep``; returns how many seats moved.

    Every seat (and analytics' per-seat results) of the merged players becomes
    ``keep``'s, every record stays, and the merged players are deleted. Refused
    when two of them sat in the same record: one person cannot hold two seats.
    """
    others = [p for p in merge if p.pk != keep.pk]
    if not others:
        return 0
    everyone = [keep.pk, *(p.pk for p in others)]
    seats = Seat.objects.select_for_update().filter(player_id__in=everyone)
    seen: dict[int, int] = {}
    for record_id, player_id in seats.values_list("record_id", "player_id"):
        if record_id in seen and seen[record_id] != player_id:
            names = sorted(p.name for p in [keep, *others] if p.pk in (player_id, seen[record_id]))
            raise Unprocessable(
                "players_share_a_record",
                f"{' and '.join(names)} both sat in record {record_id}: they are not one person.",
                record=record_id,
                players=names,
            )
        seen[record_id] = player_id
    other_ids = [p.pk for p in others]
    moved = Seat.objects.filter(player_id__in=other_ids).update(player=keep)
    if apps.is_installed("analytics"):
        results = apps.get_model("analytics", "PlayerResult")
        results.objects.filter(player_id__in=other_ids).update(player=keep)
    if keep.user_id is None:
        keep.user_id = next((p.user_id for p in others if p.user_id), None)
        if not keep.display_name:
            keep.display_name = next((p.display_name for p in others if p.display_name), "")
        keep.save(update_fields=["user", "display_name"])
    Player.objects.filter(pk__in=other_ids).delete()
    _games_announce(
        record_ids=[record_id for record_id, player_id in seen.items() if player_id != keep.pk]
    )
    return moved


def _games_announce(*, record_ids: list[int]) -> None:
    """Announce every record whose seats moved, in the order they were played.

    Analytics' ingest is idempotent: announcing a stored record again refreshes
    its game's summary (which names players), and a record whose players changed
    makes each rating scope recompute from it (the first one, in played order,
    redoes all the later ones, which are then unchanged).
    """
    ordered = (
        Record.objects.filter(pk__in=record_ids)
        .annotate(order_at=Coalesce("played_at", "created_at"))
        .order_by("order_at", "pk")
        .values_list("pk", flat=True)
    )
    created = [Announcement.objects.create(record_id=pk) for pk in ordered]
    if created:
        ids = [a.pk for a in created]
        transaction.on_commit(lambda: outbox.announcements_dispatch(ids=ids), robust=True)
