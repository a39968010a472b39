"""Typed serializers for the events API: every response has a documented shape."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.api.serializers import (
    GameSlugField,
    StrictCharField,
    StrictSlugField,
    WholeNumberField,
)
from events.models import Entry, Event, Round, Table
from events.seat import OBJECTIVE_PARTS
from events.selectors import StandingRow, Standings


class EventSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)
    options = serializers.DictField(help_text="The rules variant: the game's options in full.")
    points_per_place = serializers.ListField(
        child=serializers.FloatField(),
        help_text="Points for 1st, 2nd, ... at a table; empty: n-1 down to 0 at a table of n.",
    )
    season = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)
    calendar = serializers.SerializerMethodField()

    class Meta:
        model = Event
        fields = [
            "id",
            "club",
            "name",
            "slug",
            "game",
            "options",
            "format",
            "rounds",
            "final_top_table",
            "min_table",
            "max_table",
            "points_per_place",
            "starts_at",
            "ends_at",
            "location",
            "season",
            "status",
            "calendar",
        ]
        read_only_fields = fields

    @extend_schema_field({"type": "string", "nullable": True, "description": "iCal feed."})
    def get_calendar(self, event: Event) -> str | None:
        if event.club is None:
            return None
        return reverse("club-events-ics", kwargs={"slug": event.club.slug})


class EventCreateSerializer(serializers.Serializer):
    club = StrictSlugField(
        required=False,
        allow_null=True,
        help_text="The club's slug (you must be an admin); leave out for an open event.",
    )
    name = StrictCharField(max_length=100)
    slug = StrictSlugField(max_length=64)
    game = GameSlugField()
    options = serializers.DictField(required=False)
    format = serializers.ChoiceField(choices=Event.Format.choices, default=Event.Format.SWISS)
    rounds = WholeNumberField(min_value=1, max_value=30, default=3)
    final_top_table = serializers.BooleanField(default=False)
    min_table = WholeNumberField(min_value=1, max_value=64, required=False, allow_null=True)
    max_table = WholeNumberField(min_value=1, max_value=64, required=False, allow_null=True)
    points_per_place = serializers.ListField(
        child=serializers.FloatField(min_value=0, max_value=1000), required=False, max_length=16
    )
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(required=False, allow_null=True)
    location = StrictCharField(max_length=200, required=False, allow_blank=True)
    season = WholeNumberField(min_value=1, required=False, allow_null=True)


class EventStatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=[Event.Status.DRAFT, Event.Status.OPEN])


class EventEntrySerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Entry
        fields = ["id", "player", "checked_in", "arrived_round", "dropped_after"]
        read_only_fields = fields


class EventEntryCreateSerializer(serializers.Serializer):
    handle = StrictCharField(
        max_length=64,
        required=False,
        help_text="The player to enter (organisers). Leave out to enter yourself.",
    )
    checked_in = serializers.BooleanField(default=False)


class EventCheckInSerializer(serializers.Serializer):
    checked_in = serializers.BooleanField(default=True)


class EventSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="From 0, the record's seat.")
    entry = serializers.IntegerField(source="entry_id")
    player = serializers.CharField(source="entry.player.name")


class EventTableResultSerializer(serializers.Serializer):
    kind = serializers.CharField()
    status = serializers.CharField()
    scores = serializers.SerializerMethodField()
    ranks = serializers.SerializerMethodField()
    submitted_by = serializers.CharField(source="submitted_by.username", allow_null=True)
    confirmed_by = serializers.CharField(
        source="confirmed_by.username", allow_null=True, default=None
    )

    @extend_schema_field({"type": "array", "items": {"type": "integer"}})
    def get_scores(self, result: Any) -> list[int]:
        return list(result.result.get("scores", []))

    @extend_schema_field({"type": "array", "items": {"type": "integer"}})
    def get_ranks(self, result: Any) -> list[int]:
        return list(result.result.get("ranks", []))


class EventTableSerializer(serializers.ModelSerializer):
    seats = EventSeatSerializer(many=True, read_only=True)
    result = serializers.SerializerMethodField()
    record = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)

    class Meta:
        model = Table
        fields = ["number", "reason", "seats", "record", "result"]
        read_only_fields = fields

    @extend_schema_field(EventTableResultSerializer(allow_null=True))
    def get_result(self, table: Table) -> dict[str, Any] | None:
        result = getattr(table, "result", None)
        return EventTableResultSerializer(result).data if result is not None else None


class SeatingObjectiveSerializer(serializers.Serializer):
    """The seating's cost by part (lower is better)."""

    def get_fields(self) -> dict[str, serializers.Field]:
        return {part: serializers.FloatField(required=False) for part in OBJECTIVE_PARTS}


