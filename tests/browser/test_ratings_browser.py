"""The rating pages in a real browser at 1280 and 390 px: charts drawn, no console errors."""

from __future__ import annotations

import pytest

from clubs import services as club_services
from tests.analytics.ratings_helpers import santa, store
from tests.clubs.conftest import world  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def some_games(world):  # noqa: F811
    names = [u.username for u in world.members[:4]]
    plays = [([0, 1, 2], [9, 4, 1]), ([1, 2, 3], [3, 8, 5]), ([0, 1, 3], [6, 5, 2]),
             ([0, 2, 3], [1, 7, 4]), ([0, 1, 2, 3], [5, 2, 8, 3])]  # fmt: skip
    for day, (seats, scores) in enumerate(plays, start=1):
        club_services.season_entry_submit_document(
            season=world.season,
            document=santa([names[s] for s in seats], scores, day=day),
            user=world.owner,
        )
    store(santa(names[:2], [3, 1], day=20))  # outside the league: the game's board only
    return names


@pytest.mark.parametrize("width", [1280, 390])
def test_rating_pages_draw_their_charts(live_server, open_page, screenshot, world, width):  # noqa: F811
    names = some_games(world)
    pages = {
        "leaderboard": (f"/leaderboards/?season={world.season.pk}", 0),
        "head-to-head": (f"/head-to-head/?game=secret_santa&a={names[0]}&b={names[1]}", 1),
        "player": (f"/players/{names[0]}/", 1),
        "league": (f"/clubs/north-pier/leagues/santa/?season={world.season.pk}", 2),
    }
    for name, (path, charts) in pages.items():
        page = open_page(width, 900)
        page.goto(live_server.url + path)
        if charts:
            page.wait_for_selector(".js-plotly-plot", timeout=15000)
        assert page.locator(".js-plotly-plot").count() == charts, name
        assert page.console_errors == [], (name, page.console_errors)
        scroll_width = page.evaluate("document.documentElement.scrollWidth")
        assert scroll_width <= width, f"{name} is {scroll_width}px wide on a {width}px screen"
        screenshot(page, f"ratings-{name}-{width}")
    board = open_page(width, 900)
    board.goto(f"{live_server.url}/leaderboards/?season={world.season.pk}")
    assert board.locator("#leaderboard tbody tr").count() == 4
    assert "mu \u2212 3 \u00d7 sigma" in board.inner_text("main")
