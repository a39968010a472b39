"""Writes: clubs, invitations and members."""

from __future__ import annotations

import secrets
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from clubs.models import Club, Invitation, Membership
from clubs.routes import CLUB, slug_shadowed
from clubs.services.access import (
    Role,
    audit,
    member_player,
    require_admin,
    require_member,
)
from core.errors import BadRequest, Conflict, Forbidden, NotFound, ServiceError

# --- clubs and members ----------------------------------------------------------


@transaction.atomic
def club_create(*, user: AbstractBaseUser, name: str, slug: str, description: str = "") -> Club:
    """Make a club; its creator is its first owner.

    A taken slug is 409 ``slug_taken`` (also when another request took it a moment
    before); a slug the site's own addresses would shadow is 400 ``slug_reserved``.
    """
    shadowed = slug_shadowed(CLUB, slug)
    if shadowed is not None:
        raise BadRequest(
            "slug_reserved",
            f"“{slug}” is part of the site's own addresses ({shadowed}); choose another slug.",
            field="slug",
        )
    if Club.objects.filter(slug=slug).exists():
        raise Conflict("slug_taken", f"A club is already called {slug!r}.", field="slug")
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, slug=slug, description=description)
    except IntegrityError:
        raise Conflict("slug_taken", f"A club is already called {slug!r}.", field="slug") from None
    Membership.objects.create(club=club, user=user, role=Role.OWNER)
    member_player(user=user)
    return club


@transaction.atomic
def club_settings_update(
    *, club: Club, user: AbstractBaseUser | None, analyse_league_games: bool
) -> Club:
    """Change a club's settings (admins and owners only; audited).

    ``analyse_league_games``: every game entered in one of the club's league seasons from
    now on is analysed (analytics queues it after the entry); games entered before are
    not, so turning it on never floods the analysis workers with a club's history.
    """
    require_admin(club=club, user=user)
    club = Club.objects.select_for_update().get(pk=club.pk)
    before = {"analyse_league_games": club.analyse_league_games}
    if before["analyse_league_games"] != analyse_league_games:
        club.analyse_league_games = analyse_league_games
        club.save(update_fields=["analyse_league_games"])
        audit(
            actor=user,
            action="club_settings",
            club=club,
            target=club,
            before=before,
            after={"analyse_league_games": analyse_league_games},
        )
    return club


def invitation_key_hash(key: str) -> str:
    return Invitation.hash_of(key)


@transaction.atomic
def invitation_create(
    *,
    club: Club,
    user: AbstractBaseUser | None,
    role: str = Role.MEMBER,
    expires_at: datetime | None = None,
    max_uses: int | None = None,
) -> tuple[Invitation, str]:
    """Make a join link; returns it and its key (stored only hashed: show it now or never).

    Admins invite members; only owners invite admins or owners.
    """
    membership = require_admin(club=club, user=user)
    if role != Role.MEMBER and membership.role != Role.OWNER:
        raise Forbidden("not_club_owner", "Only owners may invite admins or owners.")
    key = secrets.token_urlsafe(24)
    invitation = Invitation.objects.create(
        club=club,
        key_hash=invitation_key_hash(key),
        prefix=key[: Invitation.PREFIX_LENGTH],
        created_by=user,
        role=role,
        expires_at=expires_at,
        max_uses=max_uses,
    )
    audit(
        actor=user,
        action="invitation.create",
        club=club,
        target=invitation,
        after={
            "prefix": invitation.prefix,
            "role": role,
            "expires_at": expires_at.isoformat() if expires_at else None,
            "max_uses": max_uses,
        },
    )
    return invitation, key


def invitation_refusal(
    invitation: Invitation, *, now: datetime | None = None
) -> ServiceError | None:
    """Why nobody new may join with ``invitation`` now (an error to raise or show), or None.

    The message says what happened and what to do, for the person holding the link.
    """
    status = invitation.status_at(now or timezone.now())
    club = invitation.club.name
    ask = f"ask whoever sent it, or an admin of {club}, for a new link."
    if status == Invitation.Status.REVOKED:
        return Forbidden(
            "invitation_revoked", f"This invitation to {club} was withdrawn by an admin: {ask}"
        )
    if status == Invitation.Status.USED:
        return Forbidden(
            "invitation_used_up",
            f"This invitation to {club} has already been used as often as it allowed: {ask}",
        )
    if status == Invitation.Status.EXPIRED:
        assert invitation.expires_at is not None
        expired = timezone.localtime(invitation.expires_at)
        day = f"{expired.day} {expired:%B %Y}"
        return Forbidden("invitation_expired", f"This invitation to {club} expired on {day}: {ask}")
    return None


INVITATION_NOT_FOUND = (
    "This invitation link is not known: check that the whole link was copied, "
    "or ask whoever sent it for a new one."
)


