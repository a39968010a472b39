"""python -m bench: every figure of the performance issue, each against its reference.

    .venv/bin/python -m bench [--quick] [--json out.json] [--skip GROUPS | --only GROUPS]

Runs against PostgreSQL (``DATABASE_URL``'s server): it creates its own
database (``giftbox_bench``, or ``BENCH_DATABASE`` so that two people can run it
on one server at once), migrates it, and drops it at the end. With
``CELERY_BROKER_URL`` (Redis) it starts real workers for the freshness figures
(groups ``freshness`` and ``background``; ``background`` also runs the embedded
default, ``runserver`` on SQLite, against the same server with a broker).
Starts gunicorn itself (config/gunicorn.py, 2 workers, DEBUG off) with bare
reference views (bench/urls.py). Prints the table and, with ``--json``, writes it.
Figures on a shared machine are noisy: read the ratios, measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATABASE = os.environ.get("BENCH_DATABASE", "giftbox_bench")


def _dsn(url: str, database: str) -> str:
    parts = urlsplit(url)
    scheme = "postgresql" if parts.scheme.startswith("postgres") else parts.scheme
    return urlunsplit((scheme, parts.netloc, f"/{database}", "", ""))


def database_fresh(parser: argparse.ArgumentParser, database: str) -> tuple[str, str]:
    """``database`` made anew on ``DATABASE_URL``'s PostgreSQL server (dropped first if a
    run left it): returns the server's URL and its ``postgres`` database's, which
    ``database_drop`` uses at the end."""
    server = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    if not server.startswith("postgres"):
        parser.error("DATABASE_URL must name a PostgreSQL server")
    import psycopg

    admin = _dsn(server, "postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {database}")
    return server, admin


def database_drop(admin: str, database: str) -> None:
    """Close this process's connections, then drop ``database``."""
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, short runs")
    parser.add_argument("--json", type=Path, help="write the rows here as JSON")
    parser.add_argument("--skip", default="", help="comma-separated groups to skip")
    parser.add_argument(
        "--only",
        default="",
        help=f"comma-separated groups to run, the others skipped ({', '.join(GROUPS)})",
    )
    args = parser.parse_args()
    server, admin = database_fresh(parser, DATABASE)
    # The bench's own files (the bare views' bodies, written between timed requests) in
    # memory where the machine has a tmpfs: on disk their writeback and the journal's
    # commits ran beside random samples, ours and the bare view's alike.
    shm = Path("/dev/shm")
    memory = shm if shm.is_dir() and os.access(shm, os.W_OK) else None
    workdir = Path(tempfile.mkdtemp(prefix="giftbox-bench-", dir=memory))
    env = {
        **os.environ,
        "STATIC_ROOT": str(workdir / "static"),
        "BENCH_BODIES": str(workdir),
        "DATABASE_URL": _dsn(server, DATABASE),
        "SECRET_KEY": os.environ.get("SECRET_KEY", "bench-only-secret-key"),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DEBUG": "0",
        "SECURE_COOKIES": "0",
        "ALLOW_ANONYMOUS_UPLOADS": "1",
        "THROTTLE_ANON": "100000000/min",
        "THROTTLE_USER": "100000000/min",
        "LOG_LEVEL": "WARNING",
        # Announcements of the import rows go to a queue no worker reads.
        "CELERY_TASK_DEFAULT_QUEUE": "bench-unread",
        "CELERY_ANALYTICS_QUEUE": "bench-unread",
        "CELERY_ANALYTICS_BULK_QUEUE": "bench-unread",
        "CELERY_SIMULATIONS_QUEUE": "bench-unread",
    }
    if env.get("CELERY_BROKER_URL"):
        env["CELERY_TASK_ALWAYS_EAGER"] = "0"
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # DEBUG off needs the manifest
    from bench import figures, servers

    quick = args.quick
    skip = set(filter(None, args.skip.split(",")))
    only = set(filter(None, args.only.split(",")))
    if only - set(GROUPS):
        parser.error(f"unknown groups: {', '.join(sorted(only - set(GROUPS)))}")
    if only:
        # "viewer" is both halves, "viewer-replay" and "viewer-dashboard" one each.
        halves = {"viewer-replay", "viewer-dashboard"}
        keep = only | ({"viewer"} if only & halves else set())
        keep |= halves if "viewer" in only else set()
        skip |= set(GROUPS) - keep
    rows: list[dict] = []
    started = time.perf_counter()
    try:
        if "engine" not in skip:
            rows += figures.checked_replay(1 if quick else 3)
        if "analysis" not in skip:
            from bench.analysis import analysis_rows

            rows += analysis_rows(quick)
        with servers.Gunicorn(env, workers=2) as web:
            if "import" not in skip:
                rows += figures.import_rows(
                    workdir, 2000 if quick else 10_000, env, figures_dsn(env), web.port
                )
            if "http" not in skip:
                figures.http_records(200 if quick else 1000)  # with --skip import: its own
                rows += figures.replay_rows(workdir, web.port, 10 if quick else 50)
                rows += figures.list_detail_rows(workdir, web.port, 2 if quick else 8)
        if "memory" not in skip:
            sizes = [5, 10, 20] if quick else [50, 100, 200]
            rows += figures.memory_rows(workdir, sizes, env)
        if "dashboard" not in skip:
            figures.records_reset()
            count = 10_000 if quick else 100_000
            took = figures.dashboard_fill(count)
            print(
                f"dashboard fill: {count:,} records in {took['fill_s']:.0f} s, snapshots in "
                f"{took['recompute_s']:.0f} s",
                file=sys.stderr,
            )
            with servers.Gunicorn(env, workers=2) as web:
                rows += figures.dashboard_rows(workdir, web.port, 10 if quick else 40, count)
        if "viewer" not in skip and "viewer-replay" not in skip:
            from bench import viewer

            figures.records_reset()
            with servers.Gunicorn(env, workers=2) as web:
                rows += viewer.replay_viewer_rows(
                    workdir, web.port, 3 if quick else 10, 3 if quick else 8
                )
        if "stored" not in skip:  # first visits after the cache was emptied (bench.stored_replay)
            from bench.stored_replay import stored_replay_rows

            figures.records_reset()
            rows += stored_replay_rows(3 if quick else 8)
        if "viewer" not in skip and "viewer-dashboard" not in skip:
            from bench import viewer

            figures.records_reset()
            count = 5_000 if quick else 20_000
            figures.dashboard_fill(count)
            with servers.Gunicorn(env, workers=2) as web:
                rows += viewer.dashboard_viewer_rows(workdir, web.port, 5 if quick else 60, count)
        if "freshness" not in skip:
            rows += figures.freshness_rows(env, 10 if quick else 40)
        if "ingest" not in skip:
            from bench.ingest import ingest_rows

            figures.records_reset()  # the rebuild reads its own records alone
            rows += ingest_rows(10_000 if quick else 100_000)
        if "background" not in skip:
            from bench import background

            rows += background.embedded_import_rows(workdir, 600 if quick else 2000, env)
            rows += background.freshness_rows(workdir, 2000 if quick else 10_000, env)
        if "ratings" not in skip:
            from bench.ratings import ratings_rows

            figures.records_reset()  # the recompute reads its own records alone
            rows += ratings_rows(10_000 if quick else 100_000)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        database_drop(admin, DATABASE)
    print_table(rows)
    print(f"({time.perf_counter() - started:.0f} s; {'quick' if quick else 'full'} run)")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")


