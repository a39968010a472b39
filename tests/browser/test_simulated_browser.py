"""Simulated games in lists, in a real browser: hidden by default, marked in words when shown."""

from __future__ import annotations

import random

import pytest

from replays.services import record_submit
from replays.simulation import DEMO_SOURCE, simulated_document


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [390, 1280])
def test_records_page_marks_and_hides_simulated_games(
    live_server, make_document, open_page, screenshot, width
):
    for seed in (1, 2):
        record_submit(document=make_document("gift_swap", seed=seed, players=4))
    rng = random.Random(3)
    for source in (None, DEMO_SOURCE):
        document = simulated_document("gift_swap", num_players=4, rng=rng, source=source)
        record_submit(document=document, bot_seats=range(4))
    page = open_page(width, 844)
    page.goto(f"{live_server.url}/records/")
    assert page.locator("table.records tbody tr").count() == 2
    note = page.locator(".simulated-hidden")
    assert "2 simulated games" in note.inner_text()
    screenshot(page, f"records-simulated-hidden-{width}")
    note.locator("a").click()
    page.wait_for_url("**play=all**")
    assert page.locator("table.records tbody tr").count() == 4
    badges = page.locator(".badge.simulated")
    assert badges.count() == 2
    assert sorted(badges.all_inner_texts()) == ["demo · simulated", "simulated"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.console_errors == []
    screenshot(page, f"records-simulated-shown-{width}")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [390, 1280])
def test_home_and_leaderboard_on_demo_data_show_no_bot(live_server, open_page, screenshot, width):
    import io

    from django.core.management import call_command

    call_command("demo_data", games=2, stdout=io.StringIO())
    page = open_page(width, 844)
    page.goto(f"{live_server.url}/")
    assert "simulated" in page.locator(".game-card").first.inner_text()
    assert page.locator("table.records").count() == 0  # no game people played yet
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"home-demo-data-{width}")
    page.goto(f"{live_server.url}/leaderboards/?game=gift_swap")
    assert "bot-" not in page.locator("main").inner_text()
    assert page.console_errors == []
    screenshot(page, f"leaderboard-demo-data-{width}")
