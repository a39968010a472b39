"""A club organiser on a 390 px phone: log in, record a table game, see it in the league table."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from clubs import services
from clubs.models import SeasonEntry
from tests.browser.layout import assert_fits

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery-staple"



def a_club_with_a_league():
    users = get_user_model().objects
    ana = users.create_user(username="ana", password=PASSWORD)
    bo = users.create_user(username="bo", password=PASSWORD)
    club = services.club_create(
        user=ana, name="North Pier Games", slug="north-pier", description="Thursdays at the pier."
    )
    _invitation, key = services.invitation_create(club=club, user=ana)
    services.club_join(key=key, user=bo)
    league = services.league_create(
        club=club,
        user=ana,
        name="Santa League",
        slug="santa",
        game="secret_santa",
        points_per_place=[3, 2, 1, 0],
        min_games=2,
        tie_breaks=["wins"],
    )
    today = timezone.localdate()
    services.season_create(
        league=league,
        user=ana,
        name="This season",
        starts_on=today - dt.timedelta(days=30),
        ends_on=today + dt.timedelta(days=30),
    )
    return club, league


def test_record_a_table_game_on_a_phone_and_see_it_in_the_table(live_server, open_page, screenshot):
    _club, _league = a_club_with_a_league()
    page = open_page(390, 844)
    page.goto(f"{live_server.url}/accounts/login/?next=/clubs/north-pier/")
    page.fill("input[name=username]", "ana")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"{live_server.url}/clubs/north-pier/")
    assert "North Pier Games" in page.inner_text("h1")
    assert "Create a league" in page.inner_text("main")
    assert_fits(page, 390, "the club page")
    screenshot(page, "clubs-club-390")

    page.click("#leagues >> text=Santa League")
    page.wait_for_url("**/clubs/north-pier/leagues/santa/**")
    page.click("text=Record a table game")
    page.wait_for_url("**/leagues/santa/record/")
    assert_fits(page, 390, "the table-game form")
    box = page.locator("button.primary.big").bounding_box()
    assert box is not None
    assert box["height"] >= 44
    page.select_option("#id_player_0", "ana")
    page.fill("#id_score_0", "-1")  # out of bounds: refused on the field
    page.select_option("#id_player_1", "bo")
    page.fill("#id_score_1", "12")
    page.fill("#id_guest_2", "Cleo")
    page.fill("#id_score_2", "9")
    page.click("button.primary.big")
    page.wait_for_selector(".seat-row.has-error")
    assert "scored -1" in page.inner_text(".seat-row.has-error")
    assert_fits(page, 390, "the table-game form with an error")
    screenshot(page, "clubs-table-game-error-390")
    assert not SeasonEntry.objects.exists()

    page.fill("#id_score_0", "26")
    page.click("button.primary.big")
    page.wait_for_url("**/clubs/north-pier/leagues/santa/?season=*")
    assert "Game recorded in Santa League" in page.inner_text("ul.messages")
    standings = page.inner_text("table.standings")
    assert "ana" in standings
    assert "bo" in standings
    assert "Cleo" not in standings
    assert "needs 1 more game" in standings
    assert "result only" in page.inner_text("#games")
    page.wait_for_selector("#standings-chart .main-svg")
    assert_fits(page, 390, "the league page")
    screenshot(page, "clubs-league-390")

    entry = SeasonEntry.objects.get()
    assert entry.guests == [2]
    assert entry.record.submitted_by.username == "ana"

    for path, name in [("/clubs/", "clubs-list"), ("/players/ana/", "clubs-player")]:
        page.goto(f"{live_server.url}{path}")
        assert_fits(page, 390, path)
        screenshot(page, f"{name}-390")
    assert "Secret Santa" in page.inner_text("#results")
    # The refused form answered 422 (the browser logs that); nothing else went wrong.
    assert [e for e in page.console_errors if "status of 422" not in e] == []

    wide = open_page(1280, 900)
    for path, name in [
        ("/clubs/north-pier/", "clubs-club"),
        ("/clubs/north-pier/leagues/santa/", "clubs-league"),
    ]:
        wide.goto(f"{live_server.url}{path}")
        assert_fits(wide, 1280, path)
        screenshot(wide, f"{name}-1280")
    assert wide.console_errors == []


def in_view(page, selector: str) -> bool:
    """Whether the element's top is on the screen (after any scrolling the page did)."""
    return page.evaluate(
        """(selector) => {
            const box = document.querySelector(selector).getBoundingClientRect();
            // -1: scrolled to its top, a box may sit a fraction of a pixel above it
            return box.top >= -1 && box.top < window.innerHeight;
        }""",
        selector,
    )


