"""Replay snapshots: the state after every ``EVERY`` events of a record, in the cache.

Replaying from step 0 was a third of a step request (12.6 ms in the middle of a
2,310-event GiftTRAP game, docs/performance.md). A record never changes, so
the state after ``k`` events is a pure function of its digest and ``k``: it can
be kept in Django's cache (Redis in production, ``CACHE_URL``) and rebuilt at
any time. Never a second source of truth: a miss replays from the log.
"""

from __future__ import annotations

import pickle
from typing import Any

from django.core.cache import cache

import games
from games.base import Engine
from replays.models import Record

EVERY = 64
TIMEOUT = 24 * 3600
VERSION = 4  # bump when an engine's state layout changes (4: the compiled engines)


# A compiled engine's state pickles differently from the same class run as pure Python
# (bin/compile_engines.py), and processes sharing the cache may differ: each kind of
# build reads only its own snapshots.
BUILD = "c" if games.ENGINE_BUILD == "compiled" else "py"


def _key(record: Record, count: int) -> str:
    return f"snapshot:v{VERSION}:{BUILD}:{record.digest}:{count}"


def state_after(engine: Engine, record: Record, num_players: int, count: int) -> Any:
    """The state after the first ``count`` events of ``record``.

    Trusted replay (``apply_trusted``): a stored record was checked when it was stored.
    """
    base = (count // EVERY) * EVERY
    saved = cache.get(_key(record, base)) if base else None
    state, start = (pickle.loads(saved), base) if saved is not None else (None, 0)
    if state is None:
        # Pickled as it is reached: an engine may build the next state in place.
        state = engine.setup(num_players, record.options)
        missing: dict[str, bytes] = {}
        for index in range(base):
            state = engine.apply_trusted(state, record.events[index])
            if (index + 1) % EVERY == 0:
                missing[_key(record, index + 1)] = pickle.dumps(state, pickle.HIGHEST_PROTOCOL)
        if missing:
            cache.set_many(missing, timeout=TIMEOUT)
        start = base
    for index in range(start, count):
        state = engine.apply_trusted(state, record.events[index])
    return state
