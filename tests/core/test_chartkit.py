"""Charts carry words and data: a title, axis titles, hover text and CSV rows."""

from __future__ import annotations

import pytest

from core.chartkit import chart, csv_text


def test_chart_keeps_title_axes_and_csv():
    made = chart(
        chart_id="wins",
        title="Wins by seat, Gift Swap",
        traces=[{"type": "bar", "x": [1, 2], "y": [3, 4], "hovertemplate": "%{y} wins"}],
        x_title="seat",
        y_title="wins",
        csv_header=["seat", "wins"],
        csv_rows=[(1, 3), (2, 4)],
        layout={"xaxis": {"dtick": 1}},
    )
    layout = made["figure"]["layout"]
    assert layout["title"]["text"] == "Wins by seat, Gift Swap"
    assert layout["xaxis"] == {"title": {"text": "seat"}, "automargin": True, "dtick": 1}
    assert layout["yaxis"]["title"]["text"] == "wins"
    assert made["csv"] == [["seat", "wins"], [1, 3], [2, 4]]
    assert made["csv_name"] == "wins-by-seat-gift-swap.csv"
    assert csv_text(made["csv"]) == "seat,wins\n1,3\n2,4\n"


def test_a_trace_without_hover_words_is_refused():
    with pytest.raises(ValueError, match="hover text"):
        chart(
            chart_id="bare",
            title="t",
            traces=[{"type": "bar", "x": [1], "y": [1]}],
            x_title="x",
            y_title="y",
            csv_header=["x"],
            csv_rows=[],
        )
