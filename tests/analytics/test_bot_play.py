"""Bots and bot play never reach a rating, a leaderboard or a real-play figure.

The source marks a game with a bot seat simulated (tests/replays/test_player_kinds.py);
analytics leaves out bots wherever ratings and leaderboards are computed, as a second
guard; the site's game boards leave out guests, their club's boards list them.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from analytics import selectors
from analytics.models import GameSummary, PlayerRating
from analytics.ratings import ratings_rebuild
from clubs import services as club_services
from games.registry import engine_slugs
from replays.models import Player, Record
from tests.analytics.ratings_helpers import santa, store
from tests.clubs.conftest import world  # noqa: F401  (a fixture)
from tests.replays.test_player_kinds import play_to_the_end

pytestmark = pytest.mark.django_db(transaction=True)


def board(api, **query) -> list[str]:
    response = api.get("/api/leaderboards/", query)
    assert response.status_code == 200, response.json()
    return [row["player"] for row in response.json()["results"]]


def test_a_live_game_against_the_bots_never_reaches_a_leaderboard(api, client):
    store(santa(["ana", "ben", "cy"], [10, 5, 1], day=1))  # a real game, so the board exists
    body = {
        "game": "secret_santa",
        "players": ["tess", "bot-1", "bot-2"],
        "bots": {"1": "greedy", "2": "greedy"},
        "seed": 5,
    }
    opened = api.post("/api/live/", body, format="json").json()
    play_to_the_end(opened["id"], opened["seat_tokens"], seed=5)
    assert sorted(board(api, game="secret_santa")) == ["ana", "ben", "cy"]
    assert not PlayerRating.objects.filter(player__name__in=["tess", "bot-1", "bot-2"]).exists()
    page = client.get("/leaderboards/", {"game": "secret_santa"}).content.decode()
    assert "bot-1" not in page
    assert "tess" not in page
    summary = GameSummary.objects.get(game="secret_santa")
    assert summary.games == 1
    assert {p["player"] for p in summary.players} == {"ana", "ben", "cy"}


def test_a_bot_in_a_game_not_marked_simulated_is_still_never_ranked(api):
    """The second guard: a player made a bot behind the service's back (no re-announce)."""
    store(santa(["ana", "ben", "cy"], [10, 5, 1], day=1))
    store(santa(["ana", "ben"], [3, 8], day=2))
    Player.objects.filter(name="cy").update(kind=Player.Kind.BOT)
    assert Record.objects.filter(simulated=True).count() == 0
    assert "cy" not in board(api, game="secret_santa")  # listed nowhere at once
    ratings_rebuild()
    # Recomputed, the game cy sat in counts for nobody: ana and ben have one game each.
    games = dict(
        PlayerRating.objects.filter(scope__key="game:secret_santa").values_list(
            "player__name", "games"
        )
    )
    assert games == {"ana": 1, "ben": 1}


def test_a_guest_is_on_the_club_board_not_on_the_sites(api, world):  # noqa: F811
    names = [u.username for u in world.members[:2]]
    club_services.season_entry_submit_document(
        season=world.season,
        document=santa([*names, "walk-in"], [5, 3, 9], day=2),
        user=world.owner,
        guests=[2],
    )
    assert Player.objects.get(name="walk-in").kind == Player.Kind.GUEST
    assert "walk-in" not in board(api, game="secret_santa")
    club = api.get("/api/leaderboards/", {"club": "north-pier"}).json()["results"]
    assert {row["player"]: row["guest"] for row in club} == {
        names[0]: False,
        names[1]: False,
        "walk-in": True,
    }


def test_demo_data_counts_in_no_rating_leaderboard_or_real_play_figure(api):
    call_command("demo_data", games=3, stdout=io.StringIO())
    assert Record.objects.count() == 3 * len(engine_slugs())
    assert not Record.objects.filter(simulated=False).exists()
    assert not PlayerRating.objects.exists()
    for slug in engine_slugs():
        assert board(api, game=slug) == []
        figures = selectors.game_statistics(game=slug)
        assert figures["real"]["records"] == 0
        assert figures["simulated"]["records"] == 3
        assert GameSummary.objects.get(game=slug).players == []
