"""Players are people, bots or guests; a game with a bot seat is stored as bot play."""

from __future__ import annotations

import importlib
import json
import random

import pytest
from django.apps import apps
from rest_framework.test import APIClient

from replays.models import Announcement, LiveGame, Player, Record, Seat
from replays.services import record_submit

pytestmark = pytest.mark.django_db


def play_to_the_end(live_id: int, tokens: list[str | None], *, seed: int) -> int:
    """Random legal events for every seat with a token until the game is stored."""
    seats = []
    for token in tokens:
        if token:
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Seat {token}")
            seats.append(client)
    rng = random.Random(seed)
    for _ in range(5_000):
        for seat in seats:
            view = seat.get(f"/api/live/{live_id}/").json()
            if view["status"] == "finished":
                return view["record"]
            if view["legal_events"]:
                event = rng.choice(view["legal_events"])
                answer = seat.post(
                    f"/api/live/{live_id}/events/",
                    {"step": view["step"], "event": event},
                    format="json",
                )
                assert answer.status_code == 201, answer.json()
    raise AssertionError("the live game did not end")


def test_a_live_game_against_the_bots_is_stored_as_bot_play(api):
    # As the home page's "Play against the service" opens it: the bots named bot-1, bot-2.
    body = {
        "game": "secret_santa",
        "players": ["tess", "bot-1", "bot-2"],
        "bots": {"1": "greedy", "2": "random"},
        "seed": 11,
    }
    response = api.post("/api/live/", body, format="json")
    assert response.status_code == 201, response.json()
    record = Record.objects.get(
        pk=play_to_the_end(response.json()["id"], response.json()["seat_tokens"], seed=11)
    )
    assert record.simulated is True
    assert record.meta["simulated"] is True
    kinds = dict(Player.objects.values_list("name", "kind"))
    assert kinds == {"tess": "person", "bot-1": "bot", "bot-2": "bot"}


def test_a_live_game_of_people_is_real_play(api):
    body = {"game": "secret_santa", "players": ["tess", "uma", "vic"], "seed": 12}
    response = api.post("/api/live/", body, format="json")
    assert response.status_code == 201, response.json()
    record = Record.objects.get(
        pk=play_to_the_end(response.json()["id"], response.json()["seat_tokens"], seed=12)
    )
    assert record.simulated is False
    assert set(Player.objects.values_list("kind", flat=True)) == {"person"}


def test_a_persons_name_at_a_bots_seat_stays_a_person(make_document):
    document = make_document(seed=2, players=3)
    record_submit(document=document)  # the three are people who played
    again = make_document(seed=3, players=3)
    again["players"] = document["players"]
    record, created = record_submit(document=again, bot_seats=[1, 2])  # played on with bots
    assert created
    assert record.simulated
    kinds = set(Player.objects.filter(name__in=document["players"]).values_list("kind", flat=True))
    assert kinds == {"person"}


def test_any_game_a_bot_sits_in_is_bot_play(api, make_document):
    Player.objects.create(name="bot-1", kind=Player.Kind.BOT)
    document = make_document(seed=4, players=3)
    document["players"][1] = "bot-1"
    response = api.post("/api/records/", document, format="json")
    assert response.status_code == 201, response.json()
    record = Record.objects.get(pk=response.json()["id"])
    assert record.simulated is True
    assert record.meta["simulated"] is True


def test_a_bulk_import_naming_a_bot_stores_bot_play(api, make_document):
    Player.objects.create(name="bot-2", kind=Player.Kind.BOT)
    bot_game = make_document(seed=5, players=3)
    bot_game["players"][0] = "bot-2"
    people = make_document(seed=6, players=3)
    lines = "\n".join(json.dumps(d) for d in (bot_game, people))
    response = api.post("/api/records/bulk/", lines, content_type="application/x-ndjson")
    assert response.status_code in (200, 201, 207), response.content
    by_first = {r.seats.get(seat=0).player.name: r.simulated for r in Record.objects.all()}
    assert by_first == {"bot-2": True, people["players"][0]: False}


