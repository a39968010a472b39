"""A league's rules and a record's agree however a list option is ordered."""

from __future__ import annotations

import random

import pytest

from clubs import services
from replays.simulation import simulated_document
from tests.clubs.conftest import played_at

pytestmark = pytest.mark.django_db


def test_a_league_accepts_a_record_with_its_packs_in_another_order(world):
    league = services.league_create(
        club=world.club,
        user=world.admin,
        name="Trap League",
        slug="trap",
        game="gift_trap",
        options={"packs": ["blue", "red"], "max_rounds": 30},  # as the bots played
        points_per_place=[3, 2, 1],
    )
    assert league.options["packs"] == ["red", "blue"]
    season = services.season_create(
        league=league, user=world.admin, name="Spring", starts_on=world.season.starts_on,
        ends_on=world.season.ends_on,
    )  # fmt: skip
    document = simulated_document(
        "gift_trap", num_players=3, rng=random.Random(2), options={"packs": ["red", "blue"]}
    )
    document["players"] = [u.username for u in world.members[:3]]
    document["meta"] = {"played_at": played_at(3)}
    response = world.client(world.members[0]).post(
        f"/api/seasons/{season.pk}/entries/", {"document": document}, format="json"
    )
    assert response.status_code == 201, response.json()
