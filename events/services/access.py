"""Who may do what at an event."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from clubs.models import Membership
from core.errors import Forbidden
from events.models import Entry, Event, Table


def _signed_in(user: AbstractBaseUser | None) -> bool:
    return user is not None and user.is_authenticated


def is_organiser(*, event: Event, user: AbstractBaseUser | None) -> bool:
    """The event's creator, or an admin or owner of its club."""
    if not _signed_in(user):
        return False
    if event.created_by_id == user.pk:
        return True
    if event.club_id is None:
        return False
    return Membership.objects.filter(
        club_id=event.club_id,
        user=user,
        role__in=[Membership.Role.OWNER, Membership.Role.ADMIN],
    ).exists()


def require_organiser(*, event: Event, user: AbstractBaseUser | None) -> None:
    if not is_organiser(event=event, user=user):
        raise Forbidden(
            "not_organiser",
            f"Only the organiser of {event.name} (or an admin of its club) may do this.",
            event=event.pk,
        )


def entry_of_user(*, entry: Entry, user: AbstractBaseUser | None) -> bool:
    """Whether ``entry`` is ``user`` playing: entered as them, or their player."""
    if not _signed_in(user):
        return False
    return entry.user_id == user.pk or entry.player.user_id == user.pk


def seat_of_user(*, table: Table, user: AbstractBaseUser | None) -> int | None:
    """The seat ``user`` has at ``table``, or None when they do not sit there."""
    for seat in table.seats.select_related("entry__player"):
        if entry_of_user(entry=seat.entry, user=user):
            return seat.seat
    return None
