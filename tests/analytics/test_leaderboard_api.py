"""GET /api/leaderboards/ and /api/head-to-head/, and their pages."""

from __future__ import annotations

import pytest

from clubs import services as club_services
from core.chartkit import csv_text
from tests.analytics.ratings_helpers import openskill_ratings, santa, store, table
from tests.clubs.conftest import world  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def games_of_four():
    # (players, scores, day): ana and ben meet in games 1, 2, 4 and 5.
    plays = [
        (["ana", "ben", "cleo"], [10, 7, 3], 1),  # ana ahead by 3
        (["ben", "ana", "dev"], [9, 9, 2], 2),  # tie
        (["cleo", "dev"], [4, 8], 3),  # not together
        (["ana", "ben", "cleo", "dev"], [1, 6, 6, 2], 4),  # ben ahead by 5
        (["dev", "ben", "ana"], [0, 3, 12], 5),  # ana ahead by 9
    ]
    for names, scores, day in plays:
        store(table(names, scores, day=day))
    store(table(["ana", "ben"], [5, 0], day=6, simulated=True))  # never counts
    return plays


def test_leaderboard_of_a_game(api):
    games_of_four()
    response = api.get("/api/leaderboards/", {"game": "Gift Gift Gone"})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["scope"]["kind"] == "game"
    assert body["scope"]["game"] == "gift_gift_gone"
    assert body["count"] == 4
    assert body["provisional_below"] == 5
    assert "mu - 3 sigma" in body["rating"]
    rows = body["results"]
    assert [r["place"] for r in rows] == [1, 2, 3, 4]
    ordinals = [r["ordinal"] for r in rows]
    assert ordinals == sorted(ordinals, reverse=True)
    ana = next(r for r in rows if r["player"] == "ana")
    assert ana["games"] == 4  # the simulated game is not counted
    assert ana["wins"] == 3  # games 1, 2 (tied first) and 5
    assert ana["win_rate"] == pytest.approx(0.75)
    assert ana["average_score"] == pytest.approx((10 + 9 + 1 + 12) / 4)
    assert ana["provisional"] is True
    assert ana["last_played"].startswith("2026-01-06")
    expected = openskill_ratings(
        [
            (["ana", "ben", "cleo"], [1, 2, 3]),
            (["ben", "ana", "dev"], [1, 1, 3]),
            (["cleo", "dev"], [2, 1]),
            (["ana", "ben", "cleo", "dev"], [4, 1, 1, 3]),
            (["dev", "ben", "ana"], [3, 2, 1]),
        ]
    )
    assert ana["mu"] == pytest.approx(expected["ana"][0], abs=1e-9)
    assert ana["ordinal"] == pytest.approx(expected["ana"][0] - 3 * expected["ana"][1], abs=1e-9)


def test_leaderboard_pages_with_limit_and_offset(api):
    games_of_four()
    first = api.get("/api/leaderboards/", {"game": "gift_gift_gone", "limit": 3}).json()
    assert len(first["results"]) == 3
    assert first["next"] is not None
    second = api.get(first["next"]).json()
    assert [r["place"] for r in second["results"]] == [4]
    assert second["next"] is None
    names = [r["player"] for r in first["results"] + second["results"]]
    assert sorted(names) == ["ana", "ben", "cleo", "dev"]


@pytest.mark.parametrize(
    ("query", "field", "code"),
    [
        ({}, "game", "bad_filter"),
        ({"game": "chess"}, "game", "bad_filter"),
        ({"game": "gift_swap", "club": "nowhere"}, "club", "bad_filter"),
        ({"season": "x"}, "season", "bad_filter"),
        ({"season": "999999"}, "season", "bad_filter"),
        ({"game": "gift_swap", "limit": "0"}, "limit", "bad_filter"),
        ({"game": "gift_swap", "limit": "500"}, "limit", "bad_filter"),
        ({"game": "gift_swap", "offset": "-1"}, "offset", "bad_filter"),
        ({"game": "gift_swap", "gaem": "x"}, "gaem", "invalid_query"),
    ],
)
def test_leaderboard_bad_filters_are_400_naming_the_field(api, query, field, code):
    response = api.get("/api/leaderboards/", query)
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"code", "message", "detail"}
    assert body["code"] == code
    assert body["detail"]["field"] == field


def test_season_and_club_boards_and_mismatches(api, world):  # noqa: F811
    names = [u.username for u in world.members[:3]]
    entry, _ = club_services.season_entry_submit_document(
        season=world.season, document=santa(names, [5, 3, 1], day=2), user=world.owner
    )
    store(santa(names[:2], [0, 4], day=3))  # not entered: game scope only
    season = api.get("/api/leaderboards/", {"season": world.season.pk}).json()
    assert season["scope"]["kind"] == "season"
    assert season["scope"]["league"] == "santa"
    assert {r["player"]: r["games"] for r in season["results"]} == dict.fromkeys(names, 1)
    club = api.get("/api/leaderboards/", {"club": "north-pier"}).json()  # one game: implied
    assert club["scope"]["kind"] == "club"
    assert club["count"] == 3
    everyone = api.get("/api/leaderboards/", {"game": "secret_santa"}).json()
    assert {r["player"]: r["games"] for r in everyone["results"]}[names[0]] == 2
    wrong_game = api.get("/api/leaderboards/", {"season": world.season.pk, "game": "gift_swap"})
    assert wrong_game.status_code == 400
    assert wrong_game.json()["detail"]["field"] == "game"
    wrong_club = api.get("/api/leaderboards/", {"season": world.season.pk, "club": "south-pier"})
    assert wrong_club.json()["detail"]["field"] == "season"
    club_services.record_void(entry=entry, user=world.admin, reason="scores misread")
    assert api.get("/api/leaderboards/", {"season": world.season.pk}).json()["count"] == 0
    assert api.get("/api/leaderboards/", {"club": "north-pier"}).json()["count"] == 0


