"""Writes: games entered in a season, voids, and corrections of a result."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from clubs.models import Club, Membership, Season, SeasonEntry
from clubs.services.access import (
    DEFAULT_CORRECTION_WINDOW,
    audit,
    record_announce,
    require_admin,
    require_member,
)
from core.errors import BadRequest, Conflict, Forbidden, Unprocessable
from replays.giftlog import result_only_digest
from replays.models import Player, Record
from replays.results import table_result_parse, table_result_validate
from replays.services import record_result_replace, record_submit

# --- entries ----------------------------------------------------------------------


def _guests_check(guests: Any, num_seats: int) -> list[int]:
    if guests is None:
        return []
    if (
        not isinstance(guests, list)
        or not all(isinstance(g, int) and not isinstance(g, bool) for g in guests)
        or len(set(guests)) != len(guests)
        or any(not 0 <= g < num_seats for g in guests)
    ):
        raise BadRequest(
            "invalid_request",
            f"guests must list distinct seat numbers from 0 to {num_seats - 1}.",
            field="guests",
        )
    return sorted(guests)


@transaction.atomic
def season_entry_submit(
    *,
    season: Season,
    record: Record,
    user: AbstractBaseUser | None,
    guests: list[int] | None = None,
) -> SeasonEntry:
    """Enter a stored record in a season.

    Refused unless: ``user`` is a member of the league's club; the record is of
    the league's game and variant (its full ``options``); it was played (its
    ``meta.played_at``) within the season's dates; and every seat is a club
    member's player or is listed in ``guests``.
    """
    league = season.league
    club = league.club
    require_member(club=club, user=user)
    seats = list(record.seats.select_related("player").order_by("seat"))
    guests = _guests_check(guests, len(seats))
    if record.game != league.game:
        raise Unprocessable(
            "wrong_game",
            f"League {league.name} plays {league.game}; this record is {record.game}.",
            league_game=league.game,
            record_game=record.game,
        )
    if record.options != league.options:
        raise Unprocessable(
            "wrong_variant",
            f"League {league.name} plays another variant: its options differ from the record's.",
            league_options=league.options,
            record_options=record.options,
        )
    if record.played_at is None:
        raise Unprocessable(
            "played_at_missing",
            "This record does not say when it was played: upload it with `meta.played_at` "
            "(an ISO 8601 date-time) to enter it in a season.",
            field="meta.played_at",
        )
    played_on = timezone.localdate(record.played_at)
    if not season.starts_on <= played_on <= season.ends_on:
        raise Unprocessable(
            "outside_season",
            f"The game was played on {played_on.isoformat()}, outside season {season.name} "
            f"({season.starts_on.isoformat()} to {season.ends_on.isoformat()}).",
            played_on=played_on.isoformat(),
            starts_on=season.starts_on.isoformat(),
            ends_on=season.ends_on.isoformat(),
        )
    member_users = Membership.objects.filter(club=club).values("user_id")
    member_players = set(
        Player.objects.filter(user_id__in=member_users).values_list("id", flat=True)
    )
    for seat in seats:
        if seat.seat not in guests and seat.player_id not in member_players:
            raise Unprocessable(
                "not_a_member_player",
                f"Seat {seat.seat + 1} ({seat.player.name}) is not a member of {club.name}; "
                "mark the seat as a guest or invite them.",
                seat=seat.seat,
                player=seat.player.name,
            )
    if SeasonEntry.objects.filter(season=season, record=record).exists():
        raise Conflict("already_entered", "This record is already entered in this season.")
    try:
        with transaction.atomic():
            entry = SeasonEntry.objects.create(
                season=season, record=record, submitted_by=user, guests=guests
            )
    except IntegrityError:
        raise Conflict(
            "already_entered", "This record is already entered in this season."
        ) from None
    record_announce(record)
    return entry


@transaction.atomic
def season_entry_submit_document(
    *,
    season: Season,
    document: Any,
    user: AbstractBaseUser | None,
    guests: list[int] | None = None,
) -> tuple[SeasonEntry, bool]:
    """Store a giftlog and enter it in the season, in one transaction: a refusal stores nothing.

    Returns the entry and whether the record was new.
    """
    require_member(club=season.league.club, user=user)
    record, created = record_submit(document=document, submitted_by=user)
    return season_entry_submit(season=season, record=record, user=user, guests=guests), created


@transaction.atomic
def record_void(*, entry: SeasonEntry, user: AbstractBaseUser | None, reason: str) -> SeasonEntry:
    """Take an entry out of the standings (club admins and owners); it stays listed as voided."""
    club = entry.season.league.club
    require_admin(club=club, user=user)
    reason = (reason or "").strip()
    if not reason:
        raise BadRequest("invalid_request", "Say why the game is voided.", field="reason")
    entry = SeasonEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.voided_at is not None:
        raise Conflict("already_voided", "This entry is already voided.")
    entry.voided_at = timezone.now()
    entry.voided_by = user
    entry.void_reason = reason
    entry.save(update_fields=["voided_at", "voided_by", "void_reason"])
    audit(
        actor=user,
        action="entry.void",
        club=club,
        target=entry,
        before={"voided": False},
        after={"voided": True, "record": entry.record_id},
        reason=reason,
    )
    record_announce(entry.record)
    return entry


@transaction.atomic
def record_unvoid(*, entry: SeasonEntry, user: AbstractBaseUser | None, reason: str) -> SeasonEntry:
    """Count a voided entry again (club admins and owners), e.g. a void made by mistake."""
    club = entry.season.league.club
    require_admin(club=club, user=user)
    reason = (reason or "").strip()
    if not reason:
        raise BadRequest("invalid_request", "Say why the game counts again.", field="reason")
    entry = SeasonEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.voided_at is None:
        raise Conflict("not_voided", "This entry is not voided.")
    before = {"voided": True, "void_reason": entry.void_reason}
    entry.voided_at = None
    entry.voided_by = None
    entry.void_reason = ""
    entry.save(update_fields=["voided_at", "voided_by", "void_reason"])
    audit(
        actor=user,
        action="entry.unvoid",
        club=club,
        target=entry,
        before=before,
        after={"voided": False, "record": entry.record_id},
        reason=reason,
    )
    record_announce(entry.record)
    return entry


def correction_window() -> timedelta:
    return getattr(settings, "RESULT_CORRECTION_WINDOW", DEFAULT_CORRECTION_WINDOW)


@transaction.atomic
def result_correct(
    *,
    record: Record,
    user: AbstractBaseUser | None,
    scores: list[int],
    ranks: list[int] | None = None,
    reason: str = "",
) -> Record:
    """Correct the scores of a result-only record: its submitter, within the correction window.

    Checked exactly like a new result-only record; the seats' ``won`` follow
    the new ranks, analytics ingests the record again, and the audit log keeps
    the old and new result.
    """
    record = Record.objects.select_for_update().get(pk=record.pk)
    if record.kind != Record.Kind.RESULT:
        raise Unprocessable(
            "not_result_only",
            "Only result-only records can be corrected; a full log is what its events say.",
        )
    if user is None or not user.is_authenticated or record.submitted_by_id != user.pk:
        raise Forbidden(
            "not_submitter", "Only the person who submitted this result may correct it."
        )
    window = correction_window()
    if timezone.now() - record.created_at > window:
        raise Forbidden(
            "correction_window_closed",
            f"Results can be corrected for {window} after they are submitted; ask a club admin "
            "to void the game instead.",
            window_seconds=int(window.total_seconds()),
        )
    seats = list(record.seats.select_related("player").order_by("seat"))
    given: dict[str, Any] = {"scores": scores}
    if ranks is not None:
        given["ranks"] = ranks
    table = table_result_parse(given, len(seats))
    old_details = record.result.get("details") or {}
    table = type(table)(table.scores, table.ranks, old_details.get("duration_minutes"))
    result = table_result_validate(game=record.game, options=record.options, table=table)
    digest = result_only_digest(
        record.game,
        record.options,
        [seat.player.name for seat in seats],
        table.scores,
        table.ranks,
        record.played_at.isoformat() if record.played_at else None,
    )
    if digest != record.digest and Record.objects.filter(digest=digest).exists():
        raise Conflict("duplicate_record", "Another stored record already has this result.")
    before = record.result
    record_result_replace(record=record, result=result, digest=digest)
    club_ids = set(
        SeasonEntry.objects.filter(record=record).values_list("season__league__club", flat=True)
    )
    club = Club.objects.filter(pk=next(iter(club_ids))).first() if len(club_ids) == 1 else None
    audit(
        actor=user,
        action="result.correct",
        club=club,
        target=record,
        before=before,
        after=result,
        reason=reason,
    )
    return record
