"""Shared fixtures: an API client and simulated records of any game."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.base import CHANCE
from games.play import replay_states
from games.registry import get_engine
from replays.simulation import simulated_document


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def make_document():
    """A finished bot game of ``game`` as a giftlog document (not stored).

    Not marked simulated: it stands in for a game people played, so it counts in
    ratings and real-play statistics like an upload from a club would.
    """

    def make(game: str = "secret_santa", *, seed: int = 1, players: int | None = None) -> dict:
        rng = random.Random(seed)
        engine = get_engine(game)
        n = players or rng.randint(engine.min_players, engine.max_players)
        return simulated_document(game, num_players=n, rng=rng, simulated=False)

    return make


def make_illegal(document: dict[str, Any], *, seed: int = 0) -> tuple[dict[str, Any], int]:
    """The same log with one seat event given to a seat that may not act then.

    Returns the altered document and the step changed. Works for every game:
    whoever may act, some seat may not (or the event is chance's).
    """
    engine = get_engine(document["game"])
    n = len(document["players"])
    states = list(replay_states(engine, n, document["options"], document["events"]))
    steps = [k for k, e in enumerate(document["events"]) if e["by"] != CHANCE]
    random.Random(seed).shuffle(steps)
    for step in steps:
        movers = engine.to_move(states[step])
        outsiders = [s for s in range(n) if s not in movers]
        if outsiders:
            bad = copy.deepcopy(document)
            bad["events"][step]["by"] = outsiders[0]
            return bad, step
    raise AssertionError("no step where some seat may not act")
