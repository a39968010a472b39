"""config/gunicorn.py with a probe of each request: a tool for ``python -m bench.tail``.

Every request's start and end on the monotonic clock (the one the bench's client reads,
so the two can be matched), the worker's CPU time, context switches and page faults over
it, and the time the worker waited for Redis replies, one line per request in
``$BENCH_PROBE/<pid>.tsv``. The span ends when ``post_request`` is called: after the
answer is sent and its body stored, before the collection between requests.

``bench.servers.Gunicorn`` runs gunicorn with this file when ``BENCH_PROBE`` names a folder.
"""

from __future__ import annotations

import os
import resource
import time
from typing import Any

from config.gunicorn import *  # noqa: F403 (the product's settings, the hooks wrapped below)
from config.gunicorn import post_fork as _post_fork
from config.gunicorn import post_request as _post_request

_REDIS = [0.0, 0.0]  # seconds waited for Redis replies in this request, and the longest wait
_START: dict[str, Any] = {}
FIELDS = (  # the columns of a line, in order
    "path", "start", "end", "cpu_ms", "voluntary", "involuntary", "faults", "redis_ms",
    "redis_max_ms",
)  # fmt: skip


def _redis_timed() -> None:
    """redis-py's reply reading, timed (every Redis command of the worker waits there)."""
    import redis.connection

    real = redis.connection.AbstractConnection.read_response

    def read_response(self: Any, *args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return real(self, *args, **kwargs)
        finally:
            waited = time.perf_counter() - started
            _REDIS[0] += waited
            _REDIS[1] = max(_REDIS[1], waited)

    redis.connection.AbstractConnection.read_response = read_response  # type: ignore[method-assign]


def post_fork(server: Any, worker: Any) -> None:
    _post_fork(server, worker)
    _redis_timed()


def pre_request(worker: Any, req: Any) -> None:
    _REDIS[:] = [0.0, 0.0]
    usage = resource.getrusage(resource.RUSAGE_SELF)
    _START["usage"], _START["at"] = usage, time.perf_counter()


def post_request(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    end = time.perf_counter()
    usage, before = resource.getrusage(resource.RUSAGE_SELF), _START["usage"]
    cpu = (usage.ru_utime + usage.ru_stime) - (before.ru_utime + before.ru_stime)
    path = req.path + (f"?{req.query}" if req.query else "")
    line = (
        path, f"{_START['at']:.6f}", f"{end:.6f}", f"{cpu * 1000:.3f}",
        str(usage.ru_nvcsw - before.ru_nvcsw), str(usage.ru_nivcsw - before.ru_nivcsw),
        str(usage.ru_minflt - before.ru_minflt), f"{_REDIS[0] * 1000:.3f}",
        f"{_REDIS[1] * 1000:.3f}",
    )  # fmt: skip
    with open(os.path.join(os.environ["BENCH_PROBE"], f"{os.getpid()}.tsv"), "a") as out:
        out.write("\t".join(line) + "\n")
    _post_request(worker, req, environ, resp)
