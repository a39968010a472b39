"""Writes: validating and storing records.

Check, then do, then announce after commit: the rules check runs before any
write, the record and its announcement are written in one transaction, and
the announcement is dispatched to analytics only once the transaction commits.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.db import IntegrityError, transaction

from games.base import IllegalEvent, InvalidSetup
from games.play import replay
from games.registry import get_engine
from replays import outbox
from replays.bulk import BulkOutcome, records_import
from replays.errors import BadRequest, Unprocessable
from replays.giftlog import Giftlog, giftlog_parse
from replays.models import Announcement, Player, Record, Seat
from replays.results import table_result_validate


def record_validate(log: Giftlog) -> dict[str, Any]:
    """Replay the log through its engine; return the computed result.

    Raises :class:`Unprocessable` naming the step of the first illegal event,
    or saying why a log that is legal so far is not a finished game.
    """
    engine = get_engine(log.game)
    try:
        state = replay(engine, len(log.players), log.options, log.events)
    except InvalidSetup as exc:
        raise BadRequest(
            "invalid_setup", exc.message, **{**exc.detail, "reason": exc.code}
        ) from exc
    except IllegalEvent as exc:
        raise Unprocessable(
            "illegal_event",
            f"Event {exc.step} is illegal: {exc.message}",
            **{
                **exc.detail,
                "step": exc.step,
                "reason": exc.code,
                "event": log.events[exc.step] if exc.step is not None else None,
            },
        ) from exc
    if not engine.is_over(state):
        waiting = list(engine.to_move(state))
        raise Unprocessable(
            "game_unfinished",
            f"The log ends after {len(log.events)} events but the game is not over.",
            step=len(log.events),
            to_move=waiting,
        )
    result = engine.result(state).to_json()
    result_check(log.result, result)
    return result


def result_check(given: dict[str, Any] | None, computed: dict[str, Any]) -> None:
    """An uploaded ``result`` is optional; each key given must equal the computed one.

    ``details`` is compared key by key for the keys given: a game's details may
    grow (GiftTRAP now says how a game ended), and a log exported before that
    must still upload.
    """
    if given is None:
        return

    def differs(key: str, value: Any) -> bool:
        if key == "details" and isinstance(value, dict):
            details = computed.get("details") or {}
            return any(details.get(k) != v for k, v in value.items())
        return computed.get(key) != value

    mismatched = sorted(k for k, v in given.items() if differs(k, v))
    if mismatched:
        raise Unprocessable(
            "result_mismatch",
            f"The given result differs from the rules' result in: {', '.join(mismatched)}.",
            given=given,
            computed=computed,
        )


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


def log_validate(log: Giftlog) -> dict[str, Any]:
    """Every rules check of an upload; returns the computed result or raises a ServiceError.

    A full log is replayed through its engine; a result-only record's scores
    are checked against the game's bounds. Bulk imports run this in worker
    processes (replays.bulk), one-by-one uploads in the request.
    """
    given = log.table.given if log.table is not None else log.result
    if log.table is not None:  # a result-only record: no events to replay
        result = table_result_validate(game=log.game, options=log.options, table=log.table)
        result_check(given, result)
        return result
    return record_validate(log)


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
