"""Serializers for query parameters and list rows; records themselves are giftlog JSON."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from replays.models import Record
from replays.selectors import record_player_names


class RecordSummarySerializer(serializers.ModelSerializer):
    players = serializers.SerializerMethodField()

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
        ]

    def get_players(self, record: Record) -> list[str]:
        return record_player_names(record)


class StepQuerySerializer(serializers.Serializer):
    seat = serializers.IntegerField(required=False, min_value=0, allow_null=True)


class RecordListQuerySerializer(serializers.Serializer):
    game = serializers.CharField(required=False)
    player = serializers.CharField(required=False)


class RecordCreatedSerializer(serializers.Serializer):
    """The answer to an upload (for the API docs)."""

    id = serializers.IntegerField()
    created = serializers.BooleanField()
    game = serializers.CharField()
    result = serializers.DictField()
    url = serializers.CharField()

    @staticmethod
    def build(record: Record, created: bool, url: str) -> dict[str, Any]:
        return {
            "id": record.pk,
            "created": created,
            "game": record.game,
            "result": record.result,
            "url": url,
        }


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    detail = serializers.DictField()
