"""An analysed replay in a real browser, at 1280 and 390 px: the win-share graph under the
table, the marks on the move list, a jump by clicking the graph, the better move told in
words at a marked move; asking for an analysis from the page; a result-only record."""

from __future__ import annotations

import math

import pytest

from analytics import record_analysis
from tests.accounts.conftest import PASSWORD, user  # noqa: F401
from tests.analytics.analysis_helpers import (
    result_only_document,
    short_game,
    stored,
    tiny_settings,  # noqa: F401
)
from tests.browser.layout import assert_fits
from tests.replays.test_record_pages import named

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ana", "Ben", "Cy"]
PAD = 28  # the graph's margin, in its own pixels (analysis.js)


def _analysed(make_document):
    """A stored, analysed game of Ana, Ben and Cy with at least one marked move."""
    for seed in range(1, 30):
        document = named(short_game(make_document, seed=seed), ["Ana", "Ben", "Cy"])
        record = stored(document)
        row, _ = record_analysis.analysis_request(record=record)
        row = record_analysis.analysis_run(analysis_id=row.pk)
        if any(d["mark"] for d in row.result["decisions"]):
            return record, row
        record.delete()
    raise AssertionError("no analysed game with a marked move")


def percent(share: float) -> str:
    """As the page says it (JavaScript's Math.round: halves up)."""
    return f"{math.floor(100 * share + 0.5)}%"


def _step(page) -> int:
    return int(page.text_content("#step-no"))


@pytest.mark.parametrize("width", [1280, 390])
def test_an_analysed_replay_shows_the_graph_and_marks_and_jumps_by_the_graph(
    live_server,
    make_document,
    open_page,
    screenshot,
    tiny_settings,  # noqa: F811
    width,
):
    record, row = _analysed(make_document)
    decisions = record_analysis.analysis_result_json(row.result, players=NAMES)["decisions"]
    marked = [d for d in decisions if d["mark"]]
    last = record.num_events
    page = open_page(width, 900)
    page.goto(f"{live_server.url}/records/{record.pk}/")
    page.wait_for_selector("#analysis-graph svg.analysis-svg polyline")
    assert page.locator("#analysis-graph polyline.seat-line").count() == 3
    legend = page.inner_text("#analysis-graph .analysis-legend")
    assert all(name in legend for name in ("Ana", "Ben", "Cy"))
    # The marks on the move list: the sign for the eye, the word for screen readers.
    assert page.locator("#timeline .mark").count() == len(marked)
    first = marked[0]
    item = page.locator(f'#timeline li[data-step="{first["step"] + 1}"] .mark')
    assert item.locator(".sr-only").text_content() == f" ({first['mark']})"
    sign = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}[first["mark"]]
    assert item.locator("[aria-hidden=true]").text_content().strip() == sign
    assert page.locator("#analysis-graph circle.mark-dot").count() == len(marked)
    # Each player's decision quality and luck, in a table.
    assert page.locator(".analysis-table tbody tr").count() == 3

    # Clicking the graph at its middle goes to the middle step.
    page.locator("#analysis-graph svg.analysis-svg").scroll_into_view_if_needed()
    box = page.locator("#analysis-graph svg.analysis-svg").bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function("() => document.getElementById('step-no').textContent !== '0'")
    reached = _step(page)
    assert abs(reached - last / 2) <= 1  # the click's pixel, rounded to a step
    assert f"step={reached}" in page.url
    assert page.locator("#timeline li.current").get_attribute("data-step") == str(reached)
    drawn = float(page.locator("#analysis-graph svg.analysis-svg").get_attribute("width"))
    assert drawn <= width
    cursor = float(page.locator("#analysis-cursor").get_attribute("x1"))
    assert abs(cursor - drawn / 2) <= (drawn - 2 * PAD) / last

    # At the step a marked move led to, the better move is told in words.
    page.locator(f'#timeline li[data-step="{first["step"] + 1}"] a').click()
    page.wait_for_function(
        f"() => document.getElementById('step-no').textContent === '{first['step'] + 1}'"
    )
    note = page.text_content("#analysis-note")
    best, chosen = first["best"], first["chosen"]
    assert (
        f"Better: {best['label'].rstrip('.')}: {percent(best['win'])} to win against "
        f"{percent(chosen['win'])}." in note
    )
    assert first["mark"] in note
    page.locator("#analysis").scroll_into_view_if_needed()
    full = screenshot(page, f"analysis-replay-{width}")
    panel = full.with_name(f"analysis-replay-{width}-panel.png")
    page.locator("#analysis").screenshot(path=str(panel))
    assert_fits(page, width, "the analysed replay")
    assert page.console_errors == []