@transaction.atomic
def club_join(*, key: str, user: AbstractBaseUser) -> Membership:
    """Join the club of an invitation key; joining a club one is in changes nothing."""
    invitation = (
        Invitation.objects.select_for_update()
        .select_related("club")
        .filter(key_hash=invitation_key_hash(key))
        .first()
    )
    if invitation is None:
        raise NotFound("invitation_not_found", INVITATION_NOT_FOUND)
    existing = Membership.objects.filter(club=invitation.club, user=user).first()
    if existing is not None:
        return existing
    refusal = invitation_refusal(invitation)
    if refusal is not None:
        raise refusal
    member_player(user=user)
    membership = Membership.objects.create(club=invitation.club, user=user, role=invitation.role)
    invitation.uses += 1
    invitation.save(update_fields=["uses"])
    return membership


@transaction.atomic
def invitation_revoke(
    *, club: Club, user: AbstractBaseUser | None, invitation_id: int, reason: str = ""
) -> Invitation:
    """Withdraw a pending join link, so nobody else joins with it; audited.

    Admins revoke member invitations; only owners revoke invitations for admins or owners
    (as only they make them). Revoking a revoked link changes nothing; a link that is used
    up or expired lets nobody in already (409 ``invitation_inactive``).
    """
    membership = require_admin(club=club, user=user)
    invitation = (
        Invitation.objects.select_for_update()
        .select_related("club")
        .filter(pk=invitation_id, club=club)
        .first()
    )
    if invitation is None:
        raise NotFound("invitation_not_found", f"{club.name} has no invitation {invitation_id}.")
    if invitation.role != Role.MEMBER and membership.role != Role.OWNER:
        raise Forbidden(
            "not_club_owner", "Only owners may revoke invitations for admins or owners."
        )
    status = invitation.status_at(timezone.now())
    if status == Invitation.Status.REVOKED:
        return invitation
    if status != Invitation.Status.PENDING:
        raise Conflict(
            "invitation_inactive",
            f"This invitation is {'used up' if status == Invitation.Status.USED else 'expired'}"
            " already: nobody can join with it.",
            status=status.value,
        )
    invitation.revoked_at = timezone.now()
    invitation.save(update_fields=["revoked_at"])
    audit(
        actor=user,
        action="invitation.revoke",
        club=club,
        target=invitation,
        before={"prefix": invitation.prefix, "role": invitation.role, "status": status.value},
        after={"prefix": invitation.prefix, "role": invitation.role, "status": "revoked"},
        reason=reason,
    )
    return invitation


def _member_by_username(*, club: Club, username: str) -> Membership:
    membership = (
        Membership.objects.select_for_update()
        .filter(club=club, user__username=username)
        .select_related("user")
        .first()
    )
    if membership is None:
        raise NotFound("member_not_found", f"{username!r} is not a member of {club.name}.")
    return membership


def _owners_left(*, club: Club, without: Membership) -> int:
    return Membership.objects.filter(club=club, role=Role.OWNER).exclude(pk=without.pk).count()


@transaction.atomic
def membership_remove(*, club: Club, user: AbstractBaseUser | None, username: str) -> None:
    """Remove ``username`` from the club: themselves (leaving) or by an admin.

    Admins remove members; only owners remove admins and owners. The last owner
    cannot leave or be removed (a club always has an owner).
    """
    actor = require_member(club=club, user=user)
    target = _member_by_username(club=club, username=username)
    if target.pk != actor.pk:
        if not actor.is_admin:
            raise Forbidden("not_club_admin", "Only admins and owners may remove members.")
        if target.is_admin and actor.role != Role.OWNER:
            raise Forbidden("not_club_owner", "Only owners may remove admins and owners.")
    if target.role == Role.OWNER and _owners_left(club=club, without=target) == 0:
        raise Conflict(
            "last_owner", "The last owner cannot leave; make another member an owner first."
        )
    before = {"user": username, "role": target.role}
    action = "member.leave" if target.pk == actor.pk else "member.remove"
    audit(actor=user, action=action, club=club, target=target, before=before)
    target.delete()


@transaction.atomic
def membership_role_change(
    *, club: Club, user: AbstractBaseUser | None, username: str, role: str
) -> Membership:
    """Change a member's role: owners only (so no admin can promote themselves)."""
    actor = require_member(club=club, user=user)
    if actor.role != Role.OWNER:
        raise Forbidden("not_club_owner", "Only owners may change roles.")
    if role not in Role.values:
        raise BadRequest("invalid_request", f"Role must be one of {Role.values}.", field="role")
    target = _member_by_username(club=club, username=username)
    if (
        target.role == Role.OWNER
        and role != Role.OWNER
        and not _owners_left(club=club, without=target)
    ):
        raise Conflict("last_owner", "The last owner cannot step down; make another owner first.")
    before = {"user": username, "role": target.role}
    target.role = role
    target.save(update_fields=["role"])
    audit(
        actor=user,
        action="member.role",
        club=club,
        target=target,
        before=before,
        after={"user": username, "role": role},
    )
    return target
