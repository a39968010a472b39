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


def _json_scripts(html: str) -> tuple[str, list[object]]:
    """The markup with each JSON script's body taken out, and those bodies parsed."""
    import json
    import re

    bodies: list[object] = []

    def take(match: re.Match[str]) -> str:
        bodies.append(json.loads(match.group(2)))
        return match.group(1) + "</script>"

    pattern = r'(<script id="[^"]*" type="application/json">)(.*?)</script>'
    return re.sub(pattern, take, html, flags=re.S), bodies


def test_chart_html_is_the_chart_partial_without_the_template_engine():
    """The dashboard builds each chart's markup in Python (chart_html): the same markup
    as core/_chart.html, text escaped the same way, the same data in the scripts (only the
    JSON's spacing differs), and nothing in the JSON can close its script."""
    from django.template.loader import render_to_string

    from core.chartkit import chart_html

    made = chart(
        chart_id="odd-names",
        title='Wins & "losses" of <b>Ana</b>',
        traces=[
            {
                "type": "bar",
                "name": "</script><script>alert(1)</script>",
                "x": ["Ana & Ben", "Cy's"],
                "y": [0.25, 1e-05],
                "hovertext": ["a <i>long</i> sentence " * 5, "x"],
                "hoverinfo": "text",
            }
        ],
        x_title="who",
        y_title="share",
        csv_header=["who", "share"],
        csv_rows=[["</script>", 0.1], ["Ana & Ben", None]],
        description='What "share" <means> & why',
    )
    ours = str(chart_html(made))
    theirs = render_to_string("core/_chart.html", {"chart": made})
    assert ours.count("</script>") == 2  # the figure's and the CSV's own ends, no other
    assert _json_scripts(ours) == _json_scripts(theirs)
    assert _json_scripts(ours)[1] == [made["figure"], made["csv"]]
    no_description = {**made, "description": ""}
    assert _json_scripts(str(chart_html(no_description))) == _json_scripts(
        render_to_string("core/_chart.html", {"chart": no_description})
    )


@pytest.mark.parametrize(
    "text",
    ["plain words  with  doubled spaces ", " a ", "one", "", "50% & more", "a}b c>d"],
)
def test_plain_words_split_as_the_character_walk_splits_them(text):
    """The shortcut for text without markup gives the walk's words."""
    from core import chartkit

    assert chartkit._markup_words(text) == chartkit._markup_words_walk(text)
    marked = chartkit._markup_words("%{y:.0%} of <b>bold move</b>")
    assert marked == ["%{y:.0%}", "of", "<b>bold", "move</b>"]
