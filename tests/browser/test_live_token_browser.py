"""The live page keeps its seat token out of every URL a server sees (and logs).

The token arrives in the URL fragment, which browsers never send; the page sends it
in the ``Authorization`` header only. Every request the page makes is recorded.
"""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_seat_token_travels_in_a_header_never_in_a_url(live_server, api, open_page):
    opened = api.post(
        "/api/live/",
        {
            "game": "secret_santa",
            "players": ["ana", "b", "c"],
            "bots": {"1": "greedy", "2": "greedy"},
        },
        format="json",
    ).json()
    token = opened["seat_tokens"][0]
    page = open_page()
    requests = []
    page.on("request", lambda request: requests.append(request))
    page.goto(f"{live_server.url}/live/{opened['id']}/#token={token}")
    page.wait_for_selector("#table .playable")
    page.locator("#table .playable").first.click()
    if page.query_selector(".move-menu"):
        page.locator(".move-menu button").first.click()
    page.wait_for_function("document.getElementById('live').dataset.step !== '0'")
    assert requests, "the page made requests"
    for request in requests:
        assert token not in request.url, request.url
        assert token not in (request.post_data or ""), request.url
    with_token = [r for r in requests if r.headers.get("authorization") == f"Seat {token}"]
    assert any("/api/live/" in r.url for r in with_token)
    assert any(r.method == "POST" for r in with_token), "a move was sent with the header"
    assert page.console_errors == []
