"""Gift Economy's options (house rules): each value played, refused values, the metadata.

Rulebook: seeds/003_d4eedf21fdf1b0fe.txt. The options, the sentences they
interpret and why their defaults were chosen are in docs/rules/gift_economy.md,
"Options (house rules)". The ruling of issue 14: how hands rank when the deck
runs out and nobody holds exactly 12 of each resource (``ranking``); the default
``closeness`` is the ranking used before options existed, so old records need no
legacy values. The figures behind it come from bench/gift_economy_ranking.py.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from games.base import InvalidSetup, Option
from games.gift_economy import ENGINE
from games.gift_economy.cards import (
    CAPPED,
    CARDS,
    CLOSENESS,
    CLOSENESS_FLOORED,
    EXACT,
    GOAL_ONLY,
    RANKINGS,
    SPECIALS,
    totals,
)
from games.gift_economy.options import END_OF_GAME
from games.gift_economy.state import State
from games.play import BOTS, self_play
from tests.games.conformance import check_game
from tests.games.test_gift_economy import arrange

E = ENGINE
RULEBOOK = Path("/work/shared/seeds/003_d4eedf21fdf1b0fe.txt")
NAMES = ["start_player", "ranking"]
SPECIAL_CARDS = sorted(SPECIALS)

# Hands used by the ranking tests (points per resource: food, tools, medicine, luxuries).
BIG_PILE = ["ge-food-6", "ge-food-9", "ge-food-10"]  # 25/0/0/0
NOTHING: list[str] = []  # 0/0/0/0, no cards
NEAR_MISS = [  # 11/11/11/11, 8 cards
    *("ge-food-1", "ge-food-10"),
    *("ge-tools-1", "ge-tools-10"),
    *("ge-medicine-1", "ge-medicine-10"),
    *("ge-luxuries-1", "ge-luxuries-10"),
]
ONE_EXACT = ["ge-food-4", "ge-food-8", "ge-tools-2", "ge-tools-9"]  # 12/11/0/0


def option(name: str) -> Option:
    return next(o for o in E.options if o.name == name)


def final(hands: list[list[str]], ranking: str, reason: str = "deck_exhausted") -> State:
    """A finished game whose seats hold ``hands``: only the ranking is under test."""
    state = E.setup(len(hands), {"ranking": ranking})
    state = E.apply(state, {"by": "chance", "do": "shuffle", "deck": list(CARDS)})
    done = state.copy()
    done.hands = tuple(tuple(h) for h in hands)
    done.phase, done.end_reason = "over", reason
    return done


def skip_to_the_end(state: State) -> State:
    """Nobody trades nor plays a Special Event card: turns pass until a draw finds no card."""
    while not E.is_over(state):
        seat = E.to_move(state)[0]
        state = E.apply(state, {"by": seat, "do": "skip_trade"})
        if not E.is_over(state):
            state = E.apply(state, {"by": seat, "do": "end_turn"})
    return state


# -- metadata and refusals -------------------------------------------------------------


def test_options_metadata_is_complete():
    """Every option is typed and documented; the ruling quotes the end-of-game text:
    "The game ends after the deck is exhausted OR someone has EXACTLY 12 points of
    resources in each of the four resource types. If there is a tie, the person with
    the most cards wins."
    """
    assert [o.name for o in E.options] == NAMES
    text = " ".join(RULEBOOK.read_text().split())
    for o in E.options:
        assert isinstance(o, Option)
        assert o.description, o.name
        assert o.why, o.name
        assert " ".join(o.rulebook.split()) in text, f"{o.name}: not quoted exactly"
        o.check(o.default)
        data = o.to_json()
        assert data["rulebook"] == o.rulebook
        assert data["why_default"] == o.why
    ranking = option("ranking")
    assert ranking.rulebook == END_OF_GAME
    assert ranking.rulebook in RULEBOOK.read_text()
    assert (ranking.kind, ranking.default) == ("choice", CLOSENESS)
    assert ranking.choices == RANKINGS == (CLOSENESS, CLOSENESS_FLOORED, CAPPED, EXACT, GOAL_ONLY)
    for value in RANKINGS:
        assert value in ranking.description, value
    start = option("start_player")
    assert (start.kind, start.default, start.low, start.high) == ("int", 0, 0, E.max_players - 1)
    assert start.rulebook == ""  # a set-up choice made at the table


def test_the_rules_doc_lists_every_option_with_its_default_and_sentence():
    """docs/rules/gift_economy.md has the table of options the API lists."""
    doc = (Path(__file__).resolve().parents[2] / "docs/rules/gift_economy.md").read_text()
    table = doc.split("## Options (house rules)")[1].split("###")[0]
    for o in E.options:
        row = next(line for line in table.splitlines() if line.startswith(f"| `{o.name}` |"))
        assert f"| `{o.default}` |" in row, o.name
        assert o.rulebook in row, o.name
        for value in o.choices:
            assert f"`{value}`" in row, value


def test_unknown_option_is_refused_naming_it():
    """Only the options listed in docs/rules/gift_economy.md exist."""
    with pytest.raises(InvalidSetup) as info:
        E.setup(3, {"scoring": "closeness"})
    assert info.value.code == "unknown_option"
    assert info.value.detail["option"] == "scoring"


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"ranking": "nearest"}, "ranking"),
        ({"ranking": "Closeness"}, "ranking"),
        ({"ranking": None}, "ranking"),
        ({"ranking": 1}, "ranking"),
        ({"ranking": ["closeness"]}, "ranking"),
        ({"start_player": -1}, "start_player"),
        ({"start_player": 6}, "start_player"),
        ({"start_player": 3}, "start_player"),  # 3 players: seats 0-2
        ({"start_player": "1"}, "start_player"),
        ({"start_player": True}, "start_player"),
        ({"start_player": 1.0}, "start_player"),
        ({"start_player": None}, "start_player"),
    ],
)
def test_bad_values_are_refused_naming_the_option(options, name):
    """A value outside the option's allowed values is a bad_option naming it."""
    with pytest.raises(InvalidSetup) as info:
        E.setup(3, options)
    assert info.value.code == "bad_option"
    assert info.value.detail["option"] == name
    assert name in info.value.message


