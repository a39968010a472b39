"""Sections on other apps' pages: a player's ratings and analysed games, a season's
ratings chart, a replay's analysis.

The player and league pages belong to ``clubs`` and the replay page to ``replays``, which
sit below ``analytics`` and must not import it; they render the ``"player"``,
``"season"`` and ``"replay"`` slots of ``core.sections``, and :func:`sections_register`
(called when analytics starts) fills those slots with what analytics reads.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from analytics import leaderboards, selectors
from analytics.analysis_charts import (
    NONE_TEXT,
    decision_quality_chart,
    mistake_rows,
    points_lost,
)
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


def replay_analysis(
    record_id: int, result_only: bool, user: Any = None, embed: bool = False
) -> dict[str, Any] | None:
    """The replay page's analysis panel: only what the page needs to start (one indexed
    read: is there an analysis); the script fetches the analysis itself from the API, so
    the page's kept parts (``replays.replay_page``: the same bytes for every visitor)
    never hold it, and it is rendered per request. None in an embed."""
    if embed:
        return None
    return {
        "result_only": result_only,
        "status": "" if result_only else selectors.record_analysis_status(record_id=record_id),
        "signed_in": bool(getattr(user, "is_authenticated", False)),
        "api_url": reverse("record-analysis", args=[record_id]),
        "login_url": f"{reverse('login')}?next={reverse('record-replay', args=[record_id])}",
    }


def player_analysis(player: Any) -> dict[str, Any] | None:
    """A player's analysed games: decision quality over time and their biggest mistakes,
    each a "find the better move" puzzle on the replay. None when nothing is analysed."""
    found = selectors.player_analysis(player=player)
    if not found["games"]:
        return None
    name = player.display_name or player.name
    return {
        "player": player,
        "name": name,
        "games": [
            {
                **row,
                "game_name": get_engine(row["record"].game).name,
                "lost": points_lost(row["decision_quality"]),
                "luck_text": NONE_TEXT if row["luck"] is None else f"{100 * row['luck']:+.1f}",
            }
            for row in found["games"][:10]
        ],
        "analysed": len(found["games"]),
        "chart": decision_quality_chart(found["games"], name=name),
        "mistakes": mistake_rows(found["mistakes"]),
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
        "player",
        Section(
            name="analysis",
            template="analytics/_player_analysis.html",
            context=player_analysis,
            stylesheets=("analytics/analysis.css",),
        ),
    )
    section_register(
        "replay",
        Section(
            name="analysis",
            template="analytics/_replay_analysis.html",
            context=replay_analysis,
            stylesheets=("analytics/analysis.css",),
        ),
    )
    section_register(
        "season",
        Section(name="ratings", template="analytics/_season_ratings.html", context=season_ratings),
    )
