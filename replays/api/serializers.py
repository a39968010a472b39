"""Serializers for query parameters and list rows; records themselves are giftlog JSON."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, time
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from rest_framework import serializers

from core.api.serializers import WholeNumberField
from core.errors import BadRequest
from core.games import game_slug_find
from games.base import InvalidSetup
from games.registry import all_engines, get_engine
from replays.models import Record
from replays.selectors import PLAY_ALL, PLAY_REAL, PLAY_SIMULATED, record_player_names


class RecordSummarySerializer(serializers.ModelSerializer):
    players = serializers.SerializerMethodField()
    submitted_by = serializers.SlugRelatedField(
        slug_field="username",
        read_only=True,
        allow_null=True,
        help_text="The username of the account that uploaded it; null if anonymous or imported.",
    )

    class Meta:
        model = Record
        fields = [
            "id",
            "game",
            "players",
            "result",
            "num_events",
            "meta",
            "played_at",
            "created_at",
            "submitted_by",
            "simulated",
        ]
        extra_kwargs = {
            "simulated": {
                "help_text": "Bot play (a bot seat, a simulation, the demo data): never "
                "counted in ratings, leaderboards, standings or real-play statistics."
            }
        }

    def get_players(self, record: Record) -> list[str]:
        return record_player_names(record)


class StepQuerySerializer(serializers.Serializer):
    seat = WholeNumberField(required=False, min_value=0, allow_null=True)


class GameField(serializers.CharField):
    """A game, by slug or by name; validates to the engine slug."""

    def to_internal_value(self, data: Any) -> str:
        text = super().to_internal_value(data)
        slug = game_slug_find(text)
        if slug is None:
            known = ", ".join(engine.name for engine in all_engines())
            raise serializers.ValidationError(f'There is no game "{text}". Known games: {known}.')
        return slug


# "+01:00" in a query string that was not URL-encoded arrives as " 01:00".
_LOST_PLUS = re.compile(r"(\d) (\d\d:?\d\d)$")


class MomentField(serializers.Field):
    """An ISO 8601 date or date-time, as an aware datetime.

    A date is midnight at its start; a date-time without an offset is in the
    site's time zone (UTC).
    """

    default_error_messages = {
        "invalid": '"{value}" is not a date; write 2026-11-28 or 2026-11-28T19:30:00Z.',
    }

    def to_internal_value(self, data: Any) -> datetime:
        text = _LOST_PLUS.sub(r"\1+\2", str(data).strip())
        try:
            moment = parse_datetime(text)
            if moment is None and (day := parse_date(text)) is not None:
                moment = datetime.combine(day, time.min)
        except ValueError:  # well-formed but impossible, like 2026-02-30
            moment = None
        if moment is None:
            self.fail("invalid", value=text)
        if timezone.is_naive(moment):
            return timezone.make_aware(moment)
        try:
            # In UTC: PostgreSQL refuses offsets past 15:59 that Python takes (up to 23:59).
            return moment.astimezone(UTC)
        except OverflowError:  # 9999-12-31T23:00-05:00 is past the last UTC day
            self.fail("invalid", value=text)

    def to_representation(self, value: datetime) -> str:
        return value.isoformat()


class RecordListQuerySerializer(serializers.Serializer):
    """The record filters shared by the list, the export and the records page."""

    game = GameField(required=False)
    player = serializers.CharField(
        required=False,
        max_length=64,
        error_messages={"max_length": "A player name is at most 64 characters."},
    )
    players = WholeNumberField(
        required=False,
        min_value=1,
        max_value=100,
        error_messages={
            "invalid": "The number of players must be a whole number, like 4.",
            "min_value": "The number of players must be at least 1.",
            "max_value": "The number of players must be at most 100.",
            "max_string_length": "The number of players must be a whole number, like 4.",
        },
    )
    played_after = MomentField(required=False)
    played_before = MomentField(required=False)
    winner = serializers.CharField(
        required=False,
        max_length=64,
        error_messages={"max_length": "A player name is at most 64 characters."},
    )
    play = serializers.ChoiceField(
        required=False,
        choices=[PLAY_REAL, PLAY_SIMULATED, PLAY_ALL],
        error_messages={
            "invalid_choice": 'Play is "real" (people\'s games), "simulated" (bot play) or "all".'
        },
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        after, before = attrs.get("played_after"), attrs.get("played_before")
        if after is not None and before is not None and before <= after:
            raise serializers.ValidationError(
                {"played_before": "The end date must be later than the start date."}
            )
        return attrs


RECORD_FILTERS = tuple(RecordListQuerySerializer().fields)


def record_filters(
    query: Mapping[str, str], *, known: Iterable[str] | None = None
) -> dict[str, Any]:
    """The record filters of a query string, checked, as keywords for ``record_list``.

    An empty value is no filter (a form sends every field). Raises
    :class:`BadRequest` ``bad_filter`` naming the field of a wrong value. With
    ``known`` (the other parameters the caller reads), any other parameter is
    ``invalid_query``: a typo like ``?winer=ana`` must not answer every record.
    """
    if known is not None:
        allowed = [*RECORD_FILTERS, *known]
        for name in query:
            if name not in allowed and not name.startswith(OPTION_PREFIX):
                raise BadRequest(
                    "invalid_query",
                    f'Unknown query parameter "{name}"; known: {", ".join(allowed)}.',
                    field=name,
                )
    values = {
        name: value.strip()
        for name, value in query.items()
        if name in RECORD_FILTERS and value.strip()
    }
    serializer = RecordListQuerySerializer(data=values)
    if not serializer.is_valid():
        field, messages = next(iter(serializer.errors.items()))
        raise BadRequest("bad_filter", str(messages[0]), field=field, value=values.get(field))
    filters = dict(serializer.validated_data)
    options = option_filters(query, filters.get("game"))
    if options:
        filters["options"] = options
    return filters


OPTION_PREFIX = "option."


def option_filters(query: Mapping[str, str], game: str | None) -> dict[str, Any]:
    """``option.<name>=<value>`` parameters: records played under that house rule.

    Values are JSON (``true``, ``null``, ``15``) or a bare word (``guest``); each is
    checked against the game's declared option, so a typo is a 400, not an empty list.
    """
    wanted = {
        name[len(OPTION_PREFIX) :]: value.strip()
        for name, value in query.items()
        if name.startswith(OPTION_PREFIX) and value.strip()
    }
    if not wanted:
        return {}
    first = OPTION_PREFIX + next(iter(wanted))
    if game is None:
        raise BadRequest(
            "bad_filter", "An option filter needs a game: add game=<game>.", field=first
        )
    declared = {option.name: option for option in get_engine(game).options}
    options: dict[str, Any] = {}
    for name, text in wanted.items():
        field = OPTION_PREFIX + name
        if name not in declared:
            known = ", ".join(declared) or "none"
            raise BadRequest(
                "bad_filter", f'This game has no option "{name}"; options: {known}.', field=field
            )
        try:
            value = json.loads(text)
        except ValueError:
            value = text
        try:
            declared[name].check(value)
        except InvalidSetup as exc:
            raise BadRequest("bad_filter", exc.message, field=field, value=text) from None
        options[name] = declared[name].canonical(value)  # stored options are canonical
    return options


class RecordCreatedSerializer(serializers.Serializer):
    """The answer to an upload (for the API docs)."""

    id = serializers.IntegerField()
    created = serializers.BooleanField()
    game = serializers.CharField()
    result = serializers.DictField()
    url = serializers.CharField()
    note = serializers.CharField(
        required=False,
        help_text="Set when the game was already stored and the upload's meta differs.",
    )

    @staticmethod
    def build(record: Record, created: bool, url: str, *, sent_meta: Any = None) -> dict[str, Any]:
        body = {
            "id": record.pk,
            "created": created,
            "game": record.game,
            "result": record.result,
            "url": url,
        }
        if not created and isinstance(sent_meta, dict) and sent_meta != record.meta:
            # The game is the same record (identity is game, options, players and
            # events); its meta is what was stored first. Say so rather than drop it.
            body["note"] = (
                "This game is already stored; its meta is the one stored first and the "
                "meta of this upload was not applied."
            )
        return body
