"""The table-size rule of events/tables.py, for every n from 1 to 60 and five player ranges."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from events.tables import SeatingError, Split, choose_byes, fits, table_sizes

RANGES = [(3, 5), (3, 8), (4, 6), (5, 8), (2, 4)]


def _possible(n: int, low: int, high: int) -> bool:
    """Independent of the code: some number of tables holds exactly n players."""
    return n > 0 and any(low * k <= n <= high * k for k in range(1, n + 1))


@pytest.mark.parametrize(("low", "high"), RANGES)
@pytest.mark.parametrize("fewest", [True, False])
def test_every_n_from_1_to_60_follows_the_rule(low, high, fewest):
    for n in range(1, 61):
        split = table_sizes(n, low, high, fewest_tables=fewest)
        seated = n - split.byes
        assert split.seated == seated
        assert all(low <= size <= high for size in split.sizes), (n, split)
        # fewest byes: with one bye fewer nobody could be seated exactly
        assert all(not _possible(n - b, low, high) for b in range(split.byes)), (n, split)
        assert seated == 0 or _possible(seated, low, high)
        assert fits(seated, low, high) == (seated > 0)
        if seated:
            k = len(split.sizes)
            if fewest:
                assert (k - 1) * high < seated, (n, split)  # one table fewer cannot hold them
            else:
                assert (k + 1) * low > seated, (n, split)  # one table more cannot be filled
            assert max(split.sizes) - min(split.sizes) <= 1
            assert list(split.sizes) == sorted(split.sizes, reverse=True)


@pytest.mark.parametrize(
    ("n", "low", "high", "fewest", "expected"),
    [
        (13, 3, 5, Split((5, 4, 4), 0), None),
        (13, 3, 5, None, Split((4, 3, 3, 3), 0)),
        (9, 5, 8, Split((8,), 1), Split((8,), 1)),
        (7, 4, 6, Split((6,), 1), Split((6,), 1)),
        (2, 3, 5, Split((), 2), Split((), 2)),
        (1, 2, 4, Split((), 1), Split((), 1)),
        (60, 3, 8, Split((8, 8, 8, 8, 7, 7, 7, 7), 0), Split((3,) * 20, 0)),
    ],
)
def test_known_splits(n, low, high, fewest, expected):
    if fewest is not None:
        assert table_sizes(n, low, high) == fewest
    if expected is not None:
        assert table_sizes(n, low, high, fewest_tables=False) == expected


@pytest.mark.parametrize(("low", "high"), [(0, 4), (5, 3)])
def test_a_range_no_game_has_is_refused(low, high):
    with pytest.raises(SeatingError) as error:
        table_sizes(10, low, high)
    assert error.value.code == "bad_player_counts"


def test_nobody_sits_out_twice_while_someone_has_not_sat_out():
    players = [f"p{i}" for i in range(9)]  # 9 players of a 5-8 game: one bye a round
    byes: Counter[str] = Counter()
    rng = random.Random(3)
    for _ in range(18):
        (out,) = choose_byes(players, table_sizes(9, 5, 8).byes, byes_so_far=byes, rng=rng)
        assert byes[out] == min(byes[p] for p in players)
        byes[out] += 1
    assert set(byes.values()) == {2}


def test_byes_go_to_the_fewest_points_among_the_fewest_byes():
    points = {"ana": 3, "ben": 0, "cyd": 1, "dan": 0}
    got = choose_byes(list(points), 2, byes_so_far={"ben": 1}, points=points, rng=random.Random(0))
    assert got == ("dan", "cyd")


def test_the_same_seed_draws_the_same_byes():
    players = [f"p{i}" for i in range(10)]
    draws = {choose_byes(players, 3, byes_so_far={}, rng=random.Random(7)) for _ in range(3)}
    assert len(draws) == 1
