"""The README's commands run as written: manage.py on a developer's machine needs no env."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STRIPPED = (
    "SECRET_KEY",
    "DEBUG",
    "DJANGO_SETTINGS_MODULE",
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "DJANGO_ALLOW_ASYNC_UNSAFE",  # set for the browser tests in this process; not a deployment's
)


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in STRIPPED}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, "DATABASE_URL": "sqlite:///:memory:", **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_manage_py_runs_with_the_development_defaults_when_no_secret_is_set():
    done = _manage("check")
    assert done.returncode == 0, done.stderr
    assert "System check identified no issues" in done.stdout


def test_a_deployment_without_a_secret_key_is_refused_with_a_clear_message():
    done = _manage("check", DEBUG="0")
    assert done.returncode != 0
    assert "SECRET_KEY must be set" in done.stderr


def test_deploy_checks_are_clean_with_production_settings():
    secret = "x" * 60 + "-a-long-random-production-secret"
    for tls in ("0", "1"):
        done = _manage(
            "check",
            "--deploy",
            "--fail-level",
            "WARNING",
            SECRET_KEY=secret,
            DEBUG="0",
            ALLOWED_HOSTS="giftbox.example",
            TLS=tls,
        )
        assert done.returncode == 0, done.stdout + done.stderr
