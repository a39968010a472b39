"""Charts on a phone and a desktop, the rules pages, and the replay's embed and play-on
choices, in Chromium, with screenshots at 390 and 1280 px (artifacts/browser)."""

from __future__ import annotations

import pytest

from replays.services import record_submit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CARD_CHART = "#card-impact-held"


def boxes_overlap(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def inside(inner: dict, outer: dict, slack: float = 1.0) -> bool:
    return (
        inner["x"] >= outer["x"] - slack
        and inner["y"] >= outer["y"] - slack
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + slack
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + slack
    )


@pytest.fixture
def dashboard(live_server, make_document):
    for seed in range(12):
        record_submit(document=make_document("gift_swap", seed=300 + seed, players=3 + seed % 2))
    return f"{live_server.url}/games/gift_swap/"


def drawn(page, url: str) -> int:
    page.goto(url)
    count = page.locator("div.chart[data-figure]").count()
    page.wait_for_function(
        "n => document.querySelectorAll('div.chart .main-svg').length >= n", arg=count
    )
    return count


def test_charts_on_a_phone_keep_titles_clear_and_hover_boxes_inside(
    dashboard, open_page, screenshot
):
    page = open_page(390, 844)
    count = drawn(page, dashboard)
    assert count >= 6
    assert page.locator("div.chart[data-fit=phone]").count() == count
    screenshot(page, "charts-dashboard-390")
    for index in range(count):
        box = page.locator("div.chart[data-figure]").nth(index)
        frame = box.bounding_box()
        title = box.locator(".gtitle").first.bounding_box()
        assert inside(title, frame), f"{box.get_attribute('id')}: the title runs off the chart"
    # A tap on a bar: no mode bar anywhere, and the hover box stays inside the chart.
    chart = page.locator("#seat-advantage")
    chart.scroll_into_view_if_needed()
    frame = chart.bounding_box()
    page.mouse.move(frame["x"] + frame["width"] * 0.3, frame["y"] + frame["height"] * 0.6)
    page.wait_for_selector(
        "#seat-advantage .hoverlayer .legend, #seat-advantage .hoverlayer .hovertext"
    )
    label = chart.locator(".hoverlayer > g").first.bounding_box()
    assert inside(label, frame, slack=2), (label, frame)
    assert page.locator("div.chart .modebar-container .modebar").count() == 0
    screenshot(page, "charts-hover-390")
    # The card charts draw the range of each difference as whiskers.
    assert page.locator(f"{CARD_CHART} g.errorbar").count() > 0
    assert page.console_errors == []


def test_charts_on_a_desktop_show_the_mode_bar_on_hover_clear_of_the_title(
    dashboard, open_page, screenshot
):
    page = open_page(1280, 900)
    count = drawn(page, dashboard)
    assert page.locator("div.chart[data-fit=wide]").count() == count
    for chart_id in ("#seat-advantage", CARD_CHART):
        chart = page.locator(chart_id)
        chart.scroll_into_view_if_needed()
        frame = chart.bounding_box()
        page.mouse.move(frame["x"] + frame["width"] * 0.5, frame["y"] + frame["height"] * 0.6)
        bar = chart.locator(".modebar")
        bar.wait_for(state="visible")
        title = chart.locator(".gtitle").first.bounding_box()
        assert not boxes_overlap(bar.bounding_box(), title), chart_id
    assert page.locator(f"{CARD_CHART} g.errorbar").count() > 0
    screenshot(page, "charts-dashboard-1280")
    assert page.console_errors == []


@pytest.mark.parametrize("width", [390, 1280])
def test_a_rules_page_reads_well_at_both_widths(live_server, open_page, screenshot, width):
    page = open_page(width, 844)
    page.goto(f"{live_server.url}/rules/gift_trap/")
    assert page.locator("h1").text_content() == "How to play GiftTRAP"
    assert page.locator("section.house-rule").count() == 6
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"rules-gift_trap-{width}")
    page.goto(f"{live_server.url}/rules/gift_economy/")
    screenshot(page, f"rules-gift_economy-{width}")
    assert page.console_errors == []


def test_play_on_offers_the_seat_being_watched(live_server, make_document, open_page):
    record, _ = record_submit(document=make_document("gift_swap", seed=50, players=4))
    page = open_page(390, 844)
    page.goto(f"{live_server.url}/records/{record.pk}/#step=3&seat=2")
    page.wait_for_function("() => document.getElementById('viewer').dataset.shownSeat === '2'")
    assert page.input_value("#fork-form select[name=seat]") == "2"
    page.select_option("#seat", "1")
    assert page.input_value("#fork-form select[name=seat]") == "1"
    page.select_option("#seat", "")
    assert page.input_value("#fork-form select[name=seat]") == "1", "everyone's view keeps it"
    assert page.console_errors == []


def test_the_embed_code_is_copied_with_one_tap(live_server, make_document, open_page, screenshot):
    record, _ = record_submit(document=make_document("secret_santa", seed=51))
    page = open_page(390, 844)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"{live_server.url}/records/{record.pk}/")
    page.click("#embed-copy")
    page.wait_for_function("() => document.getElementById('embed-copied').textContent !== ''")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == page.input_value("#embed-code")
    assert copied.startswith(f'<iframe src="{live_server.url}/records/{record.pk}/embed/"')
    assert page.text_content("#embed-copied").startswith("Copied")
    page.locator("#embed").scroll_into_view_if_needed()
    screenshot(page, "replay-embed-snippet-390")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.console_errors == []
