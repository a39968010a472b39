"""Every rules check of an upload, with no database: what a bulk import's workers run.

Kept free of models so a pool process can run it without setting Django up
(replays.bulk_worker): a smaller process, started faster.
"""

from __future__ import annotations

from typing import Any

from core.errors import BadRequest, Unprocessable
from games.base import IllegalEvent, InvalidSetup, seats_named
from games.facts import FactsRecorder, facts_empty
from games.play import replay
from games.registry import get_engine
from replays.giftlog import Giftlog
from replays.results import table_result_validate


def record_validate(log: Giftlog, *, recorder: FactsRecorder | None = None) -> dict[str, Any]:
    """Replay the log through its engine; return the computed result.

    Raises :class:`Unprocessable` naming the step of the first illegal event,
    or saying why a log that is legal so far is not a finished game. With a
    ``recorder``, every state of the replay is shown to it (the record's facts,
    computed in the same pass).
    """
    engine = get_engine(log.game)
    try:
        if recorder is None:
            state = replay(engine, len(log.players), log.options, log.events)
        else:
            setup = engine.setup(len(log.players), log.options)
            state = recorder.replay(setup, log.events, engine.apply)
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
        said = "; ".join(_mismatch_words(k, given[k], computed) for k in mismatched)
        raise Unprocessable(
            "result_mismatch",
            f"The given result differs from the rules' result: {said}.",
            given=given,
            computed=computed,
            fields=mismatched,
        )


def _value_words(key: str, value: Any) -> str:
    if key == "winners" and isinstance(value, list):
        seats = [v for v in value if isinstance(v, int) and not isinstance(v, bool)]
        return seats_named(seats) if seats and len(seats) == len(value) else repr(value)
    return repr(value)


def _mismatch_words(key: str, given: Any, computed: dict[str, Any]) -> str:
    """One mismatched key in words: per seat (numbered from 1) where it is a per-seat list."""
    expected = computed.get(key)
    if key in {"scores", "ranks"} and isinstance(given, list) and isinstance(expected, list):
        if len(given) != len(expected):
            return f"{key}: {len(given)} given, the rules give {len(expected)} ({expected})"
        seats = [
            f"seat {seat + 1} given {mine}, the rules give {theirs}"
            for seat, (mine, theirs) in enumerate(zip(given, expected, strict=True))
            if mine != theirs
        ]
        return f"{key}: {', '.join(seats)}"
    if key == "details" and isinstance(given, dict):
        details = expected if isinstance(expected, dict) else {}
        parts = [
            f"details.{k}: given {v!r}, the rules give {details.get(k)!r}"
            for k, v in sorted(given.items())
            if details.get(k) != v
        ]
        return "; ".join(parts)
    return f"{key}: given {_value_words(key, given)}, the rules give {_value_words(key, expected)}"


def log_validate(log: Giftlog, *, confirm_unusual: bool = True) -> dict[str, Any]:
    """Every rules check of an upload; returns the computed result or raises a ServiceError.

    A full log is replayed through its engine; a result-only record's scores
    are checked against the game's bounds and rules, and unless
    ``confirm_unusual`` against its plausible scores (one-by-one uploads ask for a
    confirmation; a bulk import of an archive does not). Bulk imports run this
    in worker processes (replays.bulk), one-by-one uploads in the request.
    """
    given = log.table.given if log.table is not None else log.result
    if log.table is not None:  # a result-only record: no events to replay
        result = table_result_validate(
            game=log.game, options=log.options, table=log.table, confirm_unusual=confirm_unusual
        )
        result_check(given, result)
        return result
    return record_validate(log)


def log_validate_with_facts(
    log: Giftlog, *, confirm_unusual: bool = True
) -> tuple[dict[str, Any], dict[str, Any]]:
    """:func:`log_validate`, and the record's facts (``games.facts``) from the same replay.

    What a record is stored with (``Record.replay_facts``), so analytics never
    replays its log: a result-only record's facts are the empty ones.
    """
    if log.table is not None:
        return log_validate(log, confirm_unusual=confirm_unusual), facts_empty(len(log.players))
    recorder = FactsRecorder(get_engine(log.game), len(log.players))
    result = record_validate(log, recorder=recorder)
    return result, recorder.facts(events=log.events, result=result)
