"""Records stored before options were stored in full replay the same after the migration."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from replays.giftlog import record_digest

pytestmark = pytest.mark.django_db(transaction=True)

LEGACY = Path(__file__).resolve().parents[1] / "games" / "gift_gift_gone_legacy_record.json"
BEFORE = [("analytics", "0001_initial"), ("replays", "0003_seat_won")]


def _latest(executor: MigrationExecutor) -> list[tuple[str, str]]:
    """Every app's latest migration: going back to ``BEFORE`` unapplied every app built on
    replays (clubs, events, analytics), and the tests after this one need all of them."""
    return executor.loader.graph.leaf_nodes()


def test_an_old_record_keeps_its_meaning_and_its_replay(api):
    """A Gift Gift Gone game stored with ``{}`` when one action per turn was the only rule."""
    legacy = json.loads(LEGACY.read_text())
    players = ["ana", "ben"]
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Player, Record, Seat = (old.get_model("replays", m) for m in ("Player", "Record", "Seat"))
    record = Record.objects.create(
        game="gift_gift_gone",
        digest=record_digest("gift_gift_gone", {}, players, legacy["events"]),
        options={},
        meta={},
        events=legacy["events"],
        result=legacy["result"],
        num_events=len(legacy["events"]),
    )
    for seat, name in enumerate(players):
        Seat.objects.create(record=record, player=Player.objects.create(name=name), seat=seat)

    executor = MigrationExecutor(connection)
    executor.migrate(_latest(executor))

    from replays.models import Record as CurrentRecord

    migrated = CurrentRecord.objects.get(pk=record.pk)
    assert migrated.options == {"turn_actions": "one", "give_frozen_in_swap": True}
    assert migrated.digest == record_digest(
        "gift_gift_gone", migrated.options, players, legacy["events"]
    )
    final = api.get(f"/api/records/{record.pk}/steps/{migrated.num_events}/").json()
    assert final["is_over"]
    assert final["result"]["scores"] == legacy["result"]["scores"]
    exported = api.get(f"/api/records/{record.pk}/").json()
    again = api.post("/api/records/", exported, format="json")
    assert again.status_code == 200, "its export is still the same record"
    assert again.json()["id"] == record.pk
    # Uploaded today without options, the same log means the rulebook's game, and is refused.
    today = {**exported, "options": {}}
    today.pop("result")
    assert api.post("/api/records/", today, format="json").status_code == 422
