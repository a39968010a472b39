"""Reads: records, their export form, and the state at any step of a replay."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet

from games.base import CHANCE
from games.play import replay, waiting_for
from games.registry import get_engine
from replays.errors import BadRequest, NotFound
from replays.giftlog import giftlog_document
from replays.models import Record, Seat


def record_list(*, game: str | None = None, player: str | None = None) -> QuerySet[Record]:
    records = Record.objects.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player"))
    )
    if game:
        records = records.filter(game=game)
    if player:
        records = records.filter(seats__player__name=player)
    return records


def record_get(*, record_id: int) -> Record:
    try:
        return record_list().get(pk=record_id)
    except Record.DoesNotExist:
        raise NotFound("not_found", f"There is no record {record_id}.") from None


def record_player_names(record: Record) -> list[str]:
    return [seat.player.name for seat in sorted(record.seats.all(), key=lambda s: s.seat)]


def record_document(record: Record) -> dict[str, Any]:
    """The record as giftlog/1: upload it again and it is the same record."""
    return giftlog_document(
        game=record.game,
        options=record.options,
        players=record_player_names(record),
        meta=record.meta,
        events=record.events,
        result=record.result,
    )


def record_step_view(record: Record, *, step: int, seat: int | None) -> dict[str, Any]:
    """The state after ``step`` events, as everyone sees it or as ``seat`` saw it.

    Only the engine's views leave this function: with a seat given, the state,
    the event that led there and the legal events are all that seat's.
    """
    players = record_player_names(record)
    if not 0 <= step <= record.num_events:
        raise NotFound(
            "step_out_of_range",
            f"Step {step} is outside this record (0 to {record.num_events}).",
            step=step,
            last_step=record.num_events,
        )
    if seat is not None and not 0 <= seat < len(players):
        raise BadRequest(
            "bad_seat", f"Seat must be 0 to {len(players) - 1}.", seat=seat, field="seat"
        )
    engine = get_engine(record.game)
    before = replay(engine, len(players), record.options, record.events[: max(step - 1, 0)])
    event = record.events[step - 1] if step else None
    state = engine.apply(before, event) if event is not None else before
    movers = engine.to_move(state)
    seats = [m for m in movers if m != CHANCE]
    if seat is not None:
        seats = [s for s in seats if s == seat]
    over = engine.is_over(state)
    return {
        "record": record.pk,
        "game": record.game,
        "players": players,
        "step": step,
        "last_step": record.num_events,
        "seat": seat,
        "event": engine.event_view(event, seat, before=before) if event is not None else None,
        "to_move": movers,
        "waiting_for": waiting_for(engine, state),
        "legal_events": {str(s): engine.legal_events(state, s) for s in seats},
        "scores": engine.scores(state) if seat is None or over or engine.scores_public else None,
        "is_over": over,
        "result": engine.result(state).to_json() if over else None,
        "state": engine.view(state, seat),
    }
