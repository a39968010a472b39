"""Checks for the real services the integration tests need.

Outside CI a missing service skips the test (a laptop without PostgreSQL can
still run the suite); in CI (CI=true) it fails, so nothing is skipped there.
"""

from __future__ import annotations

import os

import pytest
from django.db import connection


def missing_service(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"needs {what}")
    pytest.skip(f"needs {what}")


def require_postgres() -> None:
    if connection.vendor != "postgresql":
        missing_service("DATABASE_URL (PostgreSQL)")


def require_broker() -> str:
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker:
        missing_service("CELERY_BROKER_URL (Redis)")
    return broker
