"""games.play: replay with step numbers, self-play, and who the game waits for."""

from __future__ import annotations

import random

import pytest

from games.base import IllegalEvent
from games.play import choose_mover, replay, replay_states, self_play, waiting_for
from games.registry import get_engine


def test_replay_names_the_step_of_an_illegal_event():
    engine = get_engine("secret_santa")
    events, _ = self_play(engine, 3, rng=random.Random(1))
    bad = [*events[:5], {**events[5], "by": (events[5]["by"] + 1) % 3}, *events[6:]]
    with pytest.raises(IllegalEvent) as info:
        replay(engine, 3, {}, bad)
    assert info.value.step == 5
    assert info.value.code == "not_your_turn"
    assert len(list(replay_states(engine, 3, {}, events[:7]))) == 8


def test_a_seat_that_may_only_interrupt_is_not_waited_for():
    engine = get_engine("gift_trap")
    options = {"expert_cards": True}
    rng = random.Random(4)
    events, _ = self_play(engine, 4, options=options, rng=rng)
    found = 0
    for state in replay_states(engine, 4, options, events):
        movers = [m for m in engine.to_move(state) if m != "chance"]
        only_trap = [
            s for s in movers if {e["do"] for e in engine.legal_events(state, s)} == {"gifttrap"}
        ]
        waited = waiting_for(engine, state)
        # The legal events a caller has already (all of them, or only some seats') decide
        # the same as the engine's own.
        legal = {s: engine.legal_events(state, s) for s in movers}
        assert waiting_for(engine, state, legal) == waited
        assert waiting_for(engine, state, dict(list(legal.items())[:1])) == waited
        assert set(waited) <= set(engine.to_move(state))
        assert not set(only_trap) & set(waited)
        assert set(movers) - set(only_trap) <= set(waited)
        if only_trap and len(movers) > len(only_trap):
            found += 1
            picks = {choose_mover(engine, state, movers, random.Random(k)) for k in range(60)}
            assert picks & (set(movers) - set(only_trap)), "seats the game waits for act"
    assert found, "the game must pass through such a position"


def test_engines_without_interrupts_wait_for_every_mover():
    engine = get_engine("gift_swap")
    events, _ = self_play(engine, 3, rng=random.Random(2))
    for state in list(replay_states(engine, 3, {}, events))[:40]:
        assert waiting_for(engine, state) == engine.to_move(state)
