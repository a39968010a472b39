"""Each figure of issue 12 against its reference measured in the same run.

Called by ``python -m bench`` after Django is set up on the bench's own
database; each function returns rows ({figure, value, unit, reference, ratio,
target, met, note}).
"""

from __future__ import annotations

import hashlib
import logging
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import orjson
import psycopg

from bench import servers
from bench.corpus import ndjson_write, records_corpus

Row = dict[str, Any]


def row(figure, value, unit, reference, target, met, note="") -> Row:
    ratio = round(value / reference, 3) if value is not None and reference else None
    return {
        "figure": figure,
        "value": round(value, 3) if value is not None else None,
        "unit": unit,
        "reference": round(reference, 3) if reference is not None else None,
        "ratio": ratio,
        "target": target,
        "met": met,
        "note": note,
    }


def records_reset() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE replays_record, replays_player, replays_announcement, "
            "analytics_playerresult, analytics_gamesummary, analytics_statisticssnapshot, "
            "analytics_ratingscope, analytics_ratinghistory, analytics_ratingapplication CASCADE"
        )


# --- checked replay (the engine helper's function, when present) -----------------------


def checked_replay(seconds: float) -> list[Row]:
    """The engine work's figures (bench/engine.py ``checked_replay_figures``), when present.

    Its dicts (``game``, ``checked_events_per_s``, ``chess_checked_moves_per_s``,
    ``checked_ratio``, ``trusted_ratio``, ``meets_target``) become one row per game.
    """
    try:
        from bench.engine import checked_replay_figures  # type: ignore[attr-defined]

        figures = checked_replay_figures(seconds)
    except ImportError as exc:  # not landed yet, or python-chess not installed
        return [
            row(
                "checked replay events/s vs python-chess", None, "x", None, ">= 4x", None,
                f"skipped: {exc} (bench/engine.py checked_replay_figures, the engine work)",
            )
        ]  # fmt: skip
    rows = []
    for figure in figures:
        rows.append(
            {
                **row(
                    f"checked replay {figure['game']} vs python-chess is_legal+push",
                    figure["checked_events_per_s"],
                    "events/s",
                    figure["chess_checked_moves_per_s"],
                    ">= 4x",
                    figure["meets_target"],
                    f"trusted replay {figure.get('trusted_ratio')}x python-chess push",
                ),
                "ratio": figure["checked_ratio"],  # the engine bench's median of ratios
            }
        )
    return rows


# --- bulk import --------------------------------------------------------------------------


def copy_reference(path: Path, dsn: str) -> float:
    """Games/s of a bare psycopg COPY of the same JSON rows (parse, digest, jsonb columns)."""
    with psycopg.connect(dsn) as conn:
        conn.execute(
            "DROP TABLE IF EXISTS bench_copy; CREATE TABLE bench_copy (id bigserial primary "
            "key, digest text unique, game text, players jsonb, options jsonb, meta jsonb, "
            "events jsonb, num_events int)"
        )
        conn.commit()
        started = time.perf_counter()
        count = 0
        with (
            conn.cursor() as cur,
            path.open("rb") as lines,
            cur.copy(
                "COPY bench_copy (digest, game, players, options, meta, events, num_events) "
                "FROM STDIN"
            ) as copy,
        ):
            for line in lines:
                d = orjson.loads(line)
                copy.write_row(
                    (
                        hashlib.sha256(line).hexdigest(),
                        d["game"],
                        orjson.dumps(d["players"]).decode(),
                        orjson.dumps(d.get("options", {})).decode(),
                        orjson.dumps(d.get("meta", {})).decode(),
                        orjson.dumps(d["events"]).decode(),
                        len(d["events"]),
                    )
                )
                count += 1
        conn.commit()
        elapsed = time.perf_counter() - started
        conn.execute("DROP TABLE bench_copy")
        conn.commit()
    return count / elapsed


def import_command(path: Path, env: dict[str, str]) -> tuple[float, int, str]:
    """Games/s of ``manage.py import_records`` (a subprocess), and its peak tree RSS."""
    records_reset()
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "manage.py", "import_records", str(path)],
        cwd=servers.ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    peak = servers.tree_peak_rss(process)
    elapsed = time.perf_counter() - started
    tail = process.stderr.read().decode()[-300:] if process.stderr else ""
    if process.returncode != 0:
        raise RuntimeError(f"import_records failed: {tail}")
    lines = sum(1 for _ in path.open("rb"))
    return lines / elapsed, peak, tail


