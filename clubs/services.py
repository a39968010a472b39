"""Writes for clubs: membership, invitations, leagues, seasons, entries, voids, corrections.

Every function is keyword-only and runs in one transaction; permission checks
live here (not in views) and raise :class:`Forbidden` / :class:`NotFound`, so
the API, the pages and the shell refuse the same things. A refusal changes
nothing.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from clubs.models import AuditLog, Club, Invitation, League, Membership, Season, SeasonEntry
from games.base import InvalidSetup, options_resolve
from games.registry import UnknownGame, get_engine
from replays import outbox
from replays.errors import BadRequest, Conflict, Forbidden, NotFound, Unprocessable
from replays.giftlog import result_only_digest
from replays.models import Announcement, Player, Record
from replays.results import table_result_parse, table_result_validate
from replays.services import record_submit

Role = Membership.Role
DEFAULT_CORRECTION_WINDOW = timedelta(hours=24)


def _record_announce(record: Record) -> None:
    """Tell analytics, after commit, that what counts of ``record`` changed (an entry, a void).

    Through the record outbox, as a stored record is announced: the row is
    written in this transaction, so a broker that is down delays the news but
    never loses it, and ``clubs`` never imports ``analytics`` (the task is
    named). Analytics re-reads the record's entries and recomputes the
    ratings of every season and club scope that gained or lost it.
    """
    announcement = Announcement.objects.create(record=record)
    transaction.on_commit(lambda: outbox.announcements_dispatch(ids=[announcement.pk]), robust=True)


# --- who is who ---------------------------------------------------------------


def _membership(*, club: Club, user: AbstractBaseUser | None) -> Membership | None:
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user=user).first()


def _require_member(*, club: Club, user: AbstractBaseUser | None) -> Membership:
    membership = _membership(club=club, user=user)
    if membership is None:
        raise Forbidden("not_a_member", f"Only members of {club.name} may do this.", club=club.slug)
    return membership


def _require_admin(*, club: Club, user: AbstractBaseUser | None) -> Membership:
    membership = _require_member(club=club, user=user)
    if not membership.is_admin:
        raise Forbidden(
            "not_club_admin", f"Only admins and owners of {club.name} may do this.", club=club.slug
        )
    return membership


def member_player(*, user: AbstractBaseUser) -> Player:
    """The player a member plays as: the one linked to their user, made from their username.

    A player of that handle that nobody owns yet is linked to them; one owned by
    someone else is a conflict an admin resolves (merge or rename).
    """
    player = Player.objects.filter(user=user).order_by("id").first()
    if player is not None:
        return player
    username = user.get_username()
    player, _ = Player.objects.get_or_create(name=username)
    if player.user_id is None:
        player.user = user
        player.save(update_fields=["user"])
    elif player.user_id != user.pk:
        raise Conflict(
            "handle_taken",
            f"The player handle {username!r} belongs to another account; ask an admin.",
            handle=username,
        )
    return player


def _audit(
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


# --- clubs and members ----------------------------------------------------------


@transaction.atomic
def club_create(*, user: AbstractBaseUser, name: str, slug: str, description: str = "") -> Club:
    """Make a club; its creator is its first owner."""
    if Club.objects.filter(slug=slug).exists():
        raise Conflict("slug_taken", f"A club is already called {slug!r}.", field="slug")
    club = Club.objects.create(name=name, slug=slug, description=description)
    Membership.objects.create(club=club, user=user, role=Role.OWNER)
    member_player(user=user)
    return club


def invitation_key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


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
    membership = _require_admin(club=club, user=user)
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
    return invitation, key


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
        raise NotFound("invitation_not_found", "This invitation link is not known.")
    existing = Membership.objects.filter(club=invitation.club, user=user).first()
    if existing is not None:
        return existing
    now = timezone.now()
    if invitation.revoked_at is not None:
        raise Forbidden("invitation_revoked", "This invitation was revoked.")
    if invitation.expires_at is not None and invitation.expires_at <= now:
        raise Forbidden("invitation_expired", "This invitation has expired.")
    if invitation.max_uses is not None and invitation.uses >= invitation.max_uses:
        raise Forbidden("invitation_used_up", "This invitation has been used up.")
    member_player(user=user)
    membership = Membership.objects.create(club=invitation.club, user=user, role=invitation.role)
    invitation.uses += 1
    invitation.save(update_fields=["uses"])
    return membership


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
    actor = _require_member(club=club, user=user)
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
    _audit(actor=user, action=action, club=club, target=target, before=before)
    target.delete()


@transaction.atomic
def membership_role_change(
    *, club: Club, user: AbstractBaseUser | None, username: str, role: str
) -> Membership:
    """Change a member's role: owners only (so no admin can promote themselves)."""
    actor = _require_member(club=club, user=user)
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
    _audit(
        actor=user,
        action="member.role",
        club=club,
        target=target,
        before=before,
        after={"user": username, "role": role},
    )
    return target


# --- leagues and seasons --------------------------------------------------------


