"""The records and upload pages in a real browser, at phone size."""

from __future__ import annotations

import json

import pytest

from replays.models import Record
from tests.conftest import make_illegal
from tests.replays.test_record_pages import named, store


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_upload_page_tells_each_line_in_words(
    live_server, make_document, tmp_path, open_page, screenshot
):
    good = named(make_document("gift_swap", seed=20, players=3), ["Ana", "Ben", "Cy"])
    again = make_document(seed=21)
    already = store(again)
    bad, step = make_illegal(make_document(seed=22))
    path = tmp_path / "games.ndjson"
    path.write_text("\n".join(json.dumps(d) for d in (good, bad, again)) + "\n")

    page = open_page(390, 844)
    errors = page.console_errors
    page.goto(f"{live_server.url}/upload/")
    page.set_input_files("#file", str(path))
    page.wait_for_selector("#outcomes li >> nth=2")
    lines = page.locator("#outcomes li").all_text_contents()
    first_link = page.locator("#outcomes li a").first.get_attribute("href")
    status = page.text_content("#status")
    summary = page.text_content("#upload-summary")
    summary_link = page.locator("#upload-summary a").first.get_attribute("href")
    summary_focused = page.evaluate("document.activeElement.id")
    refused_id = page.locator("#outcomes li >> nth=1").get_attribute("id")
    screenshot(page, "upload-refused-390")
    page.set_viewport_size({"width": 1280, "height": 800})
    screenshot(page, "upload-refused-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    # A pretty-printed single game pasted in the box works too.
    page.fill("#text", json.dumps(good, indent=2))
    page.click("#send")
    page.wait_for_function(
        "() => document.getElementById('status').textContent.includes('Pasted')"
        " && document.querySelectorAll('#outcomes li').length > 0"
    )
    pasted = page.locator("#outcomes li").all_text_contents()
    width = page.evaluate("document.documentElement.scrollWidth")

    stored = Record.objects.get(game="gift_swap")
    winners = " and ".join(good["players"][s] for s in stored.result["winners"])
    assert lines[0] == f"Line 1: stored as record #{stored.pk} (Gift Swap, {winners} won) — Replay"
    assert lines[1].startswith(f"Line 2: refused: Event {step} is illegal:")
    assert lines[2].startswith(f"Line 3: already stored as #{already.pk} (Secret Santa, ")
    assert first_link == f"/records/{stored.pk}/"
    assert "1 game stored, 1 already stored, 1 refused" in status
    assert summary.startswith("1 of 3 games refused. A refused game is not stored")
    assert f"Line 2: refused: Event {step} is illegal:" in summary
    assert summary_link == f"#{refused_id}", "the summary links to the refused line"
    assert summary_focused == "upload-summary"
    assert pasted[0].startswith(f"The game: already stored as #{stored.pk} (Gift Swap")
    assert page.locator("#upload-summary").count() == 0, "a clean upload clears the summary"
    assert width <= 390
    assert errors == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_records_page_fits_a_phone_without_sideways_scrolling(
    live_server, make_document, open_page
):
    for seed, game in enumerate(["gift_trap", "gift_economy", "gift_gift_gone"]):
        store(named(make_document(game, seed=seed, players=6), [f"Player{n}" for n in range(6)]))
    page = open_page(390, 844)
    errors = page.console_errors
    page.goto(f"{live_server.url}/records/")
    rows = page.locator("table.records tbody tr").count()
    width = page.evaluate("document.documentElement.scrollWidth")
    cells = page.locator("table.records tbody tr >> nth=0").locator("td")
    lefts = {cells.nth(i).bounding_box()["x"] for i in range(cells.count())}
    assert rows == 3
    assert width <= 390
    assert len(lefts) == 1, "on a phone each record is a card, its cells one under another"
    assert errors == []
