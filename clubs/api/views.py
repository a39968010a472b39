"""REST endpoints for clubs, leagues and seasons: thin views over services and selectors.

Reading is open; writing needs an account (session or ``Authorization: Token``).
Who may write what is decided in ``clubs.services`` (403 ``not_a_member``,
``not_club_admin``, ``not_club_owner``, ``not_submitter``).
"""

from __future__ import annotations

from django.db.models import Prefetch
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors, services
from clubs.api.serializers import (
    ClubDetailSerializer,
    ClubSerializer,
    ClubSettingsSerializer,
    EntryCreateSerializer,
    EntrySerializer,
    InvitationCreatedSerializer,
    InvitationCreateSerializer,
    InvitationRevokeSerializer,
    InvitationSerializer,
    JoinedSerializer,
    JoinSerializer,
    LeagueCreateSerializer,
    LeagueSerializer,
    MemberSerializer,
    ResultCorrectedSerializer,
    ResultCorrectionSerializer,
    RoleSerializer,
    SeasonCreateSerializer,
    SeasonSerializer,
    StandingsSerializer,
    VoidSerializer,
)
from clubs.models import Membership
from core.api.permissions import request_user
from core.api.serializers import ErrorSerializer
from core.inputs import INT32_MAX
from replays.api.schemas import giftlog_request

ERRORS = {
    400: ErrorSerializer,
    401: ErrorSerializer,
    403: ErrorSerializer,
    404: ErrorSerializer,
    409: ErrorSerializer,
    422: ErrorSerializer,
}
READ_ERRORS = {404: ErrorSerializer}

_GUESTS = {
    "type": "array",
    "items": {"type": "integer", "minimum": 0, "maximum": INT32_MAX},
    "description": "Seats played by guests (not members), 0-based.",
}
# Exactly one of ``record`` and ``document`` (EntryCreateSerializer checks it).
ENTRY_REQUEST = {
    "oneOf": [
        {
            "type": "object",
            "required": ["record"],
            "properties": {
                "record": {"type": "integer", "description": "A stored record's id."},
                "guests": _GUESTS,
            },
            "not": {"required": ["document"]},
        },
        {
            "type": "object",
            "required": ["document"],
            "properties": {
                "document": {
                    **giftlog_request(),
                    "description": "A whole giftlog/1 document: stored and entered at once.",
                },
                "guests": _GUESTS,
                "confirm_unusual": {
                    "type": "boolean",
                    "description": "true: store scores that look unusual (after 422 "
                    "`result_unusual`).",
                },
            },
            "not": {"required": ["record"]},
        },
    ]
}


