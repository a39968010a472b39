"""Pages as a person sees them: headless Chromium runs the pages' JavaScript.

The replay viewer of every game is stepped with the keyboard and the buttons and
seen from another seat, and what it draws is checked against the API; a live
game is played by clicking cards only; the dashboard's Plotly chart draws from
our own plotly.js. Needs Debian's chromium; in CI a missing browser fails.
"""

from __future__ import annotations

import re
import time

import pytest

from games.registry import engine_slugs, get_engine
from replays import replay_store, viewer_warm
from replays.models import LiveGame, Record
from replays.services import record_submit
from tests.games.words import card_ids_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def drawn_cards(page) -> set[str]:
    return set(
        page.eval_on_selector_all("#table [data-card]", "els => els.map(e => e.dataset.card)")
    )


def wait_for_step(page, step: int, seat: str = "") -> None:
    page.wait_for_function(
        "([step, seat]) => { const v = document.getElementById('viewer');"
        " return v.dataset.shownStep === String(step) && v.dataset.shownSeat === seat; }",
        arg=[step, seat],
    )


def check_shown(page, api, record_id: int, step: int, seat: str = "") -> None:
    """The page shows the step the API describes: its sentence and exactly its cards."""
    wait_for_step(page, step, seat)
    query = f"?seat={seat}" if seat else ""
    timeline = api.get(f"/api/records/{record_id}/timeline/{query}").json()
    state = api.get(f"/api/records/{record_id}/steps/{step}/{query}").json()["state"]
    assert page.text_content("#step-no") == str(step)
    assert page.text_content("#step-text") == timeline["steps"][step]["text"]
    engine = get_engine(timeline["game"])
    assert drawn_cards(page) == card_ids_in(state, engine.card_catalog())
    current = page.get_attribute("#timeline li.current", "data-step")
    assert current == str(step)


@pytest.mark.parametrize("game", engine_slugs())
def test_replay_steps_by_keyboard_and_buttons_and_changes_seat(
    live_server, api, make_document, open_page, screenshot, game
):
    record, _ = record_submit(document=make_document(game, seed=31))
    page = open_page()
    page.goto(f"{live_server.url}/records/{record.pk}/")
    check_shown(page, api, record.pk, 0)
    page.keyboard.press("ArrowRight")
    check_shown(page, api, record.pk, 1)
    page.keyboard.press("ArrowRight")
    check_shown(page, api, record.pk, 2)
    page.click("#next")
    check_shown(page, api, record.pk, 3)
    page.click("#prev")
    check_shown(page, api, record.pk, 2)
    middle = record.num_events // 2
    page.click(f'#timeline li[data-step="{middle}"] a')
    check_shown(page, api, record.pk, middle)
    before = drawn_cards(page)
    page.select_option("#seat", "0")
    check_shown(page, api, record.pk, middle, "0")
    assert page.url.endswith(f"#step={middle}&seat=0"), "the URL is a permalink"
    screenshot(page, f"replay-{game}-seat0")
    assert drawn_cards(page) <= before, "a seat sees no more than everyone"
    page.keyboard.press("End")
    check_shown(page, api, record.pk, record.num_events, "0")
    page.click("#first")
    check_shown(page, api, record.pk, 0, "0")
    assert page.console_errors == []


