"""Typed serializers for the clubs API: every response has a documented shape."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clubs.models import Club, Invitation, League, Membership, Season, SeasonEntry
from core.api.serializers import (
    GameSlugField,
    StrictCharField,
    StrictModelSerializer,
    StrictSlugField,
    WholeNumberField,
)


class MemberSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)
    players = serializers.SerializerMethodField()

    class Meta:
        model = Membership
        fields = ["username", "role", "joined_at", "players"]
        read_only_fields = fields

    def get_players(self, membership: Membership) -> list[str]:
        return [p.name for p in membership.user.players.all()]


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "string", "enum": list(League.TIE_BREAKS)},
        "uniqueItems": True,
        "description": "Tie-breaks after points, in order; each at most once.",
    }
)
class TieBreaksField(serializers.ListField):
    """A league's tie-breaks: names from ``League.TIE_BREAKS``, each at most once (the
    schema says so, so a request it calls valid is one the league service takes)."""

    child = serializers.ChoiceField(choices=list(League.TIE_BREAKS))


class LeagueSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    options = serializers.DictField(help_text="The rules variant: the game's options in full.")
    points_per_place = serializers.ListField(child=serializers.IntegerField())
    tie_breaks = TieBreaksField(required=False)

    class Meta:
        model = League
        fields = [
            "id",
            "club",
            "name",
            "slug",
            "game",
            "options",
            "points_per_place",
            "tie_rule",
            "min_games",
            "tie_breaks",
            "created_at",
        ]
        read_only_fields = ["id", "club", "created_at"]


class LeagueCreateSerializer(serializers.Serializer):
    club = StrictSlugField(help_text="The club's slug; you must be one of its admins.")
    name = StrictCharField(max_length=100)
    slug = StrictSlugField(max_length=64)
    game = GameSlugField(max_length=32)
    options = serializers.DictField(required=False, default=dict)
    points_per_place = serializers.ListField(child=WholeNumberField(), min_length=1)
    tie_rule = serializers.ChoiceField(
        choices=League.TieRule.choices, default=League.TieRule.SHARE_BEST
    )
    min_games = WholeNumberField(min_value=0, default=0)
    tie_breaks = TieBreaksField(required=False, default=list)


class SeasonSerializer(serializers.ModelSerializer):
    league = serializers.PrimaryKeyRelatedField(read_only=True)

    class Meta:
        model = Season
        fields = ["id", "league", "name", "starts_on", "ends_on", "created_at"]
        read_only_fields = ["id", "league", "created_at"]


class SeasonCreateSerializer(serializers.Serializer):
    name = StrictCharField(max_length=100)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()


class ClubSerializer(StrictModelSerializer):
    class Meta:
        model = Club
        fields = ["name", "slug", "description", "created_at"]
        read_only_fields = ["created_at"]
        # A taken slug is the service's 409 ``slug_taken``, not a 400 of the form.
        extra_kwargs = {"slug": {"validators": []}}


class ClubDetailSerializer(ClubSerializer):
    members = MemberSerializer(source="memberships", many=True, read_only=True)
    leagues = LeagueSerializer(many=True, read_only=True)

    class Meta(ClubSerializer.Meta):
        fields = [*ClubSerializer.Meta.fields, "analyse_league_games", "members", "leagues"]
        read_only_fields = fields


class JsonBooleanField(serializers.BooleanField):
    """true or false only: DRF's field also takes "yes", 1 or "on", which the schema
    (``type: boolean``) does not allow."""

    def to_internal_value(self, data: object) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class ClubSettingsSerializer(serializers.Serializer):
    analyse_league_games = JsonBooleanField(
        help_text="Analyse every game entered in one of the club's league seasons from now on."
    )


class RoleSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class InvitationCreateSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Membership.Role.choices, default=Membership.Role.MEMBER)
    expires_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    max_uses = WholeNumberField(min_value=1, required=False, allow_null=True, default=None)


class InvitationCreatedSerializer(serializers.ModelSerializer):
    key = serializers.CharField(help_text="The secret key: shown only in this answer.")
    url = serializers.CharField(help_text="The join link (a page): open it logged in to join.")

    class Meta:
        model = Invitation
        fields = ["id", "prefix", "role", "expires_at", "max_uses", "uses", "key", "url"]
        read_only_fields = fields


class InvitationSerializer(serializers.ModelSerializer):
    """A join link as its club's admins see it: never its key (only its hash is stored)."""

    status = serializers.SerializerMethodField(
        help_text="pending (people may join), used (max_uses reached), revoked or expired."
    )
    created_by = serializers.SerializerMethodField(help_text="The username of its maker.")

    class Meta:
        model = Invitation
        fields = [
            "id",
            "prefix",
            "role",
            "status",
            "created_by",
            "created_at",
            "expires_at",
            "max_uses",
            "uses",
            "revoked_at",
        ]
        read_only_fields = fields

    def get_status(self, invitation: Invitation) -> str:
        return str(invitation.status_at(self.context["now"]).value)

    def get_created_by(self, invitation: Invitation) -> str | None:
        user = invitation.created_by
        return user.get_username() if user is not None else None


