"""Every list of records marks simulated games (in words) and can hide them.

Pages hide them by default and say how many are hidden, with a link that shows them,
marked: the balance lab stores thousands of bot games that would bury a club's own.
The API lists both unless ``play`` says otherwise, each row saying ``simulated``.
"""

from __future__ import annotations

import random

import pytest

from replays.models import Record
from replays.services import record_submit
from replays.simulation import simulated_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def mixed(make_document):
    """Two games people played and one simulated game."""
    people = [record_submit(document=make_document(seed=s, players=3))[0] for s in (1, 2)]
    bot_doc = simulated_document("secret_santa", num_players=3, rng=random.Random(3))
    bot, _ = record_submit(document=bot_doc, bot_seats=range(3))
    return people, bot


def test_records_page_hides_simulated_games_and_says_so(client, mixed):
    _people, bot = mixed
    page = client.get("/records/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "2 games, newest first" in html
    assert f"#{bot.pk}<" not in html
    assert "1 simulated game" in html
    assert "is hidden" in html
    assert "?play=all" in html
    assert "play=real" in html  # the export takes what the page shows


def test_records_page_shows_simulated_games_marked_when_asked(client, mixed):
    _people, bot = mixed
    html = client.get("/records/", {"play": "all"}).content.decode()
    assert "3 games found" in html
    assert html.count('class="badge simulated"') == 1
    assert ">simulated</span>" in html
    only = client.get("/records/", {"play": "simulated"}).content.decode()
    assert "1 game found" in only
    assert f"#{bot.pk}<" in only


def test_records_page_refuses_an_unknown_play_value(client, mixed):
    page = client.get("/records/", {"play": "bots"})
    assert page.status_code == 400
    assert "Check “Games”" in page.content.decode()


def test_api_list_says_simulated_and_filters_by_play(api, mixed):
    people, bot = mixed
    every = api.get("/api/records/").json()["results"]
    assert {row["id"]: row["simulated"] for row in every} == {
        people[0].pk: False,
        people[1].pk: False,
        bot.pk: True,
    }
    real = api.get("/api/records/", {"play": "real"}).json()["results"]
    assert sorted(row["id"] for row in real) == sorted(r.pk for r in people)
    simulated = api.get("/api/records/", {"play": "simulated"}).json()["results"]
    assert [row["id"] for row in simulated] == [bot.pk]
    wrong = api.get("/api/records/", {"play": "yes"})
    assert wrong.status_code == 400
    assert wrong.json()["code"] == "bad_filter"
    assert wrong.json()["detail"]["field"] == "play"


def test_home_page_recent_games_are_peoples(client, mixed):
    people, bot = mixed
    html = client.get("/").content.decode()
    assert f"#{bot.pk}<" not in html
    assert f"#{people[0].pk}<" in html
    assert "1 simulated game" in html


def test_dashboard_recent_records_hide_simulated_games(client, mixed):
    people, bot = mixed
    html = client.get("/games/secret_santa/").content.decode()
    recent = html[html.index("Recent records") :]
    assert f"#{bot.pk}<" not in recent
    assert f"#{people[0].pk}<" in recent
    assert "play=all" in recent


def test_player_page_hides_games_against_bots_until_asked(client, make_document):
    document = make_document(seed=4, players=3)
    document["players"] = ["tess", "bot-1", "bot-2"]
    bot_game, _ = record_submit(document=document, bot_seats=[1, 2])
    real = make_document(seed=5, players=3)
    real["players"] = ["tess", "uma", "vic"]
    record_submit(document=real)
    html = client.get("/players/tess/").content.decode()
    assert "1 simulated game" in html
    assert f"/records/{bot_game.pk}/" not in html
    shown = client.get("/players/tess/", {"play": "all"}).content.decode()
    assert f"/records/{bot_game.pk}/" in shown
    assert ">simulated</span>" in shown
    assert Record.objects.get(pk=bot_game.pk).simulated


def test_the_replay_of_a_simulated_game_says_so(client, mixed):
    people, bot = mixed
    assert "Simulated game" in client.get(f"/records/{bot.pk}/").content.decode()
    assert "Simulated game" not in client.get(f"/records/{people[0].pk}/").content.decode()
