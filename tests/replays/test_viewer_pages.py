"""The replay and live pages as served (before any script runs), and the rules pages."""

from __future__ import annotations

import re

import pytest

from games.registry import all_engines, engine_slugs
from replays.services import record_submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def record(make_document):
    stored, _ = record_submit(document=make_document("gift_swap", seed=8, players=3))
    return stored


def test_the_replay_page_tells_the_game_in_words_without_a_script(client, api, record):
    page = client.get(f"/records/{record.pk}/").content.decode()
    timeline = api.get(f"/api/records/{record.pk}/timeline/").json()["steps"]
    assert "Gift Swap" in page
    for entry in (timeline[1], timeline[len(timeline) // 2], timeline[-1]):
        escaped = entry["text"].replace("'", "&#x27;").replace('"', "&quot;")
        assert escaped in page, "every step's sentence is in the page itself"
    assert 'class="table table-gift_swap"' in page, "the table at step 0 is drawn on the server"
    assert '{"by"' not in page, "no JSON on the page"
    assert "gift_swap</" not in page, "no slugs on the page"
    assert "x-frame-options" in {k.lower() for k in client.get(f"/records/{record.pk}/").headers}


def test_the_embed_has_no_site_header_and_may_be_framed(client, record):
    response = client.get(f"/records/{record.pk}/embed/")
    assert response.status_code == 200
    assert "X-Frame-Options" not in response.headers
    page = response.content.decode()
    assert 'class="site"' not in page
    assert 'id="fork-form"' not in page
    assert f'href="/records/{record.pk}/"' in page, "the embed links to the full replay"


@pytest.mark.parametrize("game", engine_slugs())
def test_a_step_fragment_draws_that_step_for_that_seat(client, make_document, game):
    stored, _ = record_submit(document=make_document(game, seed=9))
    step = stored.num_events // 2
    everyone = client.get(f"/records/{stored.pk}/steps/{step}/table/").content.decode()
    seat0 = client.get(f"/records/{stored.pk}/steps/{step}/table/?seat=0").content.decode()
    assert f"table-{game}" in everyone
    faces = set(re.findall(r'data-card="([^"]+)"', everyone))
    assert set(re.findall(r'data-card="([^"]+)"', seat0)) <= faces
    assert "(you)" in seat0
    assert "(you)" not in everyone


@pytest.mark.parametrize(
    ("path", "status"),
    [("/records/999/", 404), ("/records/999/embed/", 404), ("/live/999/", 404)],
)
def test_unknown_records_and_games_are_friendly_404s(client, path, status):
    response = client.get(path)
    assert response.status_code == status
    assert b"<h1>No " in response.content


def test_a_step_fragment_out_of_range_is_a_404(client, record):
    response = client.get(f"/records/{record.pk}/steps/{record.num_events + 1}/table/")
    assert response.status_code == 404


@pytest.mark.parametrize("engine", all_engines(), ids=lambda e: e.slug)
def test_each_games_rules_are_a_page(client, engine):
    response = client.get(f"/rules/{engine.slug}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "<h1" in page
    assert engine.name in page
    notes = client.get(f"/rules/{engine.slug}/notes/").content.decode()
    for text in (page, notes):
        assert "| ---" not in text, "tables are rendered, not markdown source"
        assert "|---" not in text
    assert "<table>" in notes, "the notes' tables are rendered, not markdown source"
    index = client.get("/rules/").content.decode()
    assert f'href="/rules/{engine.slug}/"' in index


def test_unknown_rules_are_a_404(client):
    assert client.get("/rules/chess/").status_code == 404
    assert client.get("/rules/chess/notes/").status_code == 404


def test_site_has_a_favicon_and_the_api_docs_link_back(client):
    home = client.get("/").content.decode()
    assert 'rel="icon"' in home
    docs = client.get("/api/docs/").content.decode()
    assert 'href="/"' in docs, "the API docs link back to the site"


def test_a_step_says_in_words_what_the_player_to_move_may_do(client, api, make_document):
    stored, _ = record_submit(document=make_document("secret_santa", seed=10, players=3))
    step = 3
    body = api.get(f"/api/records/{stored.pk}/steps/{step}/").json()
    mover = body["moves"][0]["seat"]
    page = client.get(f"/records/{stored.pk}/steps/{step}/table/?moves=listed").content.decode()
    said = f"What {body['players'][mover]} may do ({len(body['moves'])} move"
    assert said in page
    for move in body["moves"]:
        assert move["label"].replace("'", "&#x27;") in page
    folded = client.get(f"/records/{stored.pk}/steps/{step}/table/").content.decode()
    assert said in folded, "the viewer's table says who may do how much, folded"
    assert not any(move["label"].replace("'", "&#x27;") in folded for move in body["moves"])
    others = [s for s in range(3) if s != mover]
    for query in ("", "&moves=listed"):
        watcher = client.get(f"/records/{stored.pk}/steps/{step}/table/?seat={others[0]}{query}")
        assert "may do" not in watcher.content.decode(), "a seat is shown only its own moves"
