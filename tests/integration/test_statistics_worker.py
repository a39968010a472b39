"""With a real worker (Redis, PostgreSQL), an upload reaches the game's statistics in seconds."""

from __future__ import annotations

import time

import pytest

from analytics.selectors import game_statistics
from tests.integration.test_real_worker import worker  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_an_uploaded_record_shows_in_the_statistics_within_seconds(worker, api, make_document):  # noqa: F811
    document = make_document("gift_swap", seed=91, players=3)
    started = time.monotonic()
    response = api.post("/api/records/", document, format="json")
    assert response.status_code == 201, response.json()
    deadline = started + 60
    while time.monotonic() < deadline:
        figures = game_statistics(game="gift_swap")
        if figures["real"]["records"] == 1:
            break
        assert worker.poll() is None, "the worker process exited"
        time.sleep(0.2)
    else:
        pytest.fail("the worker did not count the record in the statistics within 60 s")
    elapsed = time.monotonic() - started
    print(f"upload to statistics: {elapsed:.2f} s")
    size = figures["real"]["by_players"]["3"]
    winners = response.json()["result"]["winners"]
    assert [s["wins"] for s in size["seats"]] == [
        (1 / len(winners) if seat in winners else 0.0) for seat in range(3)
    ]
    assert figures["real"]["logs"] == 1
    assert figures["real"]["length"]["median"] == len(document["events"])
    # Through the API too, as a client would read it.
    assert api.get("/api/games/gift_swap/statistics/?real=true").json()["real"]["records"] == 1
    assert elapsed < 30
