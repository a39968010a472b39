"""Plotly figures for the dashboards, rendered without plotly.js (we serve it ourselves)."""

from __future__ import annotations

from collections import defaultdict

import plotly.graph_objects as go


def score_distribution_html(scores: list[tuple[int, int]], *, title: str) -> str:
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
    return figure.to_html(full_html=False, include_plotlyjs=False, div_id="score-distribution")
