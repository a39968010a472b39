"""The standings chart of a season: each player's points after each counted game."""

from __future__ import annotations

from typing import Any

from core.chartkit import chart


def standings_chart(
    history: list[dict[str, Any]], *, names: dict[str, str], title: str
) -> dict[str, Any]:
    """A line per player over the season's games (a chartkit chart, drawn by charts.js).

    ``history`` is :func:`clubs.selectors.standings_history`; ``names`` maps a
    handle to the name the page shows. A player's line starts at their first game.
    """
    handles = sorted(
        {h for point in history for h in point["points"]}, key=lambda h: names.get(h, h).lower()
    )
    traces = []
    rows: list[list[Any]] = []
    for handle in handles:
        name = names.get(handle, handle)
        # Everyone starts the season at 0, so even one game draws a line.
        xs, ys, texts = [0], [0], [f"{name}: 0 points at the start of the season"]
        for number, point in enumerate(history, start=1):
            if handle not in point["points"]:
                continue
            played = point["played_at"]
            when = f" on {played:%d %b %Y}" if played else ""
            points = point["points"][handle]
            xs.append(number)
            ys.append(points)
            texts.append(f"{name}: {points} points after game {number}{when}")
            rows.append([name, number, played.isoformat() if played else "", points])
        traces.append(
            {
                "type": "scatter",
                "x": xs,
                "y": ys,
                "name": name,
                "mode": "lines+markers",
                "hovertext": texts,
                "hoverinfo": "text",
            }
        )
    return chart(
        chart_id="standings-chart",
        title=title,
        traces=traces,
        x_title="games played in the season",
        y_title="points",
        csv_header=["player", "game number", "played at", "points after the game"],
        csv_rows=rows,
        layout={
            "legend": {"title": {"text": "player"}, "orientation": "h", "y": -0.25},
            "xaxis": {"dtick": 1 if len(history) <= 12 else None, "rangemode": "tozero"},
            "yaxis": {"rangemode": "tozero"},
        },
    )
