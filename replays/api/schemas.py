"""Response shapes of the API, for its OpenAPI schema (and the fuzz tests that hold
every answer to it).

These serializers only describe: the views build their bodies with the selectors and
``replays.live``. Game-specific parts (a state, an event, a result's ``details``) are
free-form objects, since each engine has its own; everything around them is typed.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from core.api import schema as api_schema
from core.api.serializers import ErrorSerializer
from games.play import BOTS
from replays.giftlog import FORMAT, MAX_EVENTS, PLAYER_NAME
from replays.live import MAX_SEED


class ResultSerializer(serializers.Serializer):
    scores = serializers.ListField(child=serializers.IntegerField())
    ranks = serializers.ListField(child=serializers.IntegerField())
    winners = serializers.ListField(child=serializers.IntegerField())
    details = serializers.DictField(required=False, help_text="Game-specific breakdown.")


class GiftlogSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=["giftlog/1"])
    game = serializers.CharField()
    options = serializers.DictField()
    players = serializers.ListField(child=serializers.CharField())
    meta = serializers.DictField()
    events = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="Absent for a result-only record.",
    )
    result = ResultSerializer()


class MoveSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    event = serializers.DictField()
    label = serializers.CharField()
    target = serializers.CharField(
        allow_null=True, help_text="The drawn table element the move acts on."
    )


class ActorSerializer(serializers.Serializer):
    seat = serializers.IntegerField(allow_null=True, help_text="null: chance.")
    name = serializers.CharField()


class TimelineStepSerializer(serializers.Serializer):
    step = serializers.IntegerField()
    actor = ActorSerializer(allow_null=True)
    text = serializers.CharField()
    event = serializers.DictField(allow_null=True)
    scores = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="null where the viewer may not know them.",
    )


class StepSerializer(serializers.Serializer):
    record = serializers.IntegerField()
    game = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    step = serializers.IntegerField()
    last_step = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    event = serializers.DictField(allow_null=True)
    text = serializers.CharField()
    to_move = serializers.ListField(child=serializers.IntegerField())
    waiting_for = serializers.ListField(child=serializers.IntegerField())
    legal_events = serializers.DictField(
        child=serializers.ListField(child=serializers.DictField()),
        help_text="Per seat that may act (as a string key), its legal events.",
    )
    moves = MoveSerializer(many=True)
    scores = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    is_over = serializers.BooleanField()
    result = ResultSerializer(allow_null=True)
    state = serializers.DictField(help_text="The state as this viewer may know it.")


class TimelineSerializer(serializers.Serializer):
    record = serializers.IntegerField()
    game = serializers.CharField()
    game_name = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    seat = serializers.IntegerField(allow_null=True)
    last_step = serializers.IntegerField()
    result = ResultSerializer()
    steps = TimelineStepSerializer(many=True)


class ForkedFromSerializer(serializers.Serializer):
    record = serializers.IntegerField()
    step = serializers.IntegerField()


class LiveCreatedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    seat_tokens = serializers.ListField(
        child=serializers.CharField(),
        help_text="One per seat, shown once; send as `Authorization: Seat <token>`.",
    )
    url = serializers.CharField()
    page = serializers.CharField(help_text="The live page; the token goes in its #fragment.")
    forked_from = ForkedFromSerializer(required=False)


class LiveGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    bots = serializers.DictField(child=serializers.CharField())
    status = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    step = serializers.IntegerField()
    to_move = serializers.ListField(child=serializers.IntegerField())
    waiting_for = serializers.ListField(child=serializers.IntegerField())
    legal_events = serializers.ListField(child=serializers.DictField())
    moves = MoveSerializer(many=True)
    events = serializers.ListField(child=serializers.DictField())
    timeline = TimelineStepSerializer(many=True)
    scores = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    state = serializers.DictField()
    record = serializers.IntegerField(allow_null=True)
    result = ResultSerializer(allow_null=True)


class OptionSerializer(serializers.Serializer):
    name = serializers.CharField()
    type = serializers.CharField()
    default = serializers.JSONField()
    allowed = serializers.CharField()
    description = serializers.CharField()
    rulebook = serializers.CharField()
    why_default = serializers.CharField()


class GameSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    event_types = serializers.ListField(child=serializers.CharField())
    options = OptionSerializer(many=True)
    score_bounds = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="Per player count: [lowest, highest].",
    )
    rules = serializers.CharField()


class GameListSerializer(serializers.Serializer):
    games = GameSerializer(many=True)


class GameDetailSerializer(GameSerializer):
    cards = serializers.DictField(child=serializers.DictField())


class BulkItemSerializer(serializers.Serializer):
    line = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["stored", "present", "refused"])


class BulkResultSerializer(serializers.Serializer):
    stored = serializers.IntegerField()
    present = serializers.IntegerField()
    refused = serializers.IntegerField()
    analytics_pending = serializers.IntegerField(
        help_text="Records of this upload not yet in the dashboards and leaderboards "
        "(their analytics run in the background)."
    )
    items = serializers.ListField(child=serializers.DictField())


def error_responses_hook(result: dict[str, Any], generator, request, public) -> dict[str, Any]:
    """Every operation documents every 4xx and the 503 as the common error shape.

    A DRF view can answer 401, 403, 405, 406, 415 or 429 besides what it names, and
    any API call answers 503 ``database_unavailable`` while the database is away; in
    the schema they are all ``Error``, so a client (and the fuzz test) can rely on it.
    """
    error = {"$ref": "#/components/schemas/Error"}
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            # An error comes in the media type the client asked for (the NDJSON export
            # answers a refusal as one JSON line), so every type the operation uses.
            types = {"application/json"}
            for answer in responses.values():
                types.update(answer.get("content", {}))
            content = {media_type: {"schema": error} for media_type in sorted(types)}
            for status_code, answer in responses.items():
                if status_code.startswith("4") and "content" in answer:
                    for media_type in types:
                        answer["content"].setdefault(media_type, {"schema": error})
            responses.setdefault(
                "4XX",
                {
                    "description": "Refused: the common error shape, `code` says why.",
                    "content": content,
                },
            )
            responses.setdefault(
                "503",
                {
                    "description": "The database is away (`database_unavailable`).",
                    "content": content,
                },
            )
    return result


def request_bodies_required_hook(
    result: dict[str, Any], generator, request, public
) -> dict[str, Any]:
    """A request body the server cannot do without is ``required`` in the schema.

    drf-spectacular marks raw-schema bodies optional; every write here refuses an empty
    body (400) unless its body has no required field (a new invitation takes defaults).
    """
    components = result.get("components", {}).get("schemas", {})
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            if not body:
                continue
            for media in body.get("content", {}).values():
                schema = media.get("schema", {})
                ref = schema.get("$ref", "")
                if ref:
                    schema = components.get(ref.rsplit("/", 1)[-1], {})
                if any(key in schema for key in ("required", "anyOf", "oneOf", "pattern")):
                    body["required"] = True
    return result


__all__ = ["ErrorSerializer"]


# --- request bodies ---------------------------------------------------------------------
# Raw OpenAPI 3.0 schemas of what the write endpoints take. The envelope is checked field
# by field and an unknown field is refused, so the objects say additionalProperties:
# false; what only the rules can tell (a legal event, scores within a game's bounds, a
# table size the game allows) is the server's 422 or 400 with the reason.


def _giftlog_envelope(*, live: bool) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "game": {"type": "string", "enum": api_schema.game_slugs()},
        "options": {"type": "object", "description": "Game variant options; {} for defaults."},
        "players": {
            "type": "array",
            "minItems": 1,
            "uniqueItems": True,
            "description": "Player names in seat order (seat 0 first).",
            "items": {"type": "string", "pattern": PLAYER_NAME.pattern},
        },
        "meta": {
            "type": "object",
            "properties": {
                "club": {"type": "string"},
                "league": {"type": "string"},
                "played_at": {"type": "string", "format": "date-time"},
                "simulated": {"type": "boolean"},
            },
        },
    }
    if live:
        properties["seed"] = {"type": "integer", "minimum": 0, "maximum": MAX_SEED}
        properties["bots"] = {
            "type": "object",
            "description": 'Seats the server plays: {"1": "greedy"}.',
            "additionalProperties": {"type": "string", "enum": sorted(BOTS)},
        }
        for name in ("format", "events"):
            properties[name] = {"description": "Ignored: a live game starts from no events."}
        properties["result"] = {
            "type": "object",
            "nullable": True,
            "description": "Ignored: the game's result is played out.",
        }
        return {
            "type": "object",
            "required": ["game", "players"],
            "additionalProperties": False,
            "properties": properties,
        }
    properties["format"] = {"type": "string", "enum": [FORMAT]}
    properties["events"] = {
        "type": "array",
        "nullable": True,
        "maxItems": MAX_EVENTS,
        "description": "Every event in order; omitted or null for a result-only record.",
        "items": {"type": "object"},
    }
    properties["result"] = {
        "type": "object",
        "nullable": True,
        "description": (
            "With events: optional; when given it must equal the computed result. Without "
            "events (a result-only record): required, with `scores` (one whole number per "
            "seat within the game's `score_bounds`), optional `ranks` and `duration_minutes`."
        ),
    }
    return {
        "type": "object",
        "required": ["format", "game", "players"],
        # A full log has events; a result-only record has none and gives its result.
        "anyOf": [
            {"required": ["events"], "properties": {"events": {"type": "array"}}},
            {
                "required": ["result"],
                "properties": {
                    "result": {
                        "type": "object",
                        "required": ["scores"],
                        "properties": {
                            "scores": {"type": "array", "items": {"type": "integer"}},
                            "ranks": {"type": "array", "items": {"type": "integer", "minimum": 1}},
                            "duration_minutes": {"type": "integer", "minimum": 1},
                        },
                    }
                },
            },
        ],
        "additionalProperties": False,
        "properties": properties,
    }


def giftlog_request() -> dict[str, Any]:
    """A giftlog/1 document as uploaded (``GET /api/schema/giftlog/`` has the full rules)."""
    return _giftlog_envelope(live=False)


def live_request() -> dict[str, Any]:
    """A new live game: the giftlog envelope without events, plus ``seed`` and ``bots``."""
    return _giftlog_envelope(live=True)


FORK_REQUEST: dict[str, Any] = {
    "type": "object",
    "required": ["step"],
    "properties": {
        "step": {"type": "integer", "minimum": 0, "description": "Play on after this many events."},
        "seats": {
            "type": "array",
            "nullable": True,
            "description": 'One per seat: "person" (a seat token) or a bot the server plays.',
            "items": {"type": "string", "enum": ["person", *sorted(BOTS)]},
        },
        "seed": {"type": "integer", "nullable": True, "minimum": 0, "maximum": MAX_SEED},
    },
}

LIVE_EVENT_REQUEST: dict[str, Any] = {
    "type": "object",
    "required": ["step", "event"],
    "properties": {
        "step": {"type": "integer", "minimum": 0, "description": "The events you have seen."},
        "event": {
            "type": "object",
            "required": ["do"],
            "description": "The event; `by` defaults to your seat.",
            "properties": {"do": {"type": "string"}},
        },
    },
}

# A bulk upload or import: NDJSON text holding at least one line that is not blank
# (each line is checked on its own; a bad line is reported refused in the answer).
NDJSON_REQUEST: dict[str, Any] = {
    "type": "string",
    "pattern": r"\S",
    "description": "One giftlog/1 document per line.",
}

# As JSON: one document or an array of them. Each object is checked on its own and a
# refused one is listed in the answer, so the body's schema asks for objects, not for
# valid records.
BULK_JSON_REQUEST: dict[str, Any] = {
    "anyOf": [
        {"type": "object", "description": "One giftlog/1 document."},
        {
            "type": "array",
            "minItems": 1,
            "maxItems": 1000,
            "items": {"type": "object", "description": "A giftlog/1 document."},
        },
    ]
}
