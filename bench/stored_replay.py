"""First visits of a prepared long record after the cache was emptied (group ``stored``).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres CACHE_URL=redis://127.0.0.1:6379/14 \\
        python -m bench.stored_replay [--copies 8]

On the longest game (8-player GiftTRAP, 4,620 events, ``bench.viewer.long_game``), each
copy a record of its own, prepared as the worker prepares it (``replays.viewer_warm``),
then the whole cache emptied (a Redis restart, an eviction, a day later): the first
visit of a step (``selectors.record_step_json``, one random step and seat) and of a
timeline (``selectors.record_timeline_body``, one seat), in process (no HTTP: the
difference is what the database keeps), three ways, interleaved per copy:

The record's keys are deleted from the cache before each visit (``_cache_emptied``).

* *stored*: the snapshots and the timeline read from the database (``replays.replay_store``);
* *replayed* (the reference, main before the store): nothing read from or written to the
  database, the log replayed as before (to the snapshot before the step; the whole game
  for a timeline);
* *first ever*: no row yet: the log replayed to its end once and every snapshot (or the
  timeline) stored, what the first visitor of a record the worker never prepared pays.

Also the bytes kept per record (``pg_column_size`` of the rows). Each row is a
``bench.figures.row``; with ``python -m bench`` the database is the bench's own, run
standalone it creates ``giftbox_h4_stored_bench`` (``BENCH_DATABASE``) and drops it.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from bench.figures import Row, row

SEAT = 3


def _median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


def _cache_emptied(record_id: int) -> None:
    """Everything the cache holds of this record forgotten, as after a Redis restart: its
    token (so its bodies, header included), its snapshots and its timelines. Only its own
    keys: the cache may be shared with the broker and the other groups."""
    from django.core.cache import cache

    from replays import response_cache, selectors, state_cache, timeline
    from replays.models import Record

    record = Record.objects.only("id", "digest", "num_events").get(pk=record_id)
    players = selectors.record_player_names(record)
    keys = [state_cache._key(record, c) for c in range(record.num_events + 1)]
    keys += [
        timeline._timeline_key(kind, record, players, seat)
        for kind in ("timeline", "timeline-json")
        for seat in [None, *range(len(players))]
    ]
    keys.append(response_cache.record_token_name(record_id))
    cache.delete_many(keys)
    response_cache.local_bodies.clear()


def _timed(call: Callable[[], Any]) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def stored_replay_rows(copies: int = 8) -> list[Row]:
    from django.db import connection

    from bench.viewer import _store_copy, long_game
    from replays import replay_store, selectors, viewer_warm
    from replays.models import StoredSnapshots, StoredTimeline

    document = long_game()
    events = len(document["events"])
    rng = random.Random(23)
    ways = ("stored", "replayed", "first ever")
    taken: dict[tuple[str, str], list[float]] = {(w, p): [] for w in ways for p in ("step", "tl")}
    sizes: list[tuple[int, int]] = []
    real_worth = replay_store.worth_storing
    for copy in range(-1, copies):  # copy -1 warms this process up (imports, connections)
        record_id = _store_copy(document, 5000 + copy + 1)
        assert viewer_warm.record_viewer_warm(record_id=record_id)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT (SELECT sum(pg_column_size(data)) FROM replays_storedsnapshots "
                "WHERE record_id = %s), (SELECT sum(pg_column_size(body)) FROM "
                "replays_storedtimeline WHERE record_id = %s)",
                [record_id, record_id],
            )
            snap_bytes, timeline_bytes = cursor.fetchone()
        if copy >= 0:
            sizes.append((int(snap_bytes), int(timeline_bytes)))
        step, seat = rng.randint(65, events), rng.choice([None, SEAT, rng.randrange(8)])

        def step_visit(record_id: int = record_id, step: int = step, seat: Any = seat) -> None:
            selectors.record_step_json(record_id, step=step, seat=seat)

        def timeline_visit(record_id: int = record_id, seat: Any = seat) -> None:
            selectors.record_timeline_body(record_id, seat=seat)

        order = list(ways[:2])
        rng.shuffle(order)
        for way in [*order, "first ever"]:
            for part, visit in (("step", step_visit), ("tl", timeline_visit)):
                if way == "first ever":
                    StoredSnapshots.objects.filter(record_id=record_id).delete()
                    StoredTimeline.objects.filter(record_id=record_id).delete()
                replay_store.worth_storing = (  # type: ignore[method-assign]
                    (lambda n: False) if way == "replayed" else real_worth
                )
                try:
                    _cache_emptied(record_id)
                    took = _timed(visit)
                    if copy >= 0:
                        taken[(way, part)].append(took)
                finally:
                    replay_store.worth_storing = real_worth  # type: ignore[method-assign]
    load = os.getloadavg()[0]
    note = (
        f"{events:,}-event 8-player GiftTRAP, {copies} records prepared then the cache "
        f"emptied, in process; load {load:.1f}"
    )
    snap, tl = max(s for s, _ in sizes), max(t for _, t in sizes)
    rows = []
    for part, name in (("step", "a step"), ("tl", "a timeline")):
        ref = _median_ms(taken[("replayed", part)])
        for way in ("stored", "first ever"):
            value = _median_ms(taken[(way, part)])
            rows.append(
                row(
                    f"first visit of {name} after the cache was emptied, {way}, median",
                    value,
                    "ms",
                    ref,
                    "< replayed" if way == "stored" else "-",
                    value < ref if way == "stored" else None,
                    f"{note}; reference: replayed from the log (no store); slowest "
                    f"{max(taken[(way, part)]) * 1000:.1f} ms",
                )
            )
    rows.append(
        row(
            "stored replay, bytes per record (longest game)",
            snap + tl,
            "bytes",
            None,
            "-",
            None,
            f"snapshots {snap:,} B (one row), 9 timelines {tl:,} B (everyone and 8 seats)",
        )
    )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=8)
    args = parser.parse_args()
    import psycopg

    from bench.__main__ import _dsn

    server = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    name = os.environ.get("BENCH_DATABASE", "giftbox_h4_stored_bench")
    admin = _dsn(server, "postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    os.environ.update(
        {
            "DATABASE_URL": _dsn(server, name),
            "SECRET_KEY": os.environ.get("SECRET_KEY", "bench-only-secret-key"),
            "DEBUG": "0",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "LOG_LEVEL": "WARNING",
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
    )
    import django

    django.setup()
    from django.core.management import call_command

    import games

    try:
        call_command("migrate", verbosity=0)
        print(f"engines: {games.ENGINE_BUILD}", file=sys.stderr)
        for entry in stored_replay_rows(args.copies):
            ratio = f" ({entry['ratio']}x of {entry['reference']})" if entry["ratio"] else ""
            print(f"{entry['figure']}: {entry['value']} {entry['unit']}{ratio}; {entry['note']}")
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


if __name__ == "__main__":
    main()
