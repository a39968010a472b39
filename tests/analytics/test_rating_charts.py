"""A player's rating chart: its date axis reads in days whatever the games' span."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from analytics.rating_charts import player_rating_chart


def _point(at: datetime, games: int) -> dict:
    return {"at": at, "games": games, "rank": 1, "mu": 25.0, "sigma": 8.0, "ordinal": 1.0}


def _xaxis(series: dict) -> dict:
    return player_rating_chart(series, name="Ann")["figure"]["layout"]["xaxis"]


def test_one_game_gets_a_day_either_side_and_date_ticks():
    at = datetime(2026, 12, 4, 19, 30, tzinfo=UTC)
    axis = _xaxis({"gift_swap": [_point(at, 1)]})
    assert axis["type"] == "date"
    assert axis["range"] == [
        (at - timedelta(days=1)).isoformat(),
        (at + timedelta(days=1)).isoformat(),
    ]
    assert axis["tickformat"] == "%d %b %Y"


def test_one_evening_across_games_is_widened_too():
    at = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)
    series = {"gift_swap": [_point(at, 1)], "secret_santa": [_point(at + timedelta(hours=3), 1)]}
    low, high = _xaxis(series)["range"]
    assert low == (at - timedelta(days=1)).isoformat()
    assert high == (at + timedelta(hours=27)).isoformat()


def test_a_long_history_keeps_plotlys_own_range():
    at = datetime(2026, 1, 4, tzinfo=UTC)
    axis = _xaxis({"gift_swap": [_point(at, 1), _point(at + timedelta(days=30), 2)]})
    assert axis["type"] == "date"
    assert "range" not in axis
    assert "tickformat" not in axis