class EventRoundSerializer(serializers.ModelSerializer):
    tables = EventTableSerializer(many=True, read_only=True)
    byes = serializers.SerializerMethodField()
    objective = SeatingObjectiveSerializer()

    class Meta:
        model = Round
        fields = ["number", "status", "seed", "objective", "tables", "byes"]
        read_only_fields = fields

    @extend_schema_field({"type": "array", "items": {"type": "string"}})
    def get_byes(self, rnd: Round) -> list[str]:
        return [bye.entry.player.name for bye in rnd.byes.all()]


class EventDetailSerializer(EventSerializer):
    entries = EventEntrySerializer(many=True, read_only=True)
    round_list = EventRoundSerializer(many=True, read_only=True, source="round_set")

    class Meta(EventSerializer.Meta):
        fields = [*EventSerializer.Meta.fields, "entries", "round_list"]
        read_only_fields = fields


class EventSeatNextSerializer(serializers.Serializer):
    seed = WholeNumberField(min_value=0, required=False, help_text="Repeat a draw by its seed.")


class EventSwapSerializer(serializers.Serializer):
    first = WholeNumberField(min_value=1, help_text="An entry id seated in the round.")
    second = WholeNumberField(min_value=1)


class EventSwapResultSerializer(serializers.Serializer):
    before = SeatingObjectiveSerializer()
    after = SeatingObjectiveSerializer()
    change = serializers.FloatField(help_text="Total after minus total before (lower is better).")
    round = EventRoundSerializer()


class EventResultSubmitSerializer(serializers.Serializer):
    scores = serializers.ListField(
        child=WholeNumberField(),
        required=False,
        max_length=16,
        help_text="Final scores, one per seat, seat 0 first.",
    )
    ranks = serializers.ListField(child=WholeNumberField(min_value=1), required=False)
    confirm_unusual = serializers.BooleanField(default=False)
    document = serializers.DictField(
        required=False, help_text="A full giftlog/1 move log instead of scores."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("scores" in attrs) == ("document" in attrs):
            raise serializers.ValidationError("Send either scores or a document (a full log).")
        return attrs


class EventStandingRowSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    entry = serializers.IntegerField(source="entry_id")
    player = serializers.CharField()
    points = serializers.SerializerMethodField()
    strength = serializers.SerializerMethodField(
        help_text="Opponents' average points: the second tie-break."
    )
    wins = serializers.IntegerField()
    games = serializers.IntegerField()
    byes = serializers.IntegerField()
    dropped = serializers.BooleanField()
    explanation = serializers.CharField(help_text="Why this row stands here, in words.")

    def get_points(self, row: StandingRow) -> float:
        return float(row.points)

    def get_strength(self, row: StandingRow) -> float:
        return round(float(row.strength), 4)


class EventStandingsSerializer(serializers.Serializer):
    after_round = serializers.IntegerField()
    pending_tables = serializers.IntegerField()
    rows = EventStandingRowSerializer(many=True)

    def to_representation(self, instance: Standings) -> dict[str, Any]:
        return super().to_representation(instance)
