"""Every game's dashboard in Chromium: every chart drawn, no console errors, screenshots.

Each game gets real-play records (bot games not marked simulated, as a club's
uploads would be) and a balance-lab run, so every chart has both sides. The
balance lab is started from the page's form and its progress read back from the
page (tasks run eagerly here, so the job is done when the page comes back).
"""

from __future__ import annotations

import pytest

from analytics.models import SimulationJob
from games.registry import engine_slugs, get_engine
from replays.services import record_submit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("game", engine_slugs())
def test_every_dashboard_draws_every_chart(live_server, make_document, open_page, screenshot, game):
    engine = get_engine(game)
    for seed in range(6):
        players = min(engine.min_players + seed % 2, engine.max_players)
        record_submit(document=make_document(game, seed=100 + seed, players=players))
    page = open_page(1280, 900)
    page.goto(f"{live_server.url}/games/{game}/")
    page.select_option("#balance-lab select[name=players]", str(engine.min_players))
    page.fill("#balance-lab input[name=games]", "6")
    page.click("#balance-lab button[type=submit]")
    page.wait_for_selector("li.job.current[data-state=done]")
    assert "6 of 6 played" in page.text_content("li.job.current .job-status")
    assert SimulationJob.objects.get().state == "done"
    charts = page.locator("div.chart[data-figure]")
    count = charts.count()
    assert count >= 8, f"{game}: only {count} charts"
    page.wait_for_function(
        "n => document.querySelectorAll('div.chart .main-svg').length >= n", arg=count
    )
    for index in range(count):
        box = charts.nth(index)
        assert box.locator(".main-svg").count() >= 1, box.get_attribute("id")
        title = box.locator(".gtitle").first.text_content()
        assert title, f"{box.get_attribute('id')} has no title"
    # Every chart offers its data as CSV and has words beside it.
    assert page.locator("a.csv-link:not([hidden])").count() == count
    assert page.locator("section.stat p.read").count() == count
    assert "real play" in page.text_content(".key-figures")
    screenshot(page, f"dashboard-{game}-1280")
    phone = open_page(390, 844)
    phone.goto(f"{live_server.url}/games/{game}/")
    phone.wait_for_function(
        "n => document.querySelectorAll('div.chart .main-svg').length >= n", arg=count
    )
    width = phone.evaluate("document.documentElement.scrollWidth")
    screenshot(phone, f"dashboard-{game}-390")
    assert width <= 390, f"the {game} dashboard is {width}px wide on a 390px phone"
    # The glance tables fit their boxes too: no column cut off behind a sideways scroll.
    hidden = phone.evaluate(
        "[...document.querySelectorAll('.glance .scroll-x')]"
        ".map(box => box.scrollWidth - box.clientWidth)"
    )
    assert hidden, "no glance tables"
    assert max(hidden) <= 0, f"{game}: glance tables cut by {hidden} px on a phone"
    assert page.console_errors == []
    assert phone.console_errors == []
