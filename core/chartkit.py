"""One way to put a chart on a page: a figure as plain data, drawn by our static charts.js.

Why not ``plotly.graph_objects.Figure.to_html``: it emits an inline ``<script>``, which
a content security policy with ``script-src 'self'`` refuses, and validating a Figure
costs about a third of a dashboard's time (MEASURED.md). A chart here is a plain dict
``{"data": [...], "layout": {...}}`` in Plotly's own JSON schema, embedded with
``json_script`` and drawn by ``core/static/core/charts.js``, which also adds
a "Download the data (CSV)" link built from the chart's ``csv`` rows.

Every chart has a title, labelled axes, hover text in words (``hovertemplate``) and its
data as CSV: :func:`chart` asks for each, so a chart cannot leave one out.

Charts fit a phone. The figure carries Plotly's ``config`` (the mode bar only on hover,
where the title is left-aligned and short enough to leave it room) and ``phone``: the
overrides charts.js applies when the chart is narrower than :data:`PHONE_WIDTH` pixels.
There the mode bar is off (it covered every title; the CSV link under the chart stays),
a finger scrolls the page instead of zooming the chart, and hover text is shown in one
box kept inside the plot (Plotly's unified hover) rather than beside the point, where it
ran off the edge. Hover sentences are broken into lines of at most
:data:`HOVER_LINE` characters, so a box is never wider than a phone.

Plotly reads every label as a small HTML-like language (``<br>``, ``<b>``, ``<a href>``),
so text from people (a season's name, a display name) would become markup: an
off-site link in a chart title. :func:`chart` therefore treats ``title``,
``x_title``, ``y_title`` and each trace's ``name``, ``hovertext`` and ``text`` as
plain text and escapes them (:func:`plotly_text`); a ``hovertemplate`` and the
``layout`` overrides are Plotly markup written by our code, so a caller putting
people's text into them escapes it with :func:`plotly_text` itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import orjson
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

DEFAULT_HEIGHT = 420
PHONE_WIDTH = 480  # pixels: a chart box narrower than this gets the ``phone`` overrides
HOVER_LINE = 44  # characters per line of hover text (about 300 px at Plotly's 13 px)
CONFIG: dict[str, Any] = {
    "responsive": True,
    "displaylogo": False,
    "displayModeBar": "hover",
    # Download, zoom, pan and reset: a short bar, clear of a left-aligned title.
    "modeBarButtonsToRemove": [
        "lasso2d",
        "select2d",
        "autoScale2d",
        "zoomIn2d",
        "zoomOut2d",
        "toggleSpikelines",
        "hoverClosestCartesian",
        "hoverCompareCartesian",
    ],
}
_SLUG = re.compile(r"[^a-z0-9]+")
# The characters Plotly's label markup gives a meaning to; it shows the entities as text.
_PLOTLY_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_PLAIN_TRACE_KEYS = ("name", "hovertext", "text")


def plotly_text(value: str) -> str:
    """``value`` shown as written in a Plotly label: its ``&``, ``<`` and ``>`` escaped."""
    return value.translate(_PLOTLY_ESCAPES)


def _plain(value: Any) -> Any:
    """A trace's plain-text field escaped: a string, or a list of them (per point)."""
    if isinstance(value, str):
        return plotly_text(value)
    if isinstance(value, list | tuple):
        return [plotly_text(item) if isinstance(item, str) else item for item in value]
    return value


def _wrap_words(text: str, width: int = HOVER_LINE) -> str:
    """``text`` with ``<br>`` between words so no line is longer than ``width`` characters.

    Plotly markup counts as written: a ``%{y:.0%}`` placeholder or a ``<b>`` tag is
    never split (a space inside one does not break), and existing ``<br>`` start a new
    line. Characters are counted as written, a fair guess at how wide a line is.
    """
    lines: list[str] = []
    for part in re.split(r"<br\s*/?>", text):
        line = ""
        for word in _markup_words(part):
            if line and len(line) + 1 + len(word) > width:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
    return "<br>".join(lines)


def _markup_words(text: str) -> list[str]:
    """Split at spaces outside ``%{...}`` placeholders and ``<...>`` tags."""
    if "{" not in text and "<" not in text:  # plain words (most hover text): nothing kept whole
        return [word for word in text.split(" ") if word]
    return _markup_words_walk(text)


def _markup_words_walk(text: str) -> list[str]:
    """:func:`_markup_words` character by character, keeping markup whole."""
    words, current, depth = [], "", 0
    for char in text:
        if char in "{<":
            depth += 1
        elif char in "}>" and depth:
            depth -= 1
        if char == " " and depth == 0:
            if current:
                words.append(current)
            current = ""
        else:
            current += char
    if current:
        words.append(current)
    return words


def _wrap_hover(trace: dict[str, Any]) -> dict[str, Any]:
    """The trace with its hover sentences broken into short lines (see module doc)."""
    wrapped = dict(trace)
    if isinstance(template := trace.get("hovertemplate"), str):
        body, extra, rest = template.partition("<extra>")
        wrapped["hovertemplate"] = _wrap_words(body) + extra + rest
    text = trace.get("hovertext")
    if isinstance(text, str):
        wrapped["hovertext"] = _wrap_words(text)
    elif isinstance(text, list | tuple):
        wrapped["hovertext"] = [_wrap_words(t) if isinstance(t, str) else t for t in text]
    return wrapped