def import_api(path: Path, port: int) -> float:
    """Games/s of POST /api/records/bulk/ in requests of 1,000 lines, one after another."""
    records_reset()
    lines = path.read_bytes().splitlines()
    started = time.perf_counter()
    for start in range(0, len(lines), 1000):
        status, body = servers.post(
            port,
            "/api/records/bulk/",
            b"\n".join(lines[start : start + 1000]),
            "application/x-ndjson",
        )
        if status != 200 or orjson.loads(body)["refused"]:
            raise RuntimeError(f"bulk upload answered {status}: {body[:300]!r}")
    return len(lines) / (time.perf_counter() - started)


def import_rows(workdir: Path, count: int, env: dict[str, str], dsn: str, port: int) -> list[Row]:
    path = workdir / f"import-{count}.ndjson"
    ndjson_write(path, records_corpus(count))
    copy_rate = copy_reference(path, dsn)
    command_rate, _, _ = import_command(path, env)
    api_rate = import_api(path, port)
    copy_rate = (copy_rate + copy_reference(path, dsn)) / 2  # before and after: same load
    rows = []
    for name, rate in (("command", command_rate), ("API", api_rate)):
        met = rate >= 1000 and rate >= copy_rate / 3
        rows.append(
            row(
                f"bulk import {count:,} records ({name}) vs COPY",
                rate,
                "games/s",
                copy_rate,
                ">= 1,000/s and >= 1/3 COPY",
                met,
            )
        )
    return rows


def memory_rows(workdir: Path, sizes_mb: list[int], env: dict[str, str]) -> list[Row]:
    """Peak RSS of import_records (with its pool children) for NDJSON files of growing size."""
    rows = []
    base = None
    for size in sizes_mb:
        path = workdir / f"memory-{size}.ndjson"
        written = 0
        with path.open("wb") as out:
            for document in records_corpus(10_000_000, seed=size):
                line = orjson.dumps(document) + b"\n"
                out.write(line)
                written += len(line)
                if written >= size * 1_000_000:
                    break
        _, peak, _ = import_command(path, env)
        path.unlink()
        base = base or peak
        rows.append(
            row(
                f"peak import memory, {size} MB file",
                peak / 1e6,
                "MB",
                written / 1e6,
                "< 300 MB, flat",
                peak < 300e6 and peak < base * 1.25,
                "RSS of import_records and its pool processes, polled",
            )
        )
    return rows


# --- replay, list and detail over HTTP ------------------------------------------------------


def _save_bare(workdir: Path, port: int, path: str, key: str) -> str:
    status, body = servers.get(port, path)
    if status != 200:
        raise RuntimeError(f"{path} answered {status}")
    (workdir / key).write_bytes(body)
    return f"/bench/bare/{key}/"


def http_records(count: int) -> None:
    """Records for the HTTP figures when the import group left none (``--skip import``).

    The same corpus the import stores: every game, its longest logs included.
    """
    from replays.bulk import records_import
    from replays.models import Record

    if Record.objects.exists():
        return
    for outcome in records_import(enumerate(records_corpus(count), start=1)):
        if outcome.status == "refused":
            raise RuntimeError(f"http records refused: {outcome.error.as_dict()}")


