"""Analytics' REST endpoints: leaderboards, head-to-head, per-game statistics, the
balance lab's simulations and the analysis of a record. Thin: parse the query
(``analytics.api.serializers``), read through the selectors, answer."""

from __future__ import annotations

from collections.abc import Mapping

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from analytics import leaderboards, record_analysis, selectors
from analytics.api.serializers import (
    ANALYSIS_REQUEST,
    DEFAULT_LIMIT,
    HANDLE_QUERY,
    MAX_LIMIT,
    MAX_OFFSET,
    MONTH_QUERY,
    RATING_WORDS,
    REAL_WORDS,
    SIMULATION_REQUEST,
    GameStatisticsSerializer,
    HeadToHeadSerializer,
    LeaderboardSerializer,
    RecordAnalysisSerializer,
    SimulationJobSerializer,
    head_to_head_json,
    head_to_head_query,
    leaderboard_query,
    statistics_filters,
)
from analytics.simulations import (
    SIMULATION_MAX_GAMES,
    simulation_job_create,
    simulation_job_get,
    simulation_job_json,
    simulation_job_resume,
)
from core.api import schema as api_schema
from core.api.permissions import AuthenticationRequired, UploadAllowed, request_user
from core.api.serializers import ErrorSerializer
from core.errors import BadRequest, NotFound
from core.inputs import whole_number
from games.registry import UnknownGame, get_engine
from replays import selectors as record_selectors


