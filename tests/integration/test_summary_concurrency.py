"""Two refreshes of one game's summary at once leave it counting every result.

The lost update it guards against: worker 1 ingests record X and refreshes the
summary inside its transaction; worker 2, ingesting record Y meanwhile, runs its
GROUP BY before worker 1 commits (so without X) and writes after (its write
waited for worker 1's row lock), so the summary missed X until the next refresh:
a ``GameSummary`` that differed from a rebuild. PostgreSQL only (row locks and
concurrent transactions are the point); in CI a missing PostgreSQL fails.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from analytics.models import GameSummary, PlayerResult
from analytics.services import game_summary_refresh
from replays.models import Record
from tests.analytics.ratings_helpers import store, table
from tests.integration.services import require_postgres

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_a_refresh_waits_for_the_one_before_it_and_counts_its_results():
    require_postgres()
    x = store(table(["Ana", "Ben", "Cleo"], [30, 12, 7], day=1))
    y = store(table(["Dev", "Eli", "Fay"], [10, 28, 7], day=2))
    expected = GameSummary.objects.get(game="gift_gift_gone")
    assert {p["player"] for p in expected.players} == {"Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"}
    rows = {r.pk: list(PlayerResult.objects.filter(record=r).values()) for r in (x, y)}
    PlayerResult.objects.all().delete()
    GameSummary.objects.all().delete()
    game_summary_refresh(game="gift_gift_gone")  # the row exists, as it does once a game has one

    first_refreshed = threading.Event()
    errors: list[BaseException] = []

    def ingest(record: Record, *, first: bool) -> None:
        try:
            with transaction.atomic():
                PlayerResult.objects.bulk_create([PlayerResult(**row) for row in rows[record.pk]])
                if not first:
                    assert first_refreshed.wait(10)
                game_summary_refresh(game="gift_gift_gone")
                if first:
                    first_refreshed.set()
                    # Hold the transaction open while the second worker refreshes.
                    threading.Event().wait(1.0)
        except BaseException as exc:
            errors.append(exc)
            first_refreshed.set()
        finally:
            connection.close()

    workers = [
        threading.Thread(target=ingest, args=(x,), kwargs={"first": True}),
        threading.Thread(target=ingest, args=(y,), kwargs={"first": False}),
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=30)
    assert errors == []
    summary = GameSummary.objects.get(game="gift_gift_gone")
    assert (summary.games, summary.players) == (expected.games, expected.players)
