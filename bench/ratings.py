"""Ratings: a full recompute of N records against a bare openskill loop over the same results.

    .venv/bin/python bench/ratings.py [--records 100000]      # DATABASE_URL: PostgreSQL

Runs in a throw-away test database (SQLite in memory without DATABASE_URL). The
records are result-only Secret Santa games inserted in bulk (``bulk_create``,
no rules replay: ratings read only players, ranks and dates): 100 groups of 40
players (a club each), a group chosen with Zipf-like weights, 2, 3 or 4 players
from it (20/40/40%), scores 0-20 (so ties happen), one game every ~10 minutes
over two years. Then:

- *full recompute*: ``analytics.ratings.ratings_rebuild()`` (read the scope's
  records and seats in one query, rate, write every history row, application
  and rating);
- *bare openskill*: the same outcomes in the same order through
  ``PlackettLuce().rate`` with ratings in a dict (no database), timed just before
  and just after the recompute, the mean of the two the reference (a shared
  machine's speed drifts);
- *append*: ``ratings_apply`` of one new record after the last one;
- *batch*: 1,000 new records after the last: the first 500 through ``ratings_apply``
  one by one, the next 500 through ``ratings_apply_records`` at once (a bulk
  ingest's batch), each as milliseconds per record;
- *late record*: ``ratings_apply`` of one record played at the median date (applies
  again the records from there on that its players' changed ratings reach).

``ratings_figures(records)`` returns the figures as a dict, ``ratings_rows(records)``
as ``python -m bench`` rows; both need Django set up and a database holding no
other records (they delete theirs after).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")

GROUPS, GROUP_SIZE = 100, 40
BATCH = 500  # records a batch ingest hands the ratings at once
START = dt.datetime(2025, 1, 1, 18, 0, tzinfo=dt.UTC)


def _competition_ranks(scores: list[int]) -> list[int]:
    return [1 + sum(other > score for other in scores) for score in scores]


def _results(records: int, rng: random.Random) -> list[tuple[list[int], list[int], dt.datetime]]:
    """(player numbers in seat order, scores, played_at) for each generated record."""
    weights = [1 / (rank + 1) for rank in range(GROUPS)]
    out = []
    for k in range(records):
        group = rng.choices(range(GROUPS), weights)[0]
        size = rng.choices((2, 3, 4), (2, 4, 4))[0]
        seated = rng.sample(range(group * GROUP_SIZE, (group + 1) * GROUP_SIZE), size)
        scores = [rng.randint(0, 20) for _ in seated]
        out.append((seated, scores, START + dt.timedelta(minutes=10 * k + rng.random())))
    return out


def _players(*, tag: str) -> list[int]:
    from replays.models import Player

    players = Player.objects.bulk_create(
        [Player(name=f"bench-{tag}-{n}") for n in range(GROUPS * GROUP_SIZE)], batch_size=2000
    )
    return [p.pk for p in players]


def _insert(results, *, player_ids: list[int]) -> list[int]:
    """Bulk-insert the records and their seats; returns the record ids."""
    from replays.models import Record, Seat

    record_ids: list[int] = []
    for offset in range(0, len(results), 5000):
        chunk = results[offset : offset + 5000]
        rows = Record.objects.bulk_create(
            [
                Record(
                    game="secret_santa",
                    kind=Record.Kind.RESULT,
                    digest=uuid.uuid4().hex + uuid.uuid4().hex,
                    result={
                        "scores": scores,
                        "ranks": (ranks := _competition_ranks(scores)),
                        "winners": [s for s, r in enumerate(ranks) if r == 1],
                    },
                    num_events=0,
                    played_at=played_at,
                )
                for _seated, scores, played_at in chunk
            ]
        )
        Seat.objects.bulk_create(
            [
                Seat(record=record, player_id=player_ids[p], seat=s, won=ranks[s] == 1)
                for record, (seated, scores, _) in zip(rows, chunk, strict=True)
                for s, p in enumerate(seated)
                if (ranks := _competition_ranks(scores))
            ],
            batch_size=5000,
        )
        record_ids.extend(r.pk for r in rows)
    return record_ids


def _bare_loop(results) -> float:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[int, Any] = {}
    started = time.perf_counter()
    for seated, scores, _ in sorted(results, key=lambda r: r[2]):
        teams = [[ratings.get(p) or model.rating()] for p in seated]
        rated = model.rate(teams, ranks=_competition_ranks(scores))
        for p, team in zip(seated, rated, strict=True):
            ratings[p] = team[0]
    return time.perf_counter() - started


def ratings_figures(records: int = 100_000, *, seed: int = 7) -> dict[str, Any]:
    """Full recompute vs bare openskill over ``records`` generated records (seconds, ratios)."""
    from django.db import connection

    from analytics.models import PlayerRating, RatingHistory, RatingScope
    from analytics.ratings import ratings_apply, ratings_apply_records, ratings_rebuild
    from replays.models import Player, Record

    rng = random.Random(seed)
    results = _results(records, rng)
    tag = uuid.uuid4().hex[:6]
    started = time.perf_counter()
    player_ids = _players(tag=tag)
    record_ids = _insert(results, player_ids=player_ids)
    insert_s = time.perf_counter() - started
    if connection.vendor == "postgresql":
        # What autovacuum does to a table that grew: without statistics the planner
        # takes the fresh records for a handful and plans the read for that.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE replays_record, replays_seat, replays_player")
    try:
        bare_before = _bare_loop(results)
        started = time.perf_counter()
        ratings_rebuild()
        recompute_s = time.perf_counter() - started
        bare_s = (bare_before + _bare_loop(results)) / 2
        history_rows = RatingHistory.objects.filter(scope__key="game:secret_santa").count()
        rated = PlayerRating.objects.filter(scope__key="game:secret_santa").count()
        # One new record after the last: the everyday path.
        last_at = results[-1][2] + dt.timedelta(minutes=10)
        newest = _insert(
            [(rng.sample(range(GROUP_SIZE), 3), [5, 9, 9], last_at)], player_ids=player_ids
        )
        record_ids.extend(newest)
        started = time.perf_counter()
        ratings_apply(record=Record.objects.get(pk=newest[0]))
        append_ms = (time.perf_counter() - started) * 1000
        # 2 x BATCH more records after the last: the first half applied one by one, the
        # second in one batch, as the bulk ingest applies them.
        more = []
        for k in range(2 * BATCH):
            group = range(GROUP_SIZE * (k % GROUPS), GROUP_SIZE * (k % GROUPS + 1))
            at = last_at + dt.timedelta(minutes=10 * (k + 1))
            more.append((rng.sample(group, 3), [rng.randint(0, 20) for _ in range(3)], at))
        more_ids = _insert(more, player_ids=player_ids)
        record_ids.extend(more_ids)
        loaded = Record.objects.in_bulk(more_ids)
        started = time.perf_counter()
        for pk in more_ids[:BATCH]:
            ratings_apply(record=loaded[pk])
        one_by_one_ms = (time.perf_counter() - started) * 1000 / BATCH
        started = time.perf_counter()
        ratings_apply_records(records=[loaded[pk] for pk in more_ids[BATCH:]])
        batch_ms = (time.perf_counter() - started) * 1000 / BATCH
        # One record at the median date: recomputes the second half.
        middle_at = results[records // 2][2] + dt.timedelta(seconds=1)
        late = _insert(
            [(rng.sample(range(GROUP_SIZE), 3), [1, 2, 3], middle_at)], player_ids=player_ids
        )
        record_ids.extend(late)
        started = time.perf_counter()
        ratings_apply(record=Record.objects.get(pk=late[0]))
        late_s = time.perf_counter() - started
    finally:
        RatingScope.objects.filter(key="game:secret_santa").delete()
        Record.objects.filter(pk__in=record_ids).delete()
        Player.objects.filter(name__startswith=f"bench-{tag}").delete()
    return {
        "records": records,
        "players": len(player_ids),
        "database": connection.vendor,
        "history_rows": history_rows,
        "rated_players": rated,
        "insert_s": round(insert_s, 2),
        "full_recompute_s": round(recompute_s, 2),
        "bare_openskill_s": round(bare_s, 2),
        "ratio": round(recompute_s / bare_s, 2),
        "recompute_records_per_s": round(records / recompute_s),
        "bare_records_per_s": round(records / bare_s),
        "append_one_ms": round(append_ms, 1),
        "append_one_by_one_ms_per_record": round(one_by_one_ms, 2),
        f"batch_of_{BATCH}_ms_per_record": round(batch_ms, 2),
        "batch_speedup": round(one_by_one_ms / batch_ms, 1),
        "late_at_median_s": round(late_s, 2),
    }


def ratings_rows(records: int = 100_000) -> list[dict[str, Any]]:
    """The recompute against the bare loop, as a ``python -m bench`` row (bench/figures.py)."""
    from bench.figures import row

    f = ratings_figures(records)
    ratio = f["full_recompute_s"] / f["bare_openskill_s"]
    return [
        row(
            f"ratings recompute, {records:,} records",
            f["full_recompute_s"],
            "s",
            f["bare_openskill_s"],
            "<= 1.3x bare openskill loop, same results",
            ratio <= 1.3,
            f"reference: bare openskill loop over the same results; {f['history_rows']:,} "
            f"history rows; one new record {f['append_one_ms']} ms, in a batch of {BATCH} "
            f"{f[f'batch_of_{BATCH}_ms_per_record']} ms a record (one by one "
            f"{f['append_one_by_one_ms_per_record']} ms); one late at the median "
            f"{f['late_at_median_s']} s",
        )
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    args = parser.parse_args()
    import django

    django.setup()
    from django.test.runner import DiscoverRunner
    from django.test.utils import setup_test_environment

    setup_test_environment()
    runner = DiscoverRunner(verbosity=0)
    old = runner.setup_databases()
    try:
        figures = ratings_figures(args.records)
    finally:
        runner.teardown_databases(old)
    width = max(len(k) for k in figures)
    for key, value in figures.items():
        print(f"{key:<{width}}  {value}")
    print(
        f"full recompute {figures['full_recompute_s']} s vs bare openskill "
        f"{figures['bare_openskill_s']} s: {figures['ratio']}x"
    )


if __name__ == "__main__":
    main()