class LeaderboardView(APIView):
    @extend_schema(
        summary="A leaderboard: per game, per club or per league season",
        description=(
            "Players by ordinal rating (mu - 3 sigma, openskill Plackett-Luce), best first, with "
            "games, wins, win rate, average score and when they last played. `season` (an id) "
            "gives that season's board; `club` (a slug) with `game` the club's board (records "
            "entered in any season of its leagues, voids left out); `game` alone every real "
            "game. Simulated records never count. Pages of `limit` (default 50, at most 200) "
            "from `offset`; follow `next`. A wrong value is `400 bad_filter` naming "
            "`detail.field`, an unknown parameter `400 invalid_query`."
        ),
        parameters=[
            OpenApiParameter(
                "game",
                api_schema.game_query(blank=True),
                description='slug (`gift_swap`) or name ("Gift Swap"); needed without '
                "`season`, and with `club` unless the club's leagues play one game",
            ),
            OpenApiParameter("club", str, description="a club's slug"),
            OpenApiParameter(
                "season",
                api_schema.optional(api_schema.integer(0, 10**9)),
                description="a season's id",
            ),
            OpenApiParameter(
                "limit",
                api_schema.optional(api_schema.integer(1, MAX_LIMIT)),
                description=f"rows per page, 1 to {MAX_LIMIT} (default {DEFAULT_LIMIT})",
            ),
            OpenApiParameter(
                "offset",
                api_schema.optional(api_schema.integer(0, MAX_OFFSET)),
                description="rows to skip (default 0)",
            ),
        ],
        responses={200: LeaderboardSerializer, 400: ErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        chosen = leaderboard_query(request.query_params)
        rows, total = leaderboards.leaderboard(
            scope=leaderboards.scope_get(key=chosen.key), limit=chosen.limit, offset=chosen.offset
        )
        after = chosen.offset + chosen.limit
        next_url = None
        if after < total:
            params = request.query_params.copy()
            params["offset"] = str(after)
            next_url = request.build_absolute_uri(f"{request.path}?{params.urlencode()}")
        season, club = chosen.season, chosen.club
        body = {
            "scope": {
                "kind": "season" if season else "club" if club else "game",
                "title": chosen.title,
                "game": chosen.game,
                "game_name": get_engine(chosen.game).name,
                "club": club.slug if club else None,
                "club_name": club.name if club else None,
                "season": season.pk if season else None,
                "season_name": season.name if season else None,
                "league": season.league.slug if season else None,
            },
            "rating": RATING_WORDS,
            "provisional_below": leaderboards.provisional_games(),
            "count": total,
            "limit": chosen.limit,
            "offset": chosen.offset,
            "next": next_url,
            "results": [row.__dict__ for row in rows],
        }
        return Response(LeaderboardSerializer(body).data)


class HeadToHeadView(APIView):
    @extend_schema(
        summary="Head-to-head: two players in one game",
        description=(
            "Every real game of `game` that players `a` and `b` both played: how often each "
            "finished ahead of the other (a better rank), ties (a shared rank), and a's score "
            "minus b's (average and distribution). Players by handle, any case. A wrong value "
            "is `400 bad_filter` naming `detail.field`."
        ),
        parameters=[
            OpenApiParameter(
                "game",
                api_schema.game_query(blank=False),
                required=True,
                description="slug or name",
            ),
            OpenApiParameter(
                "a", HANDLE_QUERY, required=True, description="a player's handle (any case)"
            ),
            OpenApiParameter(
                "b", HANDLE_QUERY, required=True, description="another player's handle"
            ),
        ],
        responses={200: HeadToHeadSerializer, 400: ErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        game, a, b = head_to_head_query(request.query_params)
        h2h = leaderboards.head_to_head(game=game, a=a, b=b)
        return Response(HeadToHeadSerializer(head_to_head_json(h2h)).data)


class GameStatisticsView(APIView):
    @extend_schema(
        summary="A game's statistics, real and simulated play apart",
        parameters=[
            OpenApiParameter(
                "players",
                api_schema.optional(api_schema.integer(1, 12)),
                description="Only this table size.",
            ),
            OpenApiParameter(
                "real",
                {"type": "string", "enum": REAL_WORDS},
                description="true: real play only; false: simulated; empty or all: both.",
            ),
            OpenApiParameter("variant", str, description="Only this rules variant (its key)."),
            OpenApiParameter("club", str, description="Only records naming this club."),
            OpenApiParameter(
                "from", MONTH_QUERY, description="From this month (YYYY-MM), inclusive."
            ),
            OpenApiParameter("to", MONTH_QUERY, description="To this month (YYYY-MM), inclusive."),
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
            "games is `400 too_many_games`; every bad field is a 400 naming `detail.field`. "
            "An account may have `SIMULATIONS_MAX_JOBS` unfinished jobs with at most "
            "`SIMULATIONS_MAX_QUEUED_GAMES` games still to play: past either, "
            "`429 quota_exceeded` with the numbers in `detail`."
        ),
        request={"application/json": SIMULATION_REQUEST},
        responses={
            201: SimulationJobSerializer,
            400: ErrorSerializer,
            401: ErrorSerializer,
            429: ErrorSerializer,
        },
    )
    def post(self, request: Request) -> Response:
        data = request.data if isinstance(request.data, Mapping) else {}
        if not isinstance(request.data, Mapping):
            raise BadRequest("bad_request", "The body must be a JSON object.")
        options = data.get("options")
        if options is not None and not isinstance(options, Mapping):
            # Not read as "no options": false or [] is a mistake, not the defaults.
            raise BadRequest("bad_options", "Options must be a JSON object.", field="options")
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
        job = simulation_job_resume(job=simulation_job_get(job_id=job_id))  # after a restart
        return Response(simulation_job_json(job))


class AnalysisRequestAllowed(BasePermission):
    """Reading an analysis is open; asking for one needs an account, always (each is a
    worker's minute: ``ALLOW_ANONYMOUS_UPLOADS`` does not open it)."""

    def has_permission(self, request: Request, view: object) -> bool:
        if request.method in SAFE_METHODS or request_user(request) is not None:
            return True
        raise AnalysisSignIn()


class AnalysisSignIn(AuthenticationRequired):
    default_detail = (
        "Sign in to ask for an analysis (or send `Authorization: Token <key>`); "
        "reading one needs no account."
    )


def _analysis_query(query: Mapping[str, str]) -> dict[str, int]:
    """GET's optional ``playouts`` and ``seed`` (whole numbers), checked like POST's body."""
    for name in query:
        if name not in ("playouts", "seed", "format"):
            raise BadRequest(
                "invalid_query",
                f'Unknown query parameter "{name}"; known: playouts, seed.',
                field=name,
            )
    values = {}
    for name in ("playouts", "seed"):
        raw = (query.get(name) or "").strip()
        if raw:
            value = whole_number(raw)
            if value is None:
                raise BadRequest(
                    f"bad_{name}", f"{name} must be a whole number.", field=name, value=raw[:100]
                )
            values[name] = value
    return values


class RecordAnalysisView(APIView):
    permission_classes = [AnalysisRequestAllowed]

    @extend_schema(
        summary="A record's analysis: status, progress, and every decision valued",
        description=(
            "The analysis with the default settings (or the `playouts` and `seed` given) made "
            "by the version this server runs; without those, the latest finished one of an "
            "earlier version or other settings (`current` false). `status` is `queued`, "
            "`running` (with `progress`), `done` (with `result`: the win-share curve, the "
            "chance and decision swings, each decision's moves valued from the mover's view "
            "with the chosen and best move and the mark, and each player's decision quality "
            "and luck), `failed` (with `error`) or `unavailable` (a result-only record). "
            "None yet: `404 no_analysis`; no such record: `404 not_found`."
        ),
        parameters=[
            OpenApiParameter(
                "playouts",
                api_schema.optional(api_schema.integer(1, record_analysis.MAX_PLAYOUTS)),
            ),
            OpenApiParameter(
                "seed", api_schema.optional(api_schema.integer(0, record_analysis.MAX_SEED))
            ),
        ],
        responses={200: RecordAnalysisSerializer, 400: ErrorSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, record_id: int) -> Response:
        record = record_selectors.record_get(record_id=record_id, log=False)
        given = _analysis_query(request.query_params)
        settings = record_analysis.analysis_settings_parse(given)
        row = selectors.record_analysis_find(
            record_id=record.pk,
            version=record_analysis.analysis_version(),
            settings_hash=record_analysis.settings_hash(settings),
            fallback=not given,
        )
        if row is None:
            raise NotFound(
                "no_analysis",
                f"Record {record.pk} has not been analysed"
                + (" with these settings" if given else "")
                + ": POST to this address to ask for it.",
                record=record.pk,
            )
        row = record_analysis.analysis_resume(analysis=row)
        players = record_selectors.record_player_names(record)
        return Response(record_analysis.analysis_json(row, players=players))

    @extend_schema(
        summary="Ask for a record's analysis",
        description=(
            "Queues the analysis of a stored record on the analysis workers and answers at once "
            "(`202`, `status` `queued`); follow it with `GET`. Idempotent: asking again for "
            "the same settings returns the analysis there is (`200` when it is finished; a "
            "failed one is queued again). A result-only record answers `200` with `status` "
            "`unavailable` and the reason in `error`. Needs an account (`401`); each account "
            "may ask for `ANALYSIS_REQUESTS_PER_HOUR` new analyses an hour (`429 "
            "quota_exceeded`). The body is optional: `playouts` and `seed`."
        ),
        request={"application/json": ANALYSIS_REQUEST},
        responses={
            200: RecordAnalysisSerializer,
            202: RecordAnalysisSerializer,
            400: ErrorSerializer,
            401: ErrorSerializer,
            404: ErrorSerializer,
            429: ErrorSerializer,
        },
    )
    def post(self, request: Request, record_id: int) -> Response:
        record = record_selectors.record_get(record_id=record_id, log=False)
        # No body at all: the defaults. A body is JSON (an object, else a 400).
        empty = request.META.get("CONTENT_LENGTH") in (None, "", "0")
        if not empty and not isinstance(request.data, Mapping):  # null, a list, a number
            raise BadRequest("bad_request", "The body must be a JSON object (or empty).")
        settings = record_analysis.analysis_settings_parse(None if empty else dict(request.data))
        row, _queued = record_analysis.analysis_request(
            record=record, user=request_user(request), settings=settings
        )
        busy = row.status in ("queued", "running")
        players = record_selectors.record_player_names(record)
        return Response(
            record_analysis.analysis_json(row, players=players), status=202 if busy else 200
        )
