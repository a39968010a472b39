"""Analytics ingest: the batch path against the bulk import, and a rebuild of N records.

    DATABASE_URL=postgres://... .venv/bin/python bench/ingest.py [--records 100000] [--import 10000]

Runs in a throw-away database (``<DATABASE_URL's name>_run``, dropped at the end;
SQLite in memory without DATABASE_URL). The corpus: bot-played logs of every game
at every table size its rules allow (GiftTRAP up to 8 players), each reused with
other player names from a pool of 400 (a distinct game each time, validated in
full), one in ten bot play (``meta.simulated``), one in twenty a result-only record
(a real table's scores), spread over twelve months and five clubs. Then:

- *bulk import*: ``replays.bulk.records_import`` of ``--import`` lines in this process
  with its pool of rules-check processes (what ``manage.py import_records`` does),
  the announcements held back: games/s, the reference;
- *ingest*: every batch the import announced, through the task's body
  (``analytics.services.records_ingest``) in this one process: records/s, to be at
  least the import's games/s (analytics keeps up with an import on one worker);
- *rebuild*: ``analytics.services.analytics_rebuild()`` over ``--records`` records (the
  imported ones, copied a second apart under other digests up to that count: see
  ``records_multiply``; every derived row thrown away, the records streamed in played
  order through the same batch path, then the ratings recomputed): seconds, under 60
  for 100,000 records, and the 1,000,000 extrapolated linearly.

``ingest_figures(records)`` returns the figures as a dict, ``ingest_rows(records)`` as
``python -m bench`` rows; both need Django set up and a database holding no other
records (they delete theirs after).
"""

from __future__ import annotations

import argparse
import datetime as dt
import logging
import os
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")

from bench.corpus import CACHE, NAME_POOL

CLUBS = ("North Pier", "South Quay", "Old Mill", "Harbour Lights", "Fir Hill")
START = dt.datetime(2025, 1, 1, 18, 0, tzinfo=dt.UTC)


def base_logs(per_size: int = 3, *, seed: int = 23) -> list[dict[str, Any]]:
    """``per_size`` bot-played logs of each game at each table size, simulated once, cached."""
    CACHE.mkdir(exist_ok=True)
    path = CACHE / f"ingest-bases-{per_size}-{seed}.ndjson"
    if path.exists():
        return [orjson.loads(line) for line in path.read_bytes().splitlines() if line]
    from games.play import replay
    from games.registry import all_engines
    from replays.simulation import simulated_document

    rng = random.Random(seed)
    documents = []
    for engine in all_engines():
        for players in range(engine.min_players, engine.max_players + 1):
            for _ in range(per_size):
                document = simulated_document(
                    engine.slug, num_players=players, rng=rng, simulated=False
                )
                state = replay(engine, players, document.get("options"), document["events"])
                document["result"] = engine.result(state).to_json()  # checked by the import
                documents.append(document)
    path.write_bytes(b"".join(orjson.dumps(d) + b"\n" for d in documents))
    return documents


def corpus(count: int, *, seed: int = 23) -> Iterator[bytes]:
    """``count`` distinct NDJSON lines: the base logs with fresh names, dates and clubs."""
    bases = base_logs(seed=seed)
    rng = random.Random(seed)
    minutes = 365 * 24 * 60 / max(count, 1)
    for k in range(count):
        base = bases[k % len(bases)]
        names = rng.sample(NAME_POOL, len(base["players"]))
        played = START + dt.timedelta(minutes=k * minutes + rng.random())
        meta: dict[str, Any] = {
            "source": "bench",
            "club": rng.choice(CLUBS),
            "played_at": played.isoformat(),
        }
        if k % 10 == 3:
            meta["simulated"] = True  # bot play
        if k % 20 == 7:  # a result-only record: the scores a table wrote down
            document = {
                "format": base["format"],
                "game": base["game"],
                "players": names,
                "options": base.get("options", {}),
                "meta": meta,
                "result": {"scores": base["result"]["scores"]},
            }
        else:
            document = {**base, "players": names, "meta": meta}
        yield orjson.dumps(document)


def _import(count: int) -> tuple[float, list[list[int]], int]:
    """Import the corpus (announcements held back): games/s, the announced batches, refusals."""
    from replays import outbox
    from replays.bulk import records_import
    from replays.models import Announcement

    lines = list(enumerate(corpus(count), start=1))
    refused = 0
    with mock.patch.object(outbox, "announcements_dispatch", return_value=0):
        started = time.perf_counter()
        for outcome in records_import(lines):
            refused += outcome.status == "refused"
        seconds = time.perf_counter() - started
    batches = list(
        Announcement.objects.filter(topic=Announcement.TOPIC_RECORDS_STORED)
        .order_by("id")
        .values_list("record_ids", flat=True)
    )
    Announcement.objects.all().delete()
    return (count - refused) / seconds, batches, refused


