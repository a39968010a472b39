"""Replaying a stored record step by step, as everyone or as one seat."""

from __future__ import annotations

import json

import pytest

from games.play import replay_states
from games.registry import engine_slugs, get_engine

pytestmark = pytest.mark.django_db
GAMES = engine_slugs()


@pytest.fixture
def stored(api, make_document):
    def store(game: str, seed: int = 5):
        document = make_document(game, seed=seed)
        record_id = api.post("/api/records/", document, format="json").json()["id"]
        return record_id, document

    return store


@pytest.mark.parametrize("game", GAMES)
def test_every_step_matches_the_engine(api, stored, game):
    record_id, document = stored(game)
    engine = get_engine(game)
    n = len(document["players"])
    states = list(replay_states(engine, n, document["options"], document["events"]))
    last = len(document["events"])
    for step in sorted({0, 1, 2, last // 2, last - 1, last}):
        body = api.get(f"/api/records/{record_id}/steps/{step}/").json()
        assert body["step"] == step
        assert body["last_step"] == last
        assert body["state"] == json.loads(json.dumps(engine.view(states[step], None)))
        assert body["scores"] == engine.scores(states[step])
        assert body["event"] == (document["events"][step - 1] if step else None)
        assert body["is_over"] == (step == last)
    final = api.get(f"/api/records/{record_id}/steps/{last}/").json()
    assert final["result"] == api.get(f"/api/records/{record_id}/").json()["result"]
    assert final["to_move"] == []


@pytest.mark.parametrize("game", GAMES)
def test_seat_view_hides_other_seats_cards_and_legal_events(api, stored, game):
    record_id, document = stored(game, seed=8)
    engine = get_engine(game)
    n = len(document["players"])
    states = list(replay_states(engine, n, document["options"], document["events"]))
    checked = 0
    for step in range(1, len(states) - 1, max(1, len(states) // 15)):
        for seat in range(n):
            body = api.get(f"/api/records/{record_id}/steps/{step}/", {"seat": seat}).json()
            text = json.dumps(body)
            for secret in engine.secrets(states[step], seat):
                assert json.dumps(secret) not in text
                checked += 1
            assert set(body["legal_events"]) <= {str(seat)}
    assert checked > 0, "the sample must include hidden cards to check"


def test_step_and_seat_out_of_range(api, stored):
    record_id, document = stored("secret_santa")
    last = len(document["events"])
    beyond = api.get(f"/api/records/{record_id}/steps/{last + 1}/")
    assert beyond.status_code == 404
    assert beyond.json()["code"] == "step_out_of_range"
    assert beyond.json()["detail"]["last_step"] == last
    bad_seat = api.get(f"/api/records/{record_id}/steps/1/", {"seat": 9})
    assert bad_seat.status_code == 400
    assert bad_seat.json()["code"] == "bad_seat"
    not_a_seat = api.get(f"/api/records/{record_id}/steps/1/", {"seat": "x"})
    assert not_a_seat.status_code == 400
    assert not_a_seat.json()["code"] == "invalid_request"


def test_replay_page_renders(client, stored):
    record_id, _ = stored("secret_santa")
    page = client.get(f"/records/{record_id}/")
    assert page.status_code == 200
    assert f"/api/records/{record_id}/".encode() in page.content or b"steps/" in page.content
    assert client.get("/records/999999/").status_code == 404


@pytest.mark.parametrize("game", GAMES)
def test_seat_sees_running_scores_only_where_the_table_could(api, stored, game):
    record_id, document = stored(game, seed=6)
    engine = get_engine(game)
    middle = len(document["events"]) // 2
    as_seat = api.get(f"/api/records/{record_id}/steps/{middle}/", {"seat": 0}).json()
    everyone = api.get(f"/api/records/{record_id}/steps/{middle}/").json()
    assert isinstance(everyone["scores"], list)
    if engine.scores_public:
        assert as_seat["scores"] == everyone["scores"]
    else:  # e.g. Gift Economy: the running score comes from hidden hands
        assert as_seat["scores"] is None
    last = len(document["events"])
    final = api.get(f"/api/records/{record_id}/steps/{last}/", {"seat": 0}).json()
    assert final["scores"] == final["result"]["scores"]


def test_gift_economy_keeps_running_scores_private():
    assert get_engine("gift_economy").scores_public is False
    assert get_engine("secret_santa").scores_public is True


def test_a_seat_replaying_the_deal_sees_its_own_hand_only(api, stored):
    record_id, document = stored("secret_santa", seed=13)
    n = len(document["players"])
    hands = []
    for seat in range(n):
        body = api.get(f"/api/records/{record_id}/steps/1/", {"seat": seat}).json()
        assert body["event"]["do"] == "deal"
        assert "deck" not in body["event"]
        assert sorted(body["event"]["hand"]) == sorted(body["state"]["players"][seat]["hand"])
        hands.append(set(body["event"]["hand"]))
    for a in range(n):
        for b in range(a + 1, n):
            assert not hands[a] & hands[b]
    everyone = api.get(f"/api/records/{record_id}/steps/1/").json()
    assert everyone["event"] == document["events"][0]
