"""Fixtures shared by the analytics tests."""

from __future__ import annotations

import pytest

from core import background


@pytest.fixture
def in_process_pool(settings):
    """The embedded default serving requests: no broker, a one-thread pool (bin/serve's
    settings), and the pool drained before the test ends."""
    settings.BACKGROUND_WORKERS = 1
    settings.CELERY_TASK_ALWAYS_EAGER = True
    background.serving_mark()  # as a request does
    yield
    assert background.background_wait(timeout=120), "the pool drained"