def test_a_long_game_not_told_yet_fills_its_move_list_in_the_browser(
    live_server, api, make_document, open_page, monkeypatch, screenshot
):
    """A long game's page before its preparation comes without its move list (the server
    does not make the visitor wait for the telling): the viewer draws it from the
    timeline, and the list then works as a served one does."""
    monkeypatch.setattr(replay_store, "STORE_MIN_EVENTS", 20)  # long, and
    monkeypatch.setattr(viewer_warm, "WARM_MIN_EVENTS", 10**9)  # visited before its preparation
    record, _ = record_submit(document=make_document("gift_trap", seed=34, players=4))
    served = api.get(f"/records/{record.pk}/").content.decode()
    assert 'data-pending="true"' in served
    assert "data-step=" not in served
    page = open_page()
    page.goto(f"{live_server.url}/records/{record.pk}/")
    check_shown(page, api, record.pk, 0)
    count = page.eval_on_selector_all("#timeline li[data-step]", "els => els.length")
    assert count == record.num_events + 1
    assert page.get_attribute("#timeline", "data-pending") is None
    middle = record.num_events // 2
    page.click(f'#timeline li[data-step="{middle}"] a')
    check_shown(page, api, record.pk, middle)
    page.select_option("#seat", "1")
    check_shown(page, api, record.pk, middle, "1")
    screenshot(page, "replay-long-filled")
    assert page.console_errors == []


def test_an_opened_list_of_moves_stays_open_as_the_viewer_steps(
    live_server, api, make_document, open_page
):
    """Each step's table comes with its list of moves folded and empty; opened, the moves
    are fetched and listed, and a viewer who keeps it open has it open and listed from step
    to step (through a step without a list too) until folding it."""
    record, _ = record_submit(document=make_document("gift_trap", seed=35, players=4))

    def has_list(step: int) -> bool:
        body = api.get(f"/records/{record.pk}/steps/{step}/table/").content.decode()
        return 'class="moves-list"' in body

    listed = [k for k in range(record.num_events + 1) if has_list(k)]
    first = next(k for k in listed if k + 1 in listed)
    without = next(k for k in range(first + 1, record.num_events) if k not in listed)
    after = next(k for k in listed if k > without)
    page = open_page()
    page.goto(f"{live_server.url}/records/{record.pk}/#step={first}")
    wait_for_step(page, first)
    is_open = "document.querySelector('#table details.moves-list').open"
    items = "#table details.moves-list li"
    assert page.evaluate(is_open) is False, "a table's list of moves comes folded"
    assert page.query_selector(items) is None, "and empty"
    page.click("#table details.moves-list summary")
    page.wait_for_selector(items)
    assert page.evaluate(is_open) is True, "listed, and still open"
    page.keyboard.press("ArrowRight")
    wait_for_step(page, first + 1)
    assert page.evaluate(is_open) is True
    page.wait_for_selector(items)
    page.evaluate(f"location.hash = '#step={without}'")
    wait_for_step(page, without)
    assert page.query_selector("#table details.moves-list") is None
    page.evaluate(f"location.hash = '#step={after}'")
    wait_for_step(page, after)
    assert page.evaluate(is_open) is True, "a step without a list forgets nothing"
    page.wait_for_selector(items)
    page.click("#table details.moves-list summary")
    page.keyboard.press("ArrowLeft")
    wait_for_step(page, after - 1)
    if (after - 1) in listed:
        assert page.evaluate(is_open) is False
    page.evaluate(f"location.hash = '#step={first}'")
    wait_for_step(page, first)
    assert page.evaluate(is_open) is False, "folded again, it stays folded"
    assert page.console_errors == []


def test_a_dragged_slider_asks_for_few_tables_and_shows_where_it_stopped(
    live_server, api, make_document, open_page, monkeypatch
):
    """Dragging the slider across many steps asks the server for one table at a time:
    the step the slider is on when the last answer came, not every step it passed (each
    a table the server would draw and nobody would see). Each answer is held 100 ms, as
    over a slow connection, while the slider moves a step every few milliseconds."""
    from replays import selectors

    record, _ = record_submit(document=make_document("gift_trap", seed=35, players=4))
    page = open_page()
    page.goto(f"{live_server.url}/records/{record.pk}/")
    check_shown(page, api, record.pk, 0)
    answer = selectors.record_step_table_answer

    def slow(*args, **kwargs):
        time.sleep(0.1)
        return answer(*args, **kwargs)

    monkeypatch.setattr(selectors, "record_step_table_answer", slow)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/table/" in r.url else None)
    steps = list(range(1, min(record.num_events, 61)))
    page.evaluate(
        """async (steps) => {
            const slider = document.getElementById("slider");
            for (const k of steps) {
                slider.value = String(k);
                slider.dispatchEvent(new Event("input"));
                await new Promise((r) => setTimeout(r, 2));
            }
        }""",
        steps,
    )
    check_shown(page, api, record.pk, steps[-1])
    assert len(steps) == 60
    assert 1 <= len(asked) <= 20, asked  # every step it passed: 60 and more
    assert any(url.endswith(f"/steps/{steps[-1]}/table/") for url in asked)
    assert page.console_errors == []


