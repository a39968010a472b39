"""Response shapes of the API, for its OpenAPI schema (and the fuzz tests that hold
every answer to it).

These serializers only describe: the views build their bodies with the selectors and
``replays.live``. Game-specific parts (a state, an event, a result's ``details``) are
free-form objects, since each engine has its own; everything around them is typed.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from core.api.serializers import ErrorSerializer


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


__all__ = ["ErrorSerializer"]
