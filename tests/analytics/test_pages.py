"""The home page and the game dashboard, with plotly.js served from our own files."""

from __future__ import annotations

import json

import pytest
from django.contrib.staticfiles import finders

from replays.services import record_submit

pytestmark = pytest.mark.django_db(transaction=True)


def _script_json(html: str, ident: str) -> object:
    """The data of one ``<script id=... type="application/json">`` element of a page."""
    start = html.index(f'<script id="{ident}" type="application/json">')
    body = html[html.index(">", start) + 1 : html.index("</script>", start)]
    return json.loads(body)


def test_dashboard_shows_a_plotly_chart_of_stored_scores(client, make_document):
    documents = [make_document(seed=s) for s in (41, 42, 43)]
    for document in documents:
        record_submit(document=document)
    page = client.get("/games/secret_santa/")
    assert page.status_code == 200
    html = page.content.decode()
    assert '<script src="/static/plotly/plotly.min.js"></script>' in html
    assert 'id="scores"' in html
    # The figure travels as JSON data, drawn by our static charts.js: no inline code.
    assert '<script id="scores-figure" type="application/json">' in html
    assert "/static/core/charts.js" in html
    assert "Plotly.newPlot" not in html
    records = [record_submit(document=d)[0] for d in documents]
    scores = sorted(s for r in records for s in r.result["scores"])
    # The box's CSV rows hold the lowest and highest final score of the games.
    csv = _script_json(html, "scores-csv")
    assert csv[0] == ["players", "play", "values", "min", "q1", "median", "q3", "max", "mean"]
    assert min(row[3] for row in csv[1:]) == scores[0]
    assert max(row[7] for row in csv[1:]) == scores[-1]
    assert "3 real games recorded" in html
    for name in documents[0]["players"]:
        assert f"<td>{name}</td>" in html
    assert "cdn.plot.ly" not in html


def test_dashboard_without_records_and_unknown_game(client):
    empty = client.get("/games/secret_santa/")
    assert empty.status_code == 200
    assert b"No Secret Santa games match these filters yet" in empty.content
    assert client.get("/games/chess/").status_code == 404


def test_plotly_js_is_a_local_static_file(client):
    served = client.get("/static/plotly/plotly.min.js")
    assert served.status_code == 200
    assert b"plotly" in b"".join(served.streaming_content)[:4096].lower()
    path = finders.find("plotly/plotly.min.js")
    assert path is not None
    with open(path, encoding="utf-8") as handle:
        assert "plotly" in handle.read(4096).lower()


def test_home_page_lists_games_and_recent_records(client, make_document):
    record, _ = record_submit(document=make_document(seed=44))
    page = client.get("/")
    assert page.status_code == 200
    assert b"Secret Santa" in page.content
    assert f'href="/records/{record.pk}/"'.encode() in page.content


def test_unknown_page_is_a_friendly_404(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert b"Back to the home page" in response.content
