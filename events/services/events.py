"""Writes: events, their entries, check-in, late arrivals and drops."""

from __future__ import annotations

import itertools
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from clubs.models import Club, Membership, Season
from clubs.services.access import audit, member_player, require_admin
from core.errors import BadRequest, Conflict, Forbidden, Unprocessable
from core.games import game_rules_resolve
from events.models import Entry, Event
from events.services.access import entry_of_user, is_organiser, require_organiser
from replays.handles import player_names_check
from replays.models import Player


def _points_check(points_per_place: Any) -> list[float]:
    if points_per_place in (None, []):
        return []
    if not isinstance(points_per_place, list) or not all(
        isinstance(p, int | float) and not isinstance(p, bool) and p >= 0 for p in points_per_place
    ):
        raise BadRequest(
            "invalid_request",
            "points_per_place must list points for 1st, 2nd, ... place, never rising, "
            "e.g. [4, 2, 1, 0]; leave it empty for n-1 down to 0 at a table of n.",
            field="points_per_place",
        )
    if any(a < b for a, b in itertools.pairwise(points_per_place)):
        # Well formed, but a later place would score more: 422, as other rules of an event.
        raise Unprocessable(
            "points_rising",
            "points_per_place must never rise from one place to the next: a later place "
            "cannot score more than an earlier one (e.g. [4, 2, 1, 0]).",
            field="points_per_place",
        )
    return list(points_per_place)


@transaction.atomic
def event_create(
    *,
    user: AbstractBaseUser | None,
    club: Club | None,
    name: str,
    slug: str,
    game: str,
    starts_at: datetime,
    options: dict[str, Any] | None = None,
    format: str = Event.Format.SWISS,
    rounds: int = 3,
    final_top_table: bool = False,
    min_table: int | None = None,
    max_table: int | None = None,
    points_per_place: list[float] | None = None,
    ends_at: datetime | None = None,
    location: str = "",
    season: Season | None = None,
) -> Event:
    """An event of one game and variant. Club events: club admins; open events: anyone signed in.

    ``options`` are stored in full (defaults filled), as a league's, so a season's
    league and the event's records agree on the variant. A season must be one of
    the club's, of the same game and options.
    """
    if user is None or not user.is_authenticated:
        raise Forbidden("not_signed_in", "Sign in to make an event.")
    if club is not None:
        require_admin(club=club, user=user)
    engine, resolved = game_rules_resolve(game, options)
    if format not in Event.Format.values:
        raise BadRequest("invalid_request", f"format must be one of {Event.Format.values}.")
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 30:
        raise BadRequest("invalid_request", "rounds must be 1 to 30.", field="rounds")
    low = min_table if min_table is not None else engine.min_players
    high = max_table if max_table is not None else engine.max_players
    if not engine.min_players <= low <= high <= engine.max_players:
        raise Unprocessable(  # well-formed, but not sizes this game is played at
            "invalid_table_sizes",
            f"{engine.name} is played by {engine.min_players} to {engine.max_players} "
            f"players: table sizes must lie within that, smallest first.",
            field="min_table",
        )
    if ends_at is not None and ends_at < starts_at:
        raise Unprocessable("invalid_dates", "An event ends after it starts.", field="ends_at")
    if season is not None:
        league = season.league
        if club is None or league.club_id != club.pk:
            raise Unprocessable(
                "season_of_another_club", "The season must be one of the event's club's."
            )
        if league.game != engine.slug or league.options != resolved:
            raise Unprocessable(
                "season_other_variant",
                f"League {league.name} plays another game or variant than this event.",
                field="season",
            )
        if not season.starts_on <= timezone.localdate(starts_at) <= season.ends_on:
            raise Unprocessable(
                "outside_season",
                f"The event is not within season {season.name} "
                f"({season.starts_on.isoformat()} to {season.ends_on.isoformat()}).",
                field="season",
            )
    event = Event.objects.create(
        club=club,
        name=name,
        slug=slug,
        game=engine.slug,
        options=resolved,
        format=format,
        rounds=rounds,
        final_top_table=final_top_table,
        min_table=min_table,
        max_table=max_table,
        points_per_place=_points_check(points_per_place),
        starts_at=starts_at,
        ends_at=ends_at,
        location=location,
        season=season,
        created_by=user,
    )
    if club is not None:
        audit(actor=user, action="event.create", club=club, target=event, after={"name": name})
    return event


def _not_finished(event: Event) -> None:
    if event.status == Event.Status.FINISHED:
        raise Conflict("event_finished", f"{event.name} is finished.")


