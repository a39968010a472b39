"""The replay state cache: the state after every ``EVERY`` events of a record, in the cache.

Replaying from step 0 was a third of a step request (12.6 ms in the middle of a
2,310-event GiftTRAP game, docs/performance.md). A record never changes, so
the state after ``k`` events is a pure function of its digest and ``k``: it can
be kept in Django's cache (Redis in production, ``CACHE_URL``) and rebuilt at
any time. Never a second source of truth: a miss replays from the log.

A long record's snapshots are also kept in the database (``replays.replay_store``), so a
cache emptied by a restart or an eviction costs a query, not a replay: reads go to the
cache, then the database (putting them back in the cache), then the log (keeping what it
replayed in both).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import pickle
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.core.cache import cache
from django.db import connection

import games
from games.base import Engine
from games.registry import all_engines
from replays import replay_store
from replays.models import Record

EVERY = 64
TIMEOUT = 24 * 3600


def states_version() -> str:
    """A fingerprint of every engine's ``State``: its module, name and ``state.py`` source.

    A cached state is a pickled ``State``; when one changes shape (a field added, a class
    moved), older pickles must not be read back. Every engine package has the same shape
    (``games/<slug>/state.py`` holds ``State``), so hashing those sources changes the cache
    keys whenever a state could have changed, with nothing to remember to bump. The
    ``.py`` file is read even when the compiled build is imported: it is the source.
    """
    digest = hashlib.sha256()
    for engine in sorted(all_engines(), key=lambda e: e.slug):
        package = importlib.import_module(type(engine).__module__.rpartition(".")[0])
        state_class = package.State
        source = Path(str(package.__file__)).with_name("state.py")
        digest.update(f"{state_class.__module__}.{state_class.__qualname__}\0".encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()[:12]


VERSION = states_version()


#: Modules of ``games/`` (paths from it) that no replay body is worded from, left out of
#: ``words_version``: the analysis (``games/analysis.py``), which replays never import
#: (tests/replays/test_timeline_voice.py checks that) and whose stored results are keyed
#: by its own ``ANALYSIS_VERSION`` and settings, so tuning its playouts does not drop
#: every cached replay body. A module that words something a replay body shows (an
#: analysis's "Better: ..." advice, if a timeline ever holds it) must not be listed.
NOT_WORDING: frozenset[str] = frozenset({"analysis.py"})


def words_version() -> str:
    """A fingerprint of the code that tells a game in words: the modules of ``games/``
    but ``NOT_WORDING``.

    A step's or a timeline's body holds sentences (``words.py``, ``games/voice.py``), move
    labels and views (``views.py``, ``rules.py``); when any of them changes, a body cached
    before says what the code no longer says. The record endpoints' body keys and the
    timeline's cache keys carry this fingerprint (``replays.response_cache``,
    ``replays.timeline``), so a deploy that rewords a sentence never serves the old one
    and nobody has to remember to bump a version.
    """
    return _games_digest(leave_out=NOT_WORDING)


def games_version() -> str:
    """A fingerprint of every module of ``games/``, the analysis included: what a stored
    analysis of a game depends on (the rules, the bots that play its playouts, the
    analysis itself; ``analytics.record_analysis.analysis_version``)."""
    return _games_digest(leave_out=frozenset())


def _games_digest(*, leave_out: frozenset[str]) -> str:
    digest = hashlib.sha256()
    root = Path(str(games.__file__)).parent
    for source in sorted(root.rglob("*.py")):
        name = source.relative_to(root).as_posix()
        if name in leave_out:
            continue
        digest.update(name.encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:12]


WORDS_VERSION = words_version()


# A compiled engine's state pickles differently from the same class run as pure Python
# (bin/compile_engines.py), and processes sharing the cache may differ: each kind of
# build reads only its own snapshots.
BUILD = "c" if games.ENGINE_BUILD == "compiled" else "py"


def _key(record: Record, count: int) -> str:
    return f"snapshot2:v{VERSION}:{BUILD}:{record.digest}:{count}"


# A snapshot is kept with the events that follow it, up to the next one (``_bundle``): a
# step's first visit then reads the state and the events it applies in one cache read,
# where it read the events from the log with a query of their own.


def _bundle(state: Any, events: Sequence[dict[str, Any]], count: int) -> bytes:
    """The state after ``count`` events and the events after it, up to the next snapshot."""
    return pickle.dumps((state, list(events[count : count + EVERY])), pickle.HIGHEST_PROTOCOL)


def _unbundle(saved: bytes) -> tuple[Any, list[dict[str, Any]]]:
    state, following = pickle.loads(saved)
    return state, following


def _saved(record: Record, base: int) -> bytes | None:
    """The bundle kept after ``base`` events: from the cache, else from the database
    (``replays.replay_store``; then put back in the cache, so the next steps up to the
    next snapshot read the cache), else None (a row holding fewer is no row for it).

    Only that bundle is put back: the row holds all of them, but writing the 72 of the
    longest game to the cache took as long as the rest of the visit (a pipeline of 145
    commands), and a later step elsewhere in the game reads the row again in one query.
    """
    if not base:
        return None
    saved = cache.get(_key(record, base))
    if saved is not None or not replay_store.worth_storing(record.num_events):
        return saved
    bundles = replay_store.snapshots_read(
        record_id=record.pk, build=BUILD, version=VERSION, digest=record.digest, every=EVERY
    )
    if not bundles:
        return None
    index = base // EVERY - 1
    if index >= len(bundles):  # kept by a visitor's replay that stopped before it
        return None
    cache.set(_key(record, base), bundles[index], TIMEOUT)
    return bundles[index]


def state_after(engine: Engine, record: Record, num_players: int, count: int) -> Any:
    """The state after the first ``count`` events of ``record``.

    Trusted replay (``apply_trusted``): a stored record was checked when it was stored.
    Without a snapshot, the log is replayed from the start, and the snapshots it passes
    are kept (in the cache, and in the database for a long record: the next visitor
    of these steps reads them there even after the cache was emptied).
    """
    base = (count // EVERY) * EVERY
    if not base:
        return _opening(engine, record, num_players, events_between(record, 0, count))
    saved = _saved(record, base)
    if saved is not None:
        state, following = _unbundle(saved)
        for event in following[: count - base]:
            state = engine.apply_trusted(state, event)
        return state
    return _replayed(engine, record, num_players, count)


def _opening(engine: Engine, record: Record, num_players: int, events: list[Any]) -> Any:
    """The state after the set-up and ``events``, the first of the log (fewer than
    ``EVERY``: a step before the first snapshot).

    Such a step has no snapshot before it, and replaying it from the log decoded the
    whole log of a record loaded without it (4,620 events for the longest game: 9 ms
    of an 11 ms first visit): only the events it applies are read
    (``events_between``).
    """
    state = engine.setup(num_players, record.options)
    for event in events:
        state = engine.apply_trusted(state, event)
    return state


def _replayed(engine: Engine, record: Record, num_players: int, count: int) -> Any:
    """``state_after`` from the log, keeping the snapshots it passes (no snapshot was found)."""
    base = (count // EVERY) * EVERY
    # Pickled as it is reached: an engine may build the next state in place.
    events = record.events
    state = engine.setup(num_players, record.options)
    bundles: list[bytes] = []
    for index in range(base):
        state = engine.apply_trusted(state, events[index])
        if (index + 1) % EVERY == 0:
            bundles.append(_bundle(state, events, index + 1))
    _snapshots_keep(record, bundles)
    for index in range(base, count):
        state = engine.apply_trusted(state, events[index])
    return state


def _snapshots_keep(record: Record, bundles: list[bytes]) -> None:
    """Keep a record's first bundles (``bundles[i]``: after ``(i + 1) * EVERY`` events)
    in the cache, and in the database if it is long (``replay_store.worth_storing``; a
    ``Record`` is always a finished game: live games never come here). A visitor's replay
    keeps those up to its step (the row then holds a prefix; a later step past it is
    replayed and stored again), the preparation all of them."""
    if not bundles:
        return
    cache.set_many(
        {_key(record, EVERY * (i + 1)): bundle for i, bundle in enumerate(bundles)},
        timeout=TIMEOUT,
    )
    if not replay_store.worth_storing(record.num_events):
        return
    replay_store.snapshots_write(
        record_id=record.pk,
        build=BUILD,
        version=VERSION,
        digest=record.digest,
        every=EVERY,
        bundles=bundles,
    )


def snapshots_store(record: Record, states: Sequence[Any]) -> dict[int, bytes]:
    """Keep the snapshots of ``record`` (every ``EVERY`` events) from its replayed states
    (``states[k]``: after ``k`` events), in the cache and the database, so a step's first
    visit applies at most ``EVERY`` events, even after the cache was emptied. Returns the
    bundles kept, by the count of events each follows (the preparation keeps them under
    the record's token too: ``replays.viewer_warm``)."""
    events = record.events
    counts = range(EVERY, len(states), EVERY)
    bundles = [_bundle(states[count], events, count) for count in counts]
    _snapshots_keep(record, bundles)
    return dict(zip(counts, bundles, strict=True))


def opening_bundle(record: Record, states: Sequence[Any]) -> bytes:
    """The set-up state with the first ``EVERY`` events, as a snapshot's bundle: what a
    step of the first window starts from (kept by the preparation under the record's
    token, so such a step reads neither the log nor the database)."""
    return _bundle(states[0], record.events, 0)


def window_base(step: int) -> int:
    """The count of events of the snapshot ``position_at(step)`` starts from (0: none)."""
    return (max(step - 1, 0) // EVERY) * EVERY


def events_between(record: Record, start: int, stop: int) -> list[dict[str, Any]]:
    """``record.events[start:stop]``; when the log was not loaded (``record_get(log=False)``),
    only those events are read from PostgreSQL.

    Decoding a 4,620-event log to apply the few events after a snapshot cost more than
    the rest of a step's first visit.
    """
    if start >= stop:
        return []
    if "events" not in record.get_deferred_fields() or connection.vendor != "postgresql":
        return list(record.events[start:stop])
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT jsonb_path_query_array(events, %s::jsonpath) FROM {Record._meta.db_table} "
            "WHERE id = %s",
            [f"$[{start} to {stop - 1}]", record.pk],
        )
        row = cursor.fetchone()
    value = row[0] if row is not None else None
    return json.loads(value) if isinstance(value, (str, bytes)) else list(value or [])


def position_at(
    engine: Engine, record: Record, num_players: int, step: int, *, saved: bytes | None = None
) -> tuple[Any, Any, Any]:
    """(state before ``step``, the event of ``step`` or None, the state after it).

    From the nearest snapshot (the cache's, else the database's) and the events kept with
    it (the log is not read); without one, the log is replayed from the start
    (``_replayed``, which keeps the snapshots it passes). ``saved``: that snapshot's
    bundle (after ``window_base(step)`` events; for a step of the first window, the
    set-up with the first events: ``opening_bundle``), when the caller read it already.
    """
    before_count = max(step - 1, 0)
    base = window_base(step)
    if not base and (saved is None or not step):
        events = events_between(record, 0, step)
        before = _opening(engine, record, num_players, events[:before_count])
        event = events[-1] if step else None
        return before, event, engine.apply_trusted(before, event) if step else before
    if saved is None:
        saved = _saved(record, base)
    if saved is None:  # looked up already: replayed without asking the cache and row again
        before = _replayed(engine, record, num_players, before_count)
        event = record.events[step - 1] if step else None
    else:
        before, following = _unbundle(saved)
        events = following[: step - base]
        if len(events) < step - base:  # never for a step of this log; if so, read them
            events = events_between(record, base, step)
        for index in range(before_count - base):
            before = engine.apply_trusted(before, events[index])
        event = events[-1]  # step > base here
    state = engine.apply_trusted(before, event) if event is not None else before
    return before, event, state
