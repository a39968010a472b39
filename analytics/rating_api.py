"""REST endpoints for ratings: leaderboards and head-to-head (thin over analytics.leaderboards)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from analytics import leaderboards
from clubs.models import Club, Season
from games.registry import all_engines, get_engine
from replays.api.serializers import ErrorSerializer, game_slug_find
from replays.errors import BadRequest
from replays.models import Player

MAX_LIMIT = 200
DEFAULT_LIMIT = 50
RATING_WORDS = (
    "ordinal = mu - 3 sigma: the openskill (Plackett-Luce) skill estimate mu less three times "
    "its uncertainty sigma, so a new player starts near 0 and climbs as their games agree."
)


def _unknown_check(query: Mapping[str, str], known: Iterable[str]) -> None:
    known = list(known)
    for name in query:
        if name not in known:
            raise BadRequest(
                "invalid_query",
                f'Unknown query parameter "{name}"; known: {", ".join(known)}.',
                field=name,
            )


def _bad(field: str, message: str, value: Any = None) -> BadRequest:
    return BadRequest("bad_filter", message, field=field, value=value)


def game_find(text: str, *, field: str = "game") -> str:
    slug = game_slug_find(text)
    if slug is None:
        known = ", ".join(engine.name for engine in all_engines())
        raise _bad(field, f'There is no game "{text}". Known games: {known}.', text)
    return slug


def player_find(text: str, *, field: str) -> Player:
    player = Player.objects.filter(name__iexact=text).first() if text else None
    if player is None:
        raise _bad(field, f'There is no player "{text}".', text)
    return player


def _whole(query: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = (query.get(name) or "").strip()
    if not raw:
        return default
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise _bad(name, f"{name} must be a whole number from {low} to {high}.", raw)
    return int(raw)


@dataclass(frozen=True)
class LeaderboardQuery:
    game: str
    club: Club | None
    season: Season | None
    limit: int
    offset: int

    @property
    def key(self) -> str:
        return leaderboards.scope_key(game=self.game, club=self.club, season=self.season)

    @property
    def title(self) -> str:
        name = get_engine(self.game).name
        if self.season is not None:
            league = self.season.league
            return f"{league.name} ({league.club.name}), {self.season.name}: {name} ratings"
        if self.club is not None:
            return f"{self.club.name}: {name} ratings"
        return f"{name} ratings, every game"


def leaderboard_query(query: Mapping[str, str], *, extra: Iterable[str] = ()) -> LeaderboardQuery:
    """The leaderboard a query string asks for; ``BadRequest`` naming the field of a wrong value.

    ``season`` (an id) implies its league's club and game; ``club`` (a slug)
    needs ``game`` unless all the club's leagues play one game.
    """
    _unknown_check(query, ["game", "club", "season", "limit", "offset", *extra])
    text = {name: (query.get(name) or "").strip() for name in ("game", "club", "season")}
    game = game_find(text["game"]) if text["game"] else None
    club = None
    if text["club"]:
        club = Club.objects.filter(slug=text["club"]).first()
        if club is None:
            raise _bad("club", f'There is no club "{text["club"]}".', text["club"])
    season = None
    if text["season"]:
        if not text["season"].isdigit():
            raise _bad("season", "season must be a season's number (its id).", text["season"])
        season = (
            Season.objects.select_related("league__club").filter(pk=int(text["season"])).first()
        )
        if season is None:
            raise _bad("season", f"There is no season {text['season']}.", text["season"])
        if club is not None and season.league.club_id != club.pk:
            raise _bad("season", f"Season {season.pk} is not a season of {club.name}.", season.pk)
        if game is not None and game != season.league.game:
            raise _bad(
                "game",
                f"Season {season.pk} plays {get_engine(season.league.game).name}, not "
                f"{get_engine(game).name}.",
                text["game"],
            )
        game, club = season.league.game, season.league.club
    elif club is not None and game is None:
        games = sorted(set(club.leagues.values_list("game", flat=True)))
        if len(games) != 1:
            raise _bad("game", f"Say which game: {club.name} has leagues of {len(games)} games.")
        game = games[0]
    if game is None:
        raise _bad("game", "Say which game (game=gift_swap or game=Gift Swap).")
    return LeaderboardQuery(
        game=game,
        club=club,
        season=season,
        limit=_whole(query, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT),
        offset=_whole(query, "offset", 0, 0, 10**9),
    )


# --- serializers (the typed response schemas) ------------------------------------------------


class ScopeSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["game", "club", "season"])
    title = serializers.CharField(help_text="The leaderboard's name, in words.")
    game = serializers.CharField(help_text="The game's slug.")
    game_name = serializers.CharField()
    club = serializers.CharField(allow_null=True, help_text="The club's slug.")
    club_name = serializers.CharField(allow_null=True)
    season = serializers.IntegerField(allow_null=True)
    season_name = serializers.CharField(allow_null=True)
    league = serializers.CharField(allow_null=True, help_text="The season's league's slug.")


class LeaderboardRowSerializer(serializers.Serializer):
    place = serializers.IntegerField(help_text="1 = the highest ordinal rating.")
    player = serializers.CharField(help_text="The player's handle.")
    name = serializers.CharField(help_text="The name pages show.")
    ordinal = serializers.FloatField(help_text="mu - 3 sigma: what the board is sorted by.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField(help_text="Rated games in this scope.")
    wins = serializers.IntegerField(help_text="Games where the player had the best rank.")
    win_rate = serializers.FloatField(help_text="wins / games, 0 to 1.")
    average_score = serializers.FloatField()
    last_played = serializers.DateTimeField()
    provisional = serializers.BooleanField(help_text="Fewer rated games than provisional_below.")


class LeaderboardSerializer(serializers.Serializer):
    scope = ScopeSerializer()
    rating = serializers.CharField(help_text="How the rating is computed, in words.")
    provisional_below = serializers.IntegerField(
        help_text="A rating from fewer games than this is provisional (RATINGS_PROVISIONAL_GAMES)."
    )
    count = serializers.IntegerField(help_text="Players on the whole board.")
    limit = serializers.IntegerField()
    offset = serializers.IntegerField()
    next = serializers.CharField(allow_null=True, help_text="The next page's URL, if any.")
    results = LeaderboardRowSerializer(many=True)


class PlayerNameSerializer(serializers.Serializer):
    player = serializers.CharField()
    name = serializers.CharField()


class DifferenceSerializer(serializers.Serializer):
    difference = serializers.IntegerField(help_text="a's score minus b's.")
    games = serializers.IntegerField()


class ScoreDifferenceSerializer(serializers.Serializer):
    average = serializers.FloatField(allow_null=True, help_text="a's score minus b's, averaged.")
    distribution = DifferenceSerializer(many=True)


class MeetingSerializer(serializers.Serializer):
    record = serializers.IntegerField()
    played_at = serializers.DateTimeField()
    a_rank = serializers.IntegerField()
    b_rank = serializers.IntegerField()
    a_score = serializers.IntegerField()
    b_score = serializers.IntegerField()


class HeadToHeadSerializer(serializers.Serializer):
    game = serializers.CharField()
    game_name = serializers.CharField()
    a = PlayerNameSerializer()
    b = PlayerNameSerializer()
    games = serializers.IntegerField(help_text="Real (not simulated) games both played in.")
    a_ahead = serializers.IntegerField(help_text="Games where a finished ahead of b (better rank).")
    b_ahead = serializers.IntegerField()
    ties = serializers.IntegerField(help_text="Games where they shared a rank.")
    a_ahead_rate = serializers.FloatField(allow_null=True)
    b_ahead_rate = serializers.FloatField(allow_null=True)
    score_difference = ScoreDifferenceSerializer()
    meetings = MeetingSerializer(many=True, help_text="The latest 50 games, newest first.")


def _person(player: Player) -> dict[str, str]:
    return {"player": player.name, "name": player.display_name or player.name}


def head_to_head_json(h2h: leaderboards.HeadToHead) -> dict[str, Any]:
    games = h2h.games
    return {
        "game": h2h.game,
        "game_name": get_engine(h2h.game).name,
        "a": _person(h2h.a),
        "b": _person(h2h.b),
        "games": games,
        "a_ahead": h2h.a_ahead,
        "b_ahead": h2h.b_ahead,
        "ties": h2h.ties,
        "a_ahead_rate": h2h.a_ahead / games if games else None,
        "b_ahead_rate": h2h.b_ahead / games if games else None,
        "score_difference": {
            "average": h2h.average_difference,
            "distribution": [{"difference": d, "games": n} for d, n in h2h.distribution],
        },
        "meetings": [
            {
                "record": m.record,
                "played_at": m.played_at,
                "a_rank": m.a_rank,
                "b_rank": m.b_rank,
                "a_score": m.a_score,
                "b_score": m.b_score,
            }
            for m in h2h.meetings[:50]
        ],
    }


def head_to_head_query(query: Mapping[str, str]) -> tuple[str, Player, Player]:
    _unknown_check(query, ["game", "a", "b"])
    game_text = (query.get("game") or "").strip()
    if not game_text:
        raise _bad("game", "Say which game (game=gift_swap or game=Gift Swap).")
    game = game_find(game_text)
    a = player_find((query.get("a") or "").strip(), field="a")
    b = player_find((query.get("b") or "").strip(), field="b")
    if a.pk == b.pk:
        raise _bad("b", "Choose two different players.", b.name)
    return game, a, b


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
            OpenApiParameter("game", str, description='slug (`gift_swap`) or name ("Gift Swap")'),
            OpenApiParameter("club", str, description="a club's slug"),
            OpenApiParameter("season", int, description="a season's id"),
            OpenApiParameter("limit", int, description="rows per page, 1 to 200 (default 50)"),
            OpenApiParameter("offset", int, description="rows to skip (default 0)"),
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
            OpenApiParameter("game", str, required=True, description="slug or name"),
            OpenApiParameter("a", str, required=True, description="a player's handle"),
            OpenApiParameter("b", str, required=True, description="another player's handle"),
        ],
        responses={200: HeadToHeadSerializer, 400: ErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        game, a, b = head_to_head_query(request.query_params)
        h2h = leaderboards.head_to_head(game=game, a=a, b=b)
        return Response(HeadToHeadSerializer(head_to_head_json(h2h)).data)