def _league_rules_check(
    *, points_per_place: Any, tie_rule: str, min_games: Any, tie_breaks: Any
) -> None:
    if (
        not isinstance(points_per_place, list)
        or not points_per_place
        or not all(isinstance(p, int) and not isinstance(p, bool) for p in points_per_place)
    ):
        raise BadRequest(
            "invalid_request",
            "points_per_place must be a non-empty list of whole numbers, e.g. [3, 2, 1, 0].",
            field="points_per_place",
        )
    if tie_rule not in League.TieRule.values:
        raise BadRequest(
            "invalid_request",
            f"tie_rule must be one of {League.TieRule.values}.",
            field="tie_rule",
        )
    if not isinstance(min_games, int) or isinstance(min_games, bool) or min_games < 0:
        raise BadRequest("invalid_request", "min_games must be 0 or more.", field="min_games")
    if (
        not isinstance(tie_breaks, list)
        or any(t not in League.TIE_BREAKS for t in tie_breaks)
        or len(set(tie_breaks)) != len(tie_breaks)
    ):
        raise BadRequest(
            "invalid_request",
            f"tie_breaks must list distinct names from {list(League.TIE_BREAKS)}.",
            field="tie_breaks",
        )


@transaction.atomic
def league_create(
    *,
    club: Club,
    user: AbstractBaseUser | None,
    name: str,
    slug: str,
    game: str,
    options: dict[str, Any] | None = None,
    points_per_place: list[int],
    tie_rule: str = League.TieRule.SHARE_BEST,
    min_games: int = 0,
    tie_breaks: list[str] | None = None,
) -> League:
    """A league of one game and one variant: ``options`` are stored in full (defaults filled)."""
    _require_admin(club=club, user=user)
    try:
        engine = get_engine(game)
    except UnknownGame as exc:
        raise BadRequest("unknown_game", f"There is no game {game!r}.", field="game") from exc
    try:
        resolved = options_resolve(engine, options)
    except InvalidSetup as exc:
        raise BadRequest(
            "invalid_setup", exc.message, **{"field": "options", **exc.detail, "reason": exc.code}
        ) from exc
    tie_breaks = list(tie_breaks or [])
    _league_rules_check(
        points_per_place=points_per_place,
        tie_rule=tie_rule,
        min_games=min_games,
        tie_breaks=tie_breaks,
    )
    if League.objects.filter(club=club, slug=slug).exists():
        raise Conflict("slug_taken", f"{club.name} already has a league {slug!r}.", field="slug")
    return League.objects.create(
        club=club,
        name=name,
        slug=slug,
        game=engine.slug,
        options=resolved,
        points_per_place=list(points_per_place),
        tie_rule=tie_rule,
        min_games=min_games,
        tie_breaks=tie_breaks,
        created_by=user,
    )


@transaction.atomic
def season_create(
    *, league: League, user: AbstractBaseUser | None, name: str, starts_on: date, ends_on: date
) -> Season:
    _require_admin(club=league.club, user=user)
    if ends_on < starts_on:
        raise BadRequest(
            "invalid_request", "A season ends on or after the day it starts.", field="ends_on"
        )
    return Season.objects.create(league=league, name=name, starts_on=starts_on, ends_on=ends_on)


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
    _require_member(club=club, user=user)
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
                f"Seat {seat.seat} ({seat.player.name}) is not a member of {club.name}; "
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
    _record_announce(record)
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
    _require_member(club=season.league.club, user=user)
    record, created = record_submit(document=document, submitted_by=user)
    return season_entry_submit(season=season, record=record, user=user, guests=guests), created


@transaction.atomic
def record_void(*, entry: SeasonEntry, user: AbstractBaseUser | None, reason: str) -> SeasonEntry:
    """Take an entry out of the standings (club admins and owners); it stays listed as voided."""
    club = entry.season.league.club
    _require_admin(club=club, user=user)
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
    _audit(
        actor=user,
        action="entry.void",
        club=club,
        target=entry,
        before={"voided": False},
        after={"voided": True, "record": entry.record_id},
        reason=reason,
    )
    _record_announce(entry.record)
    return entry


@transaction.atomic
def record_unvoid(*, entry: SeasonEntry, user: AbstractBaseUser | None, reason: str) -> SeasonEntry:
    """Count a voided entry again (club admins and owners), e.g. a void made by mistake."""
    club = entry.season.league.club
    _require_admin(club=club, user=user)
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
    _audit(
        actor=user,
        action="entry.unvoid",
        club=club,
        target=entry,
        before=before,
        after={"voided": False, "record": entry.record_id},
        reason=reason,
    )
    _record_announce(entry.record)
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
    record.result = result
    record.digest = digest
    record.save(update_fields=["result", "digest"])
    winners = set(result["winners"])
    for seat in seats:
        if seat.won != (seat.seat in winners):
            seat.won = seat.seat in winners
            seat.save(update_fields=["won"])
    club_ids = set(
        SeasonEntry.objects.filter(record=record).values_list("season__league__club", flat=True)
    )
    club = Club.objects.filter(pk=next(iter(club_ids))).first() if len(club_ids) == 1 else None
    _audit(
        actor=user,
        action="result.correct",
        club=club,
        target=record,
        before=before,
        after=result,
        reason=reason,
    )
    announcement = Announcement.objects.create(record=record)
    transaction.on_commit(lambda: outbox.announcements_dispatch(ids=[announcement.pk]), robust=True)
    return record
