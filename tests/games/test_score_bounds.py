"""Every engine's declared score bounds hold for the final scores of played games.

The bounds check result-only records (games played at a real table), so they
must never refuse a score a legal game reaches: many seeded bot games per
engine and player count, random and greedy seats mixed, all land inside.
"""

from __future__ import annotations

import random

import pytest

from games.base import InvalidSetup
from games.play import BOTS, self_play
from games.registry import all_engines, get_engine

GAMES_PER_COUNT = 20

CASES = [
    (engine.slug, n)
    for engine in all_engines()
    for n in range(engine.min_players, engine.max_players + 1)
]


def _options(slug: str, n: int) -> dict:
    # Random GiftTRAP play at 7-8 seats runs very long without a round limit.
    return {"max_rounds": 30} if slug == "gift_trap" and n >= 7 else {}


@pytest.mark.parametrize(("slug", "n"), CASES)
def test_final_scores_lie_within_the_bounds(slug: str, n: int) -> None:
    engine = get_engine(slug)
    options = _options(slug, n)
    low, high = engine.score_bounds(n, options)
    assert high is None or low <= high
    for seed in range(GAMES_PER_COUNT):
        rng = random.Random(seed * 1000 + n)
        bots = [BOTS["greedy" if (seed + seat) % 2 else "random"] for seat in range(n)]
        _, state = self_play(engine, n, options=options, rng=rng, bots=bots)
        for seat, score in enumerate(engine.result(state).scores):
            assert low <= score, (slug, n, seed, seat, score, low)
            assert high is None or score <= high, (slug, n, seed, seat, score, high)


def test_bounds_follow_the_options_and_the_player_count() -> None:
    trap = get_engine("gift_trap")
    assert trap.score_bounds(4, {}) == (0, 50)
    assert trap.score_bounds(4, {"track_length": 40}) == (0, 80)
    economy = get_engine("gift_economy")
    assert economy.score_bounds(3, {}) == (-124, 48)
    assert economy.score_bounds(3, {"ranking": "capped"}) == (0, 48)
    gone = get_engine("gift_gift_gone")
    assert gone.score_bounds(3, {})[1] == 60 - 1 + 30  # small deck, target 60
    assert gone.score_bounds(5, {})[1] == 50 - 1 + 30  # full deck, target 50
    swap = get_engine("gift_swap")
    assert swap.score_bounds(3, {}) == (-4, 15)  # rows of five
    assert swap.score_bounds(4, {}) == (-5, 12)  # rows of four
    assert get_engine("secret_santa").score_bounds(2, {}) == (0, None)


@pytest.mark.parametrize("engine", all_engines(), ids=lambda e: e.slug)
def test_bounds_refuse_a_bad_setup(engine) -> None:
    with pytest.raises(InvalidSetup):
        engine.score_bounds(engine.max_players + 1, {})
    with pytest.raises(InvalidSetup):
        engine.score_bounds(engine.min_players, {"no_such_option": 1})
