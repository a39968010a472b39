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


def _phone_chart(traces):
    return chart(
        chart_id="phone",
        title="Does the seat decide who wins?",
        traces=traces,
        x_title="seat",
        y_title="share",
        csv_header=["x"],
        csv_rows=[],
    )


def test_a_chart_carries_its_phone_settings_mode_bar_and_hover():
    """Phones: no mode bar over the title, hover text in one box inside the plot, a
    finger scrolls the page; wide screens: the mode bar only on hover, the title left."""
    made = _phone_chart([{"type": "bar", "x": [1], "y": [1], "hovertemplate": "%{y}"}])
    figure = made["figure"]
    assert figure["config"]["displayModeBar"] == "hover"
    assert figure["config"]["displaylogo"] is False
    assert figure["layout"]["title"]["xanchor"] == "left"
    assert figure["layout"]["hoverlabel"]["align"] == "left"
    phone = figure["phone"]
    assert phone["config"]["displayModeBar"] is False
    assert phone["layout"]["hovermode"] == "x unified"
    assert phone["layout"]["dragmode"] is False
    horizontal = _phone_chart(
        [{"type": "bar", "orientation": "h", "x": [1], "y": ["a"], "hovertemplate": "%{x}"}]
    )
    assert horizontal["figure"]["phone"]["layout"]["hovermode"] == "y unified"


def test_hover_sentences_are_broken_into_lines_that_fit_a_phone():
    sentence = (
        "Seat 1 at 3-player tables won 39% of 70 games of real play (95% interval 28% to "
        "51%); a fair share is 33%: fair."
    )
    made = _phone_chart(
        [
            {"type": "bar", "x": [1], "y": [1], "hovertext": [sentence], "hoverinfo": "text"},
            {
                "type": "bar",
                "x": [1],
                "y": [1],
                "hovertemplate": "In %{y:.0%} of real play games the winner took the lead for "
                "good %{x} of the way through<extra></extra>",
            },
        ]
    )
    text, template = (
        made["figure"]["data"][0]["hovertext"][0],
        made["figure"]["data"][1]["hovertemplate"],
    )
    assert text.replace("<br>", " ") == sentence
    assert all(len(line) <= 44 for line in text.split("<br>"))
    assert len(text.split("<br>")) >= 3
    body, _, extra = template.partition("<extra>")
    assert extra == "</extra>"
    assert "%{y:.0%}" in body, "placeholders are never split"
    assert "%{x}" in body
    assert all(len(line) <= 44 for line in body.split("<br>"))
