"""Where the slowest first visits of a step wait: a tool, not a figure.

    .venv/bin/python -m bench.tail [--slower 1.8]

Runs the viewer group's replay half (``python -m bench --only viewer-replay``) with each
web request probed inside the server (``bench/gunicorn_probe.py``) and each of the
client's timed requests noted, matches the two on the monotonic clock they share, and
prints, for a step's first visits after the preparation and for the bare answers beside
them: the client's time, the time before a worker started the request, the worker's span
(its CPU time, its waits for Redis) and the time after it until the client had the answer,
at the median and over the answers slower than ``--slower`` times the median; then how
many of the slow ones waited where. docs/performance.md, "Where the slowest first visits wait",
reads one run. Needs what ``python -m bench`` needs (PostgreSQL, Redis).
"""

from __future__ import annotations

import argparse
import bisect
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import servers

Timed = tuple[str, float, float]  # path, seconds, the client's clock when it was answered


def _client_noted(into: list[Timed]) -> None:
    """Each timed request of the client noted (path, seconds, end)."""
    real = servers.timed_get

    def timed_get(port: int, path: str, headers: dict[str, str] | None = None) -> float:
        taken = real(port, path, headers)
        into.append((path, taken, time.perf_counter()))
        return taken

    servers.timed_get = timed_get  # type: ignore[assignment]


def _server_read(folder: Path) -> list[tuple[float, float, str, float, float, float]]:
    """(start, end, path, cpu ms, redis ms, longest redis ms) of every probed request."""
    from bench.gunicorn_probe import FIELDS

    rows = []
    for tsv in folder.glob("*.tsv"):
        for line in tsv.read_text().splitlines():
            f = dict(zip(FIELDS, line.split("\t"), strict=True))
            rows.append(
                (
                    float(f["start"]), float(f["end"]), f["path"], float(f["cpu_ms"]),
                    float(f["redis_ms"]), float(f["redis_max_ms"]),
                )
            )  # fmt: skip
    return sorted(rows)


def _matched(client: list[Timed], server: list[Any]) -> list[dict[str, Any]]:
    """A step's first visits and their bare answers (``bench.viewer._first_step_rows``),
    each with the server's span of it: found among the spans that started while the
    client waited for it."""
    bare = [i for i, (path, _, _) in enumerate(client) if "/bench/bare/first-step" in path]
    if not bare:
        raise SystemExit("no first visits of a step in this run")
    starts = [row[0] for row in server]
    out = []
    for path, taken, end in client[bare[0] - 1 : bare[-1] + 1]:
        sent = end - taken
        i = bisect.bisect_left(starts, sent)
        span = next((s for s in server[i : i + 4] if s[2] == path and s[0] <= end), None)
        if span is None:
            continue
        out.append(
            {
                "bare": "/bench/bare/" in path,
                "client": taken * 1000,
                "before": (span[0] - sent) * 1000,
                "worker": (span[1] - span[0]) * 1000,
                "cpu": span[3],
                "redis": span[4],
                "redis_max": span[5],
                "after": (end - span[1]) * 1000,
            }
        )
    return out


def _report(rows: list[dict[str, Any]], slower: float) -> None:
    keys = ("client", "before", "worker", "cpu", "redis", "after")
    print(f"{'':34}{'count':>7}" + "".join(f"{k:>9}" for k in keys) + "  (ms)")
    for bare in (False, True):
        group = [r for r in rows if r["bare"] is bare]
        name = "bare answers" if bare else "first visits"
        median = {k: statistics.median(r[k] for r in group) for k in keys}
        slow = [r for r in group if r["client"] > slower * median["client"]]
        print(f"{name + ', median':34}{len(group):7}" + "".join(f"{median[k]:9.2f}" for k in keys))
        if slow:
            mean = {k: statistics.mean(r[k] for r in slow) for k in keys}
            label = f"slower than {slower}x (mean)"
            print(f"{label:34}{len(slow):7}" + "".join(f"{mean[k]:9.2f}" for k in keys))
            causes = {
                "a Redis reply over 1 ms": sum(r["redis_max"] > 1 for r in slow),
                "started over 1 ms late": sum(r["before"] > 1 for r in slow),
                "answered over 1 ms after the worker": sum(r["after"] > 1 for r in slow),
                f"CPU over {slower}x the median": sum(
                    r["cpu"] > slower * median["cpu"] for r in slow
                ),
            }
            print("    " + "; ".join(f"{why}: {n}" for why, n in causes.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slower", type=float, default=1.8, help="slow: over this x the median")
    args = parser.parse_args()
    client: list[Timed] = []
    _client_noted(client)
    with tempfile.TemporaryDirectory(prefix="giftbox-probe-") as folder:
        os.environ["BENCH_PROBE"] = folder
        from bench.__main__ import main as bench_main

        sys.argv = ["bench", "--only", "viewer-replay"]
        bench_main()
        _report(_matched(client, _server_read(Path(folder))), args.slower)


if __name__ == "__main__":
    main()
