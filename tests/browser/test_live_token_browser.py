"""The live page keeps its seat token out of every URL a server sees (and logs).

The token arrives in the URL fragment, which browsers never send; the page sends it
in the ``Authorization`` header only. Every request the page makes is recorded.
"""

from __future__ import annotations

import time

import pytest

from replays import live

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_seat_token_travels_in_a_header_never_in_a_url(
    live_server, api, open_page, monkeypatch
):
    # A loaded machine, made certain: the server takes a while over each move. The
    # test must still end only once the move is answered, or the database is
    # emptied for the next test while the live server thread is writing to it.
    auto_events = live._auto_events

    def slow_auto_events(*args, **kwargs):
        time.sleep(1.0)
        return auto_events(*args, **kwargs)

    monkeypatch.setattr(live, "_auto_events", slow_auto_events)
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
    # The game starts past step 0 (the deal is drawn at once): wait for the move's own
    # answer and its rendering, not for any step.
    with page.expect_response(
        lambda r: r.url.endswith("/events/") and r.request.method == "POST"
    ) as answered:
        page.locator("#table .playable").first.click()
        if page.query_selector(".move-menu"):
            page.locator(".move-menu button").first.click()
    assert answered.value.ok, answered.value.text()
    step = str(answered.value.json()["step"])
    page.wait_for_function(
        "step => document.getElementById('live').dataset.step === step", arg=step
    )
    assert requests, "the page made requests"
    for request in requests:
        assert token not in request.url, request.url
        assert token not in (request.post_data or ""), request.url
    with_token = [r for r in requests if r.headers.get("authorization") == f"Seat {token}"]
    assert any("/api/live/" in r.url for r in with_token)
    assert any(r.method == "POST" for r in with_token), "a move was sent with the header"
    assert page.console_errors == []
