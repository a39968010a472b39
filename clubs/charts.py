"""The standings chart of a season: each player's points after each counted game."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from analytics.charts import chart_context


def standings_chart(
    history: list[dict[str, Any]], *, names: dict[str, str], title: str
) -> dict[str, Any]:
    """A line per player over the season's games, as analytics/_chart.html's ``chart``.

    ``history`` is :func:`clubs.selectors.standings_history`; ``names`` maps a
    handle to the name the page shows. A player's line starts at their first game.
    """
    figure = go.Figure()
    rows: list[list[Any]] = [["game", "played on", "player", "points"]]
    handles = sorted(
        {h for point in history for h in point["points"]}, key=lambda h: names.get(h, h).lower()
    )
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
            rows.append([number, f"{played:%Y-%m-%d}" if played else "", name, points])
        figure.add_trace(
            go.Scatter(
                x=xs, y=ys, name=name, mode="lines+markers", hovertext=texts, hoverinfo="text"
            )
        )
    figure.update_layout(
        title=title,
        xaxis_title="games played in the season",
        yaxis_title="points",
        legend_title="player",
        legend={"orientation": "h", "y": -0.25},
        margin={"l": 40, "r": 10, "t": 50, "b": 40},
        height=420,
        xaxis={"dtick": 1 if len(history) <= 12 else None, "rangemode": "tozero"},
        yaxis={"rangemode": "tozero"},
    )
    rows[1:] = sorted(rows[1:], key=lambda row: (row[0], str(row[2]).lower()))
    return chart_context(
        chart_id="standings-chart", figure=figure, csv=rows, csv_name="standings.csv"
    )
