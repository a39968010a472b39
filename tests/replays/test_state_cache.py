"""The replay state cache is a cache: the state after k events is the same with or without them."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from games.play import replay_states
from games.registry import get_engine
from replays import state_cache
from replays.services import record_submit

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", ["gift_trap", "gift_gift_gone", "secret_santa"])
def test_state_after_equals_a_full_replay_cold_and_warm(make_document, monkeypatch, game):
    monkeypatch.setattr(state_cache, "EVERY", 8)
    cache.clear()
    document = make_document(game, seed=4)
    record, _ = record_submit(document=document)
    engine = get_engine(game)
    n = len(document["players"])
    states = list(replay_states(engine, n, record.options, record.events))
    counts = [0, 1, 7, 8, 9, 17, len(states) // 2, len(states) - 1]
    for _ in ("cold", "warm"):
        for count in counts:
            state = state_cache.state_after(engine, record, n, count)
            assert engine.view(state, None) == engine.view(states[count], None)
    assert cache.get(state_cache._key(record, 8)) is not None
    cache.clear()  # a lost cache is rebuilt from the log
    last = len(states) - 1
    assert engine.view(state_cache.state_after(engine, record, n, last), None) == engine.view(
        states[last], None
    )