GROUPS = (
    "engine", "analysis", "import", "http", "memory", "dashboard", "viewer", "viewer-replay",
    "viewer-dashboard", "stored", "freshness", "ingest", "background", "ratings",
)  # fmt: skip


def figures_dsn(env: dict[str, str]) -> str:
    return _dsn(env["DATABASE_URL"], DATABASE)


def print_table(rows: list[dict]) -> None:
    headers = ["figure", "value", "reference", "ratio", "target", "met?"]
    lines = []
    for r in rows:
        unit = r.get("unit", "")
        value = "-" if r["value"] is None else f"{r['value']:,} {unit}"
        reference = "-" if r["reference"] is None else f"{r['reference']:,} {unit}"
        ratio = "-" if r["ratio"] is None else f"{r['ratio']}"
        met = {True: "yes", False: "NO", None: "-"}[r["met"]]
        lines.append([r["figure"], value, reference, ratio, r["target"], met])
    widths = [max(len(str(x)) for x in column) for column in zip(headers, *lines, strict=False)]
    for line in [headers, ["-" * w for w in widths], *lines]:
        print(" | ".join(str(x).ljust(w) for x, w in zip(line, widths, strict=True)))
    for r in rows:
        if r.get("note"):
            print(f"  {r['figure']}: {r['note']}")


if __name__ == "__main__":
    main()