def test_no_options_means_the_defaults():
    """A record without options is played under the defaults (closeness, seat 0 starts)."""
    for options in (None, {}, {"start_player": 0, "ranking": CLOSENESS}):
        state = E.setup(4, options)
        assert (state.start, state.ranking) == (0, CLOSENESS)
        assert E.view(state, 1)["ranking"] == CLOSENESS


# -- start_player ------------------------------------------------------------------------


@pytest.mark.parametrize("start", [0, 2])
def test_start_player_is_dealt_first_and_takes_the_first_turn(start):
    """Rulebook: "Each player is dealt 6 cards. Play begins with the player whose birthday is
    farthest away." The table finds that player; the option records the seat."""
    state = E.setup(4, {"start_player": start})
    deck = arrange(4, [[], [], [], []], start=start)
    state = E.apply(state, {"by": "chance", "do": "shuffle", "deck": deck})
    assert deck[0] in state.hands[start]
    assert deck[1] in state.hands[(start + 1) % 4]
    assert [len(h) for h in state.hands] == [8 if s == start else 6 for s in range(4)]
    assert E.to_move(state) == [start]
    assert E.view(state, 1)["start_player"] == start


# -- ranking -----------------------------------------------------------------------------


def test_closeness_ranks_a_pile_of_25_below_an_empty_hand():
    """Rulebook: "To get EXACTLY 12 resource points of EACH resource." Under closeness (the
    default) 25 food is 13 points from 12, an empty pile 12: 25 scores -1, nothing 0."""
    result = E.result(final([BIG_PILE, NOTHING], CLOSENESS))
    assert result.scores == [-1, 0]
    assert result.ranks == [2, 1]
    assert result.winners == [1]


def test_closeness_floored_ties_the_pile_with_the_empty_hand_and_cards_decide():
    """Rulebook: "If there is a tie, the person with the most cards wins." Floored, a resource
    never scores below 0: the pile of 25 and nothing tie at 0, and 3 cards beat none."""
    result = E.result(final([BIG_PILE, NOTHING], CLOSENESS_FLOORED))
    assert result.scores == [0, 0]
    assert result.winners == [0]
    # below 24 points the floor changes nothing: 23 food is 11 away, as under closeness
    pile_of_23 = ["ge-food-4", "ge-food-9", "ge-food-10"]
    assert E.result(final([pile_of_23, NOTHING], CLOSENESS_FLOORED)).scores == [1, 0]
    assert E.result(final([pile_of_23, NOTHING], CLOSENESS)).scores == [1, 0]


