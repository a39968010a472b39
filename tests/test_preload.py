"""config/preload.py: what a worker would load on its first requests is loaded in the
server's master before the fork, without opening a connection there; each worker opens
its own connections before its first request; a failure never stops the server."""

from __future__ import annotations

import gc
import logging
import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import OperationalError

from config import preload
from tests.ports import closed_port

ROOT = Path(__file__).resolve().parent.parent

# Run in a fresh interpreter: in the test process everything is imported already.
FRESH = """
import json, sys
import django
django.setup()
from django.db import connections
from django.template import engines
from django.urls import get_resolver

def loaded():
    loader = engines["django"].engine.template_loaders[0]
    return {
        "tables": sorted(m for m in sys.modules if m.startswith("replays.tables.")),
        "urlconf": "config.urls" in sys.modules,
        "populated": get_resolver()._populated,
        "templates": len(getattr(loader, "get_template_cache", {})),
        "messages": "django.contrib.messages.storage.fallback" in sys.modules,
    }

before = loaded()
from config.preload import preload, project_templates
result = preload()
print(json.dumps({
    "before": before,
    "after": loaded(),
    "result": result,
    "names": project_templates(),
    "connections": [c.connection is not None for c in connections.all()],
}))
"""


@pytest.fixture(scope="module")
def fresh() -> dict:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "0"}
    env.setdefault("SECRET_KEY", "preload-test")
    done = subprocess.run(
        [sys.executable, "-c", FRESH], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120, check=True,
    )  # fmt: skip
    import json

    return json.loads(done.stdout.strip().splitlines()[-1])


def test_every_games_drawing_module_is_imported_before_any_table_is_drawn(fresh):
    from games.registry import engine_slugs

    assert fresh["before"]["tables"] == ["replays.tables.kit"]  # the drawing kit alone
    expected = {f"replays.tables.{slug}" for slug in engine_slugs()}
    assert expected <= set(fresh["after"]["tables"])
    assert fresh["result"]["table_modules"] == len(engine_slugs())


def test_the_url_configuration_is_imported_and_its_reverse_tables_built(fresh):
    assert not fresh["before"]["urlconf"]
    assert not fresh["before"]["populated"]
    assert fresh["after"]["urlconf"]
    assert fresh["after"]["populated"]


def test_every_project_template_is_compiled_into_the_engines_cache(fresh):
    names = fresh["names"]
    assert "base.html" in names
    assert "replays/replay.html" in names
    assert not any(name.startswith(("admin/", "rest_framework/")) for name in names)
    assert fresh["before"]["templates"] == 0
    assert fresh["after"]["templates"] >= len(names)  # with the templates they extend


def test_djangos_first_page_parts_are_imported(fresh):
    assert not fresh["before"]["messages"]
    assert fresh["after"]["messages"]


def test_no_connection_is_opened_in_the_master(fresh):
    """A connection made before the fork would be one socket shared by every worker."""
    assert fresh["connections"]
    assert not any(fresh["connections"])


def test_a_failing_preload_is_logged_and_the_server_starts(monkeypatch, caplog):
    def broken() -> int:
        raise ImportError("a view module that does not import")

    monkeypatch.setattr(preload, "urls_load", broken)
    with caplog.at_level(logging.ERROR, logger="config.preload"):
        preload.preload_or_log()
    assert "preload before the workers fork failed" in caplog.text


def test_gunicorns_master_preloads_before_it_freezes_the_heap(monkeypatch):
    config = runpy.run_path(str(ROOT / "config" / "gunicorn.py"))
    calls = []
    monkeypatch.setattr(preload, "preload_or_log", lambda: calls.append(gc.get_freeze_count()))
    frozen = gc.get_freeze_count()
    try:
        config["when_ready"](None)
    finally:
        gc.unfreeze()
    assert calls == [frozen]  # called once, before the freeze


@pytest.mark.django_db
def test_a_worker_opens_its_own_connections_before_its_first_request(monkeypatch):
    from django.core.cache import cache
    from django.db import connection

    opened = []
    real = connection.ensure_connection
    monkeypatch.setattr(connection, "ensure_connection", lambda: opened.append("db") or real())
    monkeypatch.setattr(cache, "has_key", lambda key: opened.append("cache") or False)
    assert preload.connections_open() == {"database": True, "cache": True}
    assert opened == ["db", "cache"]
    assert connection.connection is not None


@pytest.mark.django_db
def test_a_database_down_at_a_workers_start_is_logged_not_raised(monkeypatch, caplog):
    from django.db import connection

    def down() -> None:
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "ensure_connection", down)
    with caplog.at_level(logging.WARNING, logger="config.preload"):
        opened = preload.connections_open()
    assert opened == {"database": False, "cache": True}
    assert "database connection could not be opened" in caplog.text


def test_gunicorns_worker_opens_its_connections(monkeypatch):
    config = runpy.run_path(str(ROOT / "config" / "gunicorn.py"))
    calls = []
    monkeypatch.setattr(preload, "connections_open", lambda: calls.append("open"))
    monkeypatch.setenv("IMPORT_POOL_PRESTART", "0")
    config["post_worker_init"](None)
    assert calls == ["open"]


def _get(port: int, path: str) -> int:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path)
        return connection.getresponse().status
    finally:
        connection.close()


def test_gunicorn_starts_preloaded_and_serves_with_the_database_and_cache_down(tmp_path):
    """The whole start: the master preloads, the workers fork and fail to connect, and
    the server answers (the API's own 404, and the database's 503 page)."""
    import time

    port = closed_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": "preload-test",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{closed_port()}/none",
        "CACHE_URL": f"redis://127.0.0.1:{closed_port()}/0",
        "STATIC_ROOT": str(tmp_path / "static"),
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "2",
        "IMPORT_POOL_PRESTART": "0",
        "GUNICORN_ACCESSLOG": "",
        "LOG_LEVEL": "INFO",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status = _get(port, "/api/no-such-thing/")
                break
            except OSError:
                assert server.poll() is None, "gunicorn ended"
                assert time.monotonic() < deadline, "gunicorn did not answer in 60 s"
                time.sleep(0.2)
        assert status == 404
        assert _get(port, "/") == 503  # the database's own page, not a crash
    finally:
        server.terminate()
        log, _ = server.communicate(timeout=30)
    assert "preloaded before the workers fork" in log
    assert "database connection could not be opened at start-up" in log
