"""Forking a record: play on from step k as a new live game (a what-if line)."""

from __future__ import annotations

import random

import pytest

from replays.models import LiveGame, Record

pytestmark = pytest.mark.django_db


def _store(api, make_document, game, seed=5, players=None):
    document = make_document(game, seed=seed, players=players)
    record_id = api.post("/api/records/", document, format="json").json()["id"]
    return record_id, document


def _play_to_the_end(api, live_id, tokens, seed=0):
    """Every person seat plays random legal moves through the API until the game ends."""
    rng = random.Random(seed)
    for _ in range(5000):
        views = {
            seat: api.get(f"/api/live/{live_id}/", HTTP_AUTHORIZATION=f"Seat {token}").json()
            for seat, token in enumerate(tokens)
            if token
        }
        any_view = next(iter(views.values()))
        if any_view["status"] == "finished":
            return any_view
        movers = [s for s, v in views.items() if s in v["waiting_for"] and v["moves"]]
        seat = rng.choice(movers)
        move = rng.choice(views[seat]["moves"])
        answer = api.post(
            f"/api/live/{live_id}/events/",
            {"step": views[seat]["step"], "event": move["event"]},
            format="json",
            HTTP_AUTHORIZATION=f"Seat {tokens[seat]}",
        )
        assert answer.status_code == 201, answer.json()
    raise AssertionError("the forked game did not end")


def test_fork_from_inside_a_secret_choice_plays_on_to_a_new_record(api, make_document):
    record_id, document = _store(api, make_document, "gift_swap", seed=2, players=3)
    events = document["events"]
    # A step where one seat has made its secret Keep/Open choice and another has not.
    step = next(
        k
        for k in range(1, len(events))
        if events[k - 1]["do"] == "choose" and events[k]["do"] == "choose"
    )
    chooser = events[step - 1]["by"]
    response = api.post(f"/api/records/{record_id}/fork/", {"step": step}, format="json")
    assert response.status_code == 201, response.json()
    opened = response.json()
    assert opened["forked_from"] == {"record": record_id, "step": step}
    assert all(opened["seat_tokens"]), "by default every seat is a person's"
    live = LiveGame.objects.get(pk=opened["id"])
    stored = list(live.live_events.order_by("step").values_list("event", flat=True))
    assert stored[:step] == events[:step]
    # The seat that already chose is not asked again; the other chooser is.
    other = events[step]["by"]
    views = {
        seat: api.get(f"/api/live/{opened['id']}/", HTTP_AUTHORIZATION=f"Seat {token}").json()
        for seat, token in enumerate(opened["seat_tokens"])
    }
    assert other in views[other]["waiting_for"]
    assert not views[chooser]["moves"]
    # Nobody sees the chooser's secret choice in their view of its event.
    for seat, view in views.items():
        if seat != chooser:
            assert "choice" not in view["events"][step - 1]
    final = _play_to_the_end(api, opened["id"], opened["seat_tokens"])
    record = Record.objects.get(pk=final["record"])
    assert record.events[:step] == events[:step]
    assert record.meta == {"forked_from": {"record": record_id, "step": step}}
    assert record.pk != record_id


def test_fork_with_bots_runs_until_the_person_must_act(api, make_document):
    record_id, _ = _store(api, make_document, "secret_santa", seed=4, players=3)
    response = api.post(
        f"/api/records/{record_id}/fork/",
        {"step": 5, "seats": ["greedy", "person", "random"], "seed": 9},
        format="json",
    )
    assert response.status_code == 201
    opened = response.json()
    assert opened["seat_tokens"][0] is None
    assert opened["seat_tokens"][2] is None
    view = api.get(
        f"/api/live/{opened['id']}/", HTTP_AUTHORIZATION=f"Seat {opened['seat_tokens'][1]}"
    ).json()
    assert view["step"] >= 5
    assert view["status"] == "finished" or 1 in view["waiting_for"]
    assert view["timeline"][0]["text"].startswith("Secret Santa for 3 players")


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({}, 400, "invalid_request"),
        ({"step": -1}, 400, "invalid_request"),
        ({"step": "3"}, 400, "invalid_request"),
        ({"step": 10_000}, 400, "invalid_request"),
        ({"step": 2, "seats": ["person"]}, 400, "invalid_request"),
        ({"step": 2, "seats": ["person", "person", "wizard"]}, 400, "invalid_envelope"),
        ({"step": 2, "seats": ["greedy", "greedy", "greedy"]}, 400, "invalid_envelope"),
    ],
)
def test_bad_forks_are_refused_and_open_nothing(api, make_document, body, status, code):
    record_id, _ = _store(api, make_document, "secret_santa", seed=4, players=3)
    response = api.post(f"/api/records/{record_id}/fork/", body, format="json")
    assert response.status_code == status, response.json()
    assert response.json()["code"] == code
    assert not LiveGame.objects.exists()


def test_fork_at_the_last_step_is_refused(api, make_document):
    record_id, document = _store(api, make_document, "secret_santa", seed=4, players=3)
    last = len(document["events"])
    response = api.post(f"/api/records/{record_id}/fork/", {"step": last}, format="json")
    assert response.status_code == 422
    assert response.json()["code"] == "game_over"
    assert not LiveGame.objects.exists()


def test_fork_of_an_unknown_record_is_a_404(api):
    response = api.post("/api/records/404/fork/", {"step": 1}, format="json")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