def test_capped_counts_points_up_to_12_and_ignores_the_rest():
    """Rulebook: "To get EXACTLY 12 resource points": capped counts the points towards 12, so the
    pile of 25 scores 12 and 13 food no less than 12 food (the most cards then decide),
    where closeness prefers exactly 12."""
    result = E.result(final([BIG_PILE, NOTHING], CAPPED))
    assert result.scores == [12, 0]
    assert result.winners == [0]
    thirteen = ["ge-food-3", "ge-food-10"]  # 13 food, 2 cards
    twelve = ["ge-food-1", "ge-food-5", "ge-food-6"]  # 12 food, 3 cards
    assert totals(twelve) == [12, 0, 0, 0]
    capped = E.result(final([thirteen, twelve], CAPPED))
    assert capped.scores == [12, 12]
    assert capped.winners == [1]  # equal scores: the most cards
    assert E.result(final([thirteen, twelve], CLOSENESS)).scores == [11, 12]
    # a hand that goes over 12 still loses to the goal itself
    over = [*NEAR_MISS, "ge-food-2", "ge-tools-2", "ge-medicine-2", "ge-luxuries-2"]  # 13 x 4
    goal = ["ge-food-3", "ge-food-9", "ge-tools-3", "ge-tools-9", "ge-medicine-3",
            "ge-medicine-9", "ge-luxuries-3", "ge-luxuries-9"]  # fmt: skip
    result = E.result(final([over, goal], CAPPED, reason="goal"))
    assert result.scores == [48, 48]
    assert result.winners == [1]  # the goal first, though seat 0 holds more cards


def test_exact_counts_only_resources_held_at_exactly_12():
    """Rulebook: "EXACTLY 12 resource points of EACH resource": under exact a resource scores 12
    only at exactly 12, so one resource done beats four resources one point short,
    which closeness ranks far higher."""
    exact = E.result(final([ONE_EXACT, NEAR_MISS], EXACT))
    assert exact.scores == [12, 0]
    assert exact.winners == [0]
    closeness = E.result(final([ONE_EXACT, NEAR_MISS], CLOSENESS))
    assert closeness.scores == [23, 44]
    assert closeness.winners == [1]


def test_goal_only_ties_everyone_who_missed_and_the_most_cards_win():
    """Rulebook: "If there is a tie, the person with the most cards wins." Under goal_only nobody
    who missed 12/12/12/12 scores, so the deck running out is a tie of all: nine Special
    Event cards beat four resources one point short."""
    junk = SPECIAL_CARDS[:9]
    result = E.result(final([NEAR_MISS, junk], GOAL_ONLY))
    assert result.scores == [0, 0]
    assert result.winners == [1]
    assert E.result(final([NEAR_MISS, junk], CLOSENESS)).winners == [0]
    # equal cards too: the win is shared
    shared = E.result(final([NEAR_MISS, SPECIAL_CARDS[:8]], GOAL_ONLY))
    assert (shared.ranks, shared.winners) == ([1, 1], [0, 1])


@pytest.mark.parametrize("ranking", RANKINGS)
def test_the_goal_wins_under_every_ranking(ranking):
    """Rulebook: "The game ends after ... someone has EXACTLY 12 points of resources in each of the
    four resource types": that player wins, scoring 48, whatever the ranking."""
    goal = ["ge-food-2", "ge-food-10", "ge-tools-2", "ge-tools-10", "ge-medicine-2",
            "ge-medicine-10", "ge-luxuries-2", "ge-luxuries-10"]  # fmt: skip
    others = [*BIG_PILE, *SPECIAL_CARDS]  # more cards
    result = E.result(final([others, goal], ranking, reason="goal"))
    assert result.winners == [1]
    assert result.scores[1] == 48


def six_player_deck() -> list[str]:
    """Six players who never trade: seat 0 ends with 27 tools and 10 cards, seat 2 with
    25 food and 8 cards; everyone else shares the other resource cards."""
    seat0 = ["ge-tools-8", "ge-tools-9", "ge-tools-10", *SPECIAL_CARDS[:7]]
    seat2 = ["ge-food-6", "ge-food-9", "ge-food-10", *SPECIAL_CARDS[7:]]
    rest = [c for c in CARDS if c not in seat0 and c not in seat2]
    seats = [seat0, rest[:10], seat2, rest[10:18], rest[18:26], rest[26:34]]
    return arrange(6, seats)