def test_head_to_head_against_a_hand_count(api):
    games_of_four()
    response = api.get("/api/head-to-head/", {"game": "Gift Gift Gone", "a": "Ana", "b": "ben"})
    assert response.status_code == 200, response.json()
    body = response.json()
    # By hand: games 1 (ana +3), 2 (tie, 0), 4 (ben +5, ana -5), 5 (ana +9); game 3 and the
    # simulated game 6 do not count.
    assert body["games"] == 4
    assert (body["a_ahead"], body["b_ahead"], body["ties"]) == (2, 1, 1)
    assert body["a_ahead_rate"] == pytest.approx(0.5)
    assert body["score_difference"]["average"] == pytest.approx((3 + 0 - 5 + 9) / 4)
    assert body["score_difference"]["distribution"] == [
        {"difference": -5, "games": 1},
        {"difference": 0, "games": 1},
        {"difference": 3, "games": 1},
        {"difference": 9, "games": 1},
    ]
    assert [m["a_score"] - m["b_score"] for m in body["meetings"]] == [9, -5, 0, 3]  # newest first


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"a": "ana", "b": "ben"}, "game"),
        ({"game": "gift_gift_gone", "a": "nobody", "b": "ben"}, "a"),
        ({"game": "gift_gift_gone", "a": "ana"}, "b"),
        ({"game": "gift_gift_gone", "a": "ana", "b": "ANA"}, "b"),
        ({"game": "gift_gift_gone", "a": "ana", "b": "ben", "c": "x"}, "c"),
    ],
)
def test_head_to_head_errors(api, query, field):
    games_of_four()
    response = api.get("/api/head-to-head/", query)
    assert response.status_code == 400
    assert response.json()["detail"]["field"] == field


def test_schema_documents_both_endpoints(api):
    schema = api.get("/api/schema/?format=json").json()
    board = schema["paths"]["/api/leaderboards/"]["get"]
    assert board["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/Leaderboard"
    )
    assert "/api/head-to-head/" in schema["paths"]


# --- pages ---------------------------------------------------------------------------------


def test_leaderboard_page(client):
    games_of_four()
    page = client.get("/leaderboards/", {"game": "gift_gift_gone"})
    assert page.status_code == 200
    text = page.content.decode()
    assert "Gift Gift Gone ratings, every game" in text
    assert "mu \u2212 3 \u00d7 sigma" in text
    assert "provisional" in text
    assert 'href="/players/ana/"' in text
    assert client.get("/leaderboards/").status_code == 200  # the choice form alone
    bad = client.get("/leaderboards/", {"game": "chess"})
    assert bad.status_code == 400
    assert "There is no game" in bad.content.decode()


def test_head_to_head_page_has_its_chart(client):
    games_of_four()
    page = client.get("/head-to-head/", {"game": "gift_gift_gone", "a": "ana", "b": "ben"})
    assert page.status_code == 200
    chart = page.context["chart"]
    assert chart["title"] == "Gift Gift Gone: ana's score minus ben's"
    assert csv_text(chart["csv"]).splitlines()[1:] == ["-5,1", "0,1", "3,1", "9,1"]
    text = page.content.decode()
    assert "4 games together" in text
    assert "<script>" not in text


def test_player_page_shows_ratings_chart(client):
    games_of_four()
    page = client.get("/players/ana/")
    assert page.status_code == 200
    text = page.content.decode()
    assert 'id="player-rating-chart"' in text
    assert "ana's rating over time, per game" in text
    assert "/leaderboards/?game=Gift%20Gift%20Gone" in text


def test_league_page_shows_the_season_rating_chart(client, world):  # noqa: F811
    names = [u.username for u in world.members[:3]]
    for day, scores in enumerate([[5, 3, 1], [1, 3, 5]], start=1):
        club_services.season_entry_submit_document(
            season=world.season, document=santa(names, scores, day=day), user=world.owner
        )
    page = client.get(f"/clubs/north-pier/leagues/santa/?season={world.season.pk}")
    text = page.content.decode()
    assert 'id="season-rating-chart"' in text
    assert 'id="standings-chart"' in text
    assert f"/leaderboards/?season={world.season.pk}" in text


def test_head_to_head_page_with_one_player_is_the_form_prefilled(client):
    games_of_four()
    page = client.get("/head-to-head/", {"a": "ana"})
    assert page.status_code == 200
    assert 'value="ana"' in page.content.decode()
    bad = client.get("/head-to-head/", {"game": "gift_gift_gone", "a": "ana", "b": "nobody"})
    assert bad.status_code == 400
    assert "There is no player" in bad.content.decode()
