"""Scale-out, tried: two gunicorn servers and two Celery workers on one PostgreSQL and Redis.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/0 .venv/bin/python -m bench.scaleout

Creates (and drops) the database ``giftbox_scaleout`` (or ``SCALEOUT_DATABASE``).
Checks that nothing lives only in one process: the same game uploaded to both servers at once is one
record; an import job posted to one server is run by two import workers and
its progress read from the other; the throttle counts requests to both servers
together (Redis cache); a record reaches analytics through the analytics worker.
Prints one line per check and exits non-zero if one fails.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import uuid
from pathlib import Path

import orjson
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import servers
from bench.__main__ import _dsn
from bench.corpus import records_corpus

DATABASE = os.environ.get("SCALEOUT_DATABASE", "giftbox_scaleout")  # two runs on one server


def main() -> int:
    server = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis"):
        print("needs CELERY_BROKER_URL=redis://...")
        return 2
    admin = _dsn(server, "postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DATABASE}")
    dsn = _dsn(server, DATABASE)
    tag = uuid.uuid4().hex[:8]
    env = {
        **os.environ,
        "DATABASE_URL": dsn,
        "SECRET_KEY": "scaleout-only-secret-key",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DEBUG": "0",
        "ALLOW_ANONYMOUS_UPLOADS": "1",
        "THROTTLE_ANON": "40/min",  # DRF allows 40 and refuses the 41st
        "CACHE_URL": broker,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "CELERY_TASK_DEFAULT_QUEUE": f"scale-default-{tag}",
        "CELERY_ANALYTICS_QUEUE": f"scale-analytics-{tag}",
        "CELERY_ANALYTICS_BULK_QUEUE": f"scale-bulk-{tag}",
        "CELERY_IMPORTS_QUEUE": f"scale-imports-{tag}",
        "LOG_LEVEL": "WARNING",
    }
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    from django.core.cache import cache
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    cache.clear()
    failures = 0

    def check(name: str, ok: bool, detail: str = "") -> None:
        nonlocal failures
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}")

    documents = list(records_corpus(60, seed=77))
    importer_queues = f"{env['CELERY_IMPORTS_QUEUE']},{env['CELERY_ANALYTICS_BULK_QUEUE']}"
    try:
        with (
            servers.Gunicorn(env, workers=2) as a,
            servers.Gunicorn(env, workers=2) as b,
            servers.CeleryWorker(
                env, f"{env['CELERY_TASK_DEFAULT_QUEUE']},{env['CELERY_ANALYTICS_QUEUE']}"
            ),
            servers.CeleryWorker(env, importer_queues),
            servers.CeleryWorker(env, importer_queues),
        ):
            from analytics.models import PlayerResult
            from replays.models import Record

            body = orjson.dumps(documents[0])
            answers: list[int] = []

            def upload(port: int) -> None:
                _status, reply = servers.post(port, "/api/records/", body, "application/json")
                answers.append(orjson.loads(reply)["id"])

            threads = [threading.Thread(target=upload, args=(p,)) for p in (a.port, b.port) * 2]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            check(
                "one game uploaded 4 times to 2 servers at once is one record",
                len(set(answers)) == 1 and Record.objects.count() == 1,
                f"ids {answers}",
            )

            deadline = time.monotonic() + 30
            while not PlayerResult.objects.filter(record_id=answers[0]).exists():
                if time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            check(
                "the analytics worker ingested it",
                PlayerResult.objects.filter(record_id=answers[0]).exists(),
            )

            lines = b"\n".join(orjson.dumps(d) for d in documents[1:])
            status, reply = servers.post(a.port, "/api/imports/", lines, "application/x-ndjson")
            job = orjson.loads(reply)
            deadline = time.monotonic() + 120
            progress = job
            while time.monotonic() < deadline and not progress.get("done"):
                time.sleep(0.5)
                _, raw = servers.get(b.port, f"/api/imports/{job['id']}/")
                progress = orjson.loads(raw)
            digests = list(Record.objects.values_list("digest", flat=True))
            check(
                "an import job posted to server A, read on server B, run by 2 workers",
                progress.get("done")
                and progress["stored"] == len(documents) - 1
                and len(digests) == len(set(digests)) == len(documents),
                f"{progress.get('stored')} stored of {len(documents) - 1}, "
                f"{len(digests)} records, {len(set(digests))} distinct",
            )

            codes, client = [], f"198.51.100.{int(tag[:2], 16) % 250}"
            for i in range(50):
                status, _ = servers.get(  # one client of its own (DRF reads X-Forwarded-For)
                    (a.port, b.port)[i % 2], "/api/games/", headers={"X-Forwarded-For": client}
                )
                codes.append(status)
            first_429 = codes.index(429) if 429 in codes else None
            check(
                "the throttle counts both servers together (Redis cache)",
                first_429 is not None and first_429 <= 41,
                f"first 429 at request {first_429} of 50, limit 40/min (before: ~80)",
            )
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
