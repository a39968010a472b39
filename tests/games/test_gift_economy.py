"""Gift Economy: the rulebook's examples, each rule's edge cases, secrecy, conformance."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import IllegalEvent, InvalidSetup
from games.gift_economy import ENGINE
from games.gift_economy.cards import CARDS, counter_range
from games.play import BOTS, self_play
from tests.games.conformance import check_game, play_game

E = ENGINE


# -- helpers ---------------------------------------------------------------------


def arrange(n: int, seats: list[list[str]], start: int = 0) -> list[str]:
    """A deck order giving seat s the cards ``seats[s]``: 6 dealt, then its turn draws.

    Assumes every turn draws two cards; slots not covered come from the unused
    cards in canonical order.
    """
    used = {c for cards in seats for c in cards}
    assert len(used) == sum(len(c) for c in seats)
    filler = [c for c in CARDS if c not in used]
    queues = [list(cards) for cards in seats]

    def take(seat: int) -> str:
        return queues[seat].pop(0) if queues[seat] else filler.pop(0)

    deck = [take((start + i) % n) for i in range(6 * n)]
    turn = 0
    while any(queues):
        seat = (start + turn) % n
        deck += [take(seat), take(seat)]
        turn += 1
    return deck + filler


def begin(n: int, seats: list[list[str]], options: dict | None = None):
    start = (options or {}).get("start_player", 0)
    state = E.setup(n, options)
    return E.apply(state, {"by": "chance", "do": "shuffle", "deck": arrange(n, seats, start)})


def play(state, *events):
    for event in events:
        state = E.apply(state, event)
    return state


def refused(state, event, code: str) -> None:
    with pytest.raises(IllegalEvent) as info:
        E.apply(state, event)
    assert info.value.code == code, info.value


def hand(state, seat: int) -> set[str]:
    return set(state.hands[seat])


def counters_offered(state, seat: int) -> list[list[str]]:
    return sorted(e["cards"] for e in E.legal_events(state, seat) if e["do"] == "counter")


# -- setup -------------------------------------------------------------------------


def test_deal_six_each_and_the_start_player_draws_two():
    state = E.setup(3, {})
    assert E.to_move(state) == ["chance"]
    deck = arrange(3, [[], [], []])
    state = E.apply(state, {"by": "chance", "do": "shuffle", "deck": deck})
    assert [len(h) for h in state.hands] == [8, 6, 6]
    assert set(deck[0:18:3]) | set(deck[18:20]) == hand(state, 0)
    assert set(deck[1:18:3]) == hand(state, 1)
    view = E.view(state, 1)
    assert view["deck_count"] == 52 - 18 - 2
    assert view["phase"] == "trade"
    assert E.to_move(state) == [0]


def test_start_player_option_deals_and_plays_first():
    state = E.setup(4, {"start_player": 2})
    deck = arrange(4, [[], [], [], []], start=2)
    state = E.apply(state, {"by": "chance", "do": "shuffle", "deck": deck})
    assert deck[0] in hand(state, 2)
    assert deck[1] in hand(state, 3)
    assert [len(h) for h in state.hands] == [6, 6, 8, 6]
    assert E.to_move(state) == [2]
    assert E.view(state, 0)["start_player"] == 2


@pytest.mark.parametrize("value", [4, -1, True, "1", None])
def test_bad_start_player_refused(value):
    with pytest.raises(InvalidSetup) as info:
        E.setup(4, {"start_player": value})
    assert info.value.code == "bad_option"


def test_player_counts():
    for n in (1, 7):
        with pytest.raises(InvalidSetup):
            E.setup(n, {})
    assert E.num_players(E.setup(6, {})) == 6


def test_bad_shuffles_refused():
    state = E.setup(2, {})
    deck = list(CARDS)
    refused(state, {"by": "chance", "do": "shuffle", "deck": deck[:-1]}, "bad_deck")
    refused(state, {"by": "chance", "do": "shuffle", "deck": [*deck[:-1], deck[0]]}, "bad_deck")
    refused(state, {"by": "chance", "do": "shuffle", "deck": "x"}, "malformed_event")
    refused(state, {"by": "chance", "do": "shuffle"}, "malformed_event")


# -- trading: the rulebook's potlatch example ----------------------------------------

JOHN = ["ge-luxuries-6", "ge-food-1", "ge-food-2", "ge-tools-1", "ge-tools-2", "ge-medicine-3"]
JOHN_DRAWS = ["ge-tools-3", "ge-medicine-4"]
OTHER = ["ge-food-3", "ge-food-7", "ge-tools-8", "ge-luxuries-9", "ge-medicine-1", "ge-medicine-2"]


def test_counter_range_numbers():
    assert counter_range(6) == (7, 9)
    assert counter_range(10) == (11, 15)
    assert counter_range(2) == (3, 3)
    assert counter_range(7) == (8, 10)


def test_potlatch_example_six_luxuries():
    """John offers 6 luxuries: 7 to 9 points of any resource, not 10."""
    state = begin(2, [JOHN + JOHN_DRAWS, OTHER])
    state = play(state, {"by": 0, "do": "offer", "cards": ["ge-luxuries-6"]})
    assert E.to_move(state) == [1]
    offer = E.view(state, 1)["offer"]
    assert (offer["points"], offer["counter_min"], offer["counter_max"]) == (6, 7, 9)
    # 7 food, 8 tools, 9 luxuries (the same resource is fine); 10 food is not.
    assert counters_offered(state, 1) == [["ge-food-7"], ["ge-luxuries-9"], ["ge-tools-8"]]
    for cards in (["ge-food-7"], ["ge-tools-8"], ["ge-luxuries-9"]):
        E.apply(state, {"by": 1, "do": "counter", "cards": cards})
    refused(state, {"by": 1, "do": "counter", "cards": ["ge-food-3", "ge-food-7"]}, "potlatch")
    refused(
        state,
        {"by": 1, "do": "counter", "cards": ["ge-medicine-1", "ge-medicine-2"]},
        "counter_too_small",
    )
    refused(
        state,
        {"by": 1, "do": "counter", "cards": ["ge-food-7", "ge-medicine-2"]},
        "mixed_resources",
    )


def test_potlatch_example_ten_points():
    """Offering 10 points must get at least 11 but no more than 15 back."""
    john = ["ge-luxuries-10", "ge-food-1", "ge-food-2", "ge-tools-1", "ge-tools-2", "ge-medicine-3"]
    other = ["ge-food-5", "ge-food-6", "ge-tools-7", "ge-tools-8", "ge-medicine-7", "ge-medicine-9"]
    state = begin(2, [john, other])
    state = play(state, {"by": 0, "do": "offer", "cards": ["ge-luxuries-10"]})
    assert counters_offered(state, 1) == [["ge-food-5", "ge-food-6"], ["ge-tools-7", "ge-tools-8"]]
    refused(
        state, {"by": 1, "do": "counter", "cards": ["ge-medicine-7", "ge-medicine-9"]}, "potlatch"
    )
    refused(state, {"by": 1, "do": "counter", "cards": ["ge-medicine-9"]}, "counter_too_small")
    after = play(state, {"by": 1, "do": "counter", "cards": ["ge-tools-7", "ge-tools-8"]})
    assert E.to_move(after) == [0]
    assert E.view(after, 0)["counters"] == [
        {"seat": 1, "cards": ["ge-tools-7", "ge-tools-8"], "points": 15}
    ]


def test_offer_refusals():
    state = begin(2, [[*JOHN[:5], "ge-king-hearts"], OTHER])
    refused(state, {"by": 0, "do": "offer", "cards": ["ge-food-1"]}, "offer_too_small")
    refused(
        state, {"by": 0, "do": "offer", "cards": ["ge-food-1", "ge-tools-1"]}, "mixed_resources"
    )
    refused(state, {"by": 0, "do": "offer", "cards": ["ge-king-hearts"]}, "not_a_resource")
    refused(
        state, {"by": 0, "do": "offer", "cards": ["ge-food-2", "ge-food-1"]}, "cards_not_in_order"
    )
    refused(state, {"by": 0, "do": "offer", "cards": ["ge-food-1", "ge-food-1"]}, "duplicate_card")
    refused(state, {"by": 0, "do": "offer", "cards": ["ge-food-7"]}, "card_not_in_hand")
    refused(state, {"by": 0, "do": "offer", "cards": []}, "malformed_event")
    refused(state, {"by": 0, "do": "offer", "cards": ["ge-food-2"], "x": 1}, "malformed_event")
    refused(state, {"by": 0, "do": "decline"}, "wrong_phase")
    refused(state, {"by": 0, "do": "end_turn"}, "wrong_phase")
    refused(state, {"by": 1, "do": "offer", "cards": ["ge-food-3"]}, "not_your_turn")
    # Two food points (1 + 1 is impossible, 2 alone is enough) is the smallest deal.
    assert {"by": 0, "do": "offer", "cards": ["ge-food-2"]} in E.legal_events(state, 0)
    assert {"by": 0, "do": "offer", "cards": ["ge-food-1"]} not in E.legal_events(state, 0)


def test_accepted_deal_swaps_the_cards_and_ends_trading():
    state = begin(3, [JOHN + JOHN_DRAWS, OTHER, []])
    state = play(
        state,
        {"by": 0, "do": "offer", "cards": ["ge-luxuries-6"]},
        {"by": 1, "do": "counter", "cards": ["ge-tools-8"]},
        {"by": 2, "do": "decline"},
    )
    assert E.legal_events(state, 0) == [
        {"by": 0, "do": "accept", "seat": 1},
        {"by": 0, "do": "reject"},
    ]
    refused(state, {"by": 0, "do": "accept", "seat": 2}, "no_such_counter")
    state = play(state, {"by": 0, "do": "accept", "seat": 1})
    assert "ge-tools-8" in hand(state, 0)
    assert "ge-luxuries-6" not in hand(state, 0)
    assert "ge-luxuries-6" in hand(state, 1)
    assert "ge-tools-8" not in hand(state, 1)
    assert state.phase == "special"
    refused(state, {"by": 0, "do": "offer", "cards": ["ge-food-2"]}, "wrong_phase")


def test_one_more_deal_after_a_failed_one_and_no_third():
    state = begin(3, [JOHN + JOHN_DRAWS, OTHER, []])
    state = play(
        state,
        {"by": 0, "do": "offer", "cards": ["ge-luxuries-6"]},
        {"by": 1, "do": "decline"},
        {"by": 2, "do": "decline"},
    )
    # Nobody countered: no accept step, the second deal may be offered.
    assert state.phase == "trade"
    assert E.view(state, 0)["deals_left"] == 1
    state = play(
        state,
        {"by": 0, "do": "offer", "cards": ["ge-food-2"]},  # 2 points: counter exactly 3
        {"by": 1, "do": "counter", "cards": ["ge-food-3"]},
        {"by": 2, "do": "decline"},
        {"by": 0, "do": "reject"},
    )
    assert state.phase == "special"
    refused(state, {"by": 0, "do": "offer", "cards": ["ge-luxuries-6"]}, "wrong_phase")
    assert hand(state, 1) >= {"ge-food-3"}


def test_counters_go_round_from_the_active_players_left():
    state = begin(4, [[], [], [], []], {"start_player": 2})
    offer = next(e for e in E.legal_events(state, 2) if e["do"] == "offer")
    state = play(state, offer)
    order = []
    while state.phase == "counter":
        order.append(E.to_move(state)[0])
        state = play(state, {"by": order[-1], "do": "decline"})
    assert order == [3, 0, 1]


# -- special events ----------------------------------------------------------------


def test_jack_of_clubs_every_player_passes_three_left():
    seats = [
        ["ge-jack-clubs", "ge-food-1", "ge-food-2", "ge-food-3", "ge-food-4", "ge-food-5"],
        ["ge-tools-1", "ge-tools-2", "ge-tools-3", "ge-tools-4", "ge-tools-5", "ge-tools-6"],
        [
            "ge-medicine-1",
            "ge-medicine-2",
            "ge-medicine-3",
            "ge-medicine-4",
            "ge-medicine-5",
            "ge-medicine-6",
        ],
    ]
    state = begin(3, seats)
    state = play(
        state,
        {"by": 0, "do": "skip_trade"},
        {"by": 0, "do": "play_special", "card": "ge-jack-clubs"},
    )
    assert state.phase == "choose"
    assert E.to_move(state) == [0, 1, 2]
    assert state.discard == ("ge-jack-clubs",)
    refused(state, {"by": 1, "do": "discard", "card": "ge-tools-1"}, "wrong_phase")
    refused(state, {"by": 1, "do": "pass_card", "card": "ge-food-1"}, "card_not_in_hand")
    for card in ("ge-tools-1", "ge-tools-2", "ge-tools-3"):
        state = play(state, {"by": 1, "do": "pass_card", "card": card})
    assert E.to_move(state) == [0, 2]
    refused(state, {"by": 1, "do": "pass_card", "card": "ge-tools-4"}, "not_your_turn")
    # seat 1's choice stays hidden from the others until everyone has chosen
    for seat in (0, 2):
        assert "ge-tools-1" not in json.dumps(E.view(state, seat))
        assert E.view(state, seat)["players"][1]["set_aside"] == 3
    for card in ("ge-food-1", "ge-food-2", "ge-food-3"):
        state = play(state, {"by": 0, "do": "pass_card", "card": card})
    for card in ("ge-medicine-1", "ge-medicine-2", "ge-medicine-3"):
        state = play(state, {"by": 2, "do": "pass_card", "card": card})
    # left = next seat: 0 -> 1, 1 -> 2, 2 -> 0; then seat 1's turn starts with a draw
    assert {"ge-medicine-1", "ge-medicine-2", "ge-medicine-3"} <= hand(state, 0)
    assert {"ge-food-1", "ge-food-2", "ge-food-3"} <= hand(state, 1)
    assert {"ge-tools-1", "ge-tools-2", "ge-tools-3"} <= hand(state, 2)
    assert [len(h) for h in state.hands] == [7, 8, 6]
    assert E.to_move(state) == [1]


def test_jack_of_hearts_two_right_and_short_hands_give_all():
    seats = [
        ["ge-jack-hearts", "ge-food-1", "ge-food-2", "ge-food-3", "ge-food-4", "ge-food-5"],
        [],
        [],
    ]
    state = begin(3, seats)
    state = play(
        state,
        {"by": 0, "do": "skip_trade"},
        {"by": 0, "do": "play_special", "card": "ge-jack-hearts"},
    )
    assert state.need == (2, 2, 2)
    state = play(
        state,
        {"by": 0, "do": "pass_card", "card": "ge-food-1"},
        {"by": 0, "do": "pass_card", "card": "ge-food-2"},
    )
    given_by_2 = sorted(state.hands[2])[:2]
    given_by_1 = sorted(state.hands[1])[:2]
    for seat, cards in ((1, given_by_1), (2, given_by_2)):
        for card in cards:
            state = play(state, {"by": seat, "do": "pass_card", "card": card})
    # right = previous seat: 0 -> 2, 1 -> 0, 2 -> 1
    assert {"ge-food-1", "ge-food-2"} <= hand(state, 2)
    assert set(given_by_1) <= hand(state, 0)
    assert set(given_by_2) <= hand(state, 1)


def test_queens_make_every_other_player_discard_one_of_their_choice():
    state = begin(3, [["ge-queen-hearts", "ge-food-1"], ["ge-tools-9"], ["ge-medicine-9"]])
    state = play(
        state,
        {"by": 0, "do": "skip_trade"},
        {"by": 0, "do": "play_special", "card": "ge-queen-hearts"},
    )
    assert E.to_move(state) == [1, 2]
    refused(state, {"by": 0, "do": "discard", "card": "ge-food-1"}, "not_your_turn")
    refused(state, {"by": 1, "do": "pass_card", "card": "ge-tools-9"}, "wrong_phase")
    state = play(state, {"by": 2, "do": "discard", "card": "ge-medicine-9"})
    assert "ge-medicine-9" not in json.dumps(E.view(state, 1))
    assert E.event_view({"by": 2, "do": "discard", "card": "ge-medicine-9"}, 1) == {
        "by": 2,
        "do": "discard",
        "hidden": True,
    }
    state = play(state, {"by": 1, "do": "discard", "card": "ge-tools-9"})
    # revealed together, in seat order
    assert state.discard == ("ge-queen-hearts", "ge-tools-9", "ge-medicine-9")
    assert [len(h) for h in state.hands] == [7, 7, 5]  # seat 1 then drew two
    assert E.to_move(state) == [1]


def test_queen_of_spades_random_discard_by_a_chosen_player():
    state = begin(3, [["ge-queen-spades", "ge-food-1"], [], ["ge-medicine-9"]])
    state = play(state, {"by": 0, "do": "skip_trade"})
    legal = E.legal_events(state, 0)
    targets = [e["target"] for e in legal if e.get("card") == "ge-queen-spades"]
    assert targets == [0, 1, 2]  # the player may even pick themself
    refused(state, {"by": 0, "do": "play_special", "card": "ge-queen-spades"}, "malformed_event")
    refused(
        state,
        {"by": 0, "do": "play_special", "card": "ge-food-1", "target": 1},
        "not_a_special",
    )
    state = play(state, {"by": 0, "do": "play_special", "card": "ge-queen-spades", "target": 2})
    assert E.to_move(state) == ["chance"]
    refused(
        state, {"by": "chance", "do": "random_discard", "card": "ge-food-1"}, "card_not_in_hand"
    )
    event = E.sample_chance(state, random.Random(3))
    assert event["card"] in hand(state, 2)
    state = play(state, {"by": "chance", "do": "random_discard", "card": "ge-medicine-9"})
    assert state.discard == ("ge-queen-spades", "ge-medicine-9")
    assert len(state.hands[2]) == 5
    assert (
        E.event_view({"by": "chance", "do": "random_discard", "card": "ge-medicine-9"}, 1)["card"]
        == "ge-medicine-9"
    )


def test_king_draws_one_more_and_one_special_per_turn():
    state = begin(2, [["ge-king-clubs", "ge-king-hearts"], []])
    state = play(state, {"by": 0, "do": "skip_trade"})
    refused(state, {"by": 0, "do": "play_special", "card": "ge-king-spades"}, "card_not_in_hand")
    refused(
        state,
        {"by": 0, "do": "play_special", "card": "ge-king-clubs", "target": 1},
        "malformed_event",
    )
    before = E.view(state, 0)["deck_count"]
    state = play(state, {"by": 0, "do": "play_special", "card": "ge-king-clubs"})
    assert len(state.hands[0]) == 8  # 8 - king + 1
    assert E.view(state, 1)["deck_count"] == before - 1 - 2  # and seat 1 drew two
    # the turn has passed: the second king waits for seat 0's next turn
    refused(state, {"by": 0, "do": "play_special", "card": "ge-king-hearts"}, "not_your_turn")


# -- the end -------------------------------------------------------------------------


def skip_to_end(state, limit: int = 200):
    for _ in range(limit):
        if E.is_over(state):
            return state
        seat = E.to_move(state)[0]
        state = play(state, {"by": seat, "do": "skip_trade"}, {"by": seat, "do": "end_turn"})
    raise AssertionError("no end")


def test_empty_deck_ends_the_game_when_a_draw_is_due():
    state = skip_to_end(begin(2, [[], []]))
    assert state.turn == 21  # 40 cards = 20 turns of two; the 21st draw finds nothing
    assert [len(h) for h in state.hands] == [26, 26]
    assert E.view(state, 0)["end_reason"] == "deck_exhausted"
    assert E.legal_events(state, 0) == []
    refused(state, {"by": 0, "do": "skip_trade"}, "game_over")


def test_last_single_card_is_drawn_then_the_game_ends():
    state = begin(2, [["ge-king-clubs"], []])
    state = play(
        state,
        {"by": 0, "do": "skip_trade"},
        {"by": 0, "do": "play_special", "card": "ge-king-clubs"},
    )
    state = skip_to_end(state)
    # 52 - 12 dealt - 2 - 1 (king) = 37 left: 18 turns of two, then one card and the end
    assert state.top == 52
    assert sum(len(h) for h in state.hands) == 51
    assert state.end_reason == "deck_exhausted"


def test_exactly_twelve_of_each_wins_at_once():
    seat0 = [
        "ge-food-10",
        "ge-food-2",
        "ge-tools-10",
        "ge-tools-2",
        "ge-tools-3",
        "ge-medicine-10",
        "ge-medicine-2",
        "ge-luxuries-8",
    ]
    state = begin(3, [seat0, ["ge-luxuries-4"], []])
    view = E.view(state, 0)["players"][0]
    assert view["points"] == {"food": 12, "tools": 15, "medicine": 12, "luxuries": 8}
    assert view["score"] == 12 + 9 + 12 + 8
    state = play(
        state,
        {"by": 0, "do": "offer", "cards": ["ge-tools-3"]},  # 3 points: counter exactly 4
        {"by": 1, "do": "counter", "cards": ["ge-luxuries-4"]},
        {"by": 2, "do": "decline"},
        {"by": 0, "do": "accept", "seat": 1},
    )
    assert E.is_over(state)
    result = E.result(state)
    assert result.winners == [0]
    assert result.scores[0] == 48
    assert result.details["end_reason"] == "goal"
    # hands are shown at the end
    assert "ge-luxuries-4" in json.dumps(E.view(state, 2))


def test_equal_scores_at_the_end_go_to_the_most_cards():
    # Seat 0 ends with food 27, tools 27, medicine 28, luxuries 28 points and ten
    # Special Event cards: closeness -3-3-4-4 = -14; seat 1 holds the rest: -4-4-3-3.
    final0 = [
        "ge-food-4",
        "ge-food-5",
        "ge-food-8",
        "ge-food-10",
        "ge-tools-8",
        "ge-tools-9",
        "ge-tools-10",
        "ge-medicine-1",
        "ge-medicine-8",
        "ge-medicine-9",
        "ge-medicine-10",
        "ge-luxuries-1",
        "ge-luxuries-8",
        "ge-luxuries-9",
        "ge-luxuries-10",
        *[
            c
            for c in CARDS
            if not c.startswith(("ge-food", "ge-tools", "ge-medicine", "ge-luxuries"))
        ][:10],
    ]
    start0 = ["ge-food-1", "ge-food-2"] + [c for c in final0 if c != "ge-food-4"]
    start1 = ["ge-food-4"] + [c for c in CARDS if c not in start0 and c != "ge-food-4"]
    # seat 0 must hold food 1 and 2 and seat 1 food 4 in the deal; others fill up
    state = begin(2, [start0, start1])
    state = play(
        state,
        {"by": 0, "do": "offer", "cards": ["ge-food-1", "ge-food-2"]},
        {"by": 1, "do": "counter", "cards": ["ge-food-4"]},
        {"by": 0, "do": "accept", "seat": 1},
        {"by": 0, "do": "end_turn"},
    )
    state = skip_to_end(state)
    assert hand(state, 0) == set(final0)
    result = E.result(state)
    assert result.details["end_reason"] == "deck_exhausted"
    assert result.scores == [-14, -14]
    assert result.details["cards"] == [25, 27]
    assert result.winners == [1]
    assert result.ranks == [2, 1]


# -- secrecy ---------------------------------------------------------------------------


def test_hands_are_counts_for_the_others():
    state = begin(3, [[], [], []])
    view = E.view(state, 1)
    assert "hand" in view["players"][1]
    assert "hand" not in view["players"][0]
    assert view["players"][0]["cards"] == 8
    text = json.dumps(view)
    for card in state.hands[0]:
        assert json.dumps(card) not in text
    assert E.event_view({"by": "chance", "do": "shuffle", "deck": list(CARDS)}, 1) == {
        "by": "chance",
        "do": "shuffle",
        "hidden": True,
    }


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), n=st.integers(min_value=2, max_value=6))
def test_set_aside_choices_stay_hidden_from_other_seats(seed, n):
    """A seat's pass/discard choices never show in another seat's view or event view."""
    rng = random.Random(seed)
    # the greedy bot plays specials more often; mix it with random play
    bots = [BOTS["greedy"] if s % 2 else BOTS["random"] for s in range(n)]
    events, _ = self_play(E, n, rng=rng, bots=bots)
    state = E.setup(n, None)
    for event in events:
        state = E.apply(state, event)
        for seat in range(n):
            data = E.view(state, seat)
            view = json.dumps(data)
            shown = json.dumps(E.event_view(event, seat))
            for other in range(n):
                if other == seat:
                    continue
                if state.phase == "choose":
                    assert isinstance(data["players"][other]["set_aside"], int)
                    assert "hand" not in data["players"][other]
                for card in state.pending[other]:
                    # a card once laid out in a deal may be named elsewhere, never as a choice
                    if card not in state.public:
                        assert json.dumps(card) not in view
                    assert json.dumps(card) not in shown
            if event["do"] in ("pass_card", "discard") and event["by"] != seat:
                assert event["card"] not in shown


# -- event views with the state before the event (what a seat learned) -----------------


@pytest.mark.parametrize(("n", "start"), [(2, 0), (3, 1), (6, 4)])
def test_shuffle_with_before_shows_each_seat_only_its_own_cards(n, start):
    before = E.setup(n, {"start_player": start})
    deck = list(CARDS)
    random.Random(n * 10 + start).shuffle(deck)
    event = {"by": "chance", "do": "shuffle", "deck": deck}
    after = E.apply(before, event)
    for seat in range(n):
        # I3: one card at a time, start player first
        dealt = sorted((deck[i] for i in range(6 * n) if (start + i) % n == seat), key=CARDS.index)
        expected = {"by": "chance", "do": "shuffle", "dealt": dealt}
        if seat == start:  # its turn begins with two draws (I2)
            expected["drawn"] = sorted(deck[6 * n : 6 * n + 2], key=CARDS.index)
        shown = E.event_view(event, seat, before=before)
        assert shown == expected
        assert set(dealt) | set(expected.get("drawn", [])) == hand(after, seat)
        text = json.dumps(shown)
        for other in range(n):
            if other != seat:
                for card in after.hands[other]:
                    assert json.dumps(card) not in text
        for card in deck[6 * n + 2 :]:  # the undealt deck stays hidden
            assert json.dumps(card) not in text
        # without before: hidden entirely, as before
        assert E.event_view(event, seat) == {"by": "chance", "do": "shuffle", "hidden": True}
    assert E.event_view(event, None, before=before) == event


def test_shuffle_view_with_an_unfit_before_stays_hidden():
    hidden = {"by": "chance", "do": "shuffle", "hidden": True}
    fresh = E.setup(3, None)
    event = {"by": "chance", "do": "shuffle", "deck": list(CARDS)}
    dealt = E.apply(fresh, event)
    assert E.event_view(event, 1, before=dealt) == hidden  # not the state it was applied to
    assert E.event_view(event, 1, before={"n": 3}) == hidden
    assert E.event_view(event, 3, before=fresh) == hidden  # no such seat
    bad = {"by": "chance", "do": "shuffle", "deck": list(CARDS)[:-1]}
    assert E.event_view(bad, 1, before=fresh) == hidden


def test_completing_queen_discard_is_shown_with_before_others_stay_hidden():
    state = begin(3, [["ge-queen-hearts", "ge-food-1"], ["ge-tools-9"], ["ge-medicine-9"]])
    state = play(
        state,
        {"by": 0, "do": "skip_trade"},
        {"by": 0, "do": "play_special", "card": "ge-queen-hearts"},
    )
    first = {"by": 2, "do": "discard", "card": "ge-medicine-9"}
    mid = play(state, first)
    for seat in (0, 1):  # not yet complete: only that a card was chosen
        assert E.event_view(first, seat, before=state) == {"by": 2, "do": "discard", "hidden": True}
    assert E.event_view(first, 2, before=state) == first
    last = {"by": 1, "do": "discard", "card": "ge-tools-9"}
    done = play(mid, last)
    assert "ge-tools-9" in done.discard  # face up on the discard pile now
    for seat in range(3):
        assert E.event_view(last, seat, before=mid) == last
    for seat in (0, 2):  # without before: still hidden
        assert E.event_view(last, seat) == {"by": 1, "do": "discard", "hidden": True}


def test_completing_pass_stays_hidden_with_before():
    seats = [["ge-jack-spades", "ge-food-1", "ge-food-2"], ["ge-tools-1", "ge-tools-2"], []]
    state = begin(3, seats)
    state = play(
        state,
        {"by": 0, "do": "skip_trade"},
        {"by": 0, "do": "play_special", "card": "ge-jack-spades"},
    )
    given_by_2 = sorted(state.hands[2], key=CARDS.index)[:2]
    state = play(
        state,
        *({"by": 0, "do": "pass_card", "card": c} for c in ("ge-food-1", "ge-food-2")),
        *({"by": 2, "do": "pass_card", "card": c} for c in given_by_2),
        {"by": 1, "do": "pass_card", "card": "ge-tools-1"},
    )
    last = {"by": 1, "do": "pass_card", "card": "ge-tools-2"}
    done = play(state, last)
    assert done.phase != "over"
    assert "ge-tools-2" in hand(done, 2)
    # Another seat's choice stays hidden; the event tells each seat only the cards passed
    # to it (which land in its own hand), so its words can tell them from its next draw.
    received = {0: sorted(given_by_2, key=CARDS.index), 1: ["ge-food-1", "ge-food-2"]}
    received[2] = ["ge-tools-1", "ge-tools-2"]
    for seat in (0, 2):
        assert E.event_view(last, seat, before=state) == {
            "by": 1,
            "do": "pass_card",
            "hidden": True,
            "received": received[seat],
        }
        assert set(received[seat]) <= hand(done, seat)
    assert E.event_view(last, 1, before=state) == {**last, "received": received[1]}
    # Without the state it was applied to, nothing is added.
    assert E.event_view(last, 0) == {"by": 1, "do": "pass_card", "hidden": True}


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), n=st.integers(min_value=2, max_value=6))
def test_event_views_with_before_in_self_play(seed, n):
    """With before: the shuffle shows exactly the seat's cards; a choice by another
    seat shows only when it completes a queen's discards (or ends the game); the choice
    that completes the passes shows each seat the cards passed to it, and nothing more."""
    rng = random.Random(seed)
    bots = [BOTS["greedy"] if s % 2 else BOTS["random"] for s in range(n)]
    events, _ = self_play(E, n, rng=rng, bots=bots)
    state = E.setup(n, None)
    for event in events:
        before, state = state, E.apply(state, event)
        for seat in range(n):
            shown = E.event_view(event, seat, before=before)
            received = shown.pop("received", None) if event["do"] == "pass_card" else None
            completes = event["do"] in ("pass_card", "discard") and (
                not any(state.need) and before.need[event["by"]] == 1
            )
            if completes and event["do"] == "pass_card":
                # the cards passed to the seat, now in its own hand
                assert received is not None
                assert set(received) <= set(state.hands[seat])
            else:
                assert received is None
            if event["do"] == "shuffle":
                got = shown["dealt"] + shown.get("drawn", [])
                assert sorted(got) == sorted(state.hands[seat])
                assert "deck" not in shown
            elif event["do"] in ("pass_card", "discard") and event["by"] != seat:
                public = event["do"] == "discard" or state.phase == "over"
                if completes and public:
                    assert shown == event
                else:
                    assert shown == {"by": event["by"], "do": event["do"], "hidden": True}
            else:
                assert shown == event


# -- conformance with options -----------------------------------------------------------


@pytest.mark.parametrize(("n", "start"), [(2, 1), (3, 2), (5, 4), (6, 3)])
def test_conformance_with_start_player(n, start):
    options = {"start_player": start}
    for seed in (1, 2):
        events = play_game(E, n, seed, options=options)
        check_game(E, n, events, seed, options=options)
    events = play_game(E, n, 7, bot="greedy", options=options)
    check_game(E, n, events, 7, options=options)


def test_greedy_beats_random():
    wins = 0
    for seed in range(20):
        greedy_seat = seed % 2
        bots = [BOTS["random"], BOTS["random"]]
        bots[greedy_seat] = BOTS["greedy"]
        _, final = self_play(E, 2, rng=random.Random(seed), bots=bots)
        wins += greedy_seat in E.result(final).winners
    assert wins >= 14


# -- review fixes ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "extra",
    [{1: 1, "zz": 2}, {None: 1, 2: 1}, {(1,): 1, "x": 1}],
)
def test_extra_fields_with_odd_keys_are_refused_cleanly(extra):
    state = begin(2, [[], []])
    refused(state, {"by": 0, "do": "skip_trade", **extra}, "malformed_event")
    refused(state, {"by": 0, "do": "offer", "cards": ["ge-food-2"], **extra}, "malformed_event")


@pytest.mark.parametrize("options", ["x", [1], 5, [("start_player", 1)]])
def test_options_that_are_not_an_object_are_refused(options):
    with pytest.raises(InvalidSetup) as info:
        E.setup(3, options)
    assert info.value.code == "bad_options"


def test_goal_reached_with_the_last_card_of_the_deck_ends_as_a_goal():
    """The last card, drawn alone, completes 12/12/12/12: a goal, not just an empty deck."""
    goal = [
        "ge-food-10",
        "ge-food-2",
        "ge-tools-10",
        "ge-tools-2",
        "ge-medicine-10",
        "ge-medicine-2",
        "ge-luxuries-10",
        "ge-luxuries-2",
    ]
    # 6 players: seat 0 holds a king (draws one more), so one card is left for seat 1.
    seat1 = ["ge-queen-clubs", *goal[:7]]  # 6 dealt + 2 drawn; the 8th goal card comes last
    rest = [c for c in CARDS if c not in seat1 and c not in (goal[7], "ge-king-clubs")]
    deck: list[str] = []
    for i in range(36):
        seat = i % 6
        if seat == 1:
            deck.append(seat1[i // 6])
        elif i == 0:
            deck.append("ge-king-clubs")
        else:
            deck.append(rest.pop(0))
    deck += rest[:3]  # seat 0 draws two, then one for its king
    rest = rest[3:]
    deck += seat1[6:8]  # seat 1's turn
    deck += rest  # seats 2-5 and seat 0 again: 10 cards
    deck.append(goal[7])
    assert len(deck) == 52
    state = E.apply(E.setup(6, None), {"by": "chance", "do": "shuffle", "deck": deck})
    state = play(
        state,
        {"by": 0, "do": "skip_trade"},
        {"by": 0, "do": "play_special", "card": "ge-king-clubs"},
    )
    for _ in range(6):  # seats 1-5 and seat 0
        seat = E.to_move(state)[0]
        state = play(state, {"by": seat, "do": "skip_trade"}, {"by": seat, "do": "end_turn"})
    assert E.is_over(state)
    assert state.top == 52
    result = E.result(state)
    assert result.winners == [1]
    assert result.scores[1] == 48
    assert result.details["end_reason"] == "goal"


def test_a_card_once_held_is_secret_while_another_seat_sets_it_aside():
    """Seat 0 passed the food 9 to seat 1; whether seat 1 now passes it on is secret."""
    seats = [
        ["ge-jack-spades", "ge-food-9", "ge-food-8", "ge-tools-1", "ge-tools-2", "ge-tools-3"],
        ["ge-jack-clubs", "ge-medicine-1", "ge-medicine-2", "ge-medicine-3", "ge-medicine-4"],
    ]
    state = begin(2, seats)
    state = play(
        state,
        {"by": 0, "do": "skip_trade"},
        {"by": 0, "do": "play_special", "card": "ge-jack-spades"},
        {"by": 0, "do": "pass_card", "card": "ge-food-8"},
        {"by": 0, "do": "pass_card", "card": "ge-food-9"},
        {"by": 1, "do": "pass_card", "card": "ge-medicine-1"},
        {"by": 1, "do": "pass_card", "card": "ge-medicine-2"},
    )
    assert {"ge-food-8", "ge-food-9"} <= hand(state, 1)
    state = play(
        state,
        {"by": 1, "do": "skip_trade"},
        {"by": 1, "do": "play_special", "card": "ge-jack-clubs"},
        {"by": 1, "do": "pass_card", "card": "ge-food-9"},
    )
    assert state.phase == "choose"
    assert "ge-food-9" in state.pending[1]
    assert "ge-food-9" in E.secrets(state, 0)
    assert "ge-food-9" not in json.dumps(E.view(state, 0))


def test_view_does_not_hand_out_the_state_s_own_objects():
    state = begin(3, [JOHN + JOHN_DRAWS, OTHER, []])
    state = play(
        state,
        {"by": 0, "do": "offer", "cards": ["ge-luxuries-6"]},
        {"by": 1, "do": "counter", "cards": ["ge-tools-8"]},
        {"by": 2, "do": "decline"},
        {"by": 0, "do": "accept", "seat": 1},
    )
    before = json.dumps(E.view(state, None), sort_keys=True)
    view = E.view(state, 2)
    view["last_deal"]["offer"].append("ge-food-1")
    view["last_deal"]["accepted"] = 2
    assert json.dumps(E.view(state, None), sort_keys=True) == before
