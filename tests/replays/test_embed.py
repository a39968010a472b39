"""Embedding a replay in a club's own page: the snippet, and who may frame what.

Only the embed page may be framed; it shows a stored record, which is always a finished
game, as any visitor sees it. A live game has no embed: its pages may not be framed,
and it can be embedded once it is finished and stored.
"""

from __future__ import annotations

import html
import re

import pytest

from replays.models import LiveGame
from replays.services import record_submit

pytestmark = pytest.mark.django_db


def frame_ancestors(response) -> str:
    header = response["Content-Security-Policy"]
    return dict(part.strip().split(" ", 1) for part in header.split(";"))["frame-ancestors"]


def snippet_of(page: str) -> str:
    found = re.search(r'<textarea id="embed-code"[^>]*>(.*?)</textarea>', page, re.S)
    assert found, "the page offers the embed code"
    return html.unescape(found.group(1))


@pytest.mark.parametrize("game", ["gift_swap", "secret_santa"])
def test_the_replay_page_offers_an_iframe_snippet_with_a_copy_button(client, make_document, game):
    record, _ = record_submit(document=make_document(game, seed=40))
    page = client.get(f"/records/{record.pk}/").content.decode()
    snippet = snippet_of(page)
    assert snippet.startswith(f'<iframe src="http://testserver/records/{record.pk}/embed/"')
    assert 'title="' in snippet
    assert 'loading="lazy"' in snippet
    assert snippet.endswith("></iframe>")
    assert 'id="embed-copy"' in page
    assert "Copy the code" in page
    assert "core/copy.js" in page
    assert 'href="#embed"' in page, "the header's Embed link goes to the snippet"
    embed = client.get(f"/records/{record.pk}/embed/").content.decode()
    assert 'id="embed-code"' not in embed, "the embed itself offers no snippet"


def test_a_result_only_record_offers_the_snippet_too(client):
    document = {
        "format": "giftlog/1",
        "game": "gift_trap",
        "players": ["Ana", "Ben", "Cleo"],
        "options": {},
        "result": {"scores": [48, 30, 12]},
    }
    record, _ = record_submit(document=document)
    page = client.get(f"/records/{record.pk}/").content.decode()
    assert snippet_of(page).startswith(
        f'<iframe src="http://testserver/records/{record.pk}/embed/"'
    )
    assert client.get(f"/records/{record.pk}/embed/").status_code == 200


def test_only_the_embed_route_may_be_framed(client, api, make_document):
    record, _ = record_submit(document=make_document("gift_swap", seed=41))
    opened = api.post(
        "/api/live/",
        {"game": "gift_swap", "players": ["ana", "b", "c"], "bots": {"1": "greedy", "2": "greedy"}},
        format="json",
    ).json()
    embed = client.get(f"/records/{record.pk}/embed/")
    assert frame_ancestors(embed) == "*"
    assert "X-Frame-Options" not in embed
    for path in [
        "/",
        "/rules/",
        "/rules/gift_swap/",
        "/records/",
        f"/records/{record.pk}/",
        f"/records/{record.pk}/steps/1/table/",
        "/games/gift_swap/",
        f"/live/{opened['id']}/",
        f"/live/{opened['id']}/table/",
    ]:
        token = opened["seat_tokens"][0] if path.startswith("/live/") else ""
        response = client.get(path, HTTP_AUTHORIZATION=f"Seat {token}" if token else "")
        assert response.status_code == 200, path
        assert frame_ancestors(response) == "'none'", path
        assert response["X-Frame-Options"] == "DENY", path


def test_a_live_game_is_embeddable_only_once_finished_and_stored(client, api):
    opened = api.post(
        "/api/live/",
        {"game": "gift_swap", "players": ["ana", "b", "c"], "bots": {"1": "greedy", "2": "greedy"}},
        format="json",
    ).json()
    live = LiveGame.objects.get(pk=opened["id"])
    assert live.record_id is None
    assert client.get(f"/live/{live.pk}/embed/").status_code == 404
    page = client.get(f"/live/{live.pk}/").content.decode()
    assert "/embed/" not in page
    assert "<iframe" not in page
