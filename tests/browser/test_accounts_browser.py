"""Account pages on a 390 px phone, and a logged-in visitor playing (session + CSRF)."""

from __future__ import annotations

import pytest

from replays.models import LiveGame

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery-staple"


def assert_phone_width(page, path: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{path} is {width}px wide on a 390px phone"


def test_sign_up_make_a_token_play_and_log_out_on_a_phone(live_server, open_page, screenshot):
    page = open_page(390, 844)
    for path in ["/accounts/login/", "/accounts/password-reset/", "/accounts/signup/"]:
        page.goto(f"{live_server.url}{path}")
        assert_phone_width(page, path)
        screenshot(page, "accounts-" + path.strip("/").replace("/", "-"))
    page.fill("input[name=username]", "ana")
    page.fill("input[name=email]", "ana@example.org")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"{live_server.url}/")
    assert "ana" in page.inner_text("header.site")
    assert_phone_width(page, "/ (logged in)")
    screenshot(page, "accounts-home-logged-in")

    page.click("text=Tokens")
    page.fill("input[name=name]", "league bot")
    page.click("text=Make a token")
    assert len(page.inner_text("#token-key").strip()) > 20
    assert_phone_width(page, "/accounts/tokens/")
    screenshot(page, "accounts-tokens")

    # Logged in, the page's API writes carry the session: they must send the CSRF token.
    page.goto(f"{live_server.url}/")
    page.select_option("select[name=game]", "secret_santa")
    page.fill("input[name=players]", "3")
    page.click("#play button[type=submit]")
    page.wait_for_url("**/live/*/#token=*")
    page.wait_for_selector("#table .playable")
    step = page.get_attribute("#live", "data-step")
    page.locator("#table .playable").first.click()
    if page.query_selector(".move-menu"):
        page.locator(".move-menu button").first.click()
    page.wait_for_function(
        "(step) => document.getElementById('live').dataset.step !== step", arg=step
    )
    assert page.inner_text("#error") == ""
    live = LiveGame.objects.get()
    assert live.opened_by.username == "ana"
    assert live.live_events.count() > 0

    page.goto(f"{live_server.url}/")
    page.click("header.site button:has-text('Log out')")
    page.wait_for_load_state("networkidle")
    assert "Log in" in page.inner_text("header.site")
    assert page.console_errors == []