@pytest.mark.parametrize(
    ("ranking", "pile_above"),
    [
        (CLOSENESS, True),  # 25 food scores -1, 27 tools -3
        (CLOSENESS_FLOORED, False),  # both 0: seat 0's 10 cards beat seat 2's 8
        (CAPPED, False),  # both 12: the cards decide
        (EXACT, False),  # both 0
        (GOAL_ONLY, False),  # both 0
    ],
)
def test_a_played_game_ranks_by_the_tables_option(ranking, pile_above):
    """Rulebook: "The game ends after the deck is exhausted ... If there is a tie, the person with
    the most cards wins." The same game, played through, ranks seat 2 (25 food) above
    seat 0 (27 tools) only under closeness; the others tie them and count cards."""
    state = E.setup(6, {"ranking": ranking})
    state = E.apply(state, {"by": "chance", "do": "shuffle", "deck": six_player_deck()})
    state = skip_to_the_end(state)
    assert state.end_reason == "deck_exhausted"
    assert totals(state.hands[0]) == [0, 27, 0, 0]
    assert totals(state.hands[2]) == [25, 0, 0, 0]
    result = E.result(state)
    assert (result.ranks[2] < result.ranks[0]) is pile_above
    assert E.view(state, None)["ranking"] == ranking
    assert [p["score"] for p in E.view(state, 3)["players"]] == result.scores


def test_the_end_is_told_with_the_cards_when_they_decide():
    """Rulebook: "If there is a tie, the person with the most cards wins": the closing sentence
    says so, and under goal_only names the cards instead of a score."""
    state = E.setup(6, {"ranking": GOAL_ONLY})
    state = E.apply(state, {"by": "chance", "do": "shuffle", "deck": six_player_deck()})
    while True:
        seat = E.to_move(state)[0]
        state = E.apply(state, {"by": seat, "do": "skip_trade"})
        last = {"by": seat, "do": "end_turn"}
        after = E.apply(state, last)
        if E.is_over(after):
            break
        state = after
    text = E.describe(last, None, before=state, after=after)
    assert (
        "the deck is empty, so the game ends and {p0} and {p1} share the win with 10 cards "
        "each; final scores (48 for exactly 12 points of each resource, else 0; 48 is the best): "
    ) in text
    # one seat ahead on cards alone: the sentence names the cards after the score
    before = final([[*BIG_PILE, "ge-king-clubs"], ["ge-king-hearts"]], CLOSENESS_FLOORED)
    before.phase, before.end_reason, before.top = "special", None, len(before.deck)
    event = {"by": 0, "do": "end_turn"}
    after = E.apply(before, event)  # the next turn's draw finds the deck empty
    assert after.end_reason == "deck_exhausted"
    assert E.describe(event, None, before=before, after=after).endswith(
        "the deck is empty, so the game ends and {p0} wins with 0 points and the most cards "
        "(4 cards); final scores (each resource scores 12 less its distance from 12 points, "
        "at least 0; 48 is the best): {p0} 0 (food 25, tools 0, medicine 0, luxuries 0), "
        "{p1} 0 (food 0, tools 0, medicine 0, luxuries 0)."
    )


def test_the_ranking_does_not_change_play():
    """The option only ranks the end: the same seeded game is played the same way under
    every value (so one game can be ranked by all of them, as the measurements do)."""
    games = []
    for ranking in RANKINGS:
        events, _ = self_play(
            E, 4, options={"ranking": ranking}, rng=random.Random(7), bots=[BOTS["greedy"]] * 4
        )
        games.append(events)
    assert all(g == games[0] for g in games)


@pytest.mark.parametrize("bot", ["greedy", "random"])
@pytest.mark.parametrize(
    "options",
    [{"ranking": r} for r in RANKINGS] + [{"start_player": 0}, {"start_player": 4}],
    ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()),
)
def test_bots_play_conforming_games_under_every_value(options, bot):
    """Both bots finish legal, conserving, secret-keeping games under every option value."""
    n = 5
    rng = random.Random(11)
    events, _ = self_play(E, n, options=options, rng=rng, bots=[BOTS[bot]] * n)
    check_game(E, n, events, seed=11, options=options)