def test_a_stalled_table_does_not_hold_the_next_step(
    live_server, api, make_document, open_page, monkeypatch
):
    """The viewer waits for the table request in flight before asking for another, but
    at most a second: a step whose answer stalls does not keep the next one from showing."""
    from replays import selectors

    record, _ = record_submit(document=make_document("gift_swap", seed=36))
    answer = selectors.record_step_table_answer

    def stalls_at_5(record_id, *, step, **kwargs):
        if step == 5:
            time.sleep(4)
        return answer(record_id, step=step, **kwargs)

    monkeypatch.setattr(selectors, "record_step_table_answer", stalls_at_5)
    page = open_page()
    page.goto(f"{live_server.url}/records/{record.pk}/#step=3")
    check_shown(page, api, record.pk, 3)
    page.keyboard.press("ArrowRight")  # step 4 (its answer prefetched 5, which stalls)
    check_shown(page, api, record.pk, 4)
    page.keyboard.press("ArrowRight")  # step 5: waits for its stalled answer
    page.keyboard.press("ArrowRight")  # step 6: asked after at most a second
    started = time.monotonic()
    check_shown(page, api, record.pk, 6)
    assert time.monotonic() - started < 3, "the next step waited for the stalled one"
    assert page.console_errors == []


def test_a_permalink_opens_at_its_step_and_seat(live_server, api, make_document, open_page):
    record, _ = record_submit(document=make_document("gift_swap", seed=32))
    page = open_page()
    page.goto(f"{live_server.url}/records/{record.pk}/#step=5&seat=1")
    check_shown(page, api, record.pk, 5, "1")
    assert page.input_value("#seat") == "1"


def test_play_runs_through_the_steps_and_stops_at_the_end(
    live_server, api, make_document, open_page
):
    record, _ = record_submit(document=make_document("secret_santa", seed=33))
    page = open_page()
    last = record.num_events
    page.goto(f"{live_server.url}/records/{record.pk}/#step={last - 3}")
    check_shown(page, api, record.pk, last - 3)
    page.select_option("#speed", "200")
    page.click("#play")
    check_shown(page, api, record.pk, last)
    page.wait_for_function("() => document.getElementById('play').textContent === 'Play'")


def test_embed_is_the_viewer_without_the_site(live_server, api, make_document, open_page):
    record, _ = record_submit(document=make_document("gift_trap", seed=34))
    page = open_page(800, 700)
    response = page.goto(f"{live_server.url}/records/{record.pk}/embed/")
    assert "x-frame-options" not in response.headers, "club sites may frame the embed"
    check_shown(page, api, record.pk, 0)
    assert page.query_selector("header.site") is None
    page.keyboard.press("ArrowRight")
    check_shown(page, api, record.pk, 1)
    assert page.console_errors == []


