"""Who may do what in a club, the audit log, and announcing a record whose standing changed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from clubs.models import AuditLog, Club, Membership
from core.errors import Conflict, Forbidden
from replays.models import Player, Record
from replays.services import records_announce

Role = Membership.Role
DEFAULT_CORRECTION_WINDOW = timedelta(hours=24)


def record_announce(record: Record) -> None:
    """Tell analytics, after commit, that what counts of ``record`` changed (an entry, a void).

    Through the record outbox, as a stored record is announced: the row is
    written in this transaction, so a broker that is down delays the news but
    never loses it, and ``clubs`` never imports ``analytics`` (the task is
    named). Analytics re-reads the record's entries and recomputes the
    ratings of every season and club scope that gained or lost it.
    """
    records_announce(record_ids=[record.pk])


# --- who is who ---------------------------------------------------------------


def membership_find(*, club: Club, user: AbstractBaseUser | None) -> Membership | None:
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user=user).first()


def require_member(*, club: Club, user: AbstractBaseUser | None) -> Membership:
    membership = membership_find(club=club, user=user)
    if membership is None:
        raise Forbidden("not_a_member", f"Only members of {club.name} may do this.", club=club.slug)
    return membership


def require_admin(*, club: Club, user: AbstractBaseUser | None) -> Membership:
    membership = require_member(club=club, user=user)
    if not membership.is_admin:
        raise Forbidden(
            "not_club_admin", f"Only admins and owners of {club.name} may do this.", club=club.slug
        )
    return membership


def member_player(*, user: AbstractBaseUser) -> Player:
    """The player a member plays as: the one linked to their user, made from their username.

    A player of that handle that nobody owns yet is linked to them (a guest of that
    name becomes a person); one owned by someone else, or a bot, is a conflict an
    admin resolves (merge or rename).
    """
    player = Player.objects.filter(user=user).order_by("id").first()
    if player is not None:
        return player
    username = user.get_username()
    player, _ = Player.objects.get_or_create(name=username)
    if player.user_id is None and player.kind != Player.Kind.BOT:  # a bot's name is not free
        player.user = user
        if player.kind == Player.Kind.GUEST:  # a guest who made an account is a member now
            player.kind = Player.Kind.PERSON
        player.save(update_fields=["user", "kind"])
    elif player.user_id != user.pk:
        owner = "a bot" if player.kind == Player.Kind.BOT else "another account"
        raise Conflict(
            "handle_taken",
            f"The player handle {username!r} belongs to {owner}; ask an admin.",
            handle=username,
        )
    return player


def audit(
    *,
    actor: AbstractBaseUser | None,
    action: str,
    club: Club | None,
    target: Any,
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> AuditLog:
    return AuditLog.objects.create(
        actor=actor,
        action=action,
        club=club,
        target_type=type(target).__name__.lower(),
        target_id=target.pk,
        before=before,
        after=after,
        reason=reason,
    )
