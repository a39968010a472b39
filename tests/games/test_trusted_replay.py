"""The trusted replay path gives exactly the states of the checked one, for every game.

``replay_states(..., checked=False)`` (``engine.apply_trusted``) skips checks a valid
log always passes; the replay pages use it for stored records. A stored record is a log
the checked path accepted, so the property is: for any such log, both paths build the
same states (every seat's view, who is to move, the legal events, the scores, the result).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import Engine
from games.play import BOTS, replay, replay_states, self_play
from games.registry import all_engines, get_engine

ENGINES = all_engines()
# GiftTRAP's rulebook game can run to tens of thousands of events with random bots at
# large tables; stored simulations cap it the same way (replays.simulation).
CAPS = {"gift_trap": {"max_rounds": 12}}


def stored_log(engine: Engine, seed: int) -> tuple[int, dict, list[dict]]:
    """A bot game of ``engine`` as a stored record holds it (JSON in, JSON out)."""
    rng = random.Random(seed)
    n = rng.randint(engine.min_players, engine.max_players)
    options = dict(CAPS.get(engine.slug, {}))
    for option in engine.options:
        if option.kind == "bool" and rng.random() < 0.5:
            options[option.name] = not option.default
    bots = [BOTS[rng.choice(("random", "greedy"))] for _ in range(n)]
    events, _ = self_play(engine, n, options=options, rng=rng, bots=bots)
    return n, options, json.loads(json.dumps(events))


def canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True)


def assert_same_states(engine: Engine, n: int, options: dict, events: list[dict]) -> None:
    checked = list(replay_states(engine, n, options, events))
    trusted = list(replay_states(engine, n, options, events, checked=False))
    assert len(checked) == len(trusted) == len(events) + 1
    for step, (a, b) in enumerate(zip(checked, trusted, strict=True)):
        assert engine.to_move(a) == engine.to_move(b), f"to_move differs after {step} events"
        assert engine.is_over(a) == engine.is_over(b)
        assert engine.scores(a) == engine.scores(b)
        assert canonical(engine.view(a, None)) == canonical(engine.view(b, None)), (
            f"the state differs after {step} events"
        )
        if step % 7 == 0 or step == len(events):
            for seat in range(n):
                assert canonical(engine.view(a, seat)) == canonical(engine.view(b, seat))
                assert engine.legal_events(a, seat) == engine.legal_events(b, seat)
    assert engine.result(checked[-1]) == engine.result(trusted[-1])
    # The trusted states go on exactly like checked ones: the checked path accepts
    # the log's last events from a trusted state.
    middle = len(events) // 2
    state = trusted[middle]
    for event in events[middle:]:
        state = engine.apply(state, event)
    assert canonical(engine.view(state, None)) == canonical(engine.view(checked[-1], None))


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_trusted_replay_builds_the_checked_states(engine, seed):
    n, options, events = stored_log(engine, seed)
    assert engine.is_over(replay(engine, n, options, events)), "a stored log is a finished game"
    assert_same_states(engine, n, options, events)


@pytest.mark.parametrize("slug", [e.slug for e in ENGINES])
def test_trusted_replay_over_every_table_size(slug):
    engine = get_engine(slug)
    for n in range(engine.min_players, engine.max_players + 1):
        rng = random.Random(n)
        options = CAPS.get(slug, {})
        events, _ = self_play(engine, n, options=options, rng=rng)
        assert_same_states(engine, n, options, json.loads(json.dumps(events)))

