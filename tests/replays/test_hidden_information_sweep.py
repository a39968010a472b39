"""The hidden-information sweep: every engine, every endpoint and page that shows a
live game or a record, from a spectator and from each seat.

A live game with every seat a person (no bots, so it stays live) is played move by
move through the API; at several points each seat's view (API), drawn table (page
fragment), live page and the events and timeline it is shown must hold none of the
cards ``engine.secrets(state, seat)`` says that seat may not know, and a spectator
(no token) gets 401s and a page with no cards on it. While the game is live it is no
record: the records list and the export do not show it. For stored records, the
steps API with ``?seat=`` keeps that seat's secrets in the state, the moves and the
legal events. Seat tokens are read from a header only (never a query string, which
servers log) and are compared as hashes in constant time.
"""

from __future__ import annotations

import hmac
import json
import re

import pytest

from games.play import replay_states
from games.registry import all_engines
from replays import live as live_play
from replays.live import live_events
from replays.models import LiveGame

pytestmark = pytest.mark.django_db
ENGINES = all_engines()
DATA_CARD = re.compile(r'data-card="([^"]+)"')
CHECKPOINTS = {0, 1, 3, 6, 10}


def leaked(hidden: set, text: str) -> set:
    return {card for card in hidden if json.dumps(card) in text or f'"{card}"' in text}


def open_live(api, engine) -> dict:
    n = min(engine.max_players, engine.min_players + 1)
    response = api.post(
        "/api/live/",
        {"game": engine.slug, "players": [f"p{i}" for i in range(n)], "seed": 11},
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()


def check_every_seat(api, client, engine, opened: dict) -> None:
    live = LiveGame.objects.get(pk=opened["id"])
    n = len(live.players)
    events = live_events(live)
    states = list(replay_states(engine, n, live.options, events))
    page_without_token = client.get(f"/live/{live.pk}/")
    assert page_without_token.status_code == 200
    assert DATA_CARD.findall(page_without_token.content.decode()) == [], "the page embeds no cards"
    for seat, token in enumerate(opened["seat_tokens"]):
        auth = {"HTTP_AUTHORIZATION": f"Seat {token}"}
        view = api.get(f"/api/live/{live.pk}/", **auth).json()
        assert view["seat"] == seat
        hidden = engine.secrets(states[-1], seat)
        now = json.dumps({k: v for k, v in view.items() if k not in ("timeline", "events")})
        assert not leaked(hidden, now), (seat, "view")
        table = client.get(f"/live/{live.pk}/table/", **auth)
        assert table.status_code == 200
        drawn = set(DATA_CARD.findall(table.content.decode()))
        assert not drawn & hidden, (seat, "table")
        # Each past event and timeline entry: nothing the seat knew neither before nor after.
        for k in range(1, len(events) + 1):
            both = engine.secrets(states[k - 1], seat) & engine.secrets(states[k], seat)
            assert not leaked(both, json.dumps(view["events"][k - 1])), (seat, "event", k)
            assert not leaked(both, json.dumps(view["timeline"][k])), (seat, "timeline", k)
    # A spectator sees nothing of a live game.
    assert api.get(f"/api/live/{live.pk}/").status_code == 401
    assert client.get(f"/live/{live.pk}/table/").status_code == 401
    # A token in a query string (which servers log) is not a way in.
    token = opened["seat_tokens"][0]
    assert api.get(f"/api/live/{live.pk}/?token={token}").status_code == 401
    assert client.get(f"/live/{live.pk}/table/?token={token}").status_code == 401
    # Not a record while it is live: neither listed nor exported.
    listed = api.get("/api/records/").json()["results"]
    assert all(item["players"] != live.players or item["game"] != engine.slug for item in listed)
    exported = b"".join(api.get("/api/records/export/").streaming_content).decode()
    assert not any(json.loads(line)["players"] == live.players for line in exported.splitlines())


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_a_live_game_from_each_seat_and_a_spectator(api, client, engine):
    opened = open_live(api, engine)
    moves = 0
    for _ in range(max(CHECKPOINTS) + 1):
        if moves in CHECKPOINTS:
            check_every_seat(api, client, engine, opened)
        first = api.get(
            f"/api/live/{opened['id']}/", HTTP_AUTHORIZATION=f"Seat {opened['seat_tokens'][0]}"
        ).json()
        if first["status"] != LiveGame.Status.LIVE:
            break
        mover = first["to_move"][0]
        auth = {"HTTP_AUTHORIZATION": f"Seat {opened['seat_tokens'][mover]}"}
        view = api.get(f"/api/live/{opened['id']}/", **auth).json()
        played = api.post(
            f"/api/live/{opened['id']}/events/",
            {"step": view["step"], "event": view["legal_events"][0]},
            format="json",
            **auth,
        )
        assert played.status_code == 201, played.content
        moves += 1
    assert moves >= 3, "the game was played for a few moves"


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_record_steps_keep_each_seats_secrets(api, make_document, engine):
    document = make_document(engine.slug, seed=23, players=engine.min_players + 1)
    record_id = api.post("/api/records/", document, format="json").json()["id"]
    n = len(document["players"])
    states = list(replay_states(engine, n, document["options"], document["events"]))
    last = len(document["events"])
    for k in sorted({0, 1, 2, last // 4, last // 2, (3 * last) // 4, last - 1}):
        for seat in range(n):
            step = api.get(f"/api/records/{record_id}/steps/{k}/?seat={seat}").json()
            hidden = engine.secrets(states[k], seat)
            shown = json.dumps({key: step[key] for key in ("state", "legal_events", "moves")})
            assert not leaked(hidden, shown), (seat, k)
            if k:
                both = hidden & engine.secrets(states[k - 1], seat)
                assert not leaked(both, json.dumps(step["event"])), (seat, k, "event")


def test_seat_tokens_are_stored_hashed_and_compared_in_constant_time(api, monkeypatch):
    opened = api.post(
        "/api/live/", {"game": "gift_swap", "players": ["a", "b", "c", "d"]}, format="json"
    ).json()
    live = LiveGame.objects.get(pk=opened["id"])
    for token, stored in zip(opened["seat_tokens"], live.token_hashes, strict=True):
        assert token not in json.dumps(live.token_hashes)
        assert len(stored) == 64, "a sha256 hex digest"
    compared: list[tuple[str, str]] = []
    constant_time = hmac.compare_digest

    def compare(a: str, b: str) -> bool:
        compared.append((a, b))
        return constant_time(a, b)

    monkeypatch.setattr(live_play.hmac, "compare_digest", compare)
    # The first seat's token still compares against every seat: no early way out
    # whose timing would tell which seat (or how much of a hash) matched.
    assert live_play.live_seat_authenticate(live, opened["seat_tokens"][0]) == 0
    assert len(compared) == len(live.players)
    assert all(len(a) == len(b) == 64 for a, b in compared), "hashes, not tokens"
