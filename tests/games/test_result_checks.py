"""Each game's result-only checks (``games/<slug>/results.py``).

A result typed in from a real table has no events to replay; the rules' check of
the final scores alone refuses what no game ends with (a tie for first in Secret
Santa), and must never refuse a played game's scores: seeded bot games of every
engine and table size pass it.
"""

from __future__ import annotations

import random
import re

import pytest

from games.base import ImpossibleResult, seats_named
from games.play import BOTS, self_play
from games.registry import all_engines, get_engine, result_rules

GAMES_PER_COUNT = 4
CASES = [
    (engine.slug, n, options)
    for engine in all_engines()
    for n in range(engine.min_players, engine.max_players + 1)
    for options in (
        [{}, {"ranking": "goal_only"}, {"ranking": "exact"}]
        if engine.slug == "gift_economy"
        else [{"max_rounds": 30}]
        if engine.slug == "gift_trap" and n >= 7
        else [{}]
    )
]


@pytest.mark.parametrize(("slug", "n", "options"), CASES)
def test_played_games_pass_their_result_check(slug: str, n: int, options: dict) -> None:
    engine = get_engine(slug)
    rules = result_rules(slug)
    for seed in range(GAMES_PER_COUNT):
        rng = random.Random(seed * 1000 + n)
        bots = [BOTS["greedy" if (seed + seat) % 2 else "random"] for seat in range(n)]
        _, state = self_play(engine, n, options=options, rng=rng, bots=bots)
        result = engine.result(state)
        rules.result_check(result.scores, result.ranks, options)
        low, high = rules.plausible_scores(n, options)
        hard_low, hard_high = engine.score_bounds(n, options)
        assert hard_low <= low <= high
        assert hard_high is None or high <= hard_high


def _refusal(slug: str, scores: list[int], options: dict | None = None) -> ImpossibleResult:
    ranks = [1 + sum(1 for o in scores if o > s) for s in scores]
    with pytest.raises(ImpossibleResult) as caught:
        result_rules(slug).result_check(scores, ranks, options or {})
    return caught.value


def test_secret_santa_refuses_a_tie_for_first_naming_the_seats_from_1() -> None:
    error = _refusal("secret_santa", [12, 31, 31])
    assert error.code == "tied_for_first"
    assert "Seats 2 and 3 share the highest total (31)" in error.message
    assert error.detail["seats"] == [1, 2]
    # A tie lower down is a finished game.
    result_rules("secret_santa").result_check([31, 12, 12], [1, 2, 2], {})


def test_secret_santa_refuses_a_top_below_25() -> None:
    error = _refusal("secret_santa", [9, 5, 1])
    assert error.code == "below_winning_total"
    assert "highest total is 9 (seat 1)" in error.message


def test_gift_trap_without_a_round_limit_needs_someone_in_the_gifted_zone() -> None:
    error = _refusal("gift_trap", [30, 41, 12])
    assert error.code == "nobody_gifted"
    assert "42" in error.message
    result_rules("gift_trap").result_check([30, 41, 12], [3, 1, 2], {"max_rounds": 10})
    result_rules("gift_trap").result_check([30, 42, 12], [2, 1, 3], {})


def test_gift_economy_refuses_a_total_no_hand_scores() -> None:
    error = _refusal("gift_economy", [48, 20, 0], {"ranking": "goal_only"})
    assert error.code == "unreachable_score"
    assert error.message.startswith("Seat 2 scored 20")
    assert error.detail["seat"] == 1
    _refusal("gift_economy", [30, 24, 0], {"ranking": "exact"})
    result_rules("gift_economy").result_check([30, 24, 0], [1, 2, 3], {})


def test_secret_santa_calls_a_310_unusual_but_not_a_31() -> None:
    low, high = result_rules("secret_santa").plausible_scores(3, {})
    assert low <= 31 <= high < 310


def test_seats_are_named_from_1() -> None:
    assert seats_named([0]) == "seat 1"
    assert seats_named([0, 2]) == "seats 1 and 3"
    assert seats_named([0, 1, 3]) == "seats 1, 2 and 4"
    assert not re.search(r"\bseats? 0\b", seats_named([0, 1]))