def test_making_a_player_a_bot_makes_their_games_bot_play(make_document):
    from replays.services import player_kind_set  # new with the kinds: fails alone on main

    first, _ = record_submit(document=make_document(seed=7, players=3))
    _second, _ = record_submit(document=make_document(seed=8, players=3))
    name = first.seats.get(seat=0).player.name
    player = Player.objects.get(name=name)
    before = Announcement.objects.count()
    changed = player_kind_set(player=player, kind=Player.Kind.BOT)
    theirs = Record.objects.filter(seats__player=player)
    assert changed == theirs.count() >= 1
    assert all(r.simulated and r.meta["simulated"] for r in theirs)
    assert Announcement.objects.count() == before + changed  # analytics recounts them
    others = Record.objects.exclude(pk__in=theirs.values("pk"))
    assert all(not r.simulated for r in others)


def migration_module():
    return importlib.import_module("replays.migrations.0012_bot_players_and_bot_play")


def test_the_migration_marks_existing_bots_and_their_games(make_document):
    """Stored before kinds existed: a live game against bot-1 and bot-2, demo data
    (players ana...), and a club's game of people; only the first two become bot play."""
    live_doc = make_document(seed=9, players=3)
    live_doc["players"] = ["tess", "bot-1", "bot-2"]
    live_doc["meta"] = {}
    live_record, _ = record_submit(document=live_doc)
    LiveGame.objects.create(
        game=live_doc["game"],
        players=live_doc["players"],
        seed=1,
        bots={"1": "greedy", "2": "greedy"},
        status=LiveGame.Status.FINISHED,
        record=live_record,
    )
    demo_doc = make_document(seed=10, players=3)
    demo_doc["players"] = ["ana", "ben", "cy"]
    demo_doc["meta"] = {"source": "demo data"}
    demo_record, _ = record_submit(document=demo_doc)
    people_doc = make_document(seed=11, players=3)
    people_doc["players"] = ["tess", "uma", "vic"]
    people_record, _ = record_submit(document=people_doc)
    Record.objects.update(simulated=False)
    Player.objects.update(kind=Player.Kind.PERSON)

    migration_module().bots_mark(apps, None)

    kinds = dict(Player.objects.values_list("name", "kind"))
    assert kinds == {
        "tess": "person",
        "uma": "person",
        "vic": "person",
        "bot-1": "bot",
        "bot-2": "bot",
        "ana": "bot",
        "ben": "bot",
        "cy": "bot",
    }
    simulated = dict(Record.objects.values_list("pk", "simulated"))
    assert simulated == {live_record.pk: True, demo_record.pk: True, people_record.pk: False}
    assert Record.objects.get(pk=demo_record.pk).meta["simulated"] is True
    announced = [
        pk
        for ids in Announcement.objects.filter(topic="records.stored").values_list(
            "record_ids", flat=True
        )
        for pk in ids
    ]
    assert sorted(announced) == sorted([live_record.pk, demo_record.pk])


def test_the_migration_leaves_a_person_who_also_played_people(make_document):
    """ana of the demo data who also sat in a real game is a person (only the game
    with bots is bot play)."""
    demo_doc = make_document(seed=12, players=3)
    demo_doc["players"] = ["ana", "ben", "cy"]
    demo_doc["meta"] = {"source": "demo data"}
    record_submit(document=demo_doc)
    real = make_document(seed=13, players=3)
    real["players"] = ["ana", "uma", "vic"]
    real_record, _ = record_submit(document=real)
    migration_module().bots_mark(apps, None)
    assert Player.objects.get(name="ana").kind == "person"
    assert Player.objects.get(name="ben").kind == "bot"
    assert Record.objects.get(pk=real_record.pk).simulated is False
    assert Seat.objects.filter(player__name="ana").count() == 2