def test_errors_show_at_the_top_and_a_typo_is_corrected_on_a_phone(
    live_server, open_page, screenshot
):
    a_club_with_a_league()
    page = open_page(390, 844)
    page.goto(f"{live_server.url}/accounts/login/?next=/clubs/north-pier/leagues/santa/record/")
    page.fill("input[name=username]", "bo")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url("**/leagues/santa/record/")

    # A date no season covers: the error is at the top, in view and focused, not below the fold.
    page.select_option("#id_player_0", "ana")
    page.fill("#id_score_0", "310")
    page.select_option("#id_player_1", "bo")
    page.fill("#id_score_1", "12")
    page.fill("#id_played_at", "2001-01-01T20:00")
    page.click("button.primary.big")
    page.wait_for_selector("[data-error-summary]")
    # core/forms.js (deferred) focuses the summary and scrolls to it once the page is read.
    page.wait_for_function("document.activeElement?.hasAttribute('data-error-summary')")
    assert "No season of Santa League covers" in page.inner_text("[data-error-summary]")
    assert in_view(page, "[data-error-summary]")
    assert page.evaluate("document.activeElement.hasAttribute('data-error-summary')")
    assert_fits(page, 390, "the form with a date error")
    screenshot(page, "clubs-table-game-date-error-390")

    # A score of 310 looks unusual: asked, not stored.
    page.fill("#id_played_at", timezone.localtime().strftime("%Y-%m-%dT%H:%M"))
    page.click("button.primary.big")
    page.wait_for_selector("text=310 looks unusual")
    assert in_view(page, "[data-error-summary]")
    assert not SeasonEntry.objects.exists()
    screenshot(page, "clubs-table-game-unusual-390")
    page.click("button[name=confirm_unusual]")
    page.wait_for_url("**/clubs/north-pier/leagues/santa/?season=*")
    assert SeasonEntry.objects.get().record.result["scores"] == [310, 12]

    # The typo (310 for 31) is corrected by its submitter from the league page.
    page.click("text=Correct the scores")
    page.wait_for_url("**/games/*/correct/")
    assert_fits(page, 390, "the correction page")
    screenshot(page, "clubs-correct-390")
    page.fill("#id_score_0", "31")
    page.fill("#id_reason", "310 was 31")
    page.click("button.primary.big")
    page.wait_for_url("**/clubs/north-pier/leagues/santa/?season=*")
    assert "is corrected" in page.inner_text("ul.messages")
    assert "ana 31" in page.inner_text("#games")
    assert SeasonEntry.objects.get().record.result["scores"] == [31, 12]
    assert [e for e in page.console_errors if "status of 422" not in e and "400" not in e] == []

    wide = open_page(1280, 900)
    wide.goto(f"{live_server.url}/accounts/login/?next=/clubs/north-pier/leagues/santa/")
    wide.fill("input[name=username]", "bo")
    wide.fill("input[name=password]", PASSWORD)
    wide.click("button[type=submit].primary")
    wide.wait_for_url("**/leagues/santa/")
    wide.click("text=Correct the scores")
    wide.wait_for_url("**/games/*/correct/")
    wide.fill("#id_score_0", "31")
    wide.fill("#id_score_1", "31")
    wide.click("button.primary.big")
    wide.wait_for_selector("[data-error-summary]")
    assert "share the highest total" in wide.inner_text("[data-error-summary]")
    assert_fits(wide, 1280, "the correction page with an error")
    screenshot(wide, "clubs-correct-error-1280")
