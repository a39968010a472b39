"""The replay state cache is a cache: the state after k events is the same with or without them."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection

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


@pytest.mark.parametrize("game", ["gift_trap", "secret_santa"])
def test_a_position_from_a_snapshot_reads_only_the_events_after_it(
    make_document, monkeypatch, settings, django_assert_num_queries, game
):
    """With the log not loaded, a step is the same from a snapshot (and the events kept
    with it) as from a full replay, and the database is not read for it at all."""
    from replays.models import Record

    settings.CACHES = {  # room for every snapshot: none is culled
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "positions",
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        }
    }
    monkeypatch.setattr(state_cache, "EVERY", 8)
    cache.clear()
    document = make_document(game, seed=5)
    record, _ = record_submit(document=document)
    engine = get_engine(game)
    n = len(document["players"])
    states = list(replay_states(engine, n, record.options, record.events))
    last = len(states) - 1
    steps = [0, 1, 8, 9, 16, 17, last // 2, last]
    for visit in ("cold", "warm"):
        for step in steps:
            light = Record.objects.defer("events").get(pk=record.pk)
            if visit == "warm" and step > 8:
                with django_assert_num_queries(0):
                    before, event, state = state_cache.position_at(engine, light, n, step)
            else:
                before, event, state = state_cache.position_at(engine, light, n, step)
            assert engine.view(state, None) == engine.view(states[step], None), (visit, step)
            assert engine.view(before, None) == engine.view(states[max(step - 1, 0)], None)
            assert event == (document["events"][step - 1] if step else None)
            if connection.vendor == "postgresql" and (step <= 8 or visit == "warm"):
                # a step before the first snapshot reads its own events only
                assert "events" in light.get_deferred_fields(), ("the log was loaded", step)
    assert state_cache.events_between(light, 3, 3) == []
    assert state_cache.events_between(light, 2, 6) == document["events"][2:6]
