"""Two seats' clients racing for the same step on PostgreSQL: one wins, one gets a conflict.

Needs PostgreSQL (row locks); in CI a missing service fails the test.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from core.errors import Conflict
from replays.live import live_event_submit, live_events, live_game_create, live_game_view
from replays.models import LiveGame
from tests.integration.services import require_postgres

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_same_step_submitted_twice_at_once_lands_once():
    require_postgres()
    live, tokens = live_game_create(
        document={"game": "secret_santa", "players": ["ana", "ben", "cy"], "seed": 3}
    )
    view = live_game_view(live, seat=0)
    mover = view["to_move"][0]
    event = live_game_view(live, seat=mover)["legal_events"][0]
    step = view["step"]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def submit() -> None:
        try:
            barrier.wait()
            live_event_submit(live_id=live.pk, token=tokens[mover], event=event, expected_step=step)
            outcomes.append("landed")
        except Conflict as exc:
            outcomes.append(exc.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["landed", "stale_step"]
    assert len(live_events(LiveGame.objects.get(pk=live.pk))) == step + 1
