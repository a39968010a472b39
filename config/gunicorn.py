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
    """The app is loaded in the master: collect once, then freeze what is left."""
    gc.collect()
    gc.freeze()


def post_fork(server, worker) -> None:
    """A worker's own allocations: collect the young generation less often."""
    gc.set_threshold(50_000, 20, 100)


def post_worker_init(worker) -> None:
    """Start the bulk import's check pool with the worker (see replays.bulk)."""
    if os.environ.get("IMPORT_POOL_PRESTART", "1") != "0":
        from replays.bulk import validation_pool_start

        validation_pool_start()