def phone_overrides(traces: list[dict[str, Any]]) -> dict[str, Any]:
    """What charts.js changes on a narrow chart (see the module doc).

    A chart of horizontal bars hovers by its category (the y axis), any other by x.
    """
    across = "y" if traces and all(t.get("orientation") == "h" for t in traces) else "x"
    return {
        "config": {"displayModeBar": False},
        "layout": {
            "dragmode": False,
            "hovermode": f"{across} unified",
            "hoverlabel": {"font": {"size": 12}},
            "margin": {"l": 40, "r": 10},
        },
    }


def chart(
    *,
    chart_id: str,
    title: str,
    traces: list[dict[str, Any]],
    x_title: str,
    y_title: str,
    csv_header: Sequence[str],
    csv_rows: Iterable[Sequence[Any]],
    layout: dict[str, Any] | None = None,
    height: int = DEFAULT_HEIGHT,
    description: str = "",
) -> dict[str, Any]:
    """The context the ``core/_chart.html`` partial draws.

    ``traces`` are Plotly trace dicts; each must carry a ``hovertemplate`` (or
    ``hovertext`` with ``hoverinfo: "text"``) that reads as a sentence ("%{y} games
    with 4 players"). ``description`` is a line of text under the title for people
    who cannot see the chart (and for everyone: what the chart says, in words).
    """
    for trace in traces:
        worded = "hovertemplate" in trace or (
            trace.get("hoverinfo") == "text" and ("hovertext" in trace or "text" in trace)
        )
        if not worded and trace.get("hoverinfo") != "skip":
            raise ValueError(f"chart {chart_id!r}: every trace needs hover text in words")
    traces = [
        _wrap_hover(
            {key: _plain(value) if key in _PLAIN_TRACE_KEYS else value for key, value in t.items()}
        )
        for t in traces
    ]
    figure_layout: dict[str, Any] = {
        # Left-aligned, so the mode bar (top right, on hover) does not cover it.
        "title": {"text": plotly_text(title), "x": 0.01, "xanchor": "left"},
        "xaxis": {"title": {"text": plotly_text(x_title)}, "automargin": True},
        "yaxis": {"title": {"text": plotly_text(y_title)}, "automargin": True},
        "margin": {"l": 50, "r": 20, "t": 60, "b": 50},
        "height": height,
        "legend": {"orientation": "h", "y": -0.2},
        "hoverlabel": {"align": "left", "namelength": -1},
        "hoverdistance": 30,
    }
    for key, value in (layout or {}).items():
        if isinstance(value, dict) and isinstance(figure_layout.get(key), dict):
            figure_layout[key] = {**figure_layout[key], **value}
        else:
            figure_layout[key] = value
    rows = [list(csv_header), *[list(row) for row in csv_rows]]
    return {
        "id": chart_id,
        "figure_id": f"{chart_id}-figure",
        "csv_id": f"{chart_id}-csv",
        "title": title,
        "description": description,
        "figure": {
            "data": traces,
            "layout": figure_layout,
            "config": dict(CONFIG),
            "phone": phone_overrides(traces),
        },
        "csv": rows,
        "csv_name": f"{_SLUG.sub('-', title.lower()).strip('-') or chart_id}.csv",
    }


def csv_text(rows: Sequence[Sequence[Any]]) -> str:
    """The CSV a chart's download link gives, for tests and server-side exports."""
    import csv
    import io

    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def json_for_script(value: Any) -> str:
    """``value`` as JSON safe inside a ``<script>`` element, as Django's ``json_script``
    escapes it (``<``, ``>`` and ``&`` as ``\\u003C``, ``\\u003E``, ``\\u0026``).

    Encoded with orjson (compact, several times faster than ``json.dumps``) and escaped
    with ``str.replace`` rather than ``str.translate``, which walks a chart's JSON
    character by character in Python: the two were most of a dashboard's rendering.
    The value parses to the same data as ``json_script``'s; only the spacing differs.
    """
    text = orjson.dumps(value).decode()
    return text.replace("&", "\\u0026").replace("<", "\\u003C").replace(">", "\\u003E")


def chart_html(chart: dict[str, Any]) -> SafeString:
    """What ``core/_chart.html`` renders for ``chart``, built without the template engine.

    A page with many charts (the game dashboard draws eleven) spent more time in the
    include's variable lookups and ``json_script`` than in building the charts; this is
    the same markup (tests/core/test_chartkit.py compares the two), each text escaped
    as the template escapes it.
    """
    ident = escape(chart["id"])
    title, description = escape(chart["title"]), chart.get("description")
    words = f"{escape(description)} " if description else ""
    return mark_safe(
        f'\n<figure class="chart-box" aria-labelledby="{ident}-caption">\n'
        f'  <div class="chart" id="{ident}" data-figure="{escape(chart["figure_id"])}" '
        f'data-csv="{escape(chart["csv_id"])}" data-csv-name="{escape(chart["csv_name"])}" '
        f'role="img" aria-label="{title}"></div>\n'
        f'  <figcaption id="{ident}-caption">{words}'
        f'<a class="csv-link" hidden>Download the data (CSV)</a></figcaption>\n'
        f'  <script id="{escape(chart["figure_id"])}" type="application/json">'
        f"{json_for_script(chart['figure'])}</script>"
        f'<script id="{escape(chart["csv_id"])}" type="application/json">'
        f"{json_for_script(chart['csv'])}</script>\n"
        "</figure>\n"
    )
