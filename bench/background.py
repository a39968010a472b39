"""Background analytics: an import's answer, and the freshness of uploads around it.

Called by ``python -m bench`` (group ``background``); each function returns rows in the
format of bench/figures.py. Three figures, each against a reference of the same run:

* an import on the embedded default (``manage.py runserver`` on SQLite, no broker: the
  ingest goes to the web process's background pool) against the same import on the same
  server with a broker and workers (Redis): the answer should not wait for analytics;
* the freshness of single uploads (upload to its analytics rows, ratings included: one
  transaction) during a large import on PostgreSQL, with workers as compose.yaml and
  docs/operations.md run them: the worker (``-Q default,analytics``), the importer
  (``-Q imports,analytics_bulk``) and the analyst (``-Q analysis,replays``: the analysis
  of games and the replays' preparation of long records);
* the time from the end of that import to the dashboards and leaderboards complete
  (:func:`complete_missing`: every record's analytics rows, each game's summary, its
  leaderboard's ratings counting every record of the game, and its dashboards rendered
  at the game's present figures), against the import's own time.

The corpus is ``bench.ingest``'s: every game at every table size its rules allow
(8-player GiftTRAP included), clubs, bot play and result-only records.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import orjson

from bench import servers
from bench.figures import Row, records_reset, row

REQUEST_LINES = 1000  # the bulk API's most per request
REQUEST_BYTES = 12 * 1024 * 1024  # under MAX_UPLOAD_BYTES (16 MiB)


class Runserver(servers.Server):
    """The embedded default's server (``manage.py runserver``, as bin/serve runs it)."""

    name = "runserver"

    def __init__(self, env: dict[str, str]) -> None:
        super().__init__(env)
        self.env = {**env, "DJANGO_SETTINGS_MODULE": "config.settings"}

    def command(self) -> list[str]:
        return [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{self.port}"]


def _requests(lines: list[bytes]) -> list[bytes]:
    """The bodies: up to 1,000 lines each, and under the server's ``MAX_UPLOAD_BYTES``
    (16 MiB: 1,000 lines of this corpus with its 8-player GiftTRAP are about 20 MB)."""
    bodies: list[bytes] = []
    chunk: list[bytes] = []
    size = 0
    for line in lines:
        if chunk and (len(chunk) >= REQUEST_LINES or size + len(line) + 1 > REQUEST_BYTES):
            bodies.append(b"\n".join(chunk))
            chunk, size = [], 0
        chunk.append(line)
        size += len(line) + 1
    if chunk:
        bodies.append(b"\n".join(chunk))
    return bodies


def _bulk_post(port: int, lines: list[bytes]) -> tuple[float, int]:
    """POST the lines to /api/records/bulk/ (:func:`_requests`), one request after another.

    Returns the seconds until the last answer, and the last answer's ``analytics_pending``.
    """
    bodies = _requests(lines)
    started = time.perf_counter()
    pending = 0
    for body in bodies:
        status, answer_body = servers.post(port, "/api/records/bulk/", body, "application/x-ndjson")
        answer = orjson.loads(answer_body) if status == 200 else {}
        if status != 200 or answer["refused"]:
            raise RuntimeError(f"bulk upload answered {status}: {answer_body[:300]!r}")
        pending = answer.get("analytics_pending", 0)
    return time.perf_counter() - started, pending


def _corpus_lines(count: int, *, seed: int) -> list[bytes]:
    """``count`` lines of the ingest bench's corpus (8-player GiftTRAP included)."""
    from bench.ingest import corpus

    return list(corpus(count, seed=seed))


def _sqlite_waiting(path: Path) -> int:
    """Records of the SQLite file with no analytics rows yet."""
    with sqlite3.connect(path, timeout=60) as db:
        return db.execute(
            "SELECT count(*) FROM replays_record r WHERE NOT EXISTS "
            "(SELECT 1 FROM analytics_playerresult p WHERE p.record_id = r.id)"
        ).fetchone()[0]


def _queues(tag: str) -> dict[str, str]:
    return {
        "CELERY_TASK_DEFAULT_QUEUE": f"bg-default-{tag}",
        "CELERY_ANALYTICS_QUEUE": f"bg-analytics-{tag}",
        "CELERY_ANALYTICS_BULK_QUEUE": f"bg-bulk-{tag}",
        "CELERY_IMPORTS_QUEUE": f"bg-imports-{tag}",
        "CELERY_SIMULATIONS_QUEUE": f"bg-simulations-{tag}",
        "CELERY_ANALYSIS_QUEUE": f"bg-analysis-{tag}",
        "CELERY_REPLAYS_QUEUE": f"bg-replays-{tag}",
    }


def _documented_workers(env: dict[str, str]) -> list[servers.CeleryWorker]:
    """The worker, the importer and the analyst as compose.yaml runs them, on this run's
    queues and with their pools: prefork, a process per CPU (Celery's default) for the
    worker and the importer, two for the analyst (the simulator is left out: nothing here
    plays bot games)."""
    cpus = os.cpu_count() or 1
    return [
        servers.CeleryWorker(
            env,
            f"{env['CELERY_TASK_DEFAULT_QUEUE']},{env['CELERY_ANALYTICS_QUEUE']}",
            concurrency=cpus,
        ),
        servers.CeleryWorker(
            env,
            f"{env['CELERY_IMPORTS_QUEUE']},{env['CELERY_ANALYTICS_BULK_QUEUE']}",
            concurrency=cpus,
        ),
        servers.CeleryWorker(
            env, f"{env['CELERY_ANALYSIS_QUEUE']},{env['CELERY_REPLAYS_QUEUE']}", concurrency=2
        ),
    ]


class _Workers:
    """Start and stop several workers as one context."""

    def __init__(self, workers: list[servers.CeleryWorker]) -> None:
        self.workers = workers

    def __enter__(self) -> _Workers:
        for worker in self.workers:
            worker.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        for worker in self.workers:
            worker.__exit__(*exc)


def _caught_up(path: Path, since: float, limit: float) -> float | None:
    """Seconds from ``since`` until every record of the SQLite file has analytics rows."""
    deadline = since + limit
    while time.perf_counter() < deadline:
        if _sqlite_waiting(path) == 0:
            return time.perf_counter() - since
        time.sleep(0.5)
    return None


def embedded_import_rows(workdir: Path, count: int, env: dict[str, str]) -> list[Row]:
    """(a) The import's time on the embedded default against the same with a broker."""
    lines = _corpus_lines(count, seed=23)
    base = {
        **env,
        "DEBUG": "0",
        "BACKGROUND_WORKERS": "1",
    }
    for key in ("CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER", "CACHE_URL", "REDIS_URL"):
        base.pop(key, None)
    empty = workdir / "background-empty.sqlite3"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=servers.ROOT,
        env={
            **base,
            "DATABASE_URL": f"sqlite:///{empty}",
            "DJANGO_SETTINGS_MODULE": "config.settings",
        },
        check=True,
    )
    # The embedded default: no broker, the ingest in the server's background pool.
    embedded_db = workdir / "background-embedded.sqlite3"
    shutil.copy(empty, embedded_db)
    embedded_env = {**base, "DATABASE_URL": f"sqlite:///{embedded_db}"}
    with Runserver(embedded_env) as web:
        took, pending = _bulk_post(web.port, lines)
        caught_up = _caught_up(embedded_db, time.perf_counter(), max(900.0, 20 * took))
    behind = "had not caught up" if caught_up is None else f"caught up {caught_up:.1f} s after it"
    note = (
        f"{count:,} games (the ingest corpus: 8-player GiftTRAP included), POST "
        f"/api/records/bulk/ in {len(_requests(lines))} requests (up to {REQUEST_LINES:,} "
        f"lines and 12 MiB each), runserver on SQLite; the last answer said {pending:,} "
        f"records wait for analytics; the pool {behind}"
    )
    broker = env.get("CELERY_BROKER_URL", "")
    if not broker:
        return [
            row(
                "import on the embedded default vs the same with a broker",
                took,
                "s",
                None,
                "<= 1.2x",
                None,
                note + "; reference skipped: no CELERY_BROKER_URL",
            )
        ]
    # The same import on the same server, with a broker and the documented workers.
    broker_db = workdir / "background-broker.sqlite3"
    shutil.copy(empty, broker_db)
    broker_env = {
        **base,
        **_queues(uuid.uuid4().hex[:8]),
        "DATABASE_URL": f"sqlite:///{broker_db}",
        "CELERY_BROKER_URL": broker,
        "CELERY_TASK_ALWAYS_EAGER": "0",
    }
    with _Workers(_documented_workers(broker_env)), Runserver(broker_env) as web:
        reference, _ = _bulk_post(web.port, lines)
        # The workers drain the analytics to the end (the pool's figure above is the
        # same: from the last answer until every record has its analytics rows).
        drained = _caught_up(broker_db, time.perf_counter(), max(900.0, 20 * reference))
    # And with a broker whose queues nobody reads: the import alone, no ingest anywhere.
    alone_db = workdir / "background-alone.sqlite3"
    shutil.copy(empty, alone_db)
    alone_env = {
        **broker_env,
        **_queues(f"unread-{uuid.uuid4().hex[:8]}"),
        "DATABASE_URL": f"sqlite:///{alone_db}",
    }
    with Runserver(alone_env) as web:
        alone, _ = _bulk_post(web.port, lines)
    return [
        row(
            "import on the embedded default vs the same with a broker",
            took,
            "s",
            reference,
            "<= 1.2x",
            took <= 1.2 * reference,
            note + "; reference: a Redis broker, the worker, importer and analyst as "
            "documented, which caught up "
            + ("never" if drained is None else f"{drained:.1f} s after the last answer"),
        ),
        row(
            "import on the embedded default vs the import alone",
            took,
            "s",
            alone,
            "<= 1.2x",
            took <= 1.2 * alone,
            "reference: the same server with a broker whose queues no worker reads (the "
            "import with no ingest anywhere: its floor)",
        ),
    ]


