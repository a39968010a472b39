"""House rules picked with fields, on a phone and a desktop: a league's, and the balance lab's
(whose games are played in the background while the page shows their progress)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from analytics.models import SimulationJob
from clubs import services
from clubs.models import League
from core import background
from tests.browser.layout import assert_fits

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery-staple"



def log_in(page, url: str, next_url: str) -> None:
    page.goto(f"{url}/accounts/login/?next={next_url}")
    page.fill("input[name=username]", "ana")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit].primary")


@pytest.mark.parametrize("width", [390, 1280])
def test_an_organiser_picks_a_leagues_house_rules(live_server, open_page, screenshot, width):
    ana = get_user_model().objects.create_user(username="ana", password=PASSWORD)
    services.club_create(user=ana, name="North Pier Games", slug="north-pier")
    page = open_page(width, 844 if width == 390 else 900)
    log_in(page, live_server.url, "/clubs/north-pier/")
    page.wait_for_url("**/clubs/north-pier/")
    # Only the chosen game's house rules are shown; choosing another game shows its own.
    assert page.locator("#house-rules-secret_santa").is_visible()
    assert not page.locator("#house-rules-gift_trap").is_visible()
    page.select_option("#id_game", "gift_trap")
    assert page.locator("#house-rules-gift_trap").is_visible()
    assert not page.locator("#house-rules-secret_santa").is_visible()
    page.fill("#id_name", f"Trap Cup {width}")
    page.uncheck("#house-rules-gift_trap input[value='\"black\"']")
    page.fill("#id_rules-gift_trap-track_length", "30")
    page.fill("#id_rules-gift_trap-zone_size", "40")  # longer than the track: refused
    page.locator("#house-rules-gift_trap").scroll_into_view_if_needed()
    assert_fits(page, width, "the league form")
    screenshot(page, f"house-rules-league-form-{width}")
    page.click("#create-league button[type=submit]")
    error = page.locator("#house-rules-gift_trap .has-error .errorlist")
    assert "must be at most the track length (30)" in error.inner_text()
    assert page.locator("#house-rules-gift_trap").is_visible(), "the chosen game's rules again"
    error.scroll_into_view_if_needed()
    screenshot(page, f"house-rules-league-error-{width}")
    page.fill("#id_rules-gift_trap-zone_size", "6")
    page.click("#create-league button[type=submit]")
    page.wait_for_url("**/clubs/north-pier/")
    league = League.objects.get(name=f"Trap Cup {width}")
    assert league.options["packs"] == ["yellow", "red", "blue"]
    assert (league.options["track_length"], league.options["zone_size"]) == (30, 6)
    # The refused form came back as a 400 (the browser logs its status): nothing else.
    assert [e for e in page.console_errors if "status of 400" not in e] == []


@pytest.mark.parametrize("width", [390, 1280])
def test_the_balance_lab_plays_in_the_background_with_progress(
    live_server, open_page, screenshot, settings, width
):
    # In the background as on bin/serve, except on the test suite's in-memory SQLite, whose
    # connections share one cache and refuse (not wait for) a table another one is writing:
    # there the job runs in the request, as it did before (tests/analytics covers the pool).
    settings.BACKGROUND_WORKERS = 0 if connection.vendor == "sqlite" else 1
    page = open_page(width, 844 if width == 390 else 900)
    page.goto(f"{live_server.url}/games/gift_swap/#balance-lab")
    page.select_option("#id_players", "3")
    page.fill("#id_games", "40")
    page.uncheck("#id_rules-gift_swap-regift_own_row")  # a house rule no game was played with
    page.locator("#balance-lab form").scroll_into_view_if_needed()
    assert_fits(page, width, "the balance lab")
    screenshot(page, f"balance-lab-form-{width}")
    page.click("#balance-lab button[type=submit]")
    page.wait_for_url("**/games/gift_swap/?job=*")
    job = SimulationJob.objects.get()
    assert job.options == {"start_player": 0, "regift_own_row": False}
    status = page.locator("li.job.current .job-status")
    status.scroll_into_view_if_needed()
    screenshot(page, f"balance-lab-progress-{width}")
    page.locator("li.job.current[data-state=done]").wait_for(timeout=120_000)
    assert "40 of 40 played" in status.inner_text()
    if settings.BACKGROUND_WORKERS:  # the page watched it finish
        assert page.locator(".job-done-note").is_visible()
    screenshot(page, f"balance-lab-done-{width}")
    assert background.background_wait(timeout=60)
    assert page.console_errors == []
