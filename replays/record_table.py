"""The records table (``replays/_record_table.html``) built without the template engine.

A game dashboard computed by its visitor renders its "Recent records" table after every
new record, and the template's loops, ``date`` filters and ``{% url %}`` tags were a
third of that visit's time (docs/performance.md, "Dashboards"). This builds the same
bytes from the same :class:`replays.selectors.RecordRow` values;
tests/replays/test_record_table.py renders both over varied rows and compares them.
The template stays the one the records page includes: change both together.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.urls import reverse
from django.utils.dateformat import DateFormat
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import template_localtime

from replays.selectors import RecordRow

_HEAD = (
    '\n<table class="records">\n  <thead>\n    <tr><th scope="col">Game</th>'
    '<th scope="col">Played</th><th scope="col">Players</th>'
    '<th scope="col">Final scores</th><th scope="col">Events</th>'
    '<th scope="col"><span class="visually-hidden">Replay</span></th></tr>\n'
    "  </thead>\n  <tbody>\n    "
)
_TAIL = "\n  </tbody>\n</table>\n"
_BADGE = (
    '<span class="badge simulated" title="Bot play{demo}: never counted in ratings, '
    'leaderboards, standings or real-play statistics.">{label}simulated</span>'
)
_STORED = (
    ' <span class="muted" title="The log does not say when it was played: this is the day '
    'it was stored.">(stored)</span>'
)
_NO_SCORE = "\u2013"  # the template's default_if_none (an en dash)
_WINNER = '<span role="img" aria-label="winner">\U0001f3c6</span> '
_RESULT_ONLY = (
    '<span class="muted" title="Played at a real table: recorded with its final scores '
    'only.">result only</span>'
)


def _played(value: datetime) -> str:
    """The "Played" cell's ``<time>``: what the template's three ``date`` filters print
    (the value in the current time zone, escaped), from one conversion of it."""
    when = DateFormat(template_localtime(value))
    iso, full, day = (escape(when.format(fmt)) for fmt in ("c", "j M Y, H:i e", "j M Y"))
    return f'<time datetime="{iso}" title="{full}">{day}</time>'


def _row(row: RecordRow) -> str:
    game = f'<strong>{escape(row.game)}</strong> <span class="muted">#{row.id}</span>'
    if row.simulated:
        demo = row.demo
        game += " " + _BADGE.format(
            demo=" (the demo data)" if demo else "", label="demo · " if demo else ""
        )
    if row.variant:
        game += f'<br><span class="muted variant">House rules: {escape(row.variant)}</span>'
    played = _played(row.played)
    if not row.played_known:
        played += _STORED
    seats = ", ".join(
        f'<span class="seat won">{_WINNER}{escape(seat.name)}</span>'
        if seat.won
        else f'<span class="seat">{escape(seat.name)}</span>'
        for seat in row.seats
    )
    scores = " · ".join(
        f'<span class="score">{escape(seat.name)} '
        f"{escape(_NO_SCORE if seat.score is None else seat.score)}</span>"
        for seat in row.ranked
    )
    events = _RESULT_ONLY if row.result_only else str(row.num_events)
    link = escape(reverse("record-replay", args=[row.id]))
    label = "Result" if row.result_only else "Replay"
    opening = '<tr class="simulated">' if row.simulated else "<tr>"
    return (
        f"\n    {opening}\n"
        f'      <td data-label="Game">{game}</td>\n'
        f'      <td data-label="Played">{played}</td>\n'
        f'      <td data-label="Players">{seats}</td>\n'
        f'      <td data-label="Final scores">{scores}</td>\n'
        f'      <td data-label="Events">{events}</td>\n'
        f'      <td class="actions"><a class="button" href="{link}">{label}</a></td>\n'
        "    </tr>\n    "
    )


def record_table_html(rows: Sequence[RecordRow]) -> SafeString:
    """``replays/_record_table.html`` rendered for ``rows``: the same text (with the file's
    last newline), escaped as the template escapes it."""
    if not rows:
        return mark_safe("\n")
    return mark_safe(_HEAD + "".join(_row(row) for row in rows) + _TAIL + "\n")
