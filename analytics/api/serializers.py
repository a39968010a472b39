"""Analytics' API input and output: the query parameters of leaderboards, head-to-head
and statistics, checked into typed values, and the serializers that document answers."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from analytics import leaderboards
from analytics.record_analysis import MAX_PLAYOUTS, MAX_SEED
from analytics.simulations import BOT_MIXES, SIMULATION_MAX_GAMES
from clubs.models import Club, Season
from core.api.serializers import ErrorSerializer
from core.errors import BadRequest
from core.games import game_slug_find
from core.inputs import whole_number
from games.registry import all_engines, get_engine
from replays.models import Player

MAX_LIMIT = 200
DEFAULT_LIMIT = 50
MAX_OFFSET = 10**9
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
    value = whole_number(raw, low=low, high=high)
    if value is None:
        raise _bad(name, f"{name} must be a whole number from {low} to {high}.", raw[:100])
    return value


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
        season_id = whole_number(text["season"], low=1)
        if season_id is None:
            raise _bad("season", "season must be a season's number (its id).", text["season"][:100])
        season = Season.objects.select_related("league__club").filter(pk=season_id).first()
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
        offset=_whole(query, "offset", 0, 0, MAX_OFFSET),
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
    guest = serializers.BooleanField(
        help_text="A guest: a person without an account a club entered by name (listed on "
        "club and season boards only; no board lists a bot)."
    )


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

# The schema of the query parameters above (the server reads ``real`` in any case).
REAL_WORDS = sorted(_REAL)
MONTH_QUERY: dict[str, Any] = {"type": "string", "pattern": r"^(?:\d{4}-(?:0[1-9]|1[0-2]))?$"}
HANDLE_QUERY: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": 64}


def statistics_filters(params: Mapping[str, str], *, known: tuple[str, ...] = ()) -> dict[str, Any]:
    """The dashboard/API filters from query parameters; a bad one is ``400 bad_filter``."""
    unknown = sorted(set(params) - set(STATISTICS_PARAMS) - set(known))
    if unknown:
        raise BadRequest("invalid_query", f"Unknown parameter {unknown[0]!r}.", field=unknown[0])
    filters: dict[str, Any] = {}
    players = (params.get("players") or "").strip()
    if players:
        size = whole_number(players, low=1, high=12)
        if size is None:
            raise BadRequest(
                "bad_filter", "players must be a table size (2 to 8).", field="players"
            )
        filters["players"] = size
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


# The body of ``POST /api/simulations/``: the service checks it field by field (a table
# size the game does not allow, or options it does not know, are 400s naming the field).
SIMULATION_REQUEST: dict[str, Any] = {
    "type": "object",
    "required": ["game", "players", "games"],
    "properties": {
        "game": {"type": "string", "enum": [e.slug for e in all_engines()]},
        "players": {
            "type": "integer",
            "minimum": min(e.min_players for e in all_engines()),
            "maximum": max(e.max_players for e in all_engines()),
            "description": "Table size, within the game's range (GET /api/games/).",
        },
        "games": {"type": "integer", "minimum": 1, "maximum": SIMULATION_MAX_GAMES},
        "bots": {"type": "string", "enum": list(BOT_MIXES), "default": "mixed"},
        "options": {
            "type": "object",
            "nullable": True,
            "description": "The game's options (house rules).",
        },
    },
}


# --- analysis of a record: POST/GET /api/records/{id}/analysis/ ---------------------


class AnalysisMoveSerializer(serializers.Serializer):
    label = serializers.CharField(help_text="The move in words, from the mover's view.")
    event = serializers.DictField(help_text="The move as a giftlog event.")
    win = serializers.FloatField(help_text="The mover's expected win share after it, 0 to 1.")
    win_se = serializers.FloatField(help_text="Standard error of win.")
    place = serializers.FloatField(help_text="The mover's expected placing (1 = first).")
    place_se = serializers.FloatField(help_text="Standard error of place.")
    playouts = serializers.IntegerField()


class AnalysisDecisionSerializer(serializers.Serializer):
    step = serializers.IntegerField(help_text="The event's index: the position before the move.")
    seat = serializers.IntegerField()
    chosen = AnalysisMoveSerializer()
    best = AnalysisMoveSerializer()
    moves = AnalysisMoveSerializer(many=True)
    loss = serializers.FloatField(help_text="best.win - chosen.win (never below 0).")
    mark = serializers.ChoiceField(
        ["inaccuracy", "mistake", "blunder"], allow_null=True, help_text="By the loss."
    )
    simultaneous = serializers.BooleanField(help_text="A secret choice made at once with others.")


class AnalysisSwingSerializer(serializers.Serializer):
    step = serializers.IntegerField()
    kind = serializers.ChoiceField(["chance", "decision"])
    seat = serializers.IntegerField(allow_null=True)
    delta = serializers.ListField(child=serializers.FloatField(), help_text="Per seat.")


class AnalysisPlayerSerializer(serializers.Serializer):
    decision_quality = serializers.FloatField(
        allow_null=True, help_text="Average win share lost per decision (0: every move best)."
    )
    decisions = serializers.IntegerField()
    luck = serializers.FloatField(help_text="Sum of chance events' swings of win share.")
    marks = serializers.DictField(child=serializers.IntegerField())


class AnalysisResultSerializer(serializers.Serializer):
    num_players = serializers.IntegerField()
    curve = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField()),
        help_text="After every step 0..n, each seat's win share.",
    )
    swings = AnalysisSwingSerializer(many=True)
    decisions = AnalysisDecisionSerializer(many=True)
    players = AnalysisPlayerSerializer(many=True)
    playouts = serializers.IntegerField()
    seconds = serializers.FloatField()


class AnalysisProgressSerializer(serializers.Serializer):
    done = serializers.IntegerField(help_text="Players' moves gone through so far.")
    total = serializers.IntegerField(help_text="Players' moves in the game (0 until known).")


class RecordAnalysisSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    record = serializers.IntegerField()
    status = serializers.ChoiceField(["queued", "running", "done", "failed", "unavailable"])
    version = serializers.CharField(help_text="The analysis code and rules it ran on.")
    current = serializers.BooleanField(help_text="Made by the version this server runs.")
    settings = serializers.DictField(help_text="games.analysis.Settings: playouts, bots, seed...")
    seed = serializers.IntegerField()
    progress = AnalysisProgressSerializer()
    error = ErrorSerializer(allow_null=True)
    players = serializers.ListField(child=serializers.CharField(), help_text="In seat order.")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    result = AnalysisResultSerializer(allow_null=True, help_text="Once done; else null.")


ANALYSIS_REQUEST: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "playouts": {
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_PLAYOUTS,
            "description": "The most playouts a move gets (default: the service's; at most "
            "four times it).",
        },
        "seed": {"type": "integer", "minimum": 0, "maximum": MAX_SEED, "default": 0},
    },
}
