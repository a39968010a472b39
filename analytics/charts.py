"""Plotly figures for the dashboards, as data for analytics/_chart.html.

No figure is rendered to HTML here: ``to_html`` emits an inline script, which the
content security policy (script-src 'self') refuses. A chart is a plain dict the
template puts in ``json_script`` blocks and analytics/charts.js draws.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import plotly.graph_objects as go


def chart_context(
    *, chart_id: str, figure: go.Figure, csv: list[list[Any]], csv_name: str
) -> dict[str, Any]:
    """The ``chart`` context of analytics/_chart.html: ``figure`` as plain JSON data
    (``to_json`` turns numpy arrays and dates into lists and strings), ``csv`` as rows
    with the header first."""
    return {
        "id": chart_id,
        "figure": json.loads(figure.to_json()),
        "csv": csv,
        "csv_name": csv_name,
    }


def score_distribution_chart(scores: list[tuple[int, int]], *, title: str) -> dict[str, Any]:
    """A histogram of final scores, one trace per player count."""
    by_count: dict[int, list[int]] = defaultdict(list)
    for num_players, score in scores:
        by_count[num_players].append(score)
    figure = go.Figure()
    for num_players in sorted(by_count):
        figure.add_trace(
            go.Histogram(x=by_count[num_players], name=f"{num_players} players", opacity=0.75)
        )
    figure.update_layout(
        title=title,
        barmode="overlay",
        xaxis_title="final score",
        yaxis_title="seats",
        legend_title="table size",
        margin={"l": 40, "r": 20, "t": 60, "b": 40},
        height=420,
    )
    rows: list[list[Any]] = [["players at the table", "final score"]]
    rows += [[num_players, score] for num_players, score in sorted(scores)]
    return chart_context(
        chart_id="score-distribution", figure=figure, csv=rows, csv_name="scores.csv"
    )
