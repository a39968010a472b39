"""The giftlog/1 record format: parsing the envelope, identity, export.

One JSON document per game, the same for upload and export. This module only
checks the *envelope*; the rules check of the events is the engine's, run by
:func:`replays.services.record_validate`.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import orjson
from django.utils.dateparse import parse_datetime

from core.errors import BadRequest
from games.base import InvalidSetup, options_resolve
from games.registry import engine_slugs, get_engine
from replays.results import TableResult, table_result_parse

FORMAT = "giftlog/1"
MAX_EVENTS = 20_000
MAX_META_BYTES = 4_096
PLAYER_NAME = re.compile(r"^[\w.@+\-][\w.@+\- ]{0,63}$")
KNOWN_FIELDS = {"format", "game", "options", "players", "meta", "events", "result"}

# Published with the API docs (GET /api/schema/giftlog/).
JSON_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "giftlog/1",
    "title": "giftlog/1: one game of a gift card game, move by move (or its final scores)",
    "description": (
        "A full log has `events`. A result-only record (a game played at a real table) "
        "omits `events` (or sends null) and gives `result.scores`."
    ),
    "type": "object",
    "required": ["format", "game", "players"],
    "anyOf": [
        {"required": ["events"], "properties": {"events": {"type": "array"}}},
        {"required": ["result"], "properties": {"result": {"required": ["scores"]}}},
    ],
    "additionalProperties": False,
    "properties": {
        "format": {"const": FORMAT},
        "game": {"type": "string", "description": "Engine slug, e.g. secret_santa."},
        "options": {"type": "object", "description": "Game variant options; {} for defaults."},
        "players": {
            "type": "array",
            "description": "Player names in seat order (seat 0 first).",
            "items": {"type": "string", "pattern": PLAYER_NAME.pattern},
            "uniqueItems": True,
        },
        "meta": {
            "type": "object",
            "properties": {
                "club": {"type": "string"},
                "league": {"type": "string"},
                "played_at": {"type": "string", "format": "date-time"},
                "simulated": {
                    "type": "boolean",
                    "description": "True for bot play (simulations): kept apart in statistics "
                    "and never counted in ratings.",
                },
            },
        },
        "events": {
            "type": ["array", "null"],
            "description": "Every event in order; omitted or null for a result-only record.",
            "maxItems": MAX_EVENTS,
            "items": {
                "type": "object",
                "required": ["by", "do"],
                "properties": {
                    "by": {"oneOf": [{"type": "integer", "minimum": 0}, {"const": "chance"}]},
                    "do": {"type": "string"},
                },
            },
        },
        "result": {
            "type": "object",
            "description": (
                "With events: optional on upload; when given it must equal the computed "
                "result. Without events (a result-only record): required, with `scores` "
                "(one whole number per seat, within the game's `score_bounds`), optional "
                "`ranks` (competition ranks consistent with the scores; computed from the "
                "scores when omitted) and optional `duration_minutes`."
            ),
            "properties": {
                "scores": {"type": "array", "items": {"type": "integer"}},
                "ranks": {"type": "array", "items": {"type": "integer", "minimum": 1}},
                "winners": {"type": "array", "items": {"type": "integer"}},
                "duration_minutes": {"type": "integer", "minimum": 1},
                "details": {"type": "object"},
            },
        },
    },
}


@dataclass(frozen=True)
class Giftlog:
    game: str
    players: list[str]
    events: list[dict[str, Any]]
    options: dict[str, Any] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    # Set for a result-only record (no events): its scores and ranks.
    table: TableResult | None = None

    @property
    def digest(self) -> str:
        if self.table is not None:
            return result_only_digest(
                self.game,
                self.options,
                self.players,
                self.table.scores,
                self.table.ranks,
                self.played_at.isoformat() if self.played_at else None,
            )
        return record_digest(self.game, self.options, self.players, self.events)

    @property
    def simulated(self) -> bool:
        """Bot play, kept apart from real play by analytics (``meta.simulated``)."""
        return self.meta.get("simulated") is True

    @property
    def played_at(self) -> datetime | None:
        value = self.meta.get("played_at")
        return parse_datetime(value) if isinstance(value, str) else None


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


_MAYBE_FLOAT = re.compile(rb"[0-9][.eE]")


def canonical_bytes(value: Any) -> bytes:
    """``canonical_json(value)`` as UTF-8 bytes, about seven times faster.

    orjson writes sorted, compact, non-ASCII-as-is JSON: the same bytes as the
    standard library for strings, integers, lists, objects, booleans and null.
    Floats may be spelled differently (``1e16`` against ``1e+16``), so anything
    that could hold one (a digit followed by ``.`` or ``e``, even inside a
    string), and anything orjson refuses (integers beyond 64 bits), takes the
    standard library's path: a digest never changes.
    """
    try:
        payload = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return canonical_json(value).encode()
    if _MAYBE_FLOAT.search(payload):
        return canonical_json(value).encode()
    return payload


def record_digest(game: str, options: Any, players: list[str], events: list[Any]) -> str:
    """The identity of a game: the same game, options, players and events, the same record."""
    payload = canonical_bytes(
        {"game": game, "options": options, "players": players, "events": events}
    )
    return hashlib.sha256(payload).hexdigest()


def result_only_digest(
    game: str,
    options: Any,
    players: list[str],
    scores: list[int],
    ranks: list[int],
    played_at: str | None,
) -> str:
    """The identity of a game recorded with its final scores only.

    The same table result (game, options, players, scores, ranks) entered twice
    with the same ``meta.played_at`` is one record; without ``played_at``, two
    identical entries are one record too (say when a game was played to keep
    two equal results of different evenings apart). ``kind`` keeps these
    digests apart from those of full logs.
    """
    payload = canonical_json(
        {
            "kind": "result",
            "game": game,
            "options": options,
            "players": players,
            "scores": scores,
            "ranks": ranks,
            "played_at": played_at,
        }
    )
    return hashlib.sha256(payload.encode()).hexdigest()


def _bad(field_name: str, message: str) -> BadRequest:
    return BadRequest("invalid_envelope", message, field=field_name)


def giftlog_parse(document: Any) -> Giftlog:
    """Check the envelope of an uploaded document; raise :class:`BadRequest` if it is wrong."""
    if not isinstance(document, dict):
        raise _bad("", "A giftlog record must be a JSON object.")
    unknown = sorted(set(document) - KNOWN_FIELDS)
    if unknown:
        raise _bad(unknown[0], f"Unknown field {unknown[0]!r} in the record.")
    if document.get("format") != FORMAT:
        raise _bad("format", f'"format" must be "{FORMAT}".')

    game = document.get("game")
    if game not in engine_slugs():
        raise BadRequest(
            "unknown_game",
            f"Unknown game {game!r}; known games: {', '.join(engine_slugs())}.",
            field="game",
        )

    players = document.get("players")
    if not isinstance(players, list) or not players:
        raise _bad("players", '"players" must be a non-empty list of names in seat order.')
    for seat, name in enumerate(players):
        if not isinstance(name, str) or not PLAYER_NAME.match(name):
            raise _bad(
                "players",
                f"Player name at seat {seat + 1} must be 1-64 letters, digits, spaces or ._@+-.",
            )
    if len(set(players)) != len(players):
        raise _bad("players", "A player can sit at only one seat in a game.")

    options = document.get("options", {})
    if not isinstance(options, dict):
        raise _bad("options", '"options" must be a JSON object.')
    options = options_parse(game, options)

    meta = document.get("meta", {})
    if not isinstance(meta, dict):
        raise _bad("meta", '"meta" must be a JSON object.')
    if len(canonical_json(meta)) > MAX_META_BYTES:
        raise _bad("meta", f'"meta" must be at most {MAX_META_BYTES} bytes.')
    for key in ("club", "league"):
        if key in meta and not isinstance(meta[key], str):
            raise _bad(f"meta.{key}", f'"meta.{key}" must be a string.')
    if "played_at" in meta and (
        not isinstance(meta["played_at"], str) or parse_datetime(meta["played_at"]) is None
    ):
        raise _bad("meta.played_at", '"meta.played_at" must be an ISO 8601 date-time.')
    if "simulated" in meta and not isinstance(meta["simulated"], bool):
        raise _bad("meta.simulated", '"meta.simulated" must be true or false.')

    events = document.get("events")
    if events is None:
        # No events: a game played at a real table, recorded with its final scores.
        table = table_result_parse(document.get("result"), len(players))
        return Giftlog(
            game=game, players=players, events=[], options=options, meta=meta, table=table
        )
    if not isinstance(events, list):
        raise _bad("events", '"events" must be a list.')
    if len(events) > MAX_EVENTS:
        raise _bad("events", f"A record holds at most {MAX_EVENTS} events.")
    for step, event in enumerate(events):
        if not isinstance(event, dict):
            raise BadRequest(
                "invalid_envelope",
                f"Event {step} must be a JSON object.",
                field="events",
                step=step,
            )

    result = document.get("result")
    if result is not None and not isinstance(result, dict):
        raise _bad("result", '"result" must be a JSON object.')

    return Giftlog(
        game=game, players=players, events=events, options=options, meta=meta, result=result
    )


def options_parse(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """The full options a game is played under (defaults filled in), or a 400 naming one.

    A record stores its options in full: what ``{}`` means today is written down
    with it, so a default changed later never changes how an old record replays.
    """
    try:
        return options_resolve(get_engine(game), options)
    except InvalidSetup as exc:
        name = exc.detail.get("option")
        raise BadRequest(
            exc.code, exc.message, field=f"options.{name}" if name else "options", option=name
        ) from exc


def options_key(options: dict[str, Any]) -> str:
    """A short stable key for a set of options: records with the same key share a variant."""
    return hashlib.sha256(canonical_json(options).encode()).hexdigest()[:16]


def giftlog_document(
    *,
    game: str,
    options: dict[str, Any],
    players: list[str],
    meta: dict[str, Any],
    events: list[dict[str, Any]] | None,
    result: dict[str, Any],
) -> dict[str, Any]:
    """The export form of a record: upload it again and it is the same record.

    ``events=None`` is a result-only record: the document has no ``"events"``.
    """
    document = {
        "format": FORMAT,
        "game": game,
        "options": options,
        "players": players,
        "meta": meta,
        "events": events,
        "result": result,
    }
    if events is None:
        del document["events"]
    return document