def _single_upload(port: int, base: dict[str, Any], serial: int) -> tuple[float, float]:
    """Seconds from a club's single upload to its analytics rows (ratings included), and
    to the upload's answer."""
    from analytics.models import PlayerResult

    names = [f"single{serial}-{uuid.uuid4().hex[:6]}" for _ in base["players"]]
    club_meta = {k: v for k, v in base.get("meta", {}).items() if k != "simulated"}
    started = time.perf_counter()
    status, body = servers.post(
        port,
        "/api/records/",
        orjson.dumps({**base, "players": names, "meta": club_meta}),
        "application/json",
    )
    if status not in (200, 201):
        raise RuntimeError(f"single upload answered {status}: {body[:300]!r}")
    record_id = orjson.loads(body)["id"]
    answered = time.perf_counter() - started
    deadline = started + 120
    while time.perf_counter() < deadline:
        if PlayerResult.objects.filter(record_id=record_id).exists():
            break
        time.sleep(0.02)
    return time.perf_counter() - started, answered


def complete_missing() -> list[str]:
    """What still keeps the dashboards and leaderboards from complete ([] when nothing).

    Complete means: every record has its analytics rows (or is quarantined); each game's
    summary counts all its records; each game's leaderboard (its rating scope) has
    applied every record that counts in it; and each game's dashboard is rendered at the
    game's present figures, for the views an ingest renders (the default, real play, bot
    play): the cache entry a visitor would read carries the present snapshot version.
    """
    from django.core.cache import cache
    from django.db.models import Count

    from analytics import selectors
    from analytics.dashboard import WARM_ALWAYS, _cache_key
    from analytics.models import GameSummary, RatingApplication, RatingScope
    from analytics.rating_scopes import game_scope_key, scope_records
    from replays.models import Record

    missing = []
    waiting = Record.objects.filter(
        player_results__isnull=True, ingest_quarantine__isnull=True
    ).count()
    if waiting:
        return [f"{waiting} records without analytics rows"]
    counts = dict(
        Record.objects.filter(simulated=False).values_list("game").annotate(n=Count("id"))
    )
    summaries = dict(GameSummary.objects.values_list("game", "games"))
    for game in sorted(set(Record.objects.values_list("game", flat=True).distinct())):
        n = counts.get(game, 0)
        if summaries.get(game, 0) != n:
            missing.append(f"{game}: summary {summaries.get(game)} of {n} real games")
            continue
        scope = RatingScope.objects.filter(key=game_scope_key(game)).first()
        if scope is None:
            if n:
                missing.append(f"{game}: no leaderboard yet")
                continue
            counted = applied = 0
        else:
            counted = scope_records(scope).count()
            applied = RatingApplication.objects.filter(scope=scope).count()
        if applied != counted:
            missing.append(f"{game}: leaderboard counts {applied} of {counted} records")
            continue
        version = selectors.game_statistics_version(game=game)
        for filters in ({}, *WARM_ALWAYS):
            cached = cache.get(_cache_key(game, filters))
            if cached is None or cached[0] != version:
                missing.append(f"{game}: dashboard {filters or 'default'} not rendered")
                break
    return missing


