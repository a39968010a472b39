"""Background analytics: an import's answer, and the freshness of uploads around it.

Called by ``python -m bench`` (group ``background``); each function returns rows in the
format of bench/figures.py. Three figures, each against a reference of the same run:

* an import on the embedded default (``manage.py runserver`` on SQLite, no broker: the
  ingest goes to the web process's background pool) against the same import on the same
  server with a broker and workers (Redis): the answer should not wait for analytics;
* the freshness of single uploads (upload to its analytics rows) during a large import
  on PostgreSQL, with workers as docs/operations.md runs them: the analytics worker
  (``-Q default,analytics``) and the import worker (``-Q imports,analytics_bulk``);
* the time from the end of that import to every record in the dashboards and
  leaderboards, against the import's own time.
"""

from __future__ import annotations

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
from bench.corpus import ndjson_write, records_corpus
from bench.figures import Row, records_reset, row

REQUEST_LINES = 1000  # the bulk API's most per request


class Runserver(servers.Server):
    """The embedded default's server (``manage.py runserver``, as bin/serve runs it)."""

    name = "runserver"

    def __init__(self, env: dict[str, str]) -> None:
        super().__init__(env)
        self.env = {**env, "DJANGO_SETTINGS_MODULE": "config.settings"}

    def command(self) -> list[str]:
        return [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{self.port}"]


def _bulk_post(port: int, lines: list[bytes]) -> tuple[float, int]:
    """POST the lines to /api/records/bulk/ in requests of 1,000, one after another.

    Returns the seconds until the last answer, and the last answer's ``analytics_pending``.
    """
    started = time.perf_counter()
    pending = 0
    for start in range(0, len(lines), REQUEST_LINES):
        status, body = servers.post(
            port,
            "/api/records/bulk/",
            b"\n".join(lines[start : start + REQUEST_LINES]),
            "application/x-ndjson",
        )
        answer = orjson.loads(body) if status == 200 else {}
        if status != 200 or answer["refused"]:
            raise RuntimeError(f"bulk upload answered {status}: {body[:300]!r}")
        pending = answer.get("analytics_pending", 0)
    return time.perf_counter() - started, pending


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
    }


def _documented_workers(env: dict[str, str]) -> tuple[servers.CeleryWorker, servers.CeleryWorker]:
    """The worker and the importer as compose.yaml runs them, on this run's queues."""
    return (
        servers.CeleryWorker(
            env, f"{env['CELERY_TASK_DEFAULT_QUEUE']},{env['CELERY_ANALYTICS_QUEUE']}"
        ),
        servers.CeleryWorker(
            env, f"{env['CELERY_IMPORTS_QUEUE']},{env['CELERY_ANALYTICS_BULK_QUEUE']}"
        ),
    )


def embedded_import_rows(workdir: Path, count: int, env: dict[str, str]) -> list[Row]:
    """(a) The import's time on the embedded default against the same with a broker."""
    path = workdir / f"background-{count}.ndjson"
    ndjson_write(path, records_corpus(count, seed=23))
    lines = path.read_bytes().splitlines()
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
        answered = time.perf_counter()
        caught_up = None
        deadline = answered + max(900.0, 20 * took)
        while time.perf_counter() < deadline:
            if _sqlite_waiting(embedded_db) == 0:
                caught_up = time.perf_counter() - answered
                break
            time.sleep(0.5)
    behind = "had not caught up" if caught_up is None else f"caught up {caught_up:.1f} s after it"
    note = (
        f"{count:,} games, POST /api/records/bulk/ x{REQUEST_LINES}, runserver on SQLite; "
        f"the last answer said {pending:,} records wait for analytics; the pool {behind}"
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
    worker, importer = _documented_workers(broker_env)
    with worker, importer, Runserver(broker_env) as web:
        reference, _ = _bulk_post(web.port, lines)
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
            note + "; reference: a Redis broker, the worker and importer as documented",
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


def _single_upload(port: int, base: dict[str, Any], serial: int) -> float:
    """Seconds from a club's single upload to its analytics rows (ratings included)."""
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
    deadline = started + 120
    while time.perf_counter() < deadline:
        if PlayerResult.objects.filter(record_id=record_id).exists():
            break
        time.sleep(0.02)
    return time.perf_counter() - started


def _analytics_complete() -> bool:
    """Every record in analytics, and each game's summary counting all its real games."""
    from django.db.models import Count

    from analytics.models import GameSummary
    from replays.models import Record

    if Record.objects.filter(player_results__isnull=True).exists():
        return False
    counts = dict(
        Record.objects.filter(simulated=False).values_list("game").annotate(n=Count("id"))
    )
    summaries = dict(GameSummary.objects.values_list("game", "games"))
    return all(summaries.get(game) == n for game, n in counts.items())


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
    path = workdir / f"fresh-{count}.ndjson"
    ndjson_write(path, records_corpus(count, seed=29))
    lines = path.read_bytes().splitlines()
    live_env = {**env, **_queues(uuid.uuid4().hex[:8]), "CELERY_TASK_ALWAYS_EAGER": "0"}
    bases = [d for d in base_games() if d["game"] in ("gift_swap", "secret_santa")]
    worker, importer = _documented_workers(live_env)
    taken: list[float] = []
    with worker, importer, servers.Gunicorn(live_env, workers=2) as web:
        outcome: dict[str, Any] = {}

        def run_import() -> None:
            try:
                outcome["took"], _ = _bulk_post(web.port, lines)
            except Exception as exc:
                outcome["error"] = exc
            outcome["ended"] = time.perf_counter()

        importing = threading.Thread(target=run_import, daemon=True)
        importing.start()
        complete_at = None
        deadline = time.perf_counter() + 3600
        serial = 0
        while time.perf_counter() < deadline:
            taken.append(_single_upload(web.port, bases[serial % len(bases)], serial))
            serial += 1
            if "ended" in outcome:
                if "error" in outcome:
                    raise RuntimeError(f"the import failed: {outcome['error']}")
                if _analytics_complete():
                    complete_at = time.perf_counter()
                    break
            time.sleep(0.5)
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
            f"{max(taken):.2f} s; gunicorn x2, worker -Q default,analytics and importer "
            "-Q imports,analytics_bulk (solo pools)",
        )
    ]
    took = outcome.get("took")
    after = None if complete_at is None else complete_at - outcome["ended"]
    rows.append(
        row(
            tail,
            after,
            "s",
            took,
            "<= 1.0x",
            None if after is None else after <= took,
            "reference: the import's own time (POST /api/records/bulk/ x1000, from the first "
            "request to the last answer); complete: every record has its analytics rows and "
            "each game's summary counts all its games",
        )
    )
    return rows
