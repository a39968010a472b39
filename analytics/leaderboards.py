"""Reads of ratings: leaderboards, rating histories and head-to-head records.

Leaderboards read :class:`~analytics.models.PlayerRating` (one row per player and
scope, kept by :mod:`analytics.ratings`); a page is one indexed query, never a
scan of the records. Head-to-head reads the per-seat results
(:class:`~analytics.models.PlayerResult`) of real play.

No board lists a bot (bot play is never rated; this is the second guard), and the
site's game boards leave out guests (people without an account a club entered by
name): their club's and seasons' boards list them, marked.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import Q

from analytics.models import PlayerRating, PlayerResult, RatingHistory, RatingScope
from analytics.rating_scopes import club_scope_key, game_scope_key, season_scope_key
from clubs.models import Club, Season
from replays.models import Player

DEFAULT_PROVISIONAL_GAMES = 5


def provisional_games() -> int:
    """Below this many rated games a rating is provisional (``RATINGS_PROVISIONAL_GAMES``)."""
    return int(getattr(settings, "RATINGS_PROVISIONAL_GAMES", DEFAULT_PROVISIONAL_GAMES))


def scope_key(*, game: str, club: Club | None = None, season: Season | None = None) -> str:
    if season is not None:
        return season_scope_key(season.pk)
    if club is not None:
        return club_scope_key(club.pk, game)
    return game_scope_key(game)


def scope_get(*, key: str) -> RatingScope | None:
    return RatingScope.objects.filter(key=key).first()


@dataclass(frozen=True)
class LeaderboardRow:
    place: int
    player: str
    name: str
    ordinal: float
    mu: float
    sigma: float
    games: int
    wins: int
    win_rate: float
    average_score: float
    last_played: datetime
    provisional: bool
    guest: bool = False


def leaderboard(
    *, scope: RatingScope | None, limit: int = 50, offset: int = 0
) -> tuple[list[LeaderboardRow], int]:
    """One page of a scope's leaderboard, best ordinal first, and how many players it has."""
    if scope is None:
        return [], 0
    ratings = PlayerRating.objects.filter(scope=scope).exclude(player__kind=Player.Kind.BOT)
    if scope.kind == RatingScope.Kind.GAME:
        ratings = ratings.exclude(player__kind=Player.Kind.GUEST)
    total = ratings.count()
    rows = ratings.select_related("player").order_by("-ordinal", "-games", "player__name")
    minimum = provisional_games()
    return [
        LeaderboardRow(
            place=offset + number,
            player=r.player.name,
            name=r.player.display_name or r.player.name,
            ordinal=r.ordinal,
            mu=r.mu,
            sigma=r.sigma,
            games=r.games,
            wins=r.wins,
            win_rate=r.wins / r.games if r.games else 0.0,
            average_score=r.score_total / r.games if r.games else 0.0,
            last_played=r.last_played_at,
            provisional=r.games < minimum,
            guest=r.player.kind == Player.Kind.GUEST,
        )
        for number, r in enumerate(rows[offset : offset + limit], start=1)
    ], total


def player_rating_history(*, player: Player) -> dict[str, list[dict[str, Any]]]:
    """The player's rating after each rated game, per game (the game scopes), oldest first."""
    rows = (
        RatingHistory.objects.filter(player=player, scope__kind=RatingScope.Kind.GAME)
        .order_by("scope__game", "order_at", "record_id")
        .values_list(
            "scope__game", "record_id", "order_at", "mu", "sigma", "ordinal", "rank", "games"
        )
    )
    series: dict[str, list[dict[str, Any]]] = {}
    for game, record_id, order_at, mu, sigma, ordinal, rank, games in rows:
        series.setdefault(game, []).append(
            {
                "record": record_id,
                "at": order_at,
                "mu": mu,
                "sigma": sigma,
                "ordinal": ordinal,
                "rank": rank,
                "games": games,
            }
        )
    return series


def player_game_ratings(*, player: Player) -> dict[str, PlayerRating]:
    """The player's current rating in each game they have a rated game in."""
    return {
        r.scope.game: r
        for r in PlayerRating.objects.filter(
            player=player, scope__kind=RatingScope.Kind.GAME
        ).select_related("scope")
    }


def season_rating_history(*, season: Season) -> list[dict[str, Any]]:
    """Each counted game of the season in order, with every seated player's rating after it."""
    scope = scope_get(key=season_scope_key(season.pk))
    if scope is None:
        return []
    games: list[dict[str, Any]] = []
    rows = (
        RatingHistory.objects.filter(scope=scope)
        .order_by("order_at", "record_id", "player__name")
        .values_list(
            "record_id",
            "order_at",
            "player__name",
            "player__display_name",
            "ordinal",
            "mu",
            "sigma",
        )
    )
    for record_id, order_at, handle, display, ordinal, mu, sigma in rows:
        if not games or games[-1]["record"] != record_id:
            games.append({"record": record_id, "at": order_at, "players": {}})
        games[-1]["players"][handle] = {
            "name": display or handle,
            "ordinal": ordinal,
            "mu": mu,
            "sigma": sigma,
        }
    return games


# --- head-to-head -------------------------------------------------------------------------


@dataclass(frozen=True)
class Meeting:
    record: int
    played_at: datetime
    a_rank: int
    b_rank: int
    a_score: int
    b_score: int

    @property
    def difference(self) -> int:
        return self.a_score - self.b_score


@dataclass(frozen=True)
class HeadToHead:
    game: str
    a: Player
    b: Player
    meetings: list[Meeting]

    @property
    def games(self) -> int:
        return len(self.meetings)

    @property
    def a_ahead(self) -> int:
        return sum(m.a_rank < m.b_rank for m in self.meetings)

    @property
    def b_ahead(self) -> int:
        return sum(m.b_rank < m.a_rank for m in self.meetings)

    @property
    def ties(self) -> int:
        return sum(m.a_rank == m.b_rank for m in self.meetings)

    @property
    def average_difference(self) -> float | None:
        if not self.meetings:
            return None
        return sum(m.difference for m in self.meetings) / len(self.meetings)

    @property
    def distribution(self) -> list[tuple[int, int]]:
        """(a's score minus b's, how many games) for each difference that happened."""
        return sorted(Counter(m.difference for m in self.meetings).items())


def head_to_head(*, game: str, a: Player, b: Player) -> HeadToHead:
    """Every real (not simulated) game of ``game`` where ``a`` and ``b`` both sat, newest first.

    "Ahead" compares their ranks in the game (1 = best): a shared rank is a tie,
    whatever the other players did.
    """
    base = PlayerResult.objects.filter(game=game, record__simulated=False).exclude(
        record__seats__player__kind=Player.Kind.BOT
    )
    mine = {
        record_id: (rank, score, played_at or created_at)
        for record_id, rank, score, played_at, created_at in base.filter(player=a).values_list(
            "record_id", "rank", "score", "record__played_at", "record__created_at"
        )
    }
    theirs = base.filter(Q(player=b), record_id__in=list(mine)).values_list(
        "record_id", "rank", "score"
    )
    meetings = [
        Meeting(record_id, mine[record_id][2], mine[record_id][0], rank, mine[record_id][1], score)
        for record_id, rank, score in theirs
    ]
    meetings.sort(key=lambda m: (m.played_at, m.record), reverse=True)
    return HeadToHead(game=game, a=a, b=b, meetings=meetings)
