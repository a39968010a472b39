"""The objective and the optimiser of events/seating.py.

The optimiser is checked against an exhaustive search of every seating on small events
(6 to 9 players, the second round of two): it must reach the exhaustive optimum exactly.
"""

from __future__ import annotations

import itertools
import math
import random
import re

import pytest

from events.seating import (
    PARTS,
    Format,
    Round,
    SeatingError,
    Weights,
    advantage_from_seat_figures,
    check_round,
    describe_swap,
    objective,
    seat_round,
    swap_change,
    swap_players,
)
from events.tables import table_sizes

#: A 3-5 player game's seat advantage in win share above the fair share.
ADV = {
    3: [0.03, 0.0, -0.03],
    4: [0.04, 0.01, -0.02, -0.03],
    5: [0.04, 0.02, 0.0, -0.02, -0.04],
}
NAMES = ["ana", "ben", "cyd", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lea"]


def test_the_objective_by_hand():
    """Every part on a case small enough to count on paper (docs/events.md's example)."""
    history = [Round((("a", "b", "c"), ("d", "e", "f")))]
    proposed = Round((("a", "b", "d"), ("c", "e", "f")))
    cost = objective(proposed, history, advantage=ADV)
    # a-b and e-f met once: 1 + 1; a before b and e before f again; a, b, e, f in the same
    # seats; summed edges a +6, f -6, the rest 0 (mean 0): 36 + 36.
    assert cost.raw == {
        "repeat": 2,
        "seat_balance": pytest.approx(72),
        "neighbour": 2,
        "score_spread": 0,
        "same_seat": 4,
    }
    assert cost.parts["repeat"] == 20
    assert cost.total == pytest.approx(20 + 0.5 * 72 + 3 * 2 + 0 + 2 * 4)


def test_repeats_count_the_square_of_meetings_so_far_and_points_their_spread():
    history = [Round((("a", "b", "c"),))] * 2
    cost = objective(
        Round((("a", "b", "c"),)), history, advantage={}, points={"a": 3, "b": 0, "c": 0}
    )
    assert cost.raw["repeat"] == 3 * 2**2
    assert cost.raw["score_spread"] == pytest.approx(6)  # deviations 2, -1, -1
    assert cost.raw["seat_balance"] == 0  # no advantage known: every seat fair


def test_advantage_comes_from_analytics_seat_figures():
    by_players = {
        "3": {
            "seats": [
                {"seat": 2, "win_rate": 0.3, "fair": 1 / 3, "games": 90},
                {"seat": 1, "win_rate": 0.4, "fair": 1 / 3, "games": 90},
                {"seat": 3, "win_rate": 0.0, "fair": 1 / 3, "games": 0},
            ]
        }
    }
    got = advantage_from_seat_figures(by_players)
    assert got[3] == pytest.approx([0.4 - 1 / 3, 0.3 - 1 / 3, 0.0])


def test_a_wrong_advantage_table_is_refused():
    with pytest.raises(SeatingError) as error:
        objective(Round((("a", "b", "c"),)), [], advantage={3: [0.1, -0.1]})
    assert error.value.code == "bad_advantage"


# Exhaustive search ---------------------------------------------------------------------------


def _rounds_of(players, sizes):
    """Every seating of ``players`` at tables of ``sizes`` (table order fixed by position)."""
    for order in itertools.permutations(players):
        tables, at = [], 0
        for size in sizes:
            tables.append(tuple(order[at : at + size]))
            at += size
        yield Round(tuple(tables))


def _exhaustive_optimum(players, history, sizes, points, weights):
    """The least objective over every seating, by brute force.

    Up to 7 players every permutation is tried. For 8 and 9 players every split into
    tables is tried, and every seat order of one table at a time while the others stay:
    exact, because the objective is a sum over tables once the sizes are fixed (the seat
    values of a round sum to a constant, so the mean of the seat balance is fixed).
    """
    kwargs = {"advantage": ADV, "points": points, "weights": weights}
    if len(players) <= 7:
        return min(objective(r, history, **kwargs).total for r in _rounds_of(players, sizes))
    best = math.inf
    first = sizes[0]
    for group in itertools.combinations(players, first):
        rest = [p for p in players if p not in group]
        for second in itertools.combinations(rest, sizes[1]):
            third = tuple(p for p in rest if p not in second)
            tables = [tuple(group), tuple(second)] + ([third] if third else [])
            total = 0.0
            for i, table in enumerate(tables):
                total += min(
                    objective(
                        Round((*tuple(tables[:i]), order, *tuple(tables[i + 1 :]))),
                        history,
                        **kwargs,
                    ).total
                    for order in itertools.permutations(table)
                )
            # every table's best order was measured with the rest fixed; the sum counts the
            # shared part (the other tables) len(tables) times
            base = objective(Round(tuple(tables)), history, **kwargs)
            total -= (len(tables) - 1) * base.total
            best = min(best, total)
    return best


@pytest.mark.parametrize(
    ("n", "low", "high", "format", "seed"),
    [
        (6, 3, 5, Format.SWISS, 1),
        (7, 3, 5, Format.SWISS, 2),
        (7, 3, 5, Format.ROUND_ROBIN, 3),
        (8, 3, 5, Format.SWISS, 4),
        (8, 4, 4, Format.ROUND_ROBIN, 5),
        (9, 3, 5, Format.SWISS, 6),
        (9, 3, 3, Format.ROUND_ROBIN, 7),
    ],
)
def test_the_optimiser_reaches_the_exhaustive_optimum(n, low, high, format, seed):
    players = NAMES[:n]
    rng = random.Random(seed)
    first = seat_round(players, [], low=low, high=high, advantage=ADV, format=format, seed=seed)
    points = dict.fromkeys(players, 0)
    for table in first.round.tables:
        for place, p in enumerate(rng.sample(table, len(table))):
            points[p] = len(table) - 1 - place  # one point per player beaten
    used = points if format is Format.SWISS else None
    weights = Weights() if used else Weights(score_spread=0.0)
    second = seat_round(
        players,
        [first.round],
        low=low,
        high=high,
        advantage=ADV,
        format=format,
        points=used,
        seed=seed,
    )
    sizes = table_sizes(n, low, high).sizes
    optimum = _exhaustive_optimum(players, [first.round], sizes, used, weights)
    assert second.cost.total == pytest.approx(optimum, abs=1e-6)
    assert second.stopped_by == "steps"


def test_the_exhaustive_shortcut_agrees_with_brute_force():
    """The per-table shortcut of ``_exhaustive_optimum`` is exact (checked where both run)."""
    players = NAMES[:7]
    history = [Round((tuple(players[:4]), tuple(players[4:])))]
    points = {p: i % 3 for i, p in enumerate(players)}
    sizes = (4, 3)
    brute = min(
        objective(r, history, advantage=ADV, points=points).total
        for r in _rounds_of(players, sizes)
    )
    best = math.inf
    for group in itertools.combinations(players, 4):
        rest = tuple(p for p in players if p not in group)
        tables = [group, rest]
        base = objective(Round(tuple(tables)), history, advantage=ADV, points=points).total
        total = -base
        for i, table in enumerate(tables):
            total += min(
                objective(
                    Round((*tuple(tables[:i]), o, *tuple(tables[i + 1 :]))),
                    history,
                    advantage=ADV,
                    points=points,
                ).total
                for o in itertools.permutations(table)
            )
        best = min(best, total)
    assert best == pytest.approx(brute)


# Valid, reproducible rounds -----------------------------------------------------------------


def _play(plan, points, rng):
    for table in plan.round.tables:
        for place, p in enumerate(rng.sample(table, len(table))):
            points[p] = points.get(p, 0) + len(table) - 1 - place


@pytest.mark.parametrize("format", list(Format))
@pytest.mark.parametrize(("n", "low", "high"), [(13, 3, 5), (11, 4, 6), (9, 5, 8)])
def test_every_round_is_valid(format, n, low, high):
    players = [f"p{i:02d}" for i in range(n)]
    history, points, rng = [], {}, random.Random(n)
    for r in range(4):
        fmt = format if format is not Format.FINAL or r == 3 else Format.SWISS
        plan = seat_round(
            players,
            history,
            low=low,
            high=high,
            advantage=ADV,
            format=fmt,
            points=points,
            seed=r,
            steps=3_000,
        )
        check_round(plan.round, players, low, high)
        seated = plan.round.seated()
        assert sorted(seated + list(plan.round.byes)) == sorted(players)
        split = table_sizes(n - (high if fmt is Format.FINAL else 0), low, high)
        assert len(plan.round.byes) == split.byes
        assert len(plan.reasons) == len(plan.round.tables)
        assert len(plan.bye_reasons) == len(plan.round.byes)
        history.append(plan.round)
        _play(plan, points, rng)


def test_check_round_refuses_broken_rounds():
    players = ["a", "b", "c", "d"]
    cases = {
        "seated_twice": Round((("a", "b", "a"),), ("d",)),
        "not_seated": Round((("a", "b", "c"),)),
        "unknown_player": Round((("a", "b", "c", "x"),), ("d",)),
        "bad_table_size": Round((("a", "b"),), ("c", "d")),
    }
    for code, proposed in cases.items():
        with pytest.raises(SeatingError) as error:
            check_round(proposed, players, 3, 4)
        assert error.value.code == code


def test_the_same_seed_gives_the_same_plan_and_another_seed_may_differ():
    players = [f"p{i:02d}" for i in range(24)]
    history = [
        seat_round(
            players, [], low=3, high=5, advantage=ADV, format=Format.ROUND_ROBIN, seed=9
        ).round
    ]
    plans = [
        seat_round(
            players, history, low=3, high=5, advantage=ADV, format=Format.ROUND_ROBIN, seed=s
        )
        for s in (1, 1, 2)
    ]
    assert plans[0] == plans[1]
    assert plans[0].round != plans[2].round


def test_late_arrivals_sit_down_and_dropped_players_do_not():
    first = seat_round(NAMES[:8], [], low=4, high=4, advantage=ADV, seed=1)
    now = [p for p in NAMES[:8] if p != "ben"] + ["kim"]
    plan = seat_round(now, [first.round], low=4, high=4, advantage=ADV, seed=1)
    seated = plan.round.seated()
    assert "ben" not in seated
    assert "kim" in seated
    assert sorted(seated) == sorted(now)


def test_byes_rotate_through_the_event():
    players = NAMES[:9]  # a 5-8 player game: one player sits out each round
    history: list[Round] = []
    for r in range(9):
        plan = seat_round(players, history, low=5, high=8, advantage=ADV, seed=r, steps=500)
        history.append(plan.round)
        assert len(plan.round.byes) == 1
    assert sorted(p for r in history for p in r.byes) == sorted(players)


def test_random_format_keeps_the_draw_and_balances_seats_only():
    players = NAMES[:12]
    history = [Round((tuple(NAMES[:4]), tuple(NAMES[4:8]), tuple(NAMES[8:12])))]
    plan = seat_round(players, history, low=4, high=4, advantage=ADV, format=Format.RANDOM, seed=3)
    unsorted = seat_round(
        players, history, low=4, high=4, advantage=ADV, format=Format.RANDOM, seed=3, steps=0
    )
    # the same draw of tables, only the seat order differs
    assert {frozenset(t) for t in plan.round.tables} == {
        frozenset(t) for t in unsorted.round.tables
    }
    assert plan.cost.parts["seat_balance"] <= unsorted.cost.parts["seat_balance"]


def test_the_final_puts_the_leaders_at_the_top_table():
    players = NAMES[:12]
    points = {p: 12 - i for i, p in enumerate(players)}  # ana 12, ben 11, ...
    points["fay"] = points["eve"]  # eve and fay tied for the last place at the top
    plan = seat_round(
        players, [], low=3, high=5, advantage=ADV, format=Format.FINAL, points=points, seed=4
    )
    top = plan.round.tables[0]
    assert set(top) >= {"ana", "ben", "cyd", "dan"}
    assert len(top) == 5
    assert len({"eve", "fay"} & set(top)) == 1
    assert "The top table: the 5 leaders on points" in plan.reasons[0]
    assert "tied on 8 points; the draw took" in plan.reasons[0]


# Reasons and hand swaps ----------------------------------------------------------------------


def _only_two_on_six():
    history = [Round((("ana", "ben", "cyd", "dan"), ("eve", "fay", "gus", "hal")))]
    points = dict.fromkeys(NAMES[:8], 3)
    points["ana"] = points["ben"] = 6
    return history, points


def test_a_repeat_is_told_with_its_real_cause():
    history, points = _only_two_on_six()
    plan = seat_round(NAMES[:8], history, low=4, high=4, advantage=ADV, points=points, seed=2)
    (together,) = [i for i, t in enumerate(plan.round.tables) if {"ana", "ben"} <= set(t)]
    reason = plan.reasons[together]
    pair = re.search(r"(ana and ben|ben and ana) meet for the 2nd time ([^:]*):", reason)
    assert pair, reason
    assert pair.group(2) == "because they are the only two on 6 points"
    # the stated price is the real price of that swap
    cost = re.search(
        r"the cheapest swap that parts them, (\w+) for (\w+) of table \d, would add ([\d.]+)",
        reason[pair.end() :],
    )
    change = swap_change(
        plan.round, cost.group(1), cost.group(2), history, advantage=ADV, points=points
    )
    assert change.delta == pytest.approx(float(cost.group(3)), abs=0.05)
    assert change.after.parts["score_spread"] > change.before.parts["score_spread"]


def test_seat_sentences_name_the_real_edges():
    history, points = _only_two_on_six()
    plan = seat_round(NAMES[:8], history, low=4, high=4, advantage=ADV, points=points, seed=2)
    edge = {p: 100 * ADV[4][s] for t in history[0].tables for s, p in enumerate(t)}
    for table, reason in zip(plan.round.tables, plan.reasons, strict=True):
        said = re.search(
            r"Seat 1, the best seat \(\+4\.0 points of win share\), goes to "
            r"(\w+), whose seats so far add up to ([-+][\d.]+)",
            reason,
        )
        assert said, reason
        assert said.group(1) == table[0]
        assert float(said.group(2)) == pytest.approx(edge[table[0]])


def test_first_round_reasons_say_nobody_has_met():
    plan = seat_round(NAMES[:6], [], low=3, high=3, advantage=ADV, seed=0)
    assert all("Nobody has met yet" in r for r in plan.reasons)


def test_a_hand_swap_shows_what_it_costs():
    history, points = _only_two_on_six()
    plan = seat_round(NAMES[:8], history, low=4, high=4, advantage=ADV, points=points, seed=2)
    table = next(t for t in plan.round.tables if "ana" in t)
    other = next(t for t in plan.round.tables if "ana" not in t)
    change = swap_change(plan.round, "ana", other[0], history, advantage=ADV, points=points)
    assert change.round == swap_players(plan.round, "ana", other[0])
    assert change.before == objective(plan.round, history, advantage=ADV, points=points)
    assert change.delta == pytest.approx(change.after.total - change.before.total)
    assert change.delta >= 0  # the optimiser left no single swap that helps
    assert "score_spread" in change.changed
    for part in PARTS:
        moved = not math.isclose(change.before.parts[part], change.after.parts[part])
        assert (part in change.changed) == moved
    sentence = describe_swap(change, "ana", other[0])
    assert sentence.startswith(f"Swapping ana and {other[0]} adds")
    assert "score spread" in sentence
    # a swap within one table changes no meeting
    inside = swap_change(plan.round, table[0], table[1], history, advantage=ADV, points=points)
    assert "repeat" not in inside.changed
    assert "score_spread" not in inside.changed


def test_a_bye_is_explained():
    plan = seat_round(NAMES[:9], [], low=4, high=4, advantage=ADV, seed=5)
    (bye,) = plan.round.byes
    (reason,) = plan.bye_reasons
    assert reason.startswith(f"{bye} sits out: 9 players do not fit tables of 4 to 4, so 1")


def test_a_player_who_has_met_everyone_is_told_so():
    history = [Round((("ana", "ben", "cyd", "dan"),))]
    plan = seat_round(NAMES[:4], history, low=4, high=4, advantage=ADV, seed=1)
    assert "has already met everyone seated this round" in plan.reasons[0]


def test_a_time_limit_cuts_the_search_and_says_so():
    players = NAMES[:12]
    plan = seat_round(players, [], low=3, high=5, advantage=ADV, seed=1, time_limit=0.0)
    assert plan.stopped_by == "time"
    assert plan.steps == 0
    check_round(plan.round, players, 3, 5)  # still a valid round: the descent still runs


def test_the_final_top_table_leaves_the_others_seatable():
    """7 players of a 3-5 game: a top table of 5 would leave 2 sitting out; 4 and 3 seat all."""
    players = NAMES[:7]
    points = {p: 7 - i for i, p in enumerate(players)}
    plan = seat_round(
        players, [], low=3, high=5, advantage=ADV, format=Format.FINAL, points=points, seed=1
    )
    assert plan.round.byes == ()
    assert set(plan.round.tables[0]) == {"ana", "ben", "cyd", "dan"}
    assert [len(t) for t in plan.round.tables] == [4, 3]


def test_a_repeat_at_the_top_table_is_put_down_to_points():
    history = [Round((("ana", "ben", "cyd"), ("dan", "eve", "fay")))]
    points = {"ana": 9, "ben": 8, "cyd": 7, "dan": 1, "eve": 1, "fay": 0}
    plan = seat_round(
        NAMES[:6], history, low=3, high=3, advantage=ADV, format=Format.FINAL, points=points
    )
    assert set(plan.round.tables[0]) == {"ana", "ben", "cyd"}
    reason = plan.reasons[0]
    assert "Meeting again, as points alone decide the top table:" in reason
    for a, b in (("ana", "ben"), ("ana", "cyd"), ("ben", "cyd")):
        assert f"{a} and {b} (2nd time)" in reason or f"{b} and {a} (2nd time)" in reason
    sentence = reason.split("Meeting again")[1].split(". ")[0]
    assert sentence.count("(2nd time)") == 3, "one sentence names every pair, once"
