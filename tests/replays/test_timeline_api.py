"""The timeline: every step of a record told in words, as everyone or one seat saw it."""

from __future__ import annotations

import json

import pytest

from games.play import replay_states
from games.registry import engine_slugs, get_engine
from replays.timeline import names_fill

pytestmark = pytest.mark.django_db
GAMES = engine_slugs()


@pytest.fixture
def stored(api, make_document):
    def store(game: str, seed: int = 5, players: int | None = None):
        document = make_document(game, seed=seed, players=players)
        record_id = api.post("/api/records/", document, format="json").json()["id"]
        return record_id, document

    return store


def _states(document):
    engine = get_engine(document["game"])
    n = len(document["players"])
    return engine, n, list(replay_states(engine, n, document["options"], document["events"]))


@pytest.mark.parametrize("game", GAMES)
def test_timeline_tells_every_step_as_everyone_saw_it(api, stored, game):
    record_id, document = stored(game)
    engine, _, states = _states(document)
    body = api.get(f"/api/records/{record_id}/timeline/").json()
    events, players = document["events"], document["players"]
    assert body["last_step"] == len(events)
    assert [entry["step"] for entry in body["steps"]] == list(range(len(events) + 1))
    assert body["steps"][0]["actor"] is None
    assert engine.name in body["steps"][0]["text"]
    for k, event in enumerate(events, start=1):
        entry = body["steps"][k]
        by = event["by"]
        chance = {"seat": None, "name": "Chance"}
        assert entry["actor"] == (chance if by == "chance" else {"seat": by, "name": players[by]})
        told = engine.describe(event, None, states[k - 1], states[k])
        assert entry["text"] == names_fill(told, players)
        assert "{p" not in entry["text"], "every placeholder is filled with a name"
        assert entry["event"] == event
        assert entry["scores"] == engine.scores(states[k])


@pytest.mark.parametrize("game", GAMES)
def test_a_seats_timeline_is_its_own_view_and_keeps_the_others_secrets(api, stored, game):
    record_id, document = stored(game, seed=7)
    engine, n, states = _states(document)
    events, players = document["events"], document["players"]
    for seat in range(n):
        body = api.get(f"/api/records/{record_id}/timeline/?seat={seat}").json()
        assert body["seat"] == seat
        for k, event in enumerate(events, start=1):
            entry = body["steps"][k]
            told = engine.describe(event, seat, states[k - 1], states[k])
            assert entry["text"] == names_fill(told, players)
            shown = engine.event_view(event, seat, before=states[k - 1])
            assert entry["event"] == json.loads(json.dumps(shown))
            over = k == len(events)
            if not engine.scores_public and not over:
                assert entry["scores"] is None, "running scores from hidden hands stay hidden"
            seen = json.dumps(entry)
            for secret in engine.secrets(states[k - 1], seat) & engine.secrets(states[k], seat):
                assert json.dumps(secret) not in seen, f"seat {seat} sees {secret} at step {k}"


def test_seats_are_told_differently_where_they_know_different_things(api, stored):
    record_id, _ = stored("secret_santa", seed=3, players=3)
    texts = [
        [e["text"] for e in api.get(f"/api/records/{record_id}/timeline/?seat={s}").json()["steps"]]
        for s in range(3)
    ]
    everyone = [e["text"] for e in api.get(f"/api/records/{record_id}/timeline/").json()["steps"]]
    # The deal tells each seat its own hand: three different sentences.
    assert len({texts[0][1], texts[1][1], texts[2][1]}) == 3
    assert texts[0] != everyone


@pytest.mark.parametrize(
    ("query", "status", "code"),
    [("?seat=9", 400, "bad_seat"), ("?seat=-1", 400, "invalid_request"), ("?seat=x", 400, None)],
)
def test_bad_seat_is_a_400_in_the_error_shape(api, stored, query, status, code):
    record_id, _ = stored("gift_swap")
    response = api.get(f"/api/records/{record_id}/timeline/{query}")
    assert response.status_code == status
    body = response.json()
    assert set(body) == {"code", "message", "detail"}
    if code:
        assert body["code"] == code


def test_unknown_record_timeline_is_a_404(api):
    response = api.get("/api/records/999/timeline/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


@pytest.mark.parametrize("game", GAMES)
def test_a_step_says_what_happened_and_names_each_move(api, stored, game):
    record_id, document = stored(game, seed=11)
    engine, n, states = _states(document)
    timeline = api.get(f"/api/records/{record_id}/timeline/").json()["steps"]
    for step in (1, len(document["events"]) // 2):
        body = api.get(f"/api/records/{record_id}/steps/{step}/").json()
        assert body["text"] == timeline[step]["text"]
        expected = [
            (seat, event, names_fill(engine.label(event, seat, states[step]), document["players"]))
            for seat in engine.to_move(states[step])
            if seat != "chance"
            for event in engine.legal_events(states[step], seat)
        ]
        assert [(m["seat"], m["event"], m["label"]) for m in body["moves"]] == expected
        # A seat's view lists only its own moves, though it is told who is to move.
        for seat in range(n):
            mine = api.get(f"/api/records/{record_id}/steps/{step}/?seat={seat}").json()
            assert {m["seat"] for m in mine["moves"]} <= {seat}
            assert mine["waiting_for"] == body["waiting_for"]