def facts_overhead(sample: int = 1000) -> tuple[float, float]:
    """Seconds to check ``sample`` corpus lines in this process: rules only, rules and facts."""
    from core.inputs import json_loads
    from replays.giftlog import giftlog_parse
    from replays.validation import log_validate, log_validate_with_facts

    logs = [giftlog_parse(json_loads(line)) for line in corpus(sample)]
    timings = []
    for check in (log_validate, log_validate_with_facts):
        started = time.perf_counter()
        for log in logs:
            check(log)
        timings.append(time.perf_counter() - started)
    return timings[0], timings[1]


def records_multiply(target: int) -> int:
    """Copies of the stored records (and seats) until there are ``target``; returns the count.

    Each copy is the same game a second apart, under another digest: the rebuild reads
    records, whatever made them, and importing 100,000 through the rules check would
    take the run's time. PostgreSQL only (one ``INSERT ... SELECT`` per round).
    """
    from django.db import connection

    from replays.models import Record

    columns = (
        "game, kind, options, meta, events, result, num_events, simulated, submitted_by_id, "
        "created_at, replay_facts"
    )
    stored = Record.objects.count()
    rounds = 0
    with connection.cursor() as cursor:
        while stored < target:
            rounds += 1
            cursor.execute(
                f"INSERT INTO replays_record (digest, played_at, {columns}) "
                f"SELECT left(digest, 52) || '-' || %s, played_at + %s * interval '1 second', "
                f"{columns} "
                "FROM replays_record WHERE digest NOT LIKE '%%-%%' ORDER BY id LIMIT %s",
                [rounds, rounds, target - stored],
            )
            cursor.execute(
                "INSERT INTO replays_seat (record_id, player_id, seat, won) "
                "SELECT n.id, s.player_id, s.seat, s.won FROM replays_record n "
                "JOIN replays_record o ON left(o.digest, 52) = split_part(n.digest, '-', 1) "
                "AND o.digest NOT LIKE '%%-%%' "
                "JOIN replays_seat s ON s.record_id = o.id "
                "WHERE n.digest LIKE %s",
                [f"%-{rounds}"],
            )
            stored = Record.objects.count()
        cursor.execute("ANALYZE replays_record")  # as autovacuum would after a bulk load
        cursor.execute("ANALYZE replays_seat")
    return stored


def ingest_figures(records: int = 100_000, *, imported: int | None = None) -> dict[str, Any]:
    """Bulk import and batch ingest of ``imported`` records, rebuild of ``records`` records.

    ``imported`` (default: ``records`` up to 10,000) lines go through the bulk import
    and the batch ingest; on PostgreSQL the rebuild's ``records`` are then made by
    copying them (:func:`records_multiply`).
    """
    from django.db import connection

    import analytics.ingest as ingest_module
    from analytics.models import PlayerResult, RecordFacts, StatisticsSnapshot
    from analytics.services import analytics_rebuild, records_ingest
    from bench.figures import records_reset
    from replays.models import Record

    base_logs()  # simulated (or read from the cache) before anything is timed
    imported = imported or min(records, 10_000)
    rules_s, facts_s = facts_overhead(min(imported, 1000))
    import_rate, batches, refused = _import(imported)
    stored = sum(len(b) for b in batches)
    ratings_s = 0.0
    apply_records = ingest_module.ratings_apply_records

    def timed(*, records: Any) -> None:
        nonlocal ratings_s
        started = time.perf_counter()
        apply_records(records=records)
        ratings_s += time.perf_counter() - started

    with mock.patch.object(ingest_module, "ratings_apply_records", timed):
        started = time.perf_counter()
        ingested = sum(records_ingest(record_ids=batch) for batch in batches)
        ingest_s = time.perf_counter() - started
    ingest_rate = ingested / ingest_s
    snapshots_after_ingest = StatisticsSnapshot.objects.count()
    stream: dict[str, float] = {}

    def progress(p: Any) -> None:
        stream["seconds"] = p.seconds
        if p.done == p.total or p.done % 20_000 < 1000:
            print(f"  rebuild: {p.done:,} / {p.total:,} records, {p.rate:,.0f}/s", file=sys.stderr)

    multiplied = connection.vendor == "postgresql" and records > stored
    if multiplied:
        records_multiply(records)
    # The copies were never ingested, so the rebuild's ratings differ from those the
    # ingest above stored, by construction: its "ratings drift" warnings (one per game,
    # hundreds of players each) would read as a fault in the bench's output.
    ratings_log = logging.getLogger("analytics.ratings")
    level = ratings_log.level
    if multiplied:
        ratings_log.setLevel(logging.ERROR)
    try:
        started = time.perf_counter()
        report = analytics_rebuild(progress=progress)
        rebuild_s = time.perf_counter() - started
    finally:
        ratings_log.setLevel(level)
    figures = {
        "records": report.records,
        "imported": imported,
        "stored": stored,
        "refused": refused,
        "database": connection.vendor,
        "check_rules_only_s": round(rules_s, 2),
        "check_rules_and_facts_s": round(facts_s, 2),
        "facts_share_of_check": round(facts_s / rules_s - 1, 3),
        "import_games_per_s": round(import_rate),
        "ingest_records_per_s": round(ingest_rate),
        "ingest_ratio": round(ingest_rate / import_rate, 2),
        "ingest_s": round(ingest_s, 2),
        "ingest_ratings_s": round(ratings_s, 2),
        "ingest_records_per_s_besides_ratings": round(ingested / max(ingest_s - ratings_s, 1e-9)),
        "ingest_batches": len(batches),
        "snapshots": snapshots_after_ingest,
        "rebuild_s": round(rebuild_s, 2),
        "rebuild_stream_s": round(stream.get("seconds", 0.0), 2),
        "rebuild_ratings_s": round(rebuild_s - stream.get("seconds", 0.0), 2),
        "rebuild_records_per_s": round(report.records / rebuild_s),
        "rebuild_1m_extrapolated_s": round(rebuild_s * 1_000_000 / max(report.records, 1)),
        "rebuild_quarantined": len(report.quarantined),
        "player_results": PlayerResult.objects.count(),
        "record_facts": RecordFacts.objects.count(),
        "records_in_database": Record.objects.count(),
    }
    records_reset()
    return figures


