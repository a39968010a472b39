"""gunicorn settings: ``gunicorn -c config/gunicorn.py config.wsgi``.

The application is loaded once in the master (``preload_app``) and its heap
frozen before the workers fork (``gc.freeze``): the garbage collector then never
walks the start-up objects, which took a full collection (80-90 ms) into about
7 of 100 dashboard requests (docs/performance.md). Workers share those pages.
Everything else comes from the environment, as gunicorn reads it
(``GUNICORN_CMD_ARGS``, ``WEB_CONCURRENCY``), so compose and the bench set it there.
"""

from __future__ import annotations

import gc
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
preload_app = True
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "120"))  # a bulk upload of 1,000 games
accesslog = os.environ.get("GUNICORN_ACCESSLOG", "-") or None


def when_ready(server) -> None:
    """The app is loaded in the master: what its workers would load on first use is loaded
    too (``config.preload``), then collect once and freeze what is left."""
    from config.preload import preload_or_log

    preload_or_log()
    gc.collect()
    gc.freeze()


# A worker's own garbage is collected between requests, once the answer is sent
# (``post_request``), not inside whichever request crosses the collector's threshold:
# with the threshold at 50,000 objects a young collection took 15-22 ms and a full one
# 42 ms, in about one request of a hundred, and set the p99 of a step's first visit
# (docs/performance.md, "Garbage collected between requests"). The automatic collector
# stays on, at a higher threshold, for a single request that allocates a lot (a bulk
# import of thousands of games).
BETWEEN_REQUESTS = 5_000  # young objects before a collection after a request (~1-2 ms)
INSIDE_A_REQUEST = (200_000, 50, 100)  # the automatic collector's thresholds


def post_fork(server, worker) -> None:
    gc.set_threshold(*INSIDE_A_REQUEST)


def post_request(worker, req, environ, resp) -> None:
    """Collect the generations that are due, as the automatic collector would: the
    young one every ``BETWEEN_REQUESTS`` objects, the middle one every 10 young
    collections, all of them every 10 middle ones."""
    young, young_runs, middle_runs = gc.get_count()
    if young >= BETWEEN_REQUESTS:
        gc.collect(2 if middle_runs >= 10 else 1 if young_runs >= 10 else 0)


def post_worker_init(worker) -> None:
    """Open the worker's own connections (``config.preload.connections_open``) and start the
    bulk import's check pool with the worker (see replays.bulk)."""
    from config.preload import connections_open

    connections_open()
    if os.environ.get("IMPORT_POOL_PRESTART", "1") != "0":
        from replays.bulk import validation_pool_start

        validation_pool_start()
