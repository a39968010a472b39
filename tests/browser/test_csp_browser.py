"""Every page passes the content security policy: no violation, no console error.

Each page is opened in headless Chromium with the policy the server sends, and the
page listens for ``securitypolicyviolation`` events from its first script on (an init
script added before any page code runs). A page that still had an inline script, an
``on...=`` attribute or a chart needing ``eval`` would report a violation here.
"""

from __future__ import annotations

import datetime as dt
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from clubs import services as club_services
from games.registry import engine_slugs
from replays.services import record_submit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery-staple"

LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " "
    + (e.sourceFile || "") + ":" + (e.lineNumber || 0));
});
"""


def a_league_with_games(make_document) -> tuple[str, str]:
    """A club, a Secret Santa league with a season and two counted games (a chart)."""
    users = get_user_model().objects
    ana = users.create_user(username="ana", password=PASSWORD)
    club = club_services.club_create(user=ana, name="North Pier", slug="north-pier")
    league = club_services.league_create(
        club=club,
        user=ana,
        name="Santa League",
        slug="santa",
        game="secret_santa",
        points_per_place=[3, 2, 1, 0],
        min_games=1,
        tie_breaks=["wins"],
    )
    today = timezone.localdate()
    season = club_services.season_create(
        league=league,
        user=ana,
        name="This season",
        starts_on=today - dt.timedelta(days=30),
        ends_on=today + dt.timedelta(days=30),
    )
    handle = ""
    for seed in (61, 62):
        document = make_document("secret_santa", seed=seed)
        document["meta"] = {"played_at": timezone.now().isoformat()}
        club_services.season_entry_submit_document(
            season=season, document=document, user=ana, guests=list(range(len(document["players"])))
        )
        handle = document["players"][0]
    return "/clubs/north-pier/leagues/santa/", f"/players/{handle}/"


def every_page(live_server, api, make_document) -> list[tuple[str, str]]:
    """(path, selector that shows the page's script ran) for every kind of page."""
    pages: list[tuple[str, str]] = [
        ("/", "#play"),
        ("/records/", "main"),
        ("/upload/", "#uploader"),
        ("/rules/", "main"),
        ("/rules/gift_swap/", "main"),
        ("/clubs/", "main"),
        ("/accounts/login/", "form"),
        ("/accounts/signup/", "form"),
        ("/accounts/password-reset/", "form"),
        ("/api/docs/", "#swagger-ui .information-container"),
    ]
    record = None
    for game in engine_slugs():
        record, _ = record_submit(document=make_document(game, seed=71))
        pages.append((f"/records/{record.pk}/#step=3", "#viewer[data-shown-step='3']"))
        pages.append((f"/games/{game}/", ".main-svg"))
    assert record is not None
    pages.append((f"/records/{record.pk}/embed/", "#viewer[data-shown-step]"))
    league, player = a_league_with_games(make_document)
    pages += [(league, "#standings-chart .main-svg"), (player, "main")]
    pages.append(("/clubs/north-pier/", "main"))
    opened = api.post(
        "/api/live/",
        {"game": "gift_swap", "players": ["ana", "b", "c"], "bots": {"1": "greedy", "2": "greedy"}},
        format="json",
    ).json()
    pages.append((f"/live/{opened['id']}/#token={opened['seat_tokens'][0]}", "#table [data-card]"))
    return pages


def test_every_page_passes_the_content_security_policy(
    live_server, api, make_document, open_page, screenshot
):
    pages = every_page(live_server, api, make_document)
    page = open_page()
    page.add_init_script(LISTEN)
    problems: list[str] = []
    for path, ready in pages:
        page.console_errors.clear()
        response = page.goto(f"{live_server.url}{path}")
        assert response is not None
        assert response.status == 200, path
        policy = response.headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy, path
        try:
            page.wait_for_selector(ready, state="attached", timeout=10_000)
        except PlaywrightTimeout:
            problems.append(f"{path}: {ready} never appeared")
        page.wait_for_load_state("networkidle")
        violations = page.evaluate("window.__csp")
        if violations or page.console_errors:
            problems.append(f"{path}: {violations} {page.console_errors}")
    assert problems == []


def test_the_dashboard_chart_offers_its_data_as_csv(live_server, make_document, open_page):
    seats = 0
    for seed in (81, 82):
        document = make_document("gift_swap", seed=seed)
        record_submit(document=document)
        seats += len(document["players"])
    page = open_page()
    page.add_init_script(LISTEN)
    page.goto(f"{live_server.url}/games/gift_swap/")
    page.wait_for_selector("#scores .main-svg")
    link = page.locator("#scores-caption a.csv-link")
    assert link.text_content() == "Download the data (CSV)"
    with page.expect_download() as waiting:
        link.click()
    download = waiting.value
    assert download.suggested_filename.endswith(".csv")
    lines = Path(download.path()).read_text(encoding="utf-8").splitlines()
    assert lines[0] == "players,play,values,min,q1,median,q3,max,mean"
    # One summary row per table size of real play, counting every seat's final score.
    assert sum(int(line.split(",")[2]) for line in lines[1:]) == seats
    assert page.evaluate("window.__csp") == []
    assert page.console_errors == []


def test_another_site_may_frame_the_embed_and_nothing_else(live_server, make_document, open_page):
    """A club's page (another origin) with two frames: the embed draws, the replay
    page is refused by the browser (frame-ancestors 'none')."""
    record, _ = record_submit(document=make_document("gift_swap", seed=9))
    club_page = (
        f'<iframe id="embed" src="{live_server.url}/records/{record.pk}/embed/"></iframe>'
        f'<iframe id="replay" src="{live_server.url}/records/{record.pk}/"></iframe>'
    )
    # A real server of its own on 127.0.0.1 (another origin than the live server's
    # localhost); a page Playwright made up would count as a public site, which
    # Chromium's private network rules keep from framing localhost at all.
    body = club_page.encode()

    class ClubSite(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    site = ThreadingHTTPServer(("127.0.0.1", 0), ClubSite)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    club = f"http://127.0.0.1:{site.server_port}/"
    page = open_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "frame-ancestors" in m.text else None)
    try:
        page.goto(club)
        embed = page.frame_locator("#embed")
        embed.locator("#viewer[data-shown-step]").wait_for(state="attached")
        page.wait_for_function("() => document.getElementById('replay').contentWindow !== null")
        page.wait_for_timeout(500)  # the refusal is reported once the frame's answer is in
        replay = page.frame_locator("#replay")
        assert replay.locator("#viewer").count() == 0, "the replay page must not be framed"
        assert any("frame-ancestors" in text for text in refused), refused
    finally:
        site.shutdown()
