"""Upload refusals a person can act on: the expected value, seats numbered from 1."""

from __future__ import annotations

import re

import pytest

from replays.models import Record
from tests.conftest import make_illegal

pytestmark = pytest.mark.django_db


def test_a_result_mismatch_says_the_expected_and_given_scores_per_seat(api, make_document):
    document = make_document("secret_santa", seed=4, players=3)
    computed = api.post("/api/records/", document, format="json").json()["result"]
    Record.objects.all().delete()
    wrong = list(computed["scores"])
    wrong[1] += 7
    response = api.post("/api/records/", {**document, "result": {"scores": wrong}}, format="json")
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "result_mismatch"
    assert body["detail"]["fields"] == ["scores"]
    assert (
        f"scores: seat 2 given {wrong[1]}, the rules give {computed['scores'][1]}"
        in body["message"]
    )
    assert "seat 1 given" not in body["message"], "only the seats that differ"
    winners = api.post(
        "/api/records/", {**document, "result": {"winners": [0, 1, 2]}}, format="json"
    ).json()
    assert "winners: given seats 1, 2 and 3, the rules give seat" in winners["message"]


@pytest.mark.parametrize("game", ["secret_santa", "gift_trap", "gift_swap"])
def test_an_illegal_event_names_seats_from_1(api, make_document, game):
    document, step = make_illegal(make_document(game, seed=2, players=3))
    response = api.post("/api/records/", document, format="json")
    assert response.status_code == 422
    message = response.json()["message"]
    assert message.startswith(f"Event {step} is illegal")
    assert not re.search(r"\bseats? 0\b", message), message
    numbers = [int(n) for n in re.findall(r"\bseats? (\d+)", message)]
    assert numbers, message
    assert all(1 <= n <= 3 for n in numbers), message


def test_a_bad_player_name_names_its_seat_from_1(api, make_document):
    document = make_document("secret_santa", seed=2, players=3)
    document["players"] = ["ana", "ben", "bad\nname"]
    response = api.post("/api/records/", document, format="json")
    assert response.status_code == 400
    assert "seat 3" in response.json()["message"]