class InvitationRevokeSerializer(serializers.Serializer):
    reason = StrictCharField(required=False, default="", allow_blank=True, max_length=500)


class JoinSerializer(serializers.Serializer):
    key = StrictCharField()


class JoinedSerializer(serializers.Serializer):
    club = serializers.SlugField()
    role = serializers.CharField()


class EntryCreateSerializer(serializers.Serializer):
    record = WholeNumberField(
        required=False, help_text="A stored record's id (or send `document` instead)."
    )
    document = serializers.DictField(
        required=False,
        help_text="A whole giftlog/1 document: stored and entered in one transaction.",
    )
    guests = serializers.ListField(child=WholeNumberField(min_value=0), default=list)
    confirm_unusual = serializers.BooleanField(
        required=False, default=False, help_text="true: store scores that look unusual."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("record" in attrs) == ("document" in attrs):
            raise serializers.ValidationError('Send exactly one of "record" and "document".')
        return attrs


class EntrySerializer(serializers.ModelSerializer):
    record_url = serializers.SerializerMethodField()
    game = serializers.CharField(source="record.game", read_only=True)
    kind = serializers.CharField(source="record.kind", read_only=True)
    played_at = serializers.DateTimeField(source="record.played_at", read_only=True)
    players = serializers.SerializerMethodField()
    result = serializers.DictField(source="record.result", read_only=True)
    submitted_by = serializers.CharField(
        source="submitted_by.username", default=None, allow_null=True
    )
    voided_by = serializers.CharField(source="voided_by.username", default=None, allow_null=True)
    voided = serializers.SerializerMethodField()

    class Meta:
        model = SeasonEntry
        fields = [
            "id",
            "season",
            "record",
            "record_url",
            "game",
            "kind",
            "played_at",
            "players",
            "guests",
            "result",
            "submitted_by",
            "created_at",
            "voided",
            "voided_at",
            "voided_by",
            "void_reason",
        ]
        read_only_fields = fields

    def get_record_url(self, entry: SeasonEntry) -> str:
        return f"/api/records/{entry.record_id}/"

    def get_players(self, entry: SeasonEntry) -> list[str]:
        return [s.player.name for s in sorted(entry.record.seats.all(), key=lambda s: s.seat)]

    def get_voided(self, entry: SeasonEntry) -> bool:
        return entry.voided_at is not None


class VoidSerializer(serializers.Serializer):
    reason = StrictCharField()


class ResultCorrectionSerializer(serializers.Serializer):
    scores = serializers.ListField(child=serializers.IntegerField())
    ranks = serializers.ListField(child=WholeNumberField(), required=False)
    reason = StrictCharField(required=False, default="", allow_blank=True)
    confirm_unusual = serializers.BooleanField(
        required=False, default=False, help_text="true: store scores that look unusual."
    )


class ResultCorrectedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    result = serializers.DictField()


class StandingRowSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    player = serializers.CharField()
    display_name = serializers.CharField()
    games = serializers.IntegerField()
    points = serializers.FloatField(help_text="Whole unless the split tie rule halved some.")
    wins = serializers.IntegerField()
    average_score = serializers.FloatField()
    ranked = serializers.BooleanField(help_text="Played at least the league's min_games.")


class StandingsPointSerializer(serializers.Serializer):
    record = serializers.IntegerField()
    played_at = serializers.DateTimeField()
    points = serializers.DictField(child=serializers.FloatField())


class StandingsSerializer(serializers.Serializer):
    season = SeasonSerializer()
    league = LeagueSerializer()
    games = serializers.IntegerField()
    rows = StandingRowSerializer(many=True)
    history = StandingsPointSerializer(many=True)