def _player_for(*, event: Event, handle: str) -> tuple[Player, Any]:
    player_names_check([handle])
    player, _ = Player.objects.get_or_create(name=handle)
    if player.kind == Player.Kind.BOT:
        raise Unprocessable("bot_player", f"{handle} is a bot: only people play at events.")
    return player, player.user


@transaction.atomic
def entry_add(
    *, event: Event, user: AbstractBaseUser | None, handle: str, checked_in: bool = False
) -> Entry:
    """The organiser enters a player by handle (a new name becomes a player)."""
    require_organiser(event=event, user=user)
    _not_finished(event)
    player, owner = _player_for(event=event, handle=handle)
    return _entry_create(event=event, player=player, user=owner, checked_in=checked_in)


@transaction.atomic
def entry_join(*, event: Event, user: AbstractBaseUser | None) -> Entry:
    """A signed-in person enters themselves: any event of their club, or an open event."""
    if user is None or not user.is_authenticated:
        raise Forbidden("not_signed_in", "Sign in to enter.")
    _not_finished(event)
    if event.status == Event.Status.DRAFT:
        raise Conflict("event_draft", f"{event.name} does not take entries yet.")
    if (
        event.club_id is not None
        and not Membership.objects.filter(club_id=event.club_id, user=user).exists()
    ):
        raise Forbidden(
            "not_a_member", f"Only members of {event.club.name} may enter {event.name}."
        )
    return _entry_create(event=event, player=member_player(user=user), user=user, checked_in=False)


def _entry_create(*, event: Event, player: Player, user: Any, checked_in: bool) -> Entry:
    next_round = event.round_set.count() + 1
    try:
        with transaction.atomic():
            return Entry.objects.create(
                event=event,
                player=player,
                user=user,
                checked_in=checked_in,
                arrived_round=next_round,
            )
    except IntegrityError:
        raise Conflict(
            "already_entered", f"{player.name} is already entered in {event.name}."
        ) from None


@transaction.atomic
def entry_remove(*, entry: Entry, user: AbstractBaseUser | None) -> None:
    """Take an entry out before it has played; once seated, drop it instead."""
    require_organiser(event=entry.event, user=user)
    if entry.seats.exists() or entry.byes.exists():
        raise Conflict(
            "entry_has_played",
            f"{entry.player.name} has been seated already: drop them instead.",
        )
    entry.delete()


@transaction.atomic
def entry_check_in(
    *, entry: Entry, user: AbstractBaseUser | None, checked_in: bool = True
) -> Entry:
    """Mark a player present (or not). Arriving after round k has been seated is a late
    arrival: they are seated from round k+1 on."""
    require_organiser(event=entry.event, user=user)
    _not_finished(entry.event)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    seated = entry.event.round_set.count()
    if checked_in and not entry.checked_in and seated and not entry.seats.exists():
        entry.arrived_round = max(entry.arrived_round, seated + 1)
    entry.checked_in = checked_in
    entry.save(update_fields=["checked_in", "arrived_round"])
    return entry


@transaction.atomic
def entry_drop(*, entry: Entry, user: AbstractBaseUser | None) -> Entry:
    """A player leaves: they keep what they scored and are not seated after the last
    round seated so far. The organiser, or the player themselves."""
    if not (is_organiser(event=entry.event, user=user) or entry_of_user(entry=entry, user=user)):
        raise Forbidden("not_organiser", "Only the organiser or the player may drop an entry.")
    _not_finished(entry.event)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.dropped_after is not None:
        raise Conflict("already_dropped", f"{entry.player.name} has already dropped.")
    entry.dropped_after = entry.event.round_set.count()
    entry.save(update_fields=["dropped_after"])
    return entry


@transaction.atomic
def event_status_set(*, event: Event, user: AbstractBaseUser | None, status: str) -> Event:
    """Open a draft for entries (or back to draft before any round). Finishing has its service."""
    require_organiser(event=event, user=user)
    if status not in (Event.Status.DRAFT, Event.Status.OPEN):
        raise BadRequest("invalid_request", "status may be set to draft or open here.")
    if event.round_set.exists():
        raise Conflict("event_running", f"{event.name} has started.")
    event.status = status
    event.save(update_fields=["status"])
    return event


@transaction.atomic
def event_delete(*, event: Event, user: AbstractBaseUser | None) -> None:
    """Remove an event that has not seated a round (after that its games are records)."""
    require_organiser(event=event, user=user)
    if event.round_set.exists():
        raise Conflict("event_running", f"{event.name} has started: finish it instead.")
    if event.club_id is not None:
        audit(
            actor=user,
            action="event.delete",
            club=event.club,
            target=event,
            before={"name": event.name},
        )
    event.delete()
