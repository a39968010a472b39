"""Writes: games entered in a season, voids, and corrections of a result."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from clubs.models import Club, ClubRecord, Membership, Season, SeasonEntry
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
    the league's game and variant (its full ``options``); it is not bot play
    (``simulated_record``); it was played (its ``meta.played_at``) within the
    season's dates; and every seat is a club member's player or is listed in
    ``guests``. A guest seat's player who is new to giftbox is stored as a guest.
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
    if record.simulated or any(seat.player.kind == Player.Kind.BOT for seat in seats):
        raise Unprocessable(
            "simulated_record",
            "This game is bot play (a bot sat at the table, or it was simulated): it "
            "cannot count in a season.",
            record=record.pk,
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
    _guests_mark(record, [seat.player for seat in seats if seat.seat in guests])
    record_announce(record)
    return entry


@transaction.atomic
def club_record_add(*, club: Club, record: Record, source: str) -> ClubRecord:
    """Count ``record`` as the club's game outside its seasons (an event's confirmed table).

    Only flows the club controls call this (a result confirmed by a second player or
    the organiser); a record naming the club in its ``meta`` does not count by itself.
    The record then counts in the club's ratings like a season entry. Adding it again
    keeps the first row.
    """
    row, created = ClubRecord.objects.get_or_create(
        club=club, record=record, defaults={"source": source[:200]}
    )
    if created:
        record_announce(record)
    return row


def _guests_mark(record: Record, players: list[Player]) -> None:
    """Guest seats' players who are new to giftbox become guests (``Player.Kind.GUEST``).

    New: no account, and no seat in any other game. A name already known (someone a
    club's uploads named before) stays a person; so does anyone with an account.
    """
    for player in players:
        if (
            player.kind == Player.Kind.PERSON
            and player.user_id is None
            and not player.seats.exclude(record=record).exists()
        ):
            player.kind = Player.Kind.GUEST
            player.save(update_fields=["kind"])


@transaction.atomic
def season_entry_submit_document(
    *,
    season: Season,
    document: Any,
    user: AbstractBaseUser | None,
    guests: list[int] | None = None,
    confirm_unusual: bool = False,
) -> tuple[SeasonEntry, bool]:
    """Store a giftlog and enter it in the season, in one transaction: a refusal stores nothing.

    Returns the entry and whether the record was new. A result-only record with
    unusual scores is refused (422 ``result_unusual``) unless ``confirm_unusual``.
    """
    require_member(club=season.league.club, user=user)
    record, created = record_submit(
        document=document, submitted_by=user, confirm_unusual=confirm_unusual
    )
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


def _duration_words(window: timedelta) -> str:
    hours = int(window.total_seconds() // 3600)
    if window.total_seconds() == hours * 3600 and hours:
        return "1 hour" if hours == 1 else f"{hours} hours"
    minutes = max(1, int(window.total_seconds() // 60))
    return "1 minute" if minutes == 1 else f"{minutes} minutes"


@dataclass(frozen=True)
class CorrectionAccess:
    """Whether a person may correct a record's result now, and if not, why and who may.

    ``why`` is a sentence for that person (empty when allowed); ``admins`` are
    the usernames of the admins and owners of the clubs the record is entered in,
    who may correct it at any time; ``closes_at`` ends the submitter's window.
    """

    allowed: bool
    as_admin: bool
    closes_at: datetime
    why: str
    code: str
    admins: list[str]
    clubs: list[Club]


def _clubs_of(record: Record) -> list[Club]:
    return list(
        Club.objects.filter(leagues__seasons__entries__record=record).distinct().order_by("name")
    )


def correction_access(*, record: Record, user: AbstractBaseUser | None) -> CorrectionAccess:
    """Who may correct ``record``'s result: its submitter within the window, club admins after.

    A club admin is an admin or owner of a club the record is entered in (in any
    of its leagues' seasons). Only a result-only record can be corrected: a full
    log's result is what its events say.
    """
    window = correction_window()
    closes_at = record.created_at + window
    clubs = _clubs_of(record)
    admin_clubs = set(
        Membership.objects.filter(
            club__in=clubs, role__in=[Membership.Role.OWNER, Membership.Role.ADMIN]
        ).values_list("club_id", "user__username")
    )
    admins = sorted({name for _club, name in admin_clubs})
    me = user if user is not None and user.is_authenticated else None
    is_admin = me is not None and me.get_username() in admins
    is_submitter = me is not None and record.submitted_by_id == me.pk
    in_window = timezone.now() <= closes_at

    def refused(code: str, why: str) -> CorrectionAccess:
        return CorrectionAccess(False, False, closes_at, why, code, admins, clubs)

    who_else = (
        f"Admins of {' and '.join(c.name for c in clubs)} ({', '.join(admins)}) may correct it "
        "at any time."
        if admins
        else "No club admin can correct it: it is not entered in a club's season."
    )
    if record.kind != Record.Kind.RESULT:
        return refused(
            "not_result_only",
            "Only a result typed in from a table can be corrected; a full log's result is "
            "what its events say.",
        )
    if is_admin:
        return CorrectionAccess(True, True, closes_at, "", "", admins, clubs)
    if is_submitter and in_window:
        return CorrectionAccess(True, False, closes_at, "", "", admins, clubs)
    local = timezone.localtime(closes_at)
    if is_submitter:
        return refused(
            "correction_window_closed",
            f"You could correct this result for {_duration_words(window)} after entering it; "
            f"that ended on {local:%d %B %Y at %H:%M}. {who_else}",
        )
    submitter = record.submitted_by.get_username() if record.submitted_by else "nobody"
    return refused(
        "not_submitter",
        f"Only the person who entered this result ({submitter}) may correct it, within "
        f"{_duration_words(window)} of entering it. {who_else}",
    )


@transaction.atomic
def result_correct(
    *,
    record: Record,
    user: AbstractBaseUser | None,
    scores: list[int],
    ranks: list[int] | None = None,
    reason: str = "",
    confirm_unusual: bool = False,
) -> Record:
    """Correct the scores of a result-only record: its submitter within the window, admins after.

    Who may: :func:`correction_access` (403 ``not_submitter``,
    ``correction_window_closed``, whose message says who still may). Checked
    exactly like a new result-only record, plausible scores included (422
    ``result_unusual`` unless ``confirm_unusual``); the seats' ``won`` follow the
    new ranks, analytics ingests the record again (ratings and standings are
    recomputed from it), and the audit log keeps who, when, the old and the new
    result.
    """
    record = Record.objects.select_for_update().get(pk=record.pk)
    access = correction_access(record=record, user=user)
    if not access.allowed:
        error = Forbidden if access.code != "not_result_only" else Unprocessable
        raise error(
            access.code,
            access.why,
            window_seconds=int(correction_window().total_seconds()),
            closes_at=access.closes_at.isoformat(),
            admins=access.admins,
        )
    seats = list(record.seats.select_related("player").order_by("seat"))
    given: dict[str, Any] = {"scores": scores}
    if ranks is not None:
        given["ranks"] = ranks
    table = table_result_parse(given, len(seats))
    old_details = record.result.get("details") or {}
    table = type(table)(table.scores, table.ranks, old_details.get("duration_minutes"))
    result = table_result_validate(
        game=record.game, options=record.options, table=table, confirm_unusual=confirm_unusual
    )
    if result["scores"] == record.result.get("scores") and result["ranks"] == record.result.get(
        "ranks"
    ):
        raise Unprocessable(
            "result_unchanged", "These are the scores already stored: nothing to correct."
        )
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
    audit(
        actor=user,
        action="result.correct",
        club=access.clubs[0] if len(access.clubs) == 1 else None,
        target=record,
        before=before,
        after=result,
        reason=reason,
    )
    return record