def test_a_puzzle_link_hides_the_answer_until_asked(
    live_server,
    make_document,
    open_page,
    screenshot,
    tiny_settings,  # noqa: F811
):
    record, row = _analysed(make_document)
    decisions = record_analysis.analysis_result_json(row.result, players=NAMES)["decisions"]
    decision = next(d for d in decisions if d["mark"])
    page = open_page(390, 844)
    step, seat = decision["step"], decision["seat"]
    page.goto(f"{live_server.url}/records/{record.pk}/?puzzle=1#step={step}&seat={seat}")
    page.wait_for_selector("#analysis-puzzle:not([hidden])")
    assert _step(page) == step
    assert page.input_value("#seat") == str(seat)
    assert page.is_hidden("#analysis-answer")
    page.click("#analysis-reveal")
    answer = page.text_content("#analysis-answer")
    assert f"Better: {decision['best']['label'].rstrip('.')}:" in answer
    assert f"played: {decision['chosen']['label'].rstrip('.')}" in answer
    assert page.is_hidden("#analysis-note")  # the puzzle alone
    assert page.is_visible("#analysis-answer")
    full = screenshot(page, "analysis-puzzle-390")
    page.locator("#analysis").screenshot(path=str(full.with_name("analysis-puzzle-390-panel.png")))
    assert_fits(page, 390, "the puzzle")
    assert page.console_errors == []


def test_asking_for_an_analysis_from_the_page_shows_it_when_done(
    live_server,
    make_document,
    open_page,
    screenshot,
    user,  # noqa: F811
    tiny_settings,  # noqa: F811
):
    record = stored(named(short_game(make_document, seed=4), ["Ana", "Ben", "Cy"]))
    anonymous = open_page(1280, 900)
    anonymous.goto(f"{live_server.url}/records/{record.pk}/")
    assert "Sign in" in anonymous.inner_text("#analysis")
    assert anonymous.locator("#analysis-request").count() == 0
    assert anonymous.console_errors == []

    page = open_page(1280, 900)
    page.goto(f"{live_server.url}/accounts/login/?next=/records/{record.pk}/")
    page.fill("input[name=username]", "ana")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"{live_server.url}/records/{record.pk}/")
    assert "not been analysed" in page.inner_text("#analysis-status")
    page.click("#analysis-request")
    page.wait_for_selector("#analysis-graph svg.analysis-svg polyline", timeout=60_000)
    assert page.is_hidden("#analysis-request")
    assert "playouts" in page.inner_text("#analysis-status")
    screenshot(page, "analysis-asked-1280")
    assert page.console_errors == []


def test_a_result_only_record_says_it_cannot_be_analysed(live_server, open_page):
    record = stored(result_only_document())
    page = open_page(390, 844)
    page.goto(f"{live_server.url}/records/{record.pk}/")
    assert "cannot be analysed" in page.inner_text("#analysis")
    assert_fits(page, 390, "a result-only record")
    assert page.console_errors == []


def test_a_players_page_lists_their_analysed_games_and_mistakes_on_a_phone(
    live_server,
    make_document,
    open_page,
    screenshot,
    tiny_settings,  # noqa: F811
):
    record, row = _analysed(make_document)
    seat = next(d["seat"] for d in row.result["decisions"] if d["mark"])
    page = open_page(390, 844)
    page.goto(f"{live_server.url}/players/{NAMES[seat]}/")
    page.wait_for_selector("#decision-quality-chart .main-svg")
    assert page.locator("#analysis .analysed-games tbody tr").count() == 1
    links = page.locator("#analysis ol.mistakes a")
    assert links.count() >= 1
    href = links.first.get_attribute("href")
    assert href.startswith(f"/records/{record.pk}/?puzzle=1#step=")
    assert href.endswith(f"&seat={seat}")
    page.locator("#analysis").scroll_into_view_if_needed()
    full = screenshot(page, "analysis-player-390")
    page.locator("#analysis").screenshot(path=str(full.with_name("analysis-player-390-panel.png")))
    assert_fits(page, 390, "the player page")
    links.first.click()
    page.wait_for_selector("#analysis-puzzle:not([hidden])")
    assert page.input_value("#seat") == str(seat)
    assert page.console_errors == []
