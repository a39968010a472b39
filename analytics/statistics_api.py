"""The statistics and balance-lab API: thin views over selectors and services."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.urls import path
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from analytics import selectors
from analytics.simulations import (
    SIMULATION_MAX_GAMES,
    simulation_job_create,
    simulation_job_get,
    simulation_job_json,
)
from games.registry import UnknownGame, get_engine
from replays.api.permissions import UploadAllowed, request_user
from replays.api.serializers import ErrorSerializer
from replays.errors import BadRequest, NotFound

_MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")
_REAL = {
    "": None,
    "all": None,
    "true": True,
    "real": True,
    "1": True,
    "false": False,
    "simulated": False,
    "0": False,
}
STATISTICS_PARAMS = ("players", "real", "variant", "club", "from", "to")


def statistics_filters(params: Mapping[str, str], *, known: tuple[str, ...] = ()) -> dict[str, Any]:
    """The dashboard/API filters from query parameters; a bad one is ``400 bad_filter``."""
    unknown = sorted(set(params) - set(STATISTICS_PARAMS) - set(known))
    if unknown:
        raise BadRequest("invalid_query", f"Unknown parameter {unknown[0]!r}.", field=unknown[0])
    filters: dict[str, Any] = {}
    players = (params.get("players") or "").strip()
    if players:
        if not players.isdigit() or not 1 <= int(players) <= 12:
            raise BadRequest(
                "bad_filter", "players must be a table size (2 to 8).", field="players"
            )
        filters["players"] = int(players)
    real = (params.get("real") or "").strip().lower()
    if real not in _REAL:
        raise BadRequest(
            "bad_filter", "real must be true (real play), false (simulated) or empty.", field="real"
        )
    filters["real"] = _REAL[real]
    for name, key in (("from", "month_from"), ("to", "month_to")):
        value = (params.get(name) or "").strip()
        if value:
            if not _MONTH.match(value):
                raise BadRequest("bad_filter", f"{name} must be a month: YYYY-MM.", field=name)
            filters[key] = value
    for name in ("variant", "club"):
        value = (params.get(name) or "").strip()
        if value:
            filters[name] = value[:64]
    return filters


_SEAT_FIELDS = {
    "seat": serializers.IntegerField(),
    "games": serializers.IntegerField(),
    "wins": serializers.FloatField(help_text="A win shared by k seats counts 1/k."),
    "win_rate": serializers.FloatField(),
    "low": serializers.FloatField(help_text="95% Wilson score interval, low end."),
    "high": serializers.FloatField(),
    "fair": serializers.FloatField(help_text="1 / players"),
    "verdict": serializers.ChoiceField(["above fair", "below fair", "fair"]),
}
_BOX = inline_serializer(
    "Distribution",
    {
        k: serializers.FloatField()
        for k in ("count", "min", "q1", "median", "q3", "max", "lowerfence", "upperfence", "mean")
    },
    allow_null=True,
)
_SIZE = inline_serializer(
    "TableSizeStatistics",
    {
        "players": serializers.IntegerField(),
        "records": serializers.IntegerField(),
        "ties": serializers.IntegerField(),
        "tie_rate": serializers.FloatField(allow_null=True, help_text="Ludii: Drawishness"),
        "balance": serializers.FloatField(allow_null=True, help_text="Ludii: Balance"),
        "seats": inline_serializer("SeatAdvantage", _SEAT_FIELDS, many=True),
        "scores": _BOX,
        "winning_scores": _BOX,
        "length": _BOX,
        "rounds": _BOX,
        "lead_changes": _BOX,
        "decisiveness_mean": serializers.FloatField(allow_null=True),
    },
)
_SIDE = inline_serializer(
    "PlayStatistics",
    {
        "records": serializers.IntegerField(),
        "logs": serializers.IntegerField(help_text="Records with a full log (not result-only)."),
        "by_players": serializers.DictField(child=_SIZE),
        "tie_rate": serializers.FloatField(allow_null=True),
        "length": _BOX,
        "rounds": _BOX,
        "lead_changes": _BOX,
        "decisiveness_mean": serializers.FloatField(allow_null=True),
        "decisiveness_deciles": serializers.ListField(child=serializers.IntegerField()),
        "event_types": serializers.ListField(child=serializers.DictField()),
        "cards": serializers.ListField(child=serializers.DictField()),
    },
)
GameStatisticsSerializer = inline_serializer(
    "GameStatistics",
    {
        "game": serializers.CharField(),
        "filters": serializers.DictField(),
        "real": _SIDE,
        "simulated": _SIDE,
    },
)


class SimulationJobSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    players = serializers.IntegerField()
    options = serializers.DictField()
    bots = serializers.CharField()
    total = serializers.IntegerField()
    done = serializers.IntegerField()
    state = serializers.ChoiceField(["queued", "running", "done", "failed"])
    errors = ErrorSerializer(many=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class SimulationRequestSerializer(serializers.Serializer):
    game = serializers.CharField(help_text="A game slug, e.g. gift_swap.")
    players = serializers.IntegerField(help_text="Table size, within the game's range.")
    games = serializers.IntegerField(help_text=f"How many games: 1 to {SIMULATION_MAX_GAMES}.")
    bots = serializers.ChoiceField(["random", "greedy", "mixed"], default="mixed")
    options = serializers.DictField(required=False, help_text="The game's options (house rules).")


class GameStatisticsView(APIView):
    @extend_schema(
        summary="A game's statistics, real and simulated play apart",
        parameters=[
            OpenApiParameter("players", int, description="Only this table size."),
            OpenApiParameter("real", str, description="true: real play only; false: simulated."),
            OpenApiParameter("variant", str, description="Only this rules variant (its key)."),
            OpenApiParameter("club", str, description="Only records naming this club."),
            OpenApiParameter("from", str, description="From this month (YYYY-MM), inclusive."),
            OpenApiParameter("to", str, description="To this month (YYYY-MM), inclusive."),
        ],
        responses={200: GameStatisticsSerializer, 400: ErrorSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, slug: str) -> Response:
        try:
            engine = get_engine(slug)
        except UnknownGame as exc:
            raise NotFound("unknown_game", str(exc), game=slug) from None
        filters = statistics_filters(request.query_params, known=("format",))
        return Response(selectors.game_statistics(game=engine.slug, **filters))


class SimulationListView(APIView):
    permission_classes = [UploadAllowed]

    @extend_schema(
        summary="Start a balance-lab simulation",
        description=(
            "Plays `games` bot games in the background, stored as simulated records; follow "
            f"`GET /api/simulations/{{id}}/` for progress. More than {SIMULATION_MAX_GAMES} "
            "games is `400 too_many_games`; every bad field is a 400 naming `detail.field`."
        ),
        request=SimulationRequestSerializer,
        responses={201: SimulationJobSerializer, 400: ErrorSerializer, 401: ErrorSerializer},
    )
    def post(self, request: Request) -> Response:
        data = request.data if isinstance(request.data, Mapping) else {}
        if not isinstance(request.data, Mapping):
            raise BadRequest("bad_request", "The body must be a JSON object.")
        job = simulation_job_create(
            game=data.get("game"),
            num_players=data.get("players"),
            games=data.get("games"),
            bots=data.get("bots", "mixed"),
            options=data.get("options"),
            created_by=request_user(request),
        )
        return Response(simulation_job_json(job), status=201)


class SimulationDetailView(APIView):
    @extend_schema(
        summary="A simulation's progress",
        responses={200: SimulationJobSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, job_id: int) -> Response:
        return Response(simulation_job_json(simulation_job_get(job_id=job_id)))


urlpatterns = [
    path("games/<slug:slug>/statistics/", GameStatisticsView.as_view(), name="game-statistics"),
    path("simulations/", SimulationListView.as_view(), name="simulation-list"),
    path("simulations/<int:job_id>/", SimulationDetailView.as_view(), name="simulation-detail"),
]
