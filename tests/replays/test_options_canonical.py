"""Options in one canonical form: a list option is a set, so its order never makes a variant.

GiftTRAP's ``packs`` ``["red", "blue"]`` and ``["blue", "red"]`` are the same rules to
the engine; the service stores, keys and compares them as one, and a migration rewrites
what was stored before (records, live games, leagues, analytics' variant keys).
"""

from __future__ import annotations

import importlib
import random

import pytest
from django.apps import apps

from analytics.models import PlayerResult, RecordFacts, SimulationJob, StatisticsSnapshot
from analytics.services import record_ingest
from analytics.statistics import statistics_recompute_all
from clubs.models import Club, League
from games.base import options_canonical, options_resolve
from games.registry import get_engine
from replays.giftlog import options_key, record_digest
from replays.models import LiveGame, Record
from replays.services import record_submit
from replays.simulation import simulated_document

pytestmark = pytest.mark.django_db

CANONICAL = ["red", "blue"]  # GiftTRAP's declared order: yellow, red, blue, black
REVERSED = ["blue", "red"]


def trap_document(packs: list[str], *, seed: int = 3) -> dict:
    document = simulated_document(
        "gift_trap", num_players=3, rng=random.Random(seed), options={"packs": packs}
    )
    document["options"] = {**document["options"], "packs": list(packs)}
    document["meta"] = {"source": "test"}
    return document


def test_a_list_option_is_put_in_declared_order_by_the_engine():
    engine = get_engine("gift_trap")
    one = options_resolve(engine, {"packs": REVERSED})
    other = options_resolve(engine, {"packs": CANONICAL})
    assert one == other
    assert one["packs"] == CANONICAL
    assert options_key(one) == options_key(other)
    # The tolerant form for stored data reorders, fills nothing and refuses nothing.
    assert options_canonical(engine, {"packs": ["black", "yellow"], "old": 1}) == {
        "packs": ["yellow", "black"],
        "old": 1,
    }


def test_the_same_game_with_its_packs_listed_in_another_order_is_one_record(api):
    first = api.post("/api/records/", trap_document(REVERSED), format="json")
    assert first.status_code == 201, first.json()
    stored = Record.objects.get(pk=first.json()["id"])
    assert stored.options["packs"] == CANONICAL
    again = api.post("/api/records/", trap_document(CANONICAL), format="json")
    assert again.status_code == 200
    assert again.json()["id"] == stored.pk
    found = api.get("/api/records/?game=gift_trap&option.packs=" + '["blue","red"]').json()
    assert [row["id"] for row in found["results"]] == [stored.pk]


def _reverse_stored(record: Record) -> str:
    """Make ``record`` look as it was stored before options were canonical; its old key."""
    options = {**record.options, "packs": REVERSED}
    players = [seat.player.name for seat in record.seats.order_by("seat")]
    Record.objects.filter(pk=record.pk).update(
        options=options, digest=record_digest(record.game, options, players, record.events)
    )
    record_ingest(record_id=record.pk)  # analytics keys it by the old spelling, as it did
    return options_key(options)


def _migration(app: str, name: str):
    return importlib.import_module(f"{app}.migrations.{name}")


def test_the_migration_rewrites_stored_options_digests_and_variant_keys(api):
    reversed_record, _ = record_submit(document=trap_document(REVERSED, seed=3))
    other, _ = record_submit(document=trap_document(CANONICAL, seed=4))
    for record in (reversed_record, other):
        record_ingest(record_id=record.pk)
    new_key = options_key(other.options)
    old_key = _reverse_stored(reversed_record)
    assert old_key != new_key
    assert PlayerResult.objects.filter(variant=old_key).count() == 3
    assert StatisticsSnapshot.objects.filter(variant=old_key).exists()
    league = League.objects.create(
        club=_club(), name="Trap", slug="trap", game="gift_trap",
        options={**other.options, "packs": REVERSED}, points_per_place=[1],
    )  # fmt: skip
    live = LiveGame.objects.create(
        game="gift_trap",
        players=["a", "b", "c"],
        seed=1,
        options={**other.options, "packs": REVERSED},
    )
    job = SimulationJob.objects.create(
        game="gift_trap", num_players=3, options={"packs": REVERSED}, total=1, seed=1
    )

    _migration("replays", "0014_options_canonical").records_options_canonical(apps, None)
    _migration("clubs", "0002_league_options_canonical").leagues_options_canonical(apps, None)
    _migration("analytics", "0007_variants_canonical").variants_canonical(apps, None)

    reversed_record.refresh_from_db()
    assert reversed_record.options["packs"] == CANONICAL
    # The digest is the game's identity over its canonical options: what a re-upload of
    # the same game computes today, in whichever order it lists the packs.
    again = api.post("/api/records/", trap_document(REVERSED, seed=3), format="json")
    assert (again.status_code, again.json()["id"]) == (200, reversed_record.pk)
    for row in (league, live, job):
        row.refresh_from_db()
        assert row.options["packs"] == CANONICAL
    assert not PlayerResult.objects.filter(variant=old_key).exists()
    assert not RecordFacts.objects.filter(variant=old_key).exists()
    assert not StatisticsSnapshot.objects.filter(variant=old_key).exists()
    assert PlayerResult.objects.filter(variant=new_key).count() == 6
    facts = RecordFacts.objects.get(pk=reversed_record.pk)
    assert all(scope[3] == new_key for scope in facts.applied["scopes"])
    # The two records' snapshots were added together: equal to a fresh computation.
    assert statistics_recompute_all(fix=False)["differences"] == []
    assert StatisticsSnapshot.objects.get(variant=new_key, club="*", num_players=3).records == 2


def test_the_migration_keeps_a_duplicate_it_finds_under_its_old_digest():
    """Two stored copies of one game under two spellings: nothing deleted, no clash."""
    first, _ = record_submit(document=trap_document(CANONICAL, seed=5))
    copy, _ = record_submit(
        document={**trap_document(CANONICAL, seed=5), "players": ["x", "y", "z"]}
    )
    options = {**first.options, "packs": REVERSED}
    players = [seat.player.name for seat in first.seats.order_by("seat")]
    old_digest = record_digest("gift_trap", options, players, first.events)
    # The copy becomes the same game as ``first`` stored under the other spelling.
    Record.objects.filter(pk=copy.pk).update(options=options, digest=old_digest)
    copy.seats.all().delete()
    for seat in first.seats.all():
        seat.pk, seat.record_id = None, copy.pk
        seat.save()
    _migration("replays", "0014_options_canonical").records_options_canonical(apps, None)
    copy.refresh_from_db()
    assert copy.options["packs"] == CANONICAL
    assert copy.digest == old_digest
    assert Record.objects.filter(pk=first.pk).exists()


def _club() -> Club:
    return Club.objects.create(name="Pier", slug="pier")
