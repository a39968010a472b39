"""The dashboards' figures, as chartkit charts (plain Plotly JSON drawn by charts.js)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from analytics.chartkit import chart


def score_distribution_chart(scores: list[tuple[int, int]], *, title: str) -> dict[str, Any]:
    """Final scores as one box per table size, side by side, so no size hides another."""
    by_count: dict[int, list[int]] = defaultdict(list)
    for num_players, score in scores:
        by_count[num_players].append(score)
    traces = [
        {
            "type": "box",
            "name": f"{n} players",
            "y": by_count[n],
            "boxpoints": "outliers",
            "hovertemplate": f"%{{y}} points, a final score at a {n}-player table<extra></extra>",
        }
        for n in sorted(by_count)
    ]
    return chart(
        chart_id="score-distribution",
        title=title,
        traces=traces,
        x_title="table size",
        y_title="final score (points)",
        csv_header=["players at the table", "final score"],
        csv_rows=sorted(scores),
        layout={"showlegend": False},
        description=(
            "Each box spans the middle half of the final scores at that table size; the line "
            "inside is the median."
        ),
    )
