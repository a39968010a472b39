"""Rating charts (chartkit, drawn by charts.js): a player's ratings, a season's, head-to-head."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from core.chartkit import chart, plotly_text
from games.registry import get_engine

ORDINAL_WORDS = "rating (mu - 3 sigma)"


def _ordinal(value: float) -> str:
    return f"{value:.1f}"


def _place(rank: int) -> str:
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def player_rating_chart(series: dict[str, list[dict[str, Any]]], *, name: str) -> dict[str, Any]:
    """A line per game: the player's rating after each of their rated games, by date."""
    traces = []
    rows: list[list[Any]] = []
    for game in sorted(series, key=lambda g: get_engine(g).name):
        game_name = get_engine(game).name
        points = series[game]
        texts = [
            f"{name} in {game_name}: rating {_ordinal(p['ordinal'])} after game {p['games']} on "
            f"{p['at']:%d %b %Y} (finished {_place(p['rank'])}; skill {p['mu']:.1f} "
            f"± {p['sigma']:.1f})"
            for p in points
        ]
        traces.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": game_name,
                "x": [p["at"].isoformat() for p in points],
                "y": [round(p["ordinal"], 3) for p in points],
                "hovertext": texts,
                "hoverinfo": "text",
            }
        )
        rows.extend(
            [
                game_name,
                p["at"].isoformat(),
                p["games"],
                p["rank"],
                p["mu"],
                p["sigma"],
                p["ordinal"],
            ]
            for p in points
        )
    return chart(
        chart_id="player-rating-chart",
        title=f"{name}'s rating over time, per game",
        traces=traces,
        x_title="date played",
        y_title=ORDINAL_WORDS,
        csv_header=["game", "played at", "rated games so far", "place", "mu", "sigma", "rating"],
        csv_rows=rows,
        layout={"legend": {"title": {"text": "game"}}, "xaxis": _date_axis(series)},
        description=(
            "Each point is the rating after one game: mu (the skill estimate) less three times "
            "sigma (its uncertainty), so it climbs as the player's games agree with each other."
        ),
    )


def _date_axis(series: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """A date axis that reads in days even when the games span less than one.

    Left to itself, Plotly zooms one game (or one evening's games) down to the
    millisecond and labels the axis "12:00:00.0005": the range is widened to a day
    either side and ticks are dates.
    """
    moments = [p["at"] for points in series.values() for p in points]
    axis: dict[str, Any] = {"type": "date"}
    if moments and max(moments) - min(moments) < timedelta(days=2):
        axis["range"] = [
            (min(moments) - timedelta(days=1)).isoformat(),
            (max(moments) + timedelta(days=1)).isoformat(),
        ]
        axis["tickformat"] = "%d %b %Y"
    return axis


def season_rating_chart(games: list[dict[str, Any]], *, title: str) -> dict[str, Any]:
    """A line per player: their rating after each season game they played, by game number."""
    names: dict[str, str] = {}
    for game in games:
        for handle, point in game["players"].items():
            names[handle] = point["name"]
    traces = []
    rows: list[list[Any]] = []
    for handle in sorted(names, key=lambda h: names[h].lower()):
        name = names[handle]
        xs, ys, texts = [], [], []
        for number, game in enumerate(games, start=1):
            point = game["players"].get(handle)
            if point is None:
                continue
            xs.append(number)
            ys.append(round(point["ordinal"], 3))
            texts.append(
                f"{name}: rating {_ordinal(point['ordinal'])} after game {number} on "
                f"{game['at']:%d %b %Y} (skill {point['mu']:.1f} ± {point['sigma']:.1f})"
            )
            rows.append(
                [
                    name,
                    number,
                    game["at"].isoformat(),
                    point["mu"],
                    point["sigma"],
                    point["ordinal"],
                ]
            )
        traces.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": name,
                "x": xs,
                "y": ys,
                "hovertext": texts,
                "hoverinfo": "text",
            }
        )
    return chart(
        chart_id="season-rating-chart",
        title=title,
        traces=traces,
        x_title="games played in the season",
        y_title=ORDINAL_WORDS,
        csv_header=["player", "game number", "played at", "mu", "sigma", "rating"],
        csv_rows=rows,
        layout={
            "legend": {"title": {"text": "player"}, "orientation": "h", "y": -0.25},
            "xaxis": {"dtick": 1 if len(games) <= 12 else None},
        },
        description=(
            "The season's own ratings (only its counted games): mu - 3 sigma after each game a "
            "player sat in."
        ),
    )


def score_difference_chart(
    distribution: list[tuple[int, int]], *, a: str, b: str, game: str
) -> dict[str, Any]:
    """How many games ended with each score difference (a's score minus b's)."""
    texts = []
    for difference, games in distribution:
        times = f"{games} game{'s' if games != 1 else ''}"
        if difference > 0:
            texts.append(f"{times} where {a} scored {difference} more than {b}")
        elif difference < 0:
            texts.append(f"{times} where {b} scored {-difference} more than {a}")
        else:
            texts.append(f"{times} where {a} and {b} scored the same")
    return chart(
        chart_id="score-difference-chart",
        title=f"{game}: {a}'s score minus {b}'s",
        traces=[
            {
                "type": "bar",
                "x": [d for d, _ in distribution],
                "y": [n for _, n in distribution],
                "name": "games",
                "hovertext": texts,
                "hoverinfo": "text",
                "marker": {
                    "color": [
                        "#2a6f4f" if d > 0 else "#8b1e2d" if d < 0 else "#777"
                        for d, _ in distribution
                    ]
                },
            }
        ],
        x_title=f"{a}'s score minus {b}'s (points)",
        y_title="games",
        csv_header=[f"{a}'s score minus {b}'s", "games"],
        csv_rows=distribution,
        layout={
            # Two lines, so a phone shows the whole title (the page's title stays one line).
            "title": {
                "text": f"{plotly_text(game)}:<br>{plotly_text(a)}'s score minus {plotly_text(b)}'s"
            },
            "showlegend": False,
            "yaxis": {"dtick": 1 if max((n for _, n in distribution), default=0) <= 10 else None},
        },
        description=(
            f"Bars right of zero (green) are games {a} outscored {b}; left of zero (red), "
            f"games {b} outscored {a}; the grey bar at zero, equal scores."
        ),
    )