def replay_rows(workdir: Path, port: int, rounds: int) -> list[Row]:
    from django.db.models import Max

    from replays.models import Record

    paths: dict[str, list[str]] = {"steps": [], "timeline": []}
    bare: dict[str, list[str]] = {"steps": [], "timeline": []}
    longest = Record.objects.values("game").annotate(most=Max("num_events"))
    for entry in longest:
        record = Record.objects.filter(game=entry["game"], num_events=entry["most"]).first()
        for k in (record.num_events // 2, record.num_events):
            path = f"/api/records/{record.pk}/steps/{k}/"
            paths["steps"].append(path)
            bare["steps"].append(_save_bare(workdir, port, path, f"step-{record.pk}-{k}.json"))
        path = f"/api/records/{record.pk}/timeline/"
        paths["timeline"].append(path)
        bare["timeline"].append(_save_bare(workdir, port, path, f"timeline-{record.pk}.json"))
    rows = []
    for name in ("steps", "timeline"):
        servers.latencies(port, paths[name] + bare[name], rounds=2)  # warm every worker
        ours, ref = [], []
        for _ in range(rounds):  # interleaved: the same load on both
            ours += servers.latencies(port, paths[name], rounds=1)
            ref += servers.latencies(port, bare[name], rounds=1)
        p99, ref99 = servers.quantile(ours, 0.99) * 1000, servers.quantile(ref, 0.99) * 1000
        rows.append(
            row(
                f"replay {name} p99, longest game of each game",
                p99,
                "ms",
                ref99,
                "< 25 ms and <= 2x bare",
                p99 < 25 and p99 <= 2 * ref99,
                f"{len(ours)} requests over {len(paths[name])} URLs; p50 "
                f"{servers.quantile(ours, 0.5) * 1000:.2f} ms vs bare "
                f"{servers.quantile(ref, 0.5) * 1000:.2f} ms; slowest "
                f"{max(ours) * 1000:.1f} vs {max(ref) * 1000:.1f} ms",
            )
        )
    return rows


def list_detail_rows(workdir: Path, port: int, seconds: float) -> list[Row]:
    from replays.models import Record

    record = Record.objects.order_by("-id").first()
    rows = []
    for name, path in (("list", "/api/records/"), ("detail", f"/api/records/{record.pk}/")):
        bare = _save_bare(workdir, port, path, f"{name}.json")
        servers.throughput(port, path, seconds=1)
        ours = servers.throughput(port, path, seconds=seconds)
        ref = servers.throughput(port, bare, seconds=seconds)
        rows.append(
            row(
                f"record {name} req/s (gunicorn, 2 workers)",
                ours,
                "req/s",
                ref,
                ">= 1,000 and >= 1/2 bare",
                ours >= 1000 and ours >= ref / 2,
                "wrk -t2 -c8" if servers.shutil.which("wrk") else "Python threads client",
            )
        )
    return rows


# --- dashboards at 100,000 records ---------------------------------------------------------


def dashboard_fill(count: int) -> dict[str, float]:
    """``count`` Gift Swap records with their facts, and the snapshots the dashboard reads.

    As ``bench/dashboard.py`` makes them: a few hundred bot games played once, each
    stored record one of those logs with other players (a distinct digest), spread
    over twelve months and three clubs, half simulated; then the nightly full
    recompute writes every statistics snapshot, so the page shows all ``count``
    records exactly as a club's dashboard would. Returns the seconds each part took.
    """
    from analytics.statistics import statistics_recompute_all
    from bench import dashboard

    logs = dashboard._base_logs(dashboard.BASE_LOGS)
    fill_s = dashboard.fill(count, logs=logs)
    started = time.perf_counter()
    quiet = logging.getLogger("analytics.statistics")
    level, quiet.level = quiet.level, logging.ERROR  # every snapshot is new: no news
    statistics_recompute_all()
    quiet.setLevel(level)
    return {"fill_s": fill_s, "recompute_s": time.perf_counter() - started}


def _dashboard_record_ingest(serial: int) -> None:
    """One new Gift Swap record stored and ingested exactly as the worker would do it."""
    from analytics.tasks import records_ingest
    from bench.corpus import base_games
    from replays.bulk import records_import

    base = next(d for d in base_games() if d["game"] == "gift_swap")
    document = {**base, "players": [f"late{serial}-{k}" for k in range(len(base["players"]))]}
    document.pop("result", None)
    (outcome,) = records_import([(1, document)])
    if outcome.status != "stored":
        raise RuntimeError(f"dashboard record not stored: {outcome.status}")
    # The task's body, as a worker runs it: the ingest, then the dashboards rendered.
    records_ingest(record_ids=[outcome.record_id])


def dashboard_rows(workdir: Path, port: int, rounds: int, count: int) -> list[Row]:
    """The Gift Swap dashboard over HTTP: every visit, and the first visit after an ingest.

    *Steady*: the page asked again and again (``rounds`` x 10 requests). *After a
    record*: before each request a new record is stored and ingested as the worker
    does (its snapshots, then the dashboard warmed), so the request is the first
    visit since the statistics changed. The reference is a bare view with the same bytes.
    """
    from replays.models import Record

    records = Record.objects.filter(game="gift_swap").count()
    path = "/games/gift_swap/"
    bare = _save_bare(workdir, port, path, "dash-gift_swap.html")
    servers.latencies(port, [path, bare], rounds=3)
    ours, ref, after = [], [], []
    for k in range(rounds):
        ours += servers.latencies(port, [path], rounds=10)
        ref += servers.latencies(port, [bare], rounds=10)
        _dashboard_record_ingest(k)
        after += servers.latencies(port, [path], rounds=1)
    ms = {
        name: servers.quantile(values, 0.95) * 1000
        for name, values in (("steady", ours), ("after", after), ("bare", ref))
    }
    note = "Gift Swap, snapshots by the nightly recompute; reference: a bare view, same bytes"
    return [
        row(
            f"game dashboard p95 at {records:,} records",
            ms["steady"],
            "ms",
            ms["bare"],
            "< 50 ms",
            ms["steady"] < 50,
            note,
        ),
        row(
            f"game dashboard p95, first visit after a record is ingested ({records:,})",
            ms["after"],
            "ms",
            ms["bare"],
            "< 50 ms",
            ms["after"] < 50,
            "a new record stored and ingested (snapshots, dashboard warmed) before each visit",
        ),
    ]


# --- freshness: upload to leaderboard ------------------------------------------------------


def freshness_rows(env: dict[str, str], samples: int) -> list[Row]:
    from analytics.models import PlayerResult
    from bench.corpus import base_games

    if not env.get("CELERY_BROKER_URL"):
        return [
            row(
                "freshness upload -> leaderboard p95",
                None,
                "s",
                None,
                "< 2 s",
                None,
                "skipped: no CELERY_BROKER_URL (a real worker is needed)",
            )
        ]
    queue = f"bench-{uuid.uuid4().hex[:8]}"
    live_env = {
        **env,
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "CELERY_ANALYTICS_QUEUE": queue,
        "CELERY_ANALYTICS_BULK_QUEUE": queue,
        "CELERY_TASK_ALWAYS_EAGER": "0",
    }
    taken = []
    note = "upload (POST /api/records/) to its analytics.PlayerResult rows"
    with servers.Gunicorn(live_env, workers=2) as web, servers.CeleryWorker(live_env, queue):
        status, _ = servers.get(web.port, "/api/leaderboards/?game=gift_swap")
        leaderboard = status == 200
        if leaderboard:
            note = "upload to GET /api/leaderboards/?game= listing the new players"
        bases = [d for d in base_games() if d["game"] in ("gift_swap", "secret_santa")]
        for i in range(samples):
            base = bases[i % len(bases)]
            names = [f"fresh{i}-{uuid.uuid4().hex[:6]}" for _ in base["players"]]
            club_meta = {k: v for k, v in base.get("meta", {}).items() if k != "simulated"}
            started = time.perf_counter()
            status, body = servers.post(
                web.port,
                "/api/records/",
                # A club's game: bot play (meta.simulated) never reaches a leaderboard.
                orjson.dumps({**base, "players": names, "meta": club_meta}),
                "application/json",
            )
            record_id = orjson.loads(body)["id"]
            deadline = started + 30
            while time.perf_counter() < deadline:
                if leaderboard:
                    board_path = f"/api/leaderboards/?game={base['game']}&limit=200"
                    _, board = servers.get(web.port, board_path)
                    if names[0].encode() in board:
                        break
                elif PlayerResult.objects.filter(record_id=record_id).exists():
                    break
                time.sleep(0.02)
            taken.append(time.perf_counter() - started)
    p95 = servers.quantile(taken, 0.95)
    if not leaderboard:
        note += " (no /api/leaderboards/ in this tree yet)"
    return [row("freshness upload -> leaderboard p95", p95, "s", None, "< 2 s", p95 < 2, note)]
