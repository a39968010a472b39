"""What a worker would otherwise load on its first requests, loaded once in the server's
master before it forks its workers (``config/gunicorn.py``, ``when_ready``).

Why: gunicorn loads the application in the master (``preload_app``), but Django and the
product load much of the rest on first use: the URL configuration and every view
module behind it (200-400 ms, on a worker's first request of any kind), the page
templates (compiled on first render, per process), and each game's table drawing
module (imported on a worker's first table of that game: 4-5 ms inside one visitor's
step, docs/performance.md). Each worker paid all of it again, inside a visitor's
request, after every start or restart. Loaded in the master, the workers inherit it
with the fork and share its memory. Nothing here opens a database or cache connection:
a connection made before the fork would be shared by every worker.
"""

from __future__ import annotations

import contextlib
import logging
import time
from pathlib import Path

logger = logging.getLogger(__name__)


def urls_load() -> int:
    """The URL configuration imported (with every view module) and its patterns compiled:
    a path that matches nothing is tried against every pattern, which compiles each."""
    from django.urls import Resolver404, get_resolver, reverse

    resolver = get_resolver()
    with contextlib.suppress(Resolver404):
        resolver.resolve("/preload-matches-nothing/\u2400/")
    reverse("home")  # the reverse lookup tables, built once per process
    return len(resolver.url_patterns)


def project_templates() -> list[str]:
    """The names of the templates the project's own apps ship (not Django's or DRF's)."""
    from django.conf import settings
    from django.template.utils import get_app_template_dirs

    base = Path(settings.BASE_DIR).resolve()
    names = []
    for folder in get_app_template_dirs("templates"):
        folder = Path(folder).resolve()
        if not folder.is_relative_to(base) or "site-packages" in folder.parts:
            continue  # a virtualenv may sit in the project's folder
        names += [
            path.relative_to(folder).as_posix()
            for path in sorted(folder.rglob("*"))
            if path.is_file() and path.suffix in {".html", ".txt"}
        ]
    return names


def templates_load() -> int:
    """Every project template compiled into the template engine's cache."""
    from django.template.loader import get_template

    names = project_templates()
    for name in names:
        get_template(name)
    return len(names)


def django_parts_load() -> int:
    """The parts Django imports on a worker's first page: the session and message stores,
    the session serializer, the template context processors, the locale's formats."""
    from importlib import import_module

    from django.conf import settings
    from django.template import engines
    from django.utils.formats import get_format
    from django.utils.module_loading import import_string

    names = [settings.MESSAGE_STORAGE, settings.SESSION_SERIALIZER]
    for engine in engines.all():
        names += getattr(engine, "engine", engine).context_processors
    for name in names:
        import_string(name)
    import_module(settings.SESSION_ENGINE)
    get_format("DATE_FORMAT")
    return len(names) + 1


def preload() -> dict[str, float]:
    """Load all of the above; what was loaded, and the seconds it took."""
    from replays.tables import table_modules_load

    started = time.perf_counter()
    loaded = {
        "url_patterns": urls_load(),
        "templates": templates_load(),
        "django_parts": django_parts_load(),
        "table_modules": len(table_modules_load()),
    }
    return {**loaded, "seconds": round(time.perf_counter() - started, 3)}


def preload_or_log() -> None:
    """``preload``, logged; a failure is logged and the server starts anyway (its workers
    then load what they need on first use, as they would without this)."""
    try:
        loaded = preload()
    except Exception:
        logger.exception("preload before the workers fork failed; they load on first use")
        return
    logger.info("preloaded before the workers fork: %s", loaded)


def connections_open() -> dict[str, bool]:
    """A new worker's database and cache connections opened before its first request
    (``config/gunicorn.py``, ``post_worker_init``: after the fork, so each worker has its
    own), not inside its first visitor's; one that fails now is opened on first use."""
    from django.core.cache import cache
    from django.db import connection

    attempts = {
        "database": connection.ensure_connection,
        "cache": lambda: cache.has_key("preload:connect"),
    }
    opened = {}
    for name, attempt in attempts.items():
        try:
            attempt()
        except Exception as exc:
            logger.warning(
                "the %s connection could not be opened at start-up (%s); it opens on first use",
                name,
                exc,
            )
            opened[name] = False
        else:
            opened[name] = True
    return opened
