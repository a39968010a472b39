"""Writes: validating and storing records.

Check, then do, then announce after commit: the rules check runs before any
write, the record and its announcement are written in one transaction, and
the announcement is dispatched to analytics only once the transaction commits.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.db import IntegrityError, transaction

from replays import outbox
from replays.bulk import BulkOutcome, records_import
from replays.giftlog import Giftlog, giftlog_parse
from replays.models import Announcement, Player, Record, Seat
from replays.validation import log_validate, record_validate, result_check

__all__ = ["BulkOutcome", "log_validate", "record_submit", "record_validate", "result_check"]


def record_submit(*, document: Any, submitted_by: Any = None) -> tuple[Record, bool]:
    """Validate and store one finished game; returns the record and whether it is new.

    Uploading a game that is already stored returns the stored record: identity
    is the digest of game, options, players and events (for a result-only
    record, no events: scores, ranks and ``meta.played_at``).
    """
    log = giftlog_parse(document)
    given = log.table.given if log.table is not None else log.result
    existing = Record.objects.filter(digest=log.digest).first()
    if existing is not None:
        result_check(given, existing.result)
        return existing, False
    result = log_validate(log)
    try:
        return _record_store(log, result, submitted_by=submitted_by), True
    except IntegrityError:
        # A concurrent upload of the same game won the race: it is the same record.
        return Record.objects.get(digest=log.digest), False


@transaction.atomic
def _record_store(log: Giftlog, result: dict[str, Any], *, submitted_by: Any = None) -> Record:
    record = Record.objects.create(
        game=log.game,
        digest=log.digest,
        options=log.options,
        meta=log.meta,
        events=log.events,
        result=result,
        num_events=len(log.events),
        kind=Record.Kind.LOG if log.table is None else Record.Kind.RESULT,
        played_at=log.played_at,
        simulated=log.simulated,
        submitted_by=submitted_by,  # the user, or None (anonymous, a command)
    )
    players = _players_get_or_create(log.players)
    winners = set(result.get("winners", []))
    Seat.objects.bulk_create(
        Seat(record=record, player=players[name], seat=seat, won=seat in winners)
        for seat, name in enumerate(log.players)
    )
    announcement = Announcement.objects.create(record=record)
    transaction.on_commit(lambda: outbox.announcements_dispatch(ids=[announcement.pk]), robust=True)
    return record


def _players_get_or_create(names: list[str]) -> dict[str, Player]:
    found = {p.name: p for p in Player.objects.filter(name__in=names)}
    missing = [name for name in names if name not in found]
    if missing:
        Player.objects.bulk_create([Player(name=name) for name in missing], ignore_conflicts=True)
        found = {p.name: p for p in Player.objects.filter(name__in=names)}
    return found


def records_submit_many(
    documents: Iterable[tuple[int, Any]], *, submitted_by: Any = None
) -> Iterator[BulkOutcome]:
    """Submit (line, document or raw line) pairs, collecting refusals instead of stopping.

    A refused document stores nothing and does not affect the others
    (python-chess's collecting visitor, for bulk); the work is done in batches
    by :func:`replays.bulk.records_import`.
    """
    return records_import(documents, submitted_by=submitted_by)