def test_a_live_game_is_played_by_clicking_cards_only(live_server, open_page, screenshot):
    """Home page form -> live page -> click highlighted cards until the game is over."""
    page = open_page()
    page.goto(f"{live_server.url}/")
    page.select_option("select[name=game]", "secret_santa")
    page.fill("input[name=name]", "ana")
    page.fill("input[name=players]", "3")
    page.click("#play button[type=submit]")
    page.wait_for_url("**/live/*/#token=*")
    page.wait_for_selector("#table .playable")
    screenshot(page, "live-secret_santa-start")
    assert page.text_content("#status").startswith("Your move, ana")
    bots_seen = False
    for _ in range(300):
        if page.text_content("#status").startswith("Game over"):
            break
        step = page.get_attribute("#live", "data-step")
        assert page.query_selector_all("#moves button") == [], "every move is on a card"
        page.locator("#table .playable").first.click()
        if page.query_selector(".move-menu"):
            page.locator(".move-menu button").first.click()
        page.wait_for_function(
            "(step) => document.getElementById('live').dataset.step !== step", arg=step
        )
        bots_seen = bots_seen or bool(re.search(r"bot-\d takes", page.text_content("#timeline")))
    else:
        pytest.fail("the game did not end in the browser")
    assert bots_seen, "the bots' moves appear in the timeline"
    screenshot(page, "live-secret_santa-over")
    live = LiveGame.objects.get()
    assert live.status == LiveGame.Status.FINISHED
    link = page.locator("#record-link")
    assert link.get_attribute("href") == f"/records/{live.record_id}/"
    # Followed from the keyboard, as a person without a mouse does. A click is aimed at
    # coordinates, right after a full-page screenshot that resized the page and back;
    # once in CI a click here was followed by no navigation at all for 30 s (cause not
    # found; it passed in every run on the session machine). Focus and Enter do not
    # depend on the layout.
    link.focus()
    with page.expect_navigation(url=f"**/records/{live.record_id}/"):
        page.keyboard.press("Enter")
    assert Record.objects.filter(pk=live.record_id).exists()
    page.wait_for_selector("#viewer")
    assert page.console_errors == []


def test_a_live_page_without_a_token_shows_nothing(live_server, api, open_page):
    opened = api.post(
        "/api/live/",
        {
            "game": "secret_santa",
            "players": ["ana", "b", "c"],
            "bots": {"1": "greedy", "2": "greedy"},
        },
        format="json",
    ).json()
    page = open_page()
    page.goto(f"{live_server.url}/live/{opened['id']}/")
    page.wait_for_function("() => document.getElementById('error').textContent.length > 0")
    assert "seat token" in page.text_content("#error")
    assert page.query_selector("#table [data-card]") is None


PHONE_PAGES = [
    "/",
    "/records/",
    "/upload/",
    "/rules/",
    "/rules/gift_trap/",
    "/games/secret_santa/",
]


def test_no_page_is_wider_than_a_phone(live_server, make_document, open_page, screenshot, api):
    pages = list(PHONE_PAGES)
    for game in engine_slugs():
        record, _ = record_submit(
            document=make_document(game, seed=35, players=get_engine(game).max_players)
        )
        pages.append(f"/records/{record.pk}/#step={record.num_events // 2}")
        pages.append(f"/records/{record.pk}/#step={record.num_events}")
    pages.append(f"/records/{record.pk}/embed/")
    opened = api.post(
        "/api/live/",
        {
            "game": "gift_economy",
            "players": ["ana", "b", "c"],
            "bots": {"1": "greedy", "2": "greedy"},
        },
        format="json",
    ).json()
    pages.append(f"/live/{opened['id']}/#token={opened['seat_tokens'][0]}")
    page = open_page(390, 844)
    for index, path in enumerate(pages):
        page.goto(f"{live_server.url}{path}")
        page.wait_for_load_state("networkidle")
        width = page.evaluate("document.documentElement.scrollWidth")
        name = re.sub(r"[^a-z0-9]+", "-", path).strip("-") or "home"
        screenshot(page, f"phone-{index:02d}-{name}")
        assert width <= 390, f"{path} is {width}px wide on a 390px phone"
    assert page.console_errors == []


def test_dashboard_chart_draws_with_local_plotly(live_server, make_document, open_page):
    for seed in (81, 82, 83):
        record_submit(document=make_document(seed=seed))
    page = open_page()
    page.goto(f"{live_server.url}/games/secret_santa/")
    page.wait_for_selector("#scores .main-svg")
    assert "Final scores" in page.content()
    assert page.console_errors == []
