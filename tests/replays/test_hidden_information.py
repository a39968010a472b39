"""No description, timeline entry or drawn table shows a seat what it may not see.

Every engine, every seat, through the endpoints and pages people use: the
timeline API, the drawn table of a replay step, and a live game's view and table.
"""

from __future__ import annotations

import json
import re

import pytest

from games.play import replay_states
from games.registry import all_engines, get_engine
from replays.live import live_events
from replays.models import LiveGame
from tests.games.words import card_ids_in, check_sentence

pytestmark = pytest.mark.django_db
ENGINES = all_engines()
DATA_CARD = re.compile(r'data-card="([^"]+)"')


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_replays_keep_every_seats_secrets(api, client, make_document, engine):
    document = make_document(engine.slug, seed=21, players=engine.min_players + 1)
    record_id = api.post("/api/records/", document, format="json").json()["id"]
    n = len(document["players"])
    states = list(replay_states(engine, n, document["options"], document["events"]))
    catalog = engine.card_catalog()
    last = len(document["events"])
    sampled = sorted({1, 2, 3, last // 3, last // 2, (2 * last) // 3, last - 1})
    for seat in range(n):
        timeline = api.get(f"/api/records/{record_id}/timeline/?seat={seat}").json()["steps"]
        for k in range(1, last + 1):
            entry = timeline[k]
            before, after = states[k - 1], states[k]
            hidden = engine.secrets(before, seat) & engine.secrets(after, seat)
            seen = json.dumps(entry)
            assert not any(json.dumps(card) in seen for card in hidden), (seat, k, entry)
            visible = [
                engine.event_view(document["events"][k - 1], seat, before=before),
                engine.view(before, seat),
                engine.view(after, seat),
            ]
            names = [re.escape(p) for p in document["players"]]
            text = re.sub("|".join(names), "Someone", entry["text"])
            check_sentence(engine, text, n, seat, visible, f"seat {seat} step {k}")
        for k in sampled:
            page = client.get(f"/records/{record_id}/steps/{k}/table/?seat={seat}")
            assert page.status_code == 200
            drawn = set(DATA_CARD.findall(page.content.decode()))
            assert drawn <= card_ids_in(engine.view(states[k], seat), catalog), (seat, k)
            assert not drawn & engine.secrets(states[k], seat), (seat, k)


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_a_live_seat_sees_only_its_own_view(api, client, engine):
    n = engine.min_players + 1
    opened = api.post(
        "/api/live/",
        {
            "game": engine.slug,
            "players": [f"p{i}" for i in range(n)],
            "seed": 5,
            "bots": {str(s): "greedy" for s in range(1, n)},
        },
        format="json",
    ).json()
    token = opened["seat_tokens"][0]
    auth = {"HTTP_AUTHORIZATION": f"Seat {token}"}
    view = api.get(f"/api/live/{opened['id']}/", **auth).json()
    table = client.get(f"/live/{opened['id']}/table/", **auth)
    assert table.status_code == 200
    live_engine = get_engine(engine.slug)
    events = live_events(LiveGame.objects.get(pk=opened["id"]))
    states = list(replay_states(live_engine, n, {}, events))
    hidden = live_engine.secrets(states[-1], 0)
    seen = json.dumps({k: v for k, v in view.items() if k != "timeline"}) + table.content.decode()
    for card in hidden:
        assert json.dumps(card) not in seen
        assert f'data-card="{card}"' not in seen
    for k, entry in enumerate(view["timeline"][1:], start=1):
        both = live_engine.secrets(states[k - 1], 0) & live_engine.secrets(states[k], 0)
        assert not any(json.dumps(card) in json.dumps(entry) for card in both)
    # Without a token nothing is shown, on the API or as a page fragment.
    assert api.get(f"/api/live/{opened['id']}/").status_code == 401
    assert client.get(f"/live/{opened['id']}/table/").status_code == 401
