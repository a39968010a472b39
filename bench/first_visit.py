"""Where a step's first visit goes, phase by phase, in one process: a tool, not a figure.

    .venv/bin/python -m bench.first_visit [--records 6] [--per-record 48] [--seat N]
                                          [--between none|sleep|copy] [--listed]

The bench's first-visit rows (``bench.viewer``) say how a step's first visit compares with
a bare view over HTTP; this says what the visit spends its time on. It stores
``--records`` copies of the longest game (``bench.viewer.long_game``, a new digest each),
prepares them as the upload's task does (``replays.viewer_warm``), and builds the table
fragment of never-asked steps (each in a snapshot window of its own, as the bench samples
them) in the phases ``replays.selectors.record_step_table`` goes through: the one Redis
read (the record's token, the header, the snapshot), the header and the position (the
snapshot and up to ``state_cache.EVERY - 1`` events), the legal events, the moves'
labels (none for the table the viewer asks for first, its list of moves folded; with
``--listed``, the table a visitor who opened the list asks for), and the view and its
drawing (``replays.tables.table_html``). It then times the
page's own path (``selectors.record_step_table_answer``) on as many other never-asked
steps, so that a split drifting from the code shows as a difference between the two
totals.

``--between`` puts something between the visits, as a server's other work does: ``sleep``
(5 ms idle) or ``copy`` (64 MB copied, so each visit starts with the processor's caches
holding none of its code or data; docs/performance.md, "Signed-in first visits, remembered
for a minute"). Runs against PostgreSQL like ``python -m bench`` (its own database,
``giftbox_bench_first_visit``, dropped at the end) and the cache of ``CACHE_URL`` (Redis,
as the servers have it; another cache is said so and measured anyway).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable

from bench.__main__ import _dsn, database_drop, database_fresh

DATABASE = "giftbox_bench_first_visit"
PHASES = ("read", "header and position", "legal events", "labels", "view and drawing")


def _samples(events: int, records: list[int], per_record: int, seed: int) -> list[tuple[int, int]]:
    """``per_record`` steps of each record, each in a snapshot window of its own: the
    bench's own sampling of a step's first visits (``bench.viewer._step_samples``), for
    one path."""
    from bench.viewer import STEP_PATHS, _step_samples

    samples = _step_samples(events, records, per_record, seed)[next(iter(STEP_PATHS))]
    random.Random(seed).shuffle(samples)
    return samples


def _between(kind: str) -> Callable[[], None]:
    if kind == "sleep":
        return lambda: time.sleep(0.005)
    if kind == "copy":
        source, target = bytearray(64 << 20), bytearray(64 << 20)

        def copy() -> None:
            target[:] = source

        return copy
    return lambda: None


def _phased_visit(record_id: int, step: int, seat: int | None, listed: bool) -> dict[str, float]:
    """One first visit of the table fragment, split as ``record_step_table`` does it."""
    from games.base import CHANCE
    from replays import response_cache, selectors
    from replays.tables import table_html, table_summarizer
    from replays.timeline import step_move_words

    took: dict[str, float] = {}
    start = time.perf_counter()
    token_name = response_cache.record_token_name(record_id)
    variant = response_cache.table_variant(step, seat, listed=listed)
    token, found = response_cache.bodies_read(token_name, [variant, *selectors.step_needs(step)])
    if found[0] is not None:
        raise RuntimeError(f"step {step} of record {record_id} was asked before")
    if token is None:
        token = response_cache.token_taken(token_name)
    mark = time.perf_counter()
    took["read"], start = mark - start, mark
    header = found[1] or selectors._header_body(record_id, token_name, token)
    record, players = selectors._header_record(header)
    at = selectors.record_step_position(
        record, step=step, seat=seat, players=players, saved=found[2]
    )
    engine, state = at.engine, at.state
    mark = time.perf_counter()
    took["header and position"], start = mark - start, mark
    movers = [m for m in engine.to_move(state) if m != CHANCE and seat in (None, m)]
    legal = {mover: engine.legal_events(state, mover) for mover in movers}
    mark = time.perf_counter()
    took["legal events"], start = mark - start, mark
    moves = None
    if listed:
        summary = table_summarizer(engine.slug)
        moves = step_move_words(engine, state, movers, at.players, legal=legal, summary=summary)
    mark = time.perf_counter()
    took["labels"], start = mark - start, mark
    later = not listed
    drawn = table_html(
        engine, state, seat=seat, players=at.players, moves=moves, legal=legal, moves_later=later
    )
    drawn.encode()
    took["view and drawing"] = time.perf_counter() - start
    return took


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def run(records: int, per_record: int, seat: int | None, between: str, listed: bool) -> None:
    from django.conf import settings

    from bench.viewer import _store_copy, _warm_up, long_game
    from replays import selectors

    backend = settings.CACHES["default"]["BACKEND"]
    if "redis" not in backend.lower():
        print(f"note: the cache is {backend}, not Redis as on the servers", file=sys.stderr)
    document = long_game()
    prepare = _warm_up()
    ids = []
    for copy in range(2 * records):
        record_id = _store_copy(document, 100_000 + copy)
        prepare(record_ids=[record_id])
        ids.append(record_id)
    events = len(document["events"])
    phased = _samples(events, ids[:records], per_record, seed=1)
    whole = _samples(events, ids[records:], per_record, seed=2)
    pause = _between(between)
    for record_id, step in phased[:8]:  # the process's first visits: imports, memo tables
        _phased_visit(record_id, step, seat, listed)
    split: dict[str, list[float]] = {name: [] for name in PHASES}
    totals: list[float] = []
    for record_id, step in phased[8:]:
        pause()
        took = _phased_visit(record_id, step, seat, listed)
        for name in PHASES:
            split[name].append(took[name])
        totals.append(sum(took.values()))
    real: list[float] = []
    for record_id, step in whole:
        pause()
        start = time.perf_counter()
        selectors.record_step_table_answer(record_id, step=step, seat=seat, listed=listed)
        real.append(time.perf_counter() - start)
    viewer = "everyone" if seat is None else f"seat {seat}"
    viewer += ", its moves listed" if listed else ", its moves folded"
    print(
        f"{len(totals)} first visits of the table fragment ({viewer}), "
        f"{events:,}-event game, between visits: {between}"
    )
    print(f"{'phase':22s} {'mean':>7s} {'p50':>7s} {'p90':>7s} {'p99':>7s}  (ms)")
    for name, values in [*split.items(), ("all phases", totals), ("the page's path", real)]:
        print(
            f"{name:22s} {statistics.fmean(values) * 1000:7.3f} {_ms(values, 0.5):7.3f} "
            f"{_ms(values, 0.9):7.3f} {_ms(values, 0.99):7.3f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=6, help="records per half (default 6)")
    parser.add_argument("--per-record", type=int, default=48, help="steps of each (48)")
    parser.add_argument("--seat", type=int, default=None, help="a seat's table (everyone's)")
    parser.add_argument("--between", choices=("none", "sleep", "copy"), default="none")
    parser.add_argument(
        "--listed", action="store_true", help="the table with its moves listed (folded)"
    )
    args = parser.parse_args()
    server, admin = database_fresh(parser, DATABASE)
    try:
        os.environ.update(
            DATABASE_URL=_dsn(server, DATABASE),
            SECRET_KEY=os.environ.get("SECRET_KEY", "bench-only-secret-key"),
            DEBUG="0",
            CELERY_TASK_ALWAYS_EAGER="1",
            DJANGO_SETTINGS_MODULE="config.settings",
        )
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        run(args.records, args.per_record, args.seat, args.between, args.listed)
    finally:
        database_drop(admin, DATABASE)


if __name__ == "__main__":
    main()
