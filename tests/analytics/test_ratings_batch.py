"""Ratings applied to a batch of records at once equal the record-by-record path."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from analytics import ratings
from analytics.models import PlayerRating, RatingApplication, RatingHistory, RatingScope
from analytics.services import ingest_quarantine
from clubs import services as club_services
from replays.models import Player, Record
from tests.analytics.ratings_helpers import santa, store, table
from tests.clubs.conftest import world  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def state() -> dict[str, Any]:
    """Every scope's stored ratings, history, applications and last key, comparable."""
    out: dict[str, Any] = {}
    for scope in RatingScope.objects.order_by("key"):
        out[scope.key] = {
            "last": (scope.last_at, scope.last_record_id),
            "ratings": sorted(
                PlayerRating.objects.filter(scope=scope).values_list(
                    "player_id", "mu", "sigma", "ordinal", "games", "wins", "score_total",
                    "last_played_at",
                )
            ),
            "history": sorted(
                RatingHistory.objects.filter(scope=scope).values_list(
                    "record_id", "player_id", "order_at", "mu", "sigma", "rank", "score",
                    "games", "wins", "score_total",
                )
            ),
            "applications": sorted(
                RatingApplication.objects.filter(scope=scope).values_list(
                    "record_id", "order_at", "fingerprint"
                )
            ),
        }  # fmt: skip
    return out


def both_paths(records: list[Record]) -> tuple[dict, dict]:
    """The stored state after the record-by-record path and after the batch path, each
    from the same starting point (the first is rolled back)."""
    with transaction.atomic():
        point = transaction.savepoint()
        for record in records:
            ratings.ratings_apply(record=record)
        one_by_one = state()
        transaction.savepoint_rollback(point)
        ratings.ratings_apply_records(records=records)
        batch = state()
    return one_by_one, batch


def enter(world, names, scores, day):  # noqa: F811
    entry, _ = club_services.season_entry_submit_document(
        season=world.season, document=santa(names, scores, day=day), user=world.owner
    )
    return entry.record


def test_a_mixed_batch_equals_applying_one_by_one(world):  # noqa: F811
    names = [u.username for u in world.members[:5]]
    # Applied before the batch: two games' scopes, a club and its season.
    for day, scores in enumerate([[5, 3, 1], [2, 8, 4], [6, 6, 1]], start=1):
        store(table(names[:3], scores, day=day))
    corrected = store(santa(names[:3], [9, 5, 1], day=1), user=world.owner)
    enter(world, names[1:4], [3, 7, 1], 2)
    botted = store(table(names[2:5], [4, 1, 7], day=4))
    enter(world, names[:3], [1, 2, 0], 5)
    with ratings.ratings_deferred():  # stored, not rated yet: the batch
        batch = [
            store(table(names[:3], [1, 9, 4], day=6)),
            store(table(names[1:4], [3, 3, 8], day=7)),
            enter(world, [names[0], names[3], names[4]], [4, 0, 2], 8),
            store(santa(names[2:5], [2, 6, 4], day=9)),
            store(table(names[:4], [4, 2, 8, 6], day=2.5)),  # late in the game's scope
            enter(world, names[:3], [0, 5, 2], 3.5),  # late in the club's and season's
            store(table(names[:3], [9, 9, 9], day=10, simulated=True)),
            store(table(names[1:3], [7, 1], day=11)),
        ]
        club_services.result_correct(
            record=corrected, user=world.owner, scores=[25, 29, 33], reason="swap"
        )
        # Quarantined, so counted nowhere, and not in the batch: a recompute passes it.
        quarantined = store(table(names[:2], [3, 4], day=6.5))
        ingest_quarantine(record_id=quarantined.pk, error="test")
    Player.objects.filter(name=names[4]).update(kind=Player.Kind.BOT)  # a bot after the fact
    batch += [Record.objects.get(pk=corrected.pk), botted, batch[0]]  # and one seen twice
    one_by_one, at_once = both_paths(batch)
    assert one_by_one == at_once
    keys = set(at_once)
    assert {"game:gift_gift_gone", "game:secret_santa", f"season:{world.season.pk}"} <= keys
    assert f"club:{world.club.pk}:secret_santa" in keys
    applied = {r for r, *_ in at_once["game:gift_gift_gone"]["applications"]}
    assert batch[1].pk in applied
    assert batch[4].pk in applied
    assert batch[6].pk not in applied  # simulated
    assert botted.pk not in applied  # a bot seat
    assert quarantined.pk not in applied


def test_a_batch_of_new_records_appends_in_a_few_queries():
    names = ["ana", "ben", "cleo", "dev", "eve"]
    store(table(names[:3], [3, 2, 1], day=0))
    with ratings.ratings_deferred():
        batch = [
            store(table(names[k % 3 : k % 3 + 3], [k % 5, 3, 9 - k % 4], day=1 + k))
            for k in range(30)
        ]
    one_by_one, _ = both_paths(batch)
    with CaptureQueriesContext(connection) as queries:
        ratings.ratings_apply_records(records=batch)
    assert state() == one_by_one
    assert RatingScope.objects.get().recomputes == 0  # appended, not recomputed
    assert len(queries) <= 20, [q["sql"] for q in queries.captured_queries]
    assert ratings.ratings_apply(record=batch[-1]) == {"game:gift_gift_gone": "unchanged"}


def test_an_empty_batch_and_a_deferred_one_do_nothing():
    with ratings.ratings_deferred():
        record = store(table(["ana", "ben"], [2, 1], day=1))
        ratings.ratings_apply_records(records=[record])
    ratings.ratings_apply_records(records=[])
    assert not RatingApplication.objects.exists()
    ratings.ratings_apply_records(records=[record])
    assert RatingApplication.objects.count() == 1
