"""The records page (filters, names people say, pages, friendly 400s) and the upload page."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest

from replays import pages
from replays.models import Record
from replays.services import record_submit

pytestmark = pytest.mark.django_db


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        self._skip += tag in ("script", "style")

    def handle_endtag(self, tag):
        self._skip -= tag in ("script", "style")

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    """What a reader sees: text outside tags, scripts and styles, spaces collapsed."""
    parser = _Text()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def store(document: dict) -> Record:
    return record_submit(document=document)[0]


def named(document: dict, names: list[str]) -> dict:
    return {**document, "players": names[: len(document["players"])]}


def test_records_page_tells_games_in_names_people_say(client, make_document):
    record = store(named(make_document("gift_swap", seed=1, players=3), ["Ana", "Ben", "Cy"]))
    response = client.get("/records/")
    assert response.status_code == 200
    text = visible_text(response.content.decode())
    assert "Gift Swap" in text
    assert "gift_swap" not in text
    scores, winners = record.result["scores"], record.result["winners"]
    names = ["Ana", "Ben", "Cy"]
    for seat in winners:
        assert f"🏆 {names[seat]}" in text
    ranked = sorted(range(3), key=lambda s: (record.result["ranks"][s], s))
    assert " · ".join(f"{names[s]} {scores[s]}" for s in ranked) in text
    assert f'href="/records/{record.pk}/"' in response.content.decode()
    assert f"{record.num_events}" in text
    assert "records.css" in response.content.decode()


def test_records_page_filters_and_keeps_the_form(client, make_document):
    swap = store(make_document("gift_swap", seed=2))
    santa = store(make_document("secret_santa", seed=3))
    html = client.get("/records/", {"game": "Gift Swap", "player": ""}).content.decode()
    assert f'href="/records/{swap.pk}/"' in html
    assert f'href="/records/{santa.pk}/"' not in html
    assert '<option value="gift_swap" selected>Gift Swap</option>' in html
    assert 'href="/api/records/export/?game=Gift+Swap&amp;play=real"' in html
    assert "Export these as NDJSON" in html


def test_records_page_with_nothing_found_says_so(client, make_document):
    store(make_document(seed=4))
    text = visible_text(client.get("/records/", {"winner": "nobody"}).content.decode())
    assert "No games match these filters." in text


def test_records_page_pages_keep_the_filters(client, make_document, monkeypatch):
    assert pages.RECORDS_PER_PAGE == 25
    monkeypatch.setattr(pages, "RECORDS_PER_PAGE", 2)
    swaps = [store(make_document("gift_swap", seed=s)) for s in (10, 11, 12)]
    store(make_document("secret_santa", seed=13))

    first = client.get("/records/", {"game": "gift_swap"})
    html = first.content.decode()
    assert "page 1 of 2" in visible_text(html)
    assert 'href="/records/?game=gift_swap&amp;page=2"' in html
    second = client.get("/records/", {"game": "gift_swap", "page": "2"}).content.decode()
    assert 'href="/records/?game=gift_swap&amp;page=1"' in second
    shown = [r.pk for r in swaps if f'href="/records/{r.pk}/"' in html + second]
    assert sorted(shown) == sorted(r.pk for r in swaps)


@pytest.mark.parametrize(
    ("params", "label"),
    [
        ({"players": "four"}, "Number of players"),
        ({"game": "chess"}, "Game"),
        ({"played_after": "yesterday"}, "Played from"),
        ({"played_after": "2026-12-01", "played_before": "2026-11-01"}, "Played before"),
    ],
)
def test_records_page_answers_a_bad_filter_with_a_message_and_400(client, params, label):
    response = client.get("/records/", params)
    assert response.status_code == 400
    text = visible_text(response.content.decode())
    assert f"Check “{label}”:" in text
    assert 'aria-invalid="true"' in response.content.decode()
    assert "Find" in text  # the form is there to correct it


def test_upload_page_renders_a_drop_zone_a_file_input_and_a_paste_box(client):
    response = client.get("/upload/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="dropzone"' in html
    assert 'type="file"' in html
    assert "<textarea" in html
    assert 'data-bulk="/api/records/bulk/"' in html
    assert (
        json.loads(html.split('id="game-names" type="application/json">')[1].split("<")[0])[
            "gift_swap"
        ]
        == "Gift Swap"
    )
    assert "cdn" not in html.lower()
    assert "records.css" in html
