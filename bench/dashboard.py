"""Game dashboard latency at 1,000 and 100,000 records, against a page of the same bytes.

    DEBUG=1 DATABASE_URL=postgres://postgres@127.0.0.1:5432/giftbox_bench \\
        .venv/bin/python bench/dashboard.py [--records 1000 100000] [--requests 200]

Runs in a throw-away test database on DATABASE_URL's server (SQLite without it).
For each size it fills Gift Swap records *fast*, not by simulating each one
(simulation stores about 30 records/s): a few hundred bot games are played once
and their facts derived once (``analytics.facts``); every stored record reuses
one of those logs with the seats given to other players (so every digest differs),
a played_at spread over twelve months and one of three clubs (or none), half of
them marked simulated. Records, seats and facts are bulk-inserted; the statistics
snapshots are then written by the nightly full recompute (its time is reported too).

Then it asks, through Django's test client in this process (the full middleware
stack, no network), for ``/games/gift_swap/`` (every chart, no filter), the same page
filtered by club and months (which reads the month snapshots), both again with the
cache emptied before every request ("cold": the first visit after a record landed,
when the figures are computed and the statistics part rendered again), and a bare
view that returns the unfiltered page's bytes: p50 and p95 of each, and the ratio. The other
helpers' bench runner calls :func:`dashboard_figures`.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import random
import sys
import time
import types
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")

import django

django.setup()

from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import F  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.runner import DiscoverRunner  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import path  # noqa: E402

from analytics.facts import record_facts_compute  # noqa: E402
from analytics.models import RecordFacts  # noqa: E402
from analytics.statistics import statistics_recompute_all  # noqa: E402
from analytics.summaries import game_summary_recompute  # noqa: E402
from games.play import replay  # noqa: E402
from games.registry import get_engine  # noqa: E402
from replays.giftlog import options_key, record_digest  # noqa: E402
from replays.models import Player, Record, Seat  # noqa: E402
from replays.simulation import simulated_document  # noqa: E402

GAME = "gift_swap"
BASE_LOGS = 300
NAMES = [f"player{k:02d}" for k in range(40)]
CLUBS = ["North Pier", "South Quay", "Old Mill", ""]
BATCH = 2000

_bare_body = b""


def _bare(request: Any) -> HttpResponse:
    return HttpResponse(_bare_body, content_type="text/html; charset=utf-8")


_urls = types.ModuleType("bench_dashboard_urls")


def _install_urls() -> None:
    from config import urls

    _urls.urlpatterns = [path("bench/bare/", _bare), *urls.urlpatterns]  # type: ignore[attr-defined]
    sys.modules["bench_dashboard_urls"] = _urls


def _base_logs(count: int) -> list[dict[str, Any]]:
    engine = get_engine(GAME)
    rng = random.Random(2026)
    logs = []
    for _ in range(count):
        n = rng.randint(engine.min_players, engine.max_players)
        document = simulated_document(GAME, num_players=n, rng=rng)
        state = replay(engine, n, document["options"], document["events"])
        result = engine.result(state).to_json()
        facts = record_facts_compute(
            game=GAME, num_players=n, options=document["options"], events=document["events"],
            result=result,
        )  # fmt: skip
        logs.append({"document": document, "result": result, "facts": facts})
    return logs


def fill(records: int, *, logs: list[dict[str, Any]]) -> float:
    """Bulk-insert ``records`` records with seats and facts; returns the seconds taken."""
    started = time.perf_counter()
    players = {p.name: p for p in Player.objects.bulk_create([Player(name=n) for n in NAMES])}
    rng = random.Random(records)
    start = datetime(2025, 12, 1, tzinfo=UTC)
    made = 0
    seen: set[str] = set()
    while made < records:
        batch_records, batch_meta = [], []
        while len(batch_records) < min(BATCH, records - made):
            base = logs[rng.randrange(len(logs))]
            document = base["document"]
            n = len(document["players"])
            names = rng.sample(NAMES, n)
            digest = record_digest(GAME, document["options"], names, document["events"])
            if digest in seen:
                continue
            seen.add(digest)
            simulated = rng.random() < 0.5
            club = rng.choice(CLUBS)
            played = start + timedelta(days=rng.randrange(365), hours=rng.randrange(24))
            meta = {"source": "bench", **({"club": club} if club else {})}
            if simulated:
                meta["simulated"] = True
            batch_records.append(
                Record(
                    game=GAME, digest=digest, options=document["options"], meta=meta,
                    events=document["events"], result=base["result"],
                    num_events=len(document["events"]), played_at=played, simulated=simulated,
                )
            )  # fmt: skip
            batch_meta.append((base, names, club, played, simulated))
        Record.objects.bulk_create(batch_records, batch_size=500)
        seats, facts = [], []
        for record, (base, names, club, played, simulated) in zip(
            batch_records, batch_meta, strict=True
        ):
            winners = base["result"]["winners"]
            seats += [
                Seat(record=record, player=players[name], seat=k, won=k in winners)
                for k, name in enumerate(names)
            ]
            facts.append(
                RecordFacts(
                    record=record, game=GAME, simulated=simulated, num_players=len(names),
                    variant=options_key(base["document"]["options"]), club=club,
                    month=played.strftime("%Y-%m"), scores=base["result"]["scores"],
                    winners=sorted(winners), **base["facts"],
                )
            )  # fmt: skip
        Seat.objects.bulk_create(seats, batch_size=2000)
        RecordFacts.objects.bulk_create(facts, batch_size=1000)
        made += len(batch_records)
    # The summary as the ingest keeps it: real play only (half the records are simulated).
    game_summary_recompute(game=GAME)
    # A club's history, stored when it was played: not records of the last minutes that
    # still wait for their ingest (they have no results here), for which an ingest task
    # leaves the dashboards to the ingest of the last of them (analytics.services).
    Record.objects.filter(game=GAME).update(created_at=F("played_at"))
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # what autovacuum does soon after a bulk load
            cursor.execute("ANALYZE")
    return time.perf_counter() - started


def _timings(client: Client, url: str, requests: int, *, cold: bool = False) -> list[float]:
    """Milliseconds per request; ``cold`` empties the cache first (the first visit after
    a record landed, when the statistics part is computed and rendered again)."""
    for _ in range(5):  # warm up: templates, plotly figure code, connections
        assert client.get(url).status_code == 200
    out = []
    for _ in range(requests):
        if cold:
            cache.clear()
        started = time.perf_counter()
        response = client.get(url)
        out.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
    return out


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


def dashboard_figures(records: int, *, requests: int = 200, logs: list | None = None) -> dict:
    """Fill ``records`` records into the current (empty) database and time the dashboard.

    Returns p50/p95 in ms of the dashboard, a filtered dashboard and the bare view with
    the same bytes, the page size, and the fill and recompute times in seconds. The
    caller owns the database (a test database: rows are deleted afterwards).
    """
    global _bare_body
    _install_urls()
    logs = logs or _base_logs(BASE_LOGS)
    fill_s = fill(records, logs=logs)
    started = time.perf_counter()
    quiet = logging.getLogger("analytics.statistics")
    level, quiet.level = quiet.level, logging.ERROR  # every snapshot is new: no news
    report = statistics_recompute_all()
    quiet.setLevel(level)
    recompute_s = time.perf_counter() - started
    client = Client()
    url = f"/games/{GAME}/"
    filtered = f"{url}?club=North+Pier&from=2026-01&to=2026-06"
    with override_settings(ROOT_URLCONF="bench_dashboard_urls"):
        _bare_body = client.get(url).content
        gc.collect()
        page = _timings(client, url, requests)
        bare = _timings(client, "/bench/bare/", requests)
        narrow = _timings(client, filtered, requests)
        cold = _timings(client, url, requests, cold=True)
        narrow_cold = _timings(client, filtered, requests, cold=True)
    figures = {
        "records": records,
        "page_bytes": len(_bare_body),
        "dashboard_p50_ms": _pct(page, 0.5),
        "dashboard_p95_ms": _pct(page, 0.95),
        "filtered_p50_ms": _pct(narrow, 0.5),
        "filtered_p95_ms": _pct(narrow, 0.95),
        "cold_p50_ms": _pct(cold, 0.5),
        "cold_p95_ms": _pct(cold, 0.95),
        "filtered_cold_p95_ms": _pct(narrow_cold, 0.95),
        "bare_p50_ms": _pct(bare, 0.5),
        "bare_p95_ms": _pct(bare, 0.95),
        "fill_s": round(fill_s, 1),
        "recompute_all_s": round(recompute_s, 1),
        "snapshots": report["scopes"],
    }
    figures["p95_ratio_to_bare"] = round(figures["dashboard_p95_ms"] / figures["bare_p95_ms"], 1)
    Record.objects.all().delete()
    Player.objects.all().delete()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, nargs="+", default=[1000, 100_000])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args()
    setup_test_environment()
    runner = DiscoverRunner(verbosity=0)
    old = runner.setup_databases()
    try:
        logs = _base_logs(BASE_LOGS)
        results = [dashboard_figures(n, requests=args.requests, logs=logs) for n in args.records]
    finally:
        runner.teardown_databases(old)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(
        f"{'records':>9}{'page p50':>10}{'page p95':>10}{'filtered p95':>14}{'cold p95':>10}"
        f"{'filt. cold p95':>16}{'bare p95':>10}{'p95/bare':>10}{'bytes':>9}{'fill s':>8}"
        f"{'recompute s':>13}"
    )
    for r in results:
        print(
            f"{r['records']:>9,}{r['dashboard_p50_ms']:>10}{r['dashboard_p95_ms']:>10}"
            f"{r['filtered_p95_ms']:>14}{r['cold_p95_ms']:>10}{r['filtered_cold_p95_ms']:>16}"
            f"{r['bare_p95_ms']:>10}{r['p95_ratio_to_bare']:>10}{r['page_bytes']:>9,}"
            f"{r['fill_s']:>8}{r['recompute_all_s']:>13}"
        )
    print(json.dumps(results))


if __name__ == "__main__":
    main()
