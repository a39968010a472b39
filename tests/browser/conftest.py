"""A headless Debian Chromium driven by Playwright, and a place for screenshots.

Screenshots go to ``$ARTIFACT_DIR`` (default ``artifacts/browser`` in the
checkout): CI keeps them, and a person can look at what the tests saw.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Playwright's sync API keeps an event loop running in the test thread; the ORM
# calls the tests make between page actions are ordinary synchronous calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
ARTIFACTS = Path(os.environ.get("ARTIFACT_DIR", Path(__file__).resolve().parents[2] / "artifacts"))


def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (CI installs Debian's chromium)")
        pytest.skip("chromium is not installed")
    return path


@pytest.fixture(scope="session")
def browser():
    path = chromium_path()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=FLAGS)
        yield launched
        launched.close()


class RequestsInFlight:
    """Counts the requests the live server is handling, so a test can wait for none.

    The live server answers each connection in a thread of its own. A page closed
    while its request is still being handled (a move the server is still playing
    bots for, a poll) leaves that thread writing to the database while the test's
    teardown empties it: on SQLite the flush then failed with "database table is
    locked". Counted from the moment the server accepts a connection until its
    thread is done with it.
    """

    def __init__(self, httpd) -> None:
        self.count = 0
        self.changed = threading.Condition()
        accept, handle = httpd.process_request, httpd.process_request_thread

        def process_request(request, client_address):
            with self.changed:
                self.count += 1
            try:
                accept(request, client_address)
            except BaseException:
                self._done()
                raise

        def process_request_thread(request, client_address):
            try:
                handle(request, client_address)
            finally:
                self._done()

        httpd.process_request = process_request
        httpd.process_request_thread = process_request_thread

    def _done(self) -> None:
        with self.changed:
            self.count -= 1
            self.changed.notify_all()

    def wait_idle(self, url: str, timeout: float = 30) -> None:
        """Return once every request the server took so far is answered.

        A last request of our own goes after any connection already waiting to be
        accepted (the listening socket accepts in order), so when it is answered
        and the count is 0, nothing the closed pages sent is left.
        """
        with contextlib.suppress(urllib.error.HTTPError):  # a 404 is an answer
            urllib.request.urlopen(f"{url}/static/in-flight-sentinel", timeout=timeout).close()
        with self.changed:
            if not self.changed.wait_for(lambda: self.count == 0, timeout=timeout):
                pytest.fail(f"the live server still handles {self.count} request(s)")


@pytest.fixture(autouse=True)
def live_server_quiet(request):
    """After a test that used the live server (its pages closed first), wait until the
    server has answered every request, before the database is emptied."""
    if "live_server" not in request.fixturenames:
        yield
        return
    server = request.getfixturevalue("live_server")
    httpd = server.thread.httpd
    in_flight = getattr(httpd, "requests_in_flight", None)
    if in_flight is None:
        in_flight = httpd.requests_in_flight = RequestsInFlight(httpd)
    yield
    in_flight.wait_idle(server.url)


@pytest.fixture
def open_page(browser):
    """``open_page(width, height)``: a fresh page that records console errors."""
    contexts = []

    def make(width: int = 1280, height: int = 900):
        context = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(context)
        page = context.new_page()
        page.console_errors = []
        page.on(
            "console", lambda m: page.console_errors.append(m.text) if m.type == "error" else None
        )
        page.on("pageerror", lambda error: page.console_errors.append(str(error)))
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def screenshot():
    """``screenshot(page, name)`` saves a full-page PNG under the artifact folder."""
    folder = ARTIFACTS / "browser"
    folder.mkdir(parents=True, exist_ok=True)

    def save(page, name: str) -> Path:
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return save