def ingest_rows(records: int = 100_000, *, imported: int | None = None) -> list[dict[str, Any]]:
    """The ingest against the import, and the rebuild, as ``python -m bench`` rows."""
    from bench.figures import row

    f = ingest_figures(records, imported=imported)
    return [
        row(
            f"ingest records/s, one worker process, batch path ({f['stored']:,} records)",
            f["ingest_records_per_s"],
            "records/s",
            f["import_games_per_s"],
            ">= 1.0x bulk import games/s",
            f["ingest_ratio"] >= 1.0,
            f"reference: bulk import of the same corpus, same run (its rules check computes "
            f"the facts: +{f['facts_share_of_check']:.0%} of the check); {f['ingest_batches']} "
            f"batches (analytics.records_ingest bodies), of which ratings "
            f"(ratings_apply_records) {f['ingest_ratings_s']} s of {f['ingest_s']} s; "
            f"the rest {f['ingest_records_per_s_besides_ratings']:,} records/s",
        ),
        row(
            f"analytics_rebuild of {f['records']:,} records",
            f["rebuild_s"],
            "s",
            None,
            "< 60 s (100,000 records)",
            f["rebuild_s"] < 60 * f["records"] / 100_000,
            f"stream and batches {f['rebuild_stream_s']} s, ratings_rebuild "
            f"{f['rebuild_ratings_s']} s; {f['rebuild_records_per_s']:,} records/s; "
            f"1,000,000 extrapolated: {f['rebuild_1m_extrapolated_s']:,} s",
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000, help="records rebuilt")
    parser.add_argument(
        "--import", dest="imported", type=int, help="records imported and ingested (10,000)"
    )
    args = parser.parse_args()
    import django
    from django.conf import settings

    django.setup()
    from django.test.runner import DiscoverRunner
    from django.test.utils import setup_test_environment

    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("postgresql"):  # beside DATABASE_URL's, under its name
        database.setdefault("TEST", {})["NAME"] = f"{database['NAME']}_run"
    setup_test_environment()
    runner = DiscoverRunner(verbosity=0)
    old = runner.setup_databases()
    try:
        figures = ingest_figures(args.records, imported=args.imported)
    finally:
        runner.teardown_databases(old)
    width = max(len(k) for k in figures)
    for key, value in figures.items():
        print(f"{key:<{width}}  {value}")
    print(
        f"ingest {figures['ingest_records_per_s']:,} records/s vs bulk import "
        f"{figures['import_games_per_s']:,} games/s: {figures['ingest_ratio']}x; "
        f"rebuild of {figures['records']:,} records {figures['rebuild_s']} s "
        f"(1,000,000 extrapolated: {figures['rebuild_1m_extrapolated_s']:,} s)"
    )


if __name__ == "__main__":
    main()
