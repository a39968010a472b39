"""Rating sections on other apps' pages: a player's ratings, a season's ratings chart.

The player and league pages belong to ``clubs``, which sits below ``analytics`` and
must not import it; they render the ``"player"`` and ``"season"`` slots of
``core.sections``, and :func:`sections_register` (called when analytics starts) fills
those slots with what analytics reads.
"""

from __future__ import annotations

from typing import Any

from analytics import leaderboards
from analytics.rating_charts import player_rating_chart, season_rating_chart
from core.sections import Section, section_register
from games.registry import get_engine


def player_ratings(player: Any) -> dict[str, Any]:
    """The player's rating over time (a chart, a line per game) and their rating in each game."""
    name = player.display_name or player.name
    series = leaderboards.player_rating_history(player=player)
    current = leaderboards.player_game_ratings(player=player)
    minimum = leaderboards.provisional_games()
    rows = [
        {
            "game": game,
            "game_name": get_engine(game).name,
            "rating": rating,
            "provisional": rating.games < minimum,
            "win_percent": round(100 * rating.wins / rating.games) if rating.games else 0,
        }
        for game, rating in sorted(current.items(), key=lambda kv: get_engine(kv[0]).name)
    ]
    return {
        "player": player,
        "name": name,
        "rows": rows,
        "provisional_below": minimum,
        "chart": player_rating_chart(series, name=name) if series else None,
    }


def season_ratings(season: Any) -> dict[str, Any]:
    """The season's own ratings after each of its counted games (beside the points chart)."""
    games = leaderboards.season_rating_history(season=season)
    return {
        "season": season,
        "chart": (
            season_rating_chart(games, title=f"Ratings through {season.name}") if games else None
        ),
    }


def sections_register() -> None:
    """Put the rating sections on the club pages' slots (from ``AnalyticsConfig.ready``)."""
    section_register(
        "player",
        Section(
            name="ratings",
            template="analytics/_player_ratings.html",
            context=player_ratings,
            stylesheets=("analytics/ratings.css",),
        ),
    )
    section_register(
        "season",
        Section(name="ratings", template="analytics/_season_ratings.html", context=season_ratings),
    )