class ReadOpenWriteAuthenticated(BasePermission):
    """Anyone reads; writes need a logged-in user (401 otherwise, in the common shape)."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.method in SAFE_METHODS or bool(
            request.user and request.user.is_authenticated
        )


class _Base(APIView):
    permission_classes = [ReadOpenWriteAuthenticated]


def _valid(serializer_class, request: Request):
    body = serializer_class(data=request.data)
    body.is_valid(raise_exception=True)
    return body.validated_data


class ClubListView(_Base):
    @extend_schema(summary="Clubs", responses={200: ClubSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response(ClubSerializer(selectors.club_list(), many=True).data)

    @extend_schema(
        summary="Make a club (you become its owner)",
        request=ClubSerializer,
        responses={201: ClubSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        data = _valid(ClubSerializer, request)
        club = services.club_create(
            user=request.user,
            name=data["name"],
            slug=data["slug"],
            description=data.get("description", ""),
        )
        return Response(ClubSerializer(club).data, status=status.HTTP_201_CREATED)


def _members_prefetch() -> Prefetch:
    return Prefetch(
        "memberships",
        queryset=Membership.objects.select_related("user")
        .prefetch_related("user__players")
        .order_by("joined_at", "id"),
    )


class ClubDetailView(_Base):
    @extend_schema(
        summary="A club with its members and leagues",
        responses={200: ClubDetailSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        club = selectors.club_get(slug=slug)
        club = type(club).objects.prefetch_related(_members_prefetch(), "leagues").get(pk=club.pk)
        return Response(ClubDetailSerializer(club).data)

    @extend_schema(
        summary="Change a club's settings (admins and owners)",
        description=(
            "`analyse_league_games`: true analyses every game entered in one of the club's "
            "league seasons from now on (games entered before are not)."
        ),
        request=ClubSettingsSerializer,
        responses={200: ClubDetailSerializer, **ERRORS},
    )
    def patch(self, request: Request, slug: str) -> Response:
        club = selectors.club_get(slug=slug)
        data = _valid(ClubSettingsSerializer, request)
        services.club_settings_update(
            club=club, user=request.user, analyse_league_games=data["analyse_league_games"]
        )
        return self.get(request, slug)


class ClubMemberListView(_Base):
    @extend_schema(summary="A club's members", responses={200: MemberSerializer(many=True)})
    def get(self, request: Request, slug: str) -> Response:
        club = selectors.club_get(slug=slug)
        members = selectors.club_members(club=club).prefetch_related("user__players")
        return Response(MemberSerializer(members, many=True).data)


class ClubMemberView(_Base):
    @extend_schema(
        summary="Remove a member, or leave (your own username)",
        description=(
            "Admins remove members; only owners remove admins and owners; the last owner "
            "cannot leave (409 `last_owner`)."
        ),
        responses={204: None, **ERRORS},
    )
    def delete(self, request: Request, slug: str, username: str) -> Response:
        club = selectors.club_get(slug=slug)
        services.membership_remove(club=club, user=request.user, username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        summary="Change a member's role (owners only)",
        request=RoleSerializer,
        responses={200: MemberSerializer, **ERRORS},
    )
    def patch(self, request: Request, slug: str, username: str) -> Response:
        data = _valid(RoleSerializer, request)
        club = selectors.club_get(slug=slug)
        membership = services.membership_role_change(
            club=club, user=request.user, username=username, role=data["role"]
        )
        return Response(MemberSerializer(membership).data)


class InvitationCreateView(_Base):
    @extend_schema(
        summary="A club's join links with their status (club admins)",
        description=(
            "Newest first; each with `status` (pending, used, revoked, expired) and who made "
            "it. Keys are never shown again: `prefix` tells links apart."
        ),
        responses={200: InvitationSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        if request_user(request) is None:
            raise NotAuthenticated()
        club = selectors.club_get(slug=slug)
        services.require_admin(club=club, user=request.user)
        invitations = selectors.club_invitations(club=club)
        context = {"now": timezone.now()}
        return Response(InvitationSerializer(invitations, many=True, context=context).data)

    @extend_schema(
        summary="Make a join link (club admins)",
        description="The answer holds the key and link: the only time they are shown.",
        request=InvitationCreateSerializer,
        responses={201: InvitationCreatedSerializer, **ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        data = _valid(InvitationCreateSerializer, request)
        club = selectors.club_get(slug=slug)
        invitation, key = services.invitation_create(club=club, user=request.user, **data)
        url = request.build_absolute_uri(reverse("club-join-page", args=[key]))
        invitation.key, invitation.url = key, url  # shown once, never stored
        body = InvitationCreatedSerializer(invitation).data
        return Response(body, status=status.HTTP_201_CREATED)


class InvitationRevokeView(_Base):
    @extend_schema(
        summary="Revoke a pending join link (club admins; owners for admin invitations)",
        description=(
            "Nobody else can join with it; recorded in the club's audit log. Revoking a "
            "revoked link changes nothing; a used-up or expired one is `409 invitation_inactive`."
        ),
        request=InvitationRevokeSerializer,
        responses={200: InvitationSerializer, **ERRORS},
    )
    def post(self, request: Request, slug: str, invitation_id: int) -> Response:
        data = _valid(InvitationRevokeSerializer, request)
        club = selectors.club_get(slug=slug)
        invitation = services.invitation_revoke(
            club=club, user=request.user, invitation_id=invitation_id, reason=data["reason"]
        )
        context = {"now": timezone.now()}
        return Response(InvitationSerializer(invitation, context=context).data)


class ClubJoinView(_Base):
    @extend_schema(
        summary="Join a club with an invitation key",
        request=JoinSerializer,
        responses={200: JoinedSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        data = _valid(JoinSerializer, request)
        membership = services.club_join(key=data["key"], user=request.user)
        return Response({"club": membership.club.slug, "role": membership.role})


class LeagueListView(_Base):
    @extend_schema(summary="Leagues", responses={200: LeagueSerializer(many=True)})
    def get(self, request: Request) -> Response:
        slug = request.query_params.get("club")
        club = selectors.club_get(slug=slug) if slug else None
        return Response(LeagueSerializer(selectors.league_list(club=club), many=True).data)

    @extend_schema(
        summary="Make a league (club admins)",
        description=(
            "`options` is the rules variant, stored in full (defaults filled in); records "
            "of another game or variant are refused. See docs/api.md for the tie rules."
        ),
        request=LeagueCreateSerializer,
        responses={201: LeagueSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        data = dict(_valid(LeagueCreateSerializer, request))
        club = selectors.club_get(slug=data.pop("club"))
        league = services.league_create(club=club, user=request.user, **data)
        return Response(LeagueSerializer(league).data, status=status.HTTP_201_CREATED)


class LeagueDetailView(_Base):
    @extend_schema(summary="A league", responses={200: LeagueSerializer, **READ_ERRORS})
    def get(self, request: Request, league_id: int) -> Response:
        return Response(LeagueSerializer(selectors.league_get(league_id=league_id)).data)


class LeagueSeasonsView(_Base):
    @extend_schema(summary="A league's seasons", responses={200: SeasonSerializer(many=True)})
    def get(self, request: Request, league_id: int) -> Response:
        league = selectors.league_get(league_id=league_id)
        return Response(SeasonSerializer(selectors.league_seasons(league=league), many=True).data)

    @extend_schema(
        summary="Start a season (club admins); dates are inclusive",
        request=SeasonCreateSerializer,
        responses={201: SeasonSerializer, **ERRORS},
    )
    def post(self, request: Request, league_id: int) -> Response:
        data = _valid(SeasonCreateSerializer, request)
        league = selectors.league_get(league_id=league_id)
        season = services.season_create(league=league, user=request.user, **data)
        return Response(SeasonSerializer(season).data, status=status.HTTP_201_CREATED)


class SeasonDetailView(_Base):
    @extend_schema(summary="A season", responses={200: SeasonSerializer, **READ_ERRORS})
    def get(self, request: Request, season_id: int) -> Response:
        return Response(SeasonSerializer(selectors.season_get(season_id=season_id)).data)


class SeasonEntriesView(_Base):
    @extend_schema(
        summary="A season's games, voided ones too",
        responses={200: EntrySerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, season_id: int) -> Response:
        season = selectors.season_get(season_id=season_id)
        return Response(EntrySerializer(selectors.season_entries(season=season), many=True).data)

    @extend_schema(
        summary="Enter a game in the season (club members)",
        description=(
            'Send `{"record": id, "guests": [seats]}` for a stored record, or `{"document": '
            '{giftlog}, "guests": [...]}` to store and enter in one transaction (a refusal '
            "stores nothing). Refused (422) for another game (`wrong_game`) or variant "
            "(`wrong_variant`), no `meta.played_at` (`played_at_missing`), a date outside the "
            "season (`outside_season`) or a seat that is neither a member's player nor a "
            "guest (`not_a_member_player`). A result-only document whose scores are possible "
            "but unusual (a Secret Santa total of 310) is `422 result_unusual` until it is "
            'sent again with `"confirm_unusual": true`.'
        ),
        request={"application/json": ENTRY_REQUEST},
        responses={201: EntrySerializer, **ERRORS},
    )
    def post(self, request: Request, season_id: int) -> Response:
        data = _valid(EntryCreateSerializer, request)
        season = selectors.season_get(season_id=season_id)
        if "document" in data:
            entry, _ = services.season_entry_submit_document(
                season=season,
                document=data["document"],
                user=request.user,
                guests=data["guests"],
                confirm_unusual=data["confirm_unusual"],
            )
        else:
            record = selectors.record_get(record_id=data["record"])
            entry = services.season_entry_submit(
                season=season, record=record, user=request.user, guests=data["guests"]
            )
        entry = selectors.season_entries(season=season).get(pk=entry.pk)
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class EntryVoidView(_Base):
    @extend_schema(
        summary="Void a game (club admins): it leaves the standings, stays listed",
        request=VoidSerializer,
        responses={200: EntrySerializer, **ERRORS},
    )
    def post(self, request: Request, season_id: int, entry_id: int) -> Response:
        data = _valid(VoidSerializer, request)
        season = selectors.season_get(season_id=season_id)
        entry = selectors.season_entry_get(season=season, entry_id=entry_id)
        services.record_void(entry=entry, user=request.user, reason=data["reason"])
        entry = selectors.season_entries(season=season).get(pk=entry.pk)
        return Response(EntrySerializer(entry).data)


class EntryUnvoidView(_Base):
    @extend_schema(
        summary="Count a voided game again (club admins), e.g. a void made by mistake",
        request=VoidSerializer,
        responses={200: EntrySerializer, **ERRORS},
    )
    def post(self, request: Request, season_id: int, entry_id: int) -> Response:
        data = _valid(VoidSerializer, request)
        season = selectors.season_get(season_id=season_id)
        entry = selectors.season_entry_get(season=season, entry_id=entry_id)
        services.record_unvoid(entry=entry, user=request.user, reason=data["reason"])
        entry = selectors.season_entries(season=season).get(pk=entry.pk)
        return Response(EntrySerializer(entry).data)


class SeasonStandingsView(_Base):
    @extend_schema(
        summary="A season's standings and each player's points after each game",
        responses={200: StandingsSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, season_id: int) -> Response:
        season = selectors.season_get(season_id=season_id)
        body = {
            "season": SeasonSerializer(season).data,
            "league": LeagueSerializer(season.league).data,
            "games": selectors.season_entries(season=season, include_voided=False).count(),
            "rows": selectors.season_standings(season=season),
            "history": selectors.standings_history(season=season),
        }
        return Response(body)


class RecordResultCorrectView(_Base):
    @extend_schema(
        summary=(
            "Correct a result-only record (its submitter within the correction window, "
            "club admins at any time)"
        ),
        description=(
            "Checked like a new result-only record (score bounds, the game's rules, ranks; "
            'unusual scores need `"confirm_unusual": true`, else 422 `result_unusual`). '
            "Its submitter may correct it for `RESULT_CORRECTION_WINDOW` (24 h by default); "
            "after that it is 403 `correction_window_closed`, whose `detail.admins` names who "
            "still may: the admins and owners of the clubs it is entered in. Audited; ratings "
            "and standings are recomputed."
        ),
        request=ResultCorrectionSerializer,
        responses={200: ResultCorrectedSerializer, **ERRORS},
    )
    def patch(self, request: Request, record_id: int) -> Response:
        data = _valid(ResultCorrectionSerializer, request)
        record = selectors.record_get(record_id=record_id)
        record = services.result_correct(
            record=record,
            user=request.user,
            scores=data["scores"],
            ranks=data.get("ranks"),
            reason=data["reason"],
            confirm_unusual=data["confirm_unusual"],
        )
        return Response({"id": record.pk, "result": record.result})
