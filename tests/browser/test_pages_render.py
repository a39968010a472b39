"""Pages as a person sees them: headless Chromium runs the page's JavaScript.

The dashboard's Plotly chart must actually draw (plotly.js loads from our own
static files, with no network), and the replay viewer must fill in a step
from the API. Needs Debian's chromium; in CI a missing browser fails the test.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from replays.models import LiveGame, Record
from replays.services import record_submit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--virtual-time-budget=15000",
]


def rendered_dom(url: str, tmp_path) -> str:
    """The DOM after the page's scripts ran, as Chromium serialises it."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (CI installs Debian's chromium)")
        pytest.skip("chromium is not installed")
    completed = subprocess.run(
        [browser, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", url],
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    return completed.stdout


def test_dashboard_chart_draws_with_local_plotly(live_server, make_document, tmp_path):
    for seed in (81, 82, 83):
        record_submit(document=make_document(seed=seed))
    dom = rendered_dom(f"{live_server.url}/games/secret_santa/", tmp_path)
    assert 'id="score-distribution"' in dom
    # These elements exist only once plotly.js has run and drawn the figure.
    assert 'class="main-svg"' in dom
    assert "final score distribution" in dom


def test_replay_viewer_shows_a_step_from_the_api(live_server, make_document, tmp_path):
    record, _ = record_submit(document=make_document(seed=84))
    dom = rendered_dom(f"{live_server.url}/records/{record.pk}/", tmp_path)
    # Filled in by the page's script from /api/records/<id>/steps/0/.
    assert '<pre id="to_move">["chance"]</pre>' in dom


def test_live_page_shows_the_seat_its_moves_and_nothing_without_a_token(live_server, api, tmp_path):
    opened = api.post(
        "/api/live/",
        {
            "game": "secret_santa",
            "players": ["ana", "bot-1", "bot-2"],
            "seed": 4,
            "bots": {"1": "greedy", "2": "greedy"},
        },
        format="json",
    ).json()
    url = f"{live_server.url}/live/{opened['id']}/"
    dom = rendered_dom(f"{url}#token={opened['seat_tokens'][0]}", tmp_path)
    assert "Your move (seat 0)" in dom
    assert dom.count('{"do":"take"') >= 1, "the seat's legal events are buttons"
    anonymous = rendered_dom(url, tmp_path / "anonymous")
    assert "send your seat token" in anonymous
    assert '"hand"' not in anonymous


def test_a_person_plays_a_whole_game_against_the_bots_in_the_browser(live_server, tmp_path):
    """Home page form -> live page -> click legal moves until the game is over."""
    browser_path = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser_path is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (CI installs Debian's chromium)")
        pytest.skip("chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=browser_path, args=[f for f in CHROMIUM_FLAGS if "budget" not in f]
        )
        page = browser.new_page()
        page.goto(f"{live_server.url}/")
        page.select_option("select[name=game]", "secret_santa")
        page.fill("input[name=name]", "ana")
        page.fill("input[name=players]", "3")
        page.click("button[type=submit]")
        page.wait_for_url("**/live/*/#token=*")
        page.wait_for_selector("#legal button")
        assert page.text_content("#status").startswith("Your move (seat 0)")
        for _ in range(300):
            if page.text_content("#status").startswith("Game over"):
                break
            before = page.text_content("#status")
            page.locator("#legal button").first.click()
            page.wait_for_function(
                "(before) => document.getElementById('status').textContent !== before", arg=before
            )
        else:
            pytest.fail("the game did not end in the browser")
        browser.close()
    live = LiveGame.objects.get()
    assert live.status == LiveGame.Status.FINISHED
    assert live.players[0] == "ana"
    assert Record.objects.filter(pk=live.record_id).exists()


def test_replay_link_opens_at_its_step_and_seat(live_server, make_document, tmp_path):
    record, _ = record_submit(document=make_document(seed=85))
    dom = rendered_dom(f"{live_server.url}/records/{record.pk}/#step=1&seat=0", tmp_path)
    assert '"you": 0' in dom, "the state is seat 0's view"
    assert '<pre id="event">{\n "by": "chance"' in dom, "step 1 is the deal"
