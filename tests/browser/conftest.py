"""A headless Debian Chromium driven by Playwright, and a place for screenshots.

Screenshots go to ``$ARTIFACT_DIR`` (default ``artifacts/browser`` in the
checkout): CI keeps them, and a person can look at what the tests saw.
"""

from __future__ import annotations

import os
import shutil
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
