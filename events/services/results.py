"""Writes: a table's result, proposed by one person and confirmed by another.

A result is checked like any upload when it is submitted (so a mistake is told at
the table, not later) and stored as an ordinary record only once confirmed: by a
second player of that table, or by the organiser or a club admin; never by the
person who submitted it. The record carries ``meta.club`` (the club's records and
statistics), ``meta.event``, ``meta.round``, ``meta.table`` and ``meta.played_at``;
when the event has a season, it is entered there too, non-members as guests.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from clubs.models import Membership
from clubs.services.access import audit
from clubs.services.entries import club_record_add, season_entry_submit
from core.errors import Conflict, Forbidden, Unprocessable
from events.models import Event, Round, Table, TableResult
from events.services.access import is_organiser, seat_of_user
from replays.giftlog import FORMAT, giftlog_parse
from replays.handles import player_names_check
from replays.models import Player
from replays.services import log_validate, record_submit


def played_at(table: Table) -> datetime:
    """When a table's game was played: its round's seating time, within the event's hours.

    A round seated outside them (an event entered afterwards) is placed at the
    event's start; rounds are a second apart at least, so two identical results in
    different rounds stay two games.
    """
    event = table.round.event
    end = event.ends_at or event.starts_at + timedelta(hours=12)
    seated = table.round.seated_at
    if not event.starts_at <= seated <= end:
        seated = event.starts_at
    return seated.replace(microsecond=0) + timedelta(seconds=table.round.number)


def _meta(table: Table) -> dict[str, Any]:
    event = table.round.event
    meta: dict[str, Any] = {
        "event": event.pk,
        "round": table.round.number,
        "table": table.number,
        "played_at": played_at(table).isoformat(),
    }
    if event.club_id is not None:
        meta["club"] = event.club.slug
    return meta


def _players(table: Table) -> list[str]:
    return [s.entry.player.name for s in table.seats.select_related("entry__player")]


def _open_table(table: Table, user: AbstractBaseUser | None) -> Table:
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__event__club")
        .get(pk=table.pk)
    )
    event = table.round.event
    if table.round.status == Round.Status.FINISHED or event.status == Event.Status.FINISHED:
        raise Conflict("round_finished", f"Round {table.round.number} is finished.")
    if seat_of_user(table=table, user=user) is None and not is_organiser(event=event, user=user):
        raise Forbidden(
            "not_at_table",
            f"Only the players of table {table.number} (or the organiser) may report its result.",
            table=table.number,
        )
    existing = TableResult.objects.filter(table=table).first()
    if existing is not None and existing.status == TableResult.Status.CONFIRMED:
        raise Conflict("result_confirmed", f"Table {table.number}'s result is confirmed already.")
    return table


def _store_pending(
    table: Table, user: AbstractBaseUser | None, kind: str, document: dict[str, Any]
) -> TableResult:
    result = log_validate(giftlog_parse(document), confirm_unusual=True)
    pending, _ = TableResult.objects.update_or_create(
        table=table,
        defaults={
            "kind": kind,
            "document": document,
            "result": result,
            "status": TableResult.Status.PENDING,
            "submitted_by": user,
            "confirmed_by": None,
            "confirmed_at": None,
        },
    )
    return pending


@transaction.atomic
def table_result_submit(
    *,
    table: Table,
    user: AbstractBaseUser | None,
    scores: list[int],
    ranks: list[int] | None = None,
    confirm_unusual: bool = False,
) -> TableResult:
    """Propose a table's final scores (one per seat, seat 0 first), checked as an upload.

    Submitting again before it is confirmed replaces the proposal, and it waits
    for a confirmation again. Unusual scores are refused (422 ``result_unusual``)
    unless ``confirm_unusual``.
    """
    table = _open_table(table, user)
    event = table.round.event
    players = _players(table)
    result: dict[str, Any] = {"scores": scores}
    if ranks is not None:
        result["ranks"] = ranks
    document = {
        "format": FORMAT,
        "game": event.game,
        "options": event.options,
        "players": players,
        "meta": _meta(table),
        "result": result,
    }
    log = giftlog_parse(document)
    player_names_check(log.players)
    log_validate(log, confirm_unusual=confirm_unusual)  # unusual scores need a second look
    return _store_pending(table, user, TableResult.Kind.RESULT, document)


@transaction.atomic
def table_log_submit(*, table: Table, user: AbstractBaseUser | None, document: Any) -> TableResult:
    """Propose a full move log for the table instead of its scores, validated as always.

    Its game, variant and players in seat order must be the table's; its meta is
    replaced by the table's (club, event, round, table, time).
    """
    table = _open_table(table, user)
    event = table.round.event
    log = giftlog_parse(document)
    if log.table is not None:
        raise Unprocessable("not_a_log", "This is a result, not a move log: send the scores.")
    players = _players(table)
    if log.game != event.game or log.options != event.options:
        raise Unprocessable(
            "wrong_variant",
            f"{event.name} plays {event.game} under its own options; this log differs.",
            event_game=event.game,
            log_game=log.game,
        )
    if log.players != players:
        raise Unprocessable(
            "players_mismatch",
            "The log's players must be the table's, in seat order: " + ", ".join(players) + ".",
            table_players=players,
            log_players=log.players,
        )
    document = {**document, "meta": _meta(table)}
    document.pop("result", None)
    return _store_pending(table, user, TableResult.Kind.LOG, document)


def _guest_seats(table: Table) -> list[int]:
    event = table.round.event
    if event.club_id is None:
        return []
    members = Membership.objects.filter(club_id=event.club_id).values("user_id")
    member_players = set(Player.objects.filter(user_id__in=members).values_list("id", flat=True))
    return [
        s.seat
        for s in table.seats.select_related("entry")
        if s.entry.player_id not in member_players
    ]


@transaction.atomic
def table_result_confirm(*, table: Table, user: AbstractBaseUser | None) -> TableResult:
    """Confirm a proposed result: another player of the table, the organiser or a club admin.

    The result becomes a record (``record_submit``, as any upload) and, when the
    event has a season, a season entry submitted in the organiser's name.
    """
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__event__club")
        .get(pk=table.pk)
    )
    event = table.round.event
    pending = TableResult.objects.select_for_update().filter(table=table).first()
    if pending is None:
        raise Conflict("no_result", f"Table {table.number} has no result to confirm yet.")
    if pending.status == TableResult.Status.CONFIRMED:
        raise Conflict("result_confirmed", f"Table {table.number}'s result is confirmed already.")
    if user is not None and pending.submitted_by_id == user.pk:
        raise Forbidden(
            "own_result",
            "You submitted this result: another player of the table (or the organiser) "
            "confirms it.",
        )
    if seat_of_user(table=table, user=user) is None and not is_organiser(event=event, user=user):
        raise Forbidden(
            "not_at_table",
            f"Only the players of table {table.number} (or the organiser) may confirm its result.",
            table=table.number,
        )
    record, _created = record_submit(
        document=pending.document, submitted_by=pending.submitted_by, confirm_unusual=True
    )
    if Table.objects.filter(record=record).exclude(pk=table.pk).exists():
        raise Conflict("duplicate_record", "This game is stored already for another table.")
    table.record = record
    table.save(update_fields=["record"])
    pending.status = TableResult.Status.CONFIRMED
    pending.confirmed_by = user
    pending.confirmed_at = timezone.now()
    pending.save(update_fields=["status", "confirmed_by", "confirmed_at"])
    if event.season_id is not None:
        season_entry_submit(
            season=event.season,
            record=record,
            user=event.created_by or user,  # the organiser's entry; theirs if they are gone
            guests=_guest_seats(table),
        )
    if event.club_id is not None:
        # The club's ratings and games count it, season or not: a second player (or
        # the organiser) confirmed it at the club's own event.
        club_record_add(
            club=event.club,
            record=record,
            source=f"{event.name}, round {table.round.number}, table {table.number}",
        )
        audit(
            actor=user,
            action="event.result_confirm",
            club=event.club,
            target=table,
            after={"record": record.pk, "scores": pending.result.get("scores")},
        )
    return pending
