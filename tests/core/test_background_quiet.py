"""The embedded pool yields to requests (core.background.quiet_wait).

Without a broker the pool's thread shares the web process with the requests (one
interpreter lock, one SQLite writer): a bulk import's ingest batches wait for a quiet
moment between requests, a single upload's ingest does not wait, and a server that is
never quiet still gets its work done after ``BACKGROUND_QUIET_MAX_SECONDS``.
"""

from __future__ import annotations

import threading
import time

import pytest
from celery import shared_task

from core import background

ran: list[tuple[str, float]] = []
_ran_lock = threading.Lock()


@shared_task(name="tests.background.noted")
def noted(*, label: str) -> str:
    with _ran_lock:
        ran.append((label, time.monotonic()))
    return label


@pytest.fixture
def pool(settings):
    """The embedded default serving requests, with the names below in the pool's lanes."""
    settings.BACKGROUND_WORKERS = 1
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.BACKGROUND_QUIET_SECONDS = 0.3
    settings.BACKGROUND_QUIET_MAX_SECONDS = 30
    settings.BACKGROUND_URGENT = ("tests.background.noted_urgent",)
    background.serving_mark()
    # A request an earlier test of this process left open (a streaming answer it never
    # read: the test client signals its end only once read) would hold the pool back.
    with background._requests:
        background._requests_in_flight.clear()
    ran.clear()
    yield settings
    assert background.background_wait(timeout=60), "the pool drained"


@shared_task(name="tests.background.noted_urgent")
def noted_urgent(*, label: str) -> str:
    return noted(label=label)


def _wait_for(count: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while len(ran) < count and time.monotonic() < deadline:
        time.sleep(0.01)


def test_a_bulk_task_waits_for_the_request_to_end_an_urgent_one_does_not(pool):
    background.request_began()
    try:
        background.task_submit("tests.background.noted", kwargs={"label": "batch"})
        background.task_submit("tests.background.noted_urgent", kwargs={"label": "single"})
        _wait_for(1)
        time.sleep(0.5)  # the batch had time to start, were it not waiting
        assert [label for label, _ in ran] == ["single"]
    finally:
        ended = time.monotonic()
        background.request_ended()
    _wait_for(2)
    assert [label for label, _ in ran] == ["single", "batch"]
    # It started only after a quiet moment (BACKGROUND_QUIET_SECONDS) past the request.
    assert ran[1][1] - ended >= 0.3


def test_an_urgent_task_arriving_during_the_wait_goes_first(pool):
    background.request_began()
    try:
        background.task_submit("tests.background.noted", kwargs={"label": "batch"})
        time.sleep(0.2)  # the pool's thread took the batch and waits with it
        background.task_submit("tests.background.noted_urgent", kwargs={"label": "single"})
        _wait_for(1)
        assert [label for label, _ in ran] == ["single"]
    finally:
        background.request_ended()
    _wait_for(2)
    assert [label for label, _ in ran] == ["single", "batch"]


def test_a_server_never_quiet_still_runs_its_tasks(pool):
    pool.BACKGROUND_QUIET_MAX_SECONDS = 0.5
    background.request_began()
    try:
        started = time.monotonic()
        background.task_submit("tests.background.noted", kwargs={"label": "batch"})
        _wait_for(1)
        assert [label for label, _ in ran] == ["batch"]
        assert ran[0][1] - started >= 0.5
    finally:
        background.request_ended()


@pytest.mark.django_db
def test_requests_tell_the_pool_when_they_begin_and_end(pool, client):
    """core.apps connects the request signals: the pool sees a request's end."""
    before = background.quiet_wait()  # no request: no wait beyond the quiet period
    assert before < 5
    client.get("/api/games/")
    # A request just ended: a task waits about the quiet period before it starts.
    assert background.quiet_wait() >= 0.2
    assert not background._requests_in_flight


@pytest.mark.django_db
def test_a_request_whose_end_was_never_signalled_does_not_hold_the_pool(pool, client):
    """A thread serves one request at a time: its next request forgets the lost one."""
    client.get("/api/records/export/")  # a streaming answer, never read: no request_finished
    assert background._requests_in_flight, "the export's end was not signalled"
    client.get("/api/games/")
    assert not background._requests_in_flight
    assert background.quiet_wait() < 5
