"""A table module that says its targets read the event only (``TARGET_READS_VIEW = False``)
finds the same target for every legal move with the mover's view and without it: the
step's moves build no view per mover for it (``replays.timeline.step_moves``)."""

from __future__ import annotations

import random

import pytest

from games.base import CHANCE
from games.play import replay_states
from games.registry import all_engines
from replays.simulation import simulated_document
from replays.tables import table_targeter, target_reads_view
from replays.timeline import step_moves

ENGINES = sorted(all_engines(), key=lambda engine: engine.slug)
EVENT_ONLY = [engine for engine in ENGINES if not target_reads_view(engine.slug)]


def test_gift_trap_and_gift_economy_targets_read_the_event_only():
    assert [engine.slug for engine in EVENT_ONLY] == ["gift_economy", "gift_trap"]


@pytest.mark.parametrize("engine", EVENT_ONLY, ids=lambda engine: engine.slug)
def test_a_target_that_reads_the_event_only_ignores_the_view(engine):
    target = table_targeter(engine.slug)
    assert target is not None
    players = engine.max_players
    document = simulated_document(
        engine.slug, num_players=players, rng=random.Random(3), simulated=False
    )
    states = list(replay_states(engine, players, document["options"], document["events"]))
    found = 0
    for state in states[:: max(1, len(states) // 60)]:
        for seat in engine.to_move(state):
            if seat == CHANCE:
                continue
            view = engine.view(state, seat)
            for event in engine.legal_events(state, seat):
                assert target(event, {}) == target(event, view), event
                found += target(event, view) is not None
    assert found > 10, "no move with a target was checked"


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.slug)
def test_a_steps_moves_have_the_targets_the_views_give(engine):
    """Whatever the module says, each move's target is ``target(event, mover's view)``."""
    target = table_targeter(engine.slug)
    players = engine.max_players
    document = simulated_document(
        engine.slug, num_players=players, rng=random.Random(4), simulated=False
    )
    states = list(replay_states(engine, players, document["options"], document["events"]))
    names = [f"P{seat}" for seat in range(players)]
    for state in states[:: max(1, len(states) // 30)]:
        movers = [seat for seat in engine.to_move(state) if seat != CHANCE]
        for move in step_moves(engine, state, movers, names):
            view = engine.view(state, move["seat"])
            expected = target(move["event"], view) if target is not None else None
            assert move["target"] == expected