def freshness_rows(workdir: Path, count: int, env: dict[str, str]) -> list[Row]:
    """(b) single uploads' freshness during a large import; (c) the ingest's tail."""
    from bench.corpus import base_games

    freshness = f"freshness of a single upload during a {count:,}-game import, p95"
    tail = f"end of a {count:,}-game import to dashboards and leaderboards complete"
    if not env.get("CELERY_BROKER_URL"):
        note = "skipped: no CELERY_BROKER_URL (real workers are needed)"
        return [
            row(freshness, None, "s", None, "< 2 s", None, note),
            row(tail, None, "s", None, "<= 1.0x", None, note),
        ]
    records_reset()
    from django.core.cache import cache

    cache.clear()  # no dashboard of an earlier run counts as rendered
    lines = _corpus_lines(count, seed=29)
    live_env = {**env, **_queues(uuid.uuid4().hex[:8]), "CELERY_TASK_ALWAYS_EAGER": "0"}
    bases = [d for d in base_games() if d["game"] in ("gift_swap", "secret_santa")]
    taken: list[float] = []
    answers: list[float] = []
    outcome: dict[str, Any] = {}
    with _Workers(_documented_workers(live_env)), servers.Gunicorn(live_env, workers=2) as web:

        def run_import() -> None:
            try:
                outcome["took"], _ = _bulk_post(web.port, lines)
            except Exception as exc:
                outcome["error"] = exc
            outcome["ended"] = time.perf_counter()

        def watch() -> None:
            """After the import's last answer, until complete: checked every 0.25 s."""
            while "ended" not in outcome:
                time.sleep(0.05)
            if "error" in outcome:
                return
            deadline = outcome["ended"] + max(900.0, 20 * outcome.get("took", 0.0))
            while time.perf_counter() < deadline:
                missing = complete_missing()
                if not missing:
                    outcome["complete"] = time.perf_counter()
                    return
                outcome["missing"] = missing
                time.sleep(0.25)

        importing = threading.Thread(target=run_import, daemon=True)
        watching = threading.Thread(target=watch, daemon=True)
        importing.start()
        watching.start()
        serial = 0
        # Single uploads while the import and its ingest run: until complete.
        while watching.is_alive():
            fresh, answered = _single_upload(web.port, bases[serial % len(bases)], serial)
            taken.append(fresh)
            answers.append(answered)
            serial += 1
            time.sleep(0.5)
        if "error" in outcome:
            raise RuntimeError(f"the import failed: {outcome['error']}")
    p95 = servers.quantile(taken, 0.95)
    rows = [
        row(
            freshness,
            p95,
            "s",
            None,
            "< 2 s",
            p95 < 2,
            f"{len(taken)} uploads (POST /api/records/) to their analytics rows while the "
            f"import and its ingest ran; p50 {servers.quantile(taken, 0.5):.2f} s, slowest "
            f"{max(taken):.2f} s (the upload's own answer: p50 "
            f"{servers.quantile(answers, 0.5):.2f} s, "
            f"p95 {servers.quantile(answers, 0.95):.2f} s); "
            "gunicorn x2, worker -Q default,analytics, importer "
            "-Q imports,analytics_bulk (prefork, a process per CPU each) and analyst -Q "
            "analysis,replays --concurrency 2, as compose.yaml runs them",
        )
    ]
    took = outcome.get("took")
    after = outcome["complete"] - outcome["ended"] if "complete" in outcome else None
    left = "" if after is not None else "; still missing: " + "; ".join(outcome["missing"][:4])
    rows.append(
        row(
            tail,
            after,
            "s",
            took,
            "<= 1.0x",
            None if after is None else after <= took,
            "reference: the import's own time (POST /api/records/bulk/ in requests of up to "
            "1,000 lines and 12 MiB, the ingest "
            "corpus with 8-player GiftTRAP, from the first request to the last answer); "
            "complete: every record's analytics rows, each game's summary, its leaderboard "
            "counting every record, its dashboards rendered at its present figures" + left,
        )
    )
    return rows
