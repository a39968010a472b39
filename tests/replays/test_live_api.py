"""Live play through the API, as a client would: seat tokens, one event at a time.

The hidden-information boundary is checked against the server's true state:
while a game is live, no seat's answer contains a card that seat cannot know.
"""

from __future__ import annotations

import json
import random

import pytest

from games.play import replay, replay_states
from games.registry import engine_slugs, get_engine
from replays.live import live_events
from replays.models import LiveEvent, LiveGame, Record

pytestmark = pytest.mark.django_db(transaction=True)
NAMES = ["ana", "ben", "cy", "dee"]


def open_game(api, game: str, players: int, seed: int = 1) -> dict:
    response = api.post(
        "/api/live/", {"game": game, "players": NAMES[:players], "seed": seed}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()


def as_seat(token: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Seat {token}"}


def server_state(live_id: int):
    live = LiveGame.objects.get(pk=live_id)
    engine = get_engine(live.game)
    return engine, replay(engine, len(live.players), live.options, live_events(live))


@pytest.mark.parametrize("game", engine_slugs())
def test_a_whole_game_played_live_becomes_a_record(api, game):
    engine = get_engine(game)
    n = engine.min_players
    opened = open_game(api, game, n, seed=5)
    live_id, tokens = opened["id"], opened["seat_tokens"]
    rng = random.Random(3)
    checked_secrets = 0
    for turn in range(20_000):
        view = api.get(f"/api/live/{live_id}/", **as_seat(tokens[0])).json()
        if view["status"] == "finished":
            break
        seat = rng.choice(view["to_move"])
        mine = api.get(f"/api/live/{live_id}/", **as_seat(tokens[seat])).json()
        assert mine["legal_events"], "a seat to move has legal events"
        if turn % 15 == 0:  # the boundary, checked against the true state
            engine_, state = server_state(live_id)
            true_events = live_events(LiveGame.objects.get(pk=live_id))
            for other in range(n):
                seen = api.get(f"/api/live/{live_id}/", **as_seat(tokens[other])).json()
                # Past events are shown as the engine redacts them for this seat (the
                # conformance suite checks each redaction against its own moment)...
                befores = list(replay_states(engine_, n, {}, true_events))
                assert seen["events"] == json.loads(
                    json.dumps(
                        [
                            engine_.event_view(e, other, before=befores[k])
                            for k, e in enumerate(true_events)
                        ]
                    )
                )
                # The timeline tells the same events (its sentences are checked at their
                # own moment by the hidden-information tests)...
                assert [entry["event"] for entry in seen["timeline"][1:]] == seen["events"]
                # ...and nothing else in the answer holds a card this seat cannot know.
                history = ("events", "timeline")
                text = json.dumps({k: v for k, v in seen.items() if k not in history})
                for secret in engine_.secrets(state, other):
                    assert json.dumps(secret) not in text
                    checked_secrets += 1
        event = rng.choice(mine["legal_events"])
        response = api.post(
            f"/api/live/{live_id}/events/",
            {"step": mine["step"], "event": event},
            format="json",
            **as_seat(tokens[seat]),
        )
        assert response.status_code == 201, response.json()
    else:
        pytest.fail("the live game did not end")
    assert checked_secrets > 0
    live = LiveGame.objects.get(pk=live_id)
    record = Record.objects.get(pk=live.record_id)
    assert record.events == live_events(live)
    assert view["result"] == record.result
    public = api.get(f"/api/live/{live_id}/").json()  # after the game: no token needed
    assert public["state"] == json.loads(json.dumps(engine.view(server_state(live_id)[1], None)))


def test_live_game_refusals_change_nothing(api):
    opened = open_game(api, "secret_santa", 3, seed=9)
    live_id, tokens = opened["id"], opened["seat_tokens"]
    url = f"/api/live/{live_id}/"
    assert api.get(url).status_code == 401
    assert api.get(url).json()["code"] == "seat_token_required"
    assert api.get(url, **as_seat("not-a-token")).json()["code"] == "bad_seat_token"

    view = api.get(url, **as_seat(tokens[0])).json()
    step = view["step"]
    mover = view["to_move"][0]
    other = (mover + 1) % 3
    event = api.get(url, **as_seat(tokens[mover])).json()["legal_events"][0]
    before = LiveEvent.objects.count()

    stale = api.post(
        f"{url}events/", {"step": step - 1, "event": event}, format="json", **as_seat(tokens[mover])
    )
    assert stale.status_code == 409
    assert stale.json()["code"] == "stale_step"
    assert stale.json()["detail"]["step"] == step

    for_someone_else = api.post(
        f"{url}events/", {"step": step, "event": event}, format="json", **as_seat(tokens[other])
    )
    assert for_someone_else.status_code == 403
    assert for_someone_else.json()["code"] == "not_your_seat"

    out_of_turn = api.post(
        f"{url}events/",
        {"step": step, "event": {**event, "by": other}},
        format="json",
        **as_seat(tokens[other]),
    )
    assert out_of_turn.status_code == 422
    assert out_of_turn.json()["detail"] == {
        **out_of_turn.json()["detail"],
        "step": step,
        "reason": "not_your_turn",
    }
    no_token = api.post(f"{url}events/", {"step": step, "event": event}, format="json")
    assert no_token.status_code == 401
    malformed = api.post(
        f"{url}events/", {"step": "x", "event": event}, format="json", **as_seat(tokens[mover])
    )
    assert malformed.status_code == 400
    assert LiveEvent.objects.count() == before

    played = api.post(
        f"{url}events/", {"step": step, "event": event}, format="json", **as_seat(tokens[mover])
    )
    assert played.status_code == 201
    assert played.json()["step"] == step + 1
    assert LiveEvent.objects.count() == before + 1


def test_chance_is_drawn_by_the_server_repeatably_from_the_seed(api):
    first = open_game(api, "gift_economy", 3, seed=42)
    second = open_game(api, "gift_economy", 3, seed=42)
    third = open_game(api, "gift_economy", 3, seed=43)
    events = [live_events(LiveGame.objects.get(pk=g["id"])) for g in (first, second, third)]
    assert events[0] == events[1]
    assert events[0] != events[2]
    assert all(e["by"] == "chance" for e in events[0])


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess", "players": ["a", "b"]}, "unknown_game"),
        ({"game": "secret_santa", "players": ["a"]}, "invalid_setup"),
        ({"game": "secret_santa", "players": ["a", "b"], "seed": -1}, "invalid_envelope"),
        ({"game": "secret_santa", "players": ["a", "b"], "options": {"x": 1}}, "unknown_option"),
        ([1, 2], "invalid_envelope"),
    ],
)
def test_opening_a_live_game_with_bad_input(api, body, code):
    response = api.post("/api/live/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert LiveGame.objects.count() == 0


def test_unknown_live_game(api):
    assert api.get("/api/live/12345/").status_code == 404
    response = api.post(
        "/api/live/12345/events/",
        {"step": 0, "event": {}},
        format="json",
        HTTP_AUTHORIZATION="Seat x",
    )
    assert response.status_code == 404


def test_a_live_event_without_its_step_is_refused_and_changes_nothing(api):
    opened = open_game(api, "secret_santa", 3, seed=2)
    token = opened["seat_tokens"][0]
    before = api.get(f"/api/live/{opened['id']}/", **as_seat(token)).json()
    event = before["legal_events"][0] if before["legal_events"] else {"do": "take"}
    for body in ({"event": event}, {"event": event, "step": "3"}, {"event": event, "step": None}):
        response = api.post(
            f"/api/live/{opened['id']}/events/", body, format="json", **as_seat(token)
        )
        assert response.status_code == 400
        assert response.json()["code"] == "invalid_request"
        assert response.json()["detail"]["field"] == "step"
    after = api.get(f"/api/live/{opened['id']}/", **as_seat(token)).json()
    assert after["step"] == before["step"]


@pytest.mark.parametrize("game", engine_slugs())
def test_one_person_against_the_service_bots(api, game):
    engine = get_engine(game)
    n = engine.min_players
    bots = {str(seat): "greedy" for seat in range(1, n)}
    response = api.post(
        "/api/live/",
        {"game": game, "players": NAMES[:n], "seed": 11, "bots": bots},
        format="json",
    )
    assert response.status_code == 201, response.json()
    live_id, tokens = response.json()["id"], response.json()["seat_tokens"]
    assert tokens[0]
    assert tokens[1:] == [None] * (n - 1), "bot seats get no token"
    rng = random.Random(5)
    for _ in range(20_000):
        view = api.get(f"/api/live/{live_id}/", **as_seat(tokens[0])).json()
        if view["status"] == "finished":
            break
        # The server has played every bot move: only the person is waited for.
        assert view["waiting_for"] == [0], view["waiting_for"]
        event = rng.choice(view["legal_events"])
        played = api.post(
            f"/api/live/{live_id}/events/",
            {"step": view["step"], "event": event},
            format="json",
            **as_seat(tokens[0]),
        )
        assert played.status_code == 201, played.json()
    else:
        pytest.fail("the game against bots did not end")
    events = live_events(LiveGame.objects.get(pk=live_id))
    assert any(isinstance(e["by"], int) and e["by"] > 0 for e in events), "the bots played"
    assert Record.objects.get(pk=view["record"]).events == events


@pytest.mark.parametrize(
    "bots",
    [
        {"5": "greedy"},
        {"x": "greedy"},
        {"1": "genius"},
        ["greedy"],
        {"0": "random", "1": "random", "2": "random"},
    ],
)
def test_bad_bot_seats_are_refused(api, bots):
    response = api.post(
        "/api/live/",
        {"game": "secret_santa", "players": NAMES[:3], "bots": bots},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["detail"]["field"] == "bots"
    assert LiveGame.objects.count() == 0
