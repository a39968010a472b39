"""The records table built in Python is the template's, byte for byte.

``replays.record_table.record_table_html`` builds ``replays/_record_table.html`` without
the template engine (the dashboard's "Recent records" on a visitor's first visit); the
records page still includes the template. Rows of every kind (simulated, demo, house
rules, stored date only, result only, shared wins, missing scores, names with markup,
other time zones) are rendered both ways and compared.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString

from replays.record_table import record_table_html
from replays.selectors import RecordRow, SeatCell


def _rows() -> list[RecordRow]:
    names = ["Ana", "Ben & <b>Co</b>", 'Chloé "C"', "d'Arcy", "Émile"]
    rows = []
    for k in range(24):
        n = 2 + k % 4
        seats = [
            SeatCell(
                name=names[(k + s) % len(names)],
                score=None if (k + s) % 7 == 3 else (k * 3 + s * 5) % 40 - 4,
                won=s == k % n or (k % 5 == 0 and s == (k + 1) % n),
            )
            for s in range(n)
        ]
        rows.append(
            RecordRow(
                id=k * 97 + 1,
                game=["Gift Swap", "GiftTRAP", "Secret <Santa>"][k % 3],
                played=datetime(2026, 1 + k % 12, 1 + k, k % 24, k, tzinfo=UTC)
                + timedelta(minutes=7 * k),
                played_known=k % 4 != 1,
                seats=seats,
                ranked=list(reversed(seats)) if k % 2 else seats,
                num_events=k * 13,
                variant="" if k % 3 else f"hand of {k} <cards> & more",
                result_only=k % 6 == 5,
                simulated=k % 3 == 1,
                demo=k % 6 == 1,
            )
        )
    return rows


@pytest.mark.parametrize("zone", ["UTC", "Europe/Berlin", "America/St_Johns"])
def test_record_table_html_is_the_template(zone: str) -> None:
    rows = _rows()
    with timezone.override(zone):
        for chunk in (rows, rows[:1], rows[5:9], []):
            expected = render_to_string("replays/_record_table.html", {"rows": chunk})
            got = record_table_html(chunk)
            assert got == expected
            assert isinstance(got, SafeString)


def test_record_table_html_escapes_people_text() -> None:
    html = record_table_html(_rows()[:2])
    assert "<b>Co</b>" not in html
    assert "Ben &amp; &lt;b&gt;Co&lt;/b&gt;" in html


@pytest.mark.parametrize("count", [0, 1, 10])
def test_dashboard_records_part_is_the_template(
    monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    """The dashboard's "Recent records" part is ``analytics/_records.html`` as before."""
    from analytics import dashboard

    rows = _rows()[:count]
    monkeypatch.setattr(dashboard.selectors, "recent_real_record_rows", lambda **_: rows)
    expected = render_to_string("analytics/_records.html", {"rows": rows})
    got = dashboard._records_html("gift_swap", None, None)
    assert got == expected
    assert isinstance(got, SafeString)  # put into the page as HTML, not escaped again
