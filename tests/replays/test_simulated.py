"""Bot play is marked simulated (meta.simulated), so analytics can keep it apart."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from replays.models import Player, Record

pytestmark = pytest.mark.django_db


def test_simulate_marks_records_and_their_players_as_bots():
    call_command("simulate", "secret_santa", games=2, seed=5, stdout=io.StringIO())
    assert Record.objects.count() == 2
    assert all(r.simulated and r.meta["simulated"] is True for r in Record.objects.all())
    players = Player.objects.filter(seats__record__game="secret_santa").distinct()
    assert players
    assert all(p.kind == Player.Kind.BOT and p.name.startswith("bot-") for p in players)


def test_demo_data_is_marked_demo_and_simulated():
    call_command("simulate", "gift_swap", games=1, seed=5, demo=True, stdout=io.StringIO())
    demo = Record.objects.get(game="gift_swap")
    assert demo.simulated is True
    assert demo.meta["simulated"] is True
    assert demo.meta["source"] == "demo data"
    assert {seat.player.kind for seat in demo.seats.all()} == {Player.Kind.BOT}
    # Demo play stands in for a club's history: it has a date in the past.
    assert demo.played_at is not None
    assert demo.played_at < demo.created_at


def test_upload_says_simulated_through_meta(api, make_document):
    document = make_document(seed=3)
    document["meta"] = {"simulated": True}
    response = api.post("/api/records/", document, format="json")
    assert response.status_code == 201
    assert Record.objects.get(pk=response.json()["id"]).simulated is True


def test_meta_simulated_must_be_a_boolean(api, make_document):
    document = make_document(seed=4)
    document["meta"] = {"simulated": "yes"}
    response = api.post("/api/records/", document, format="json")
    assert response.status_code == 400
    assert response.json()["detail"]["field"] == "meta.simulated"
    assert Record.objects.count() == 0
