"""Gift Gift Gone's options (house rules): each value played, each refusal named.

Rulebook: seeds/001_669ec57016f647dc.txt. The options and why their defaults were
chosen: docs/rules/gift_gift_gone.md, "Options (house rules)".
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from games.base import CHANCE, IllegalEvent, InvalidSetup
from games.gift_gift_gone.cards import GIFT_OF
from games.play import BOTS, replay, self_play
from tests.games.conformance import check_game, play_game
from tests.games.test_gift_gift_gone import (
    LEGACY,
    PASS0,
    E,
    _quiet_turn,
    answer,
    apply_all,
    c,
    claim,
    discard,
    draw,
    end_turn,
    hand,
    points,
    position,
    refused,
)

RULEBOOK = Path("/work/shared/seeds/001_669ec57016f647dc.txt")
LEGACY_RECORD = Path(__file__).with_name("gift_gift_gone_legacy_record.json")
TURN_SENTENCE = "A player\u2019s turn may consist of one of each of the following actions:"
FROZEN_SENTENCE = (
    "A gift may be stolen until the owner has all six (6) of the gift showing in front of "
    "them, then the gift is frozen from being swapped or stolen."
)
# Sentences the "why" of turn_actions leans on.
MUST_PLACE_SENTENCE = (
    "Once you collect three (3) you must place those three (3) cards (or more if you have "
    "more of the same gift) on the table to claim that gift."
)
ADD_SENTENCE = (
    "If the same player gets another of the card in a draw or trade, then they may add it "
    "to their existing gift claimed during their turn"
)
EACH, ONE = {"turn_actions": "one_of_each"}, {"turn_actions": "one"}
KEEP_FROZEN, GIVE_FROZEN = {"give_frozen_in_swap": False}, {"give_frozen_in_swap": True}
FILL = [c("tiki-bar", 1), c("foot-spa", 1), c("lava-lamp", 1), c("tube-socks", 1)]


def fruitcakes_in(state, seat: int) -> int:
    return sum(1 for card in state.hands[seat] if GIFT_OF[card] == "fruitcake")


# -- metadata and refusals -------------------------------------------------------------


def test_options_are_declared_with_their_rulebook_sentences():
    """Every option is typed and explained; each quotes the rulebook sentence it reads."""
    by_name = {option.name: option for option in E.options}
    assert list(by_name) == ["turn_actions", "give_frozen_in_swap"]
    for option in E.options:
        assert option.description, option.name
        assert option.why, option.name
        option.check(option.default)
        data = option.to_json()
        assert data["rulebook"] == option.rulebook
        assert data["why_default"] == option.why
    turn = by_name["turn_actions"]
    assert (turn.kind, turn.default) == ("choice", "one_of_each")
    assert turn.choices == ("one_of_each", "one")
    assert turn.rulebook == TURN_SENTENCE
    frozen = by_name["give_frozen_in_swap"]
    assert (frozen.kind, frozen.default) == ("bool", False)
    assert frozen.rulebook == FROZEN_SENTENCE


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the rulebook seeds are not on this machine")
def test_quoted_sentences_are_the_rulebooks_words():
    """The "rulebook" of each option, and the sentences its "why" quotes, are exact."""
    text = " ".join(RULEBOOK.read_text().split())
    for sentence in (TURN_SENTENCE, FROZEN_SENTENCE, MUST_PLACE_SENTENCE, ADD_SENTENCE):
        assert " ".join(sentence.split()) in text, sentence
    for option in E.options:
        assert " ".join(option.rulebook.split()) in text, option.name


def test_no_options_means_the_defaults():
    defaults = {option.name: option.default for option in E.options}
    for n in (2, 5):
        assert E.view(E.setup(n, {}), None) == E.view(E.setup(n, defaults), None)
        assert E.view(E.setup(n, None), None) == E.view(E.setup(n, defaults), None)


@pytest.mark.parametrize("name", ["target", "turn_action", "frozen"])
def test_unknown_option_is_refused_by_name(name):
    with pytest.raises(InvalidSetup) as info:
        E.setup(4, {name: 1})
    assert info.value.code == "unknown_option"
    assert info.value.detail["option"] == name


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("turn_actions", "two"),
        ("turn_actions", 1),
        ("turn_actions", None),
        ("give_frozen_in_swap", "yes"),
        ("give_frozen_in_swap", 1),
        ("give_frozen_in_swap", None),
    ],
)
def test_bad_option_value_is_refused_by_name(name, value):
    with pytest.raises(InvalidSetup) as info:
        E.setup(4, {name: value})
    assert info.value.code == "bad_option"
    assert info.value.detail["option"] == name
    assert name in info.value.message


# -- turn_actions: "A player's turn may consist of one of each of the following actions" --


def _third_fruitcake_on_the_discard(options):
    """Seat 0 holds two Fruitcakes; a third lies on top of the discard pile."""
    mine = [c("fruitcake", 1), c("fruitcake", 2), *FILL]
    return position(
        4,
        {0: mine},
        discard=[c("fruitcake", 3)],
        deck=[c("snow-globe", 1), c("bacon-candle", 1), c("garden-gnome", 1)],
        options=options,
    )


def test_one_of_each_draw_then_claim_in_the_same_turn():
    """'A player's turn may consist of one of each of the following actions' and 'Once you
    collect three (3) you must place those three (3) cards ... on the table': with
    "one_of_each" the third Fruitcake drawn is claimed in the same turn, and the hand is
    refilled to six at the end of the turn."""
    s = _third_fruitcake_on_the_discard(EACH)
    s = apply_all(s, draw(0, "discard"), discard(0, c("tiki-bar", 1)))
    assert E.to_move(s) == [0]
    assert E.view(s, 0)["actions_done"] == ["draw"]
    assert E.legal_events(s, 0) == [claim(0, "fruitcake")]  # compulsory at once
    refused(s, PASS0, "must_claim")
    refused(s, draw(0), "already_drew")
    s = apply_all(s, claim(0, "fruitcake"))
    assert s.owner == {"fruitcake": 0}
    assert points(s)[0] == 15
    assert E.view(s, 0)["actions_done"] == ["draw", "claim"]
    assert len(s.hands[0]) == 3  # the refill waits for the end of the turn
    s = end_turn(s, 0)
    assert hand(s, 0) == sorted(
        [*FILL[1:], c("snow-globe", 1), c("bacon-candle", 1), c("garden-gnome", 1)]
    )
    assert E.to_move(s) == [1]


def test_one_action_the_turn_ends_with_the_draw():
    """The same position with "one" (a turn is exactly one of the listed actions): the
    turn ends with the discard, and the claim is compulsory at the seat's next turn."""
    s = _third_fruitcake_on_the_discard(ONE)
    s = apply_all(s, draw(0, "discard"), discard(0, c("tiki-bar", 1)))
    assert E.to_move(s) == [1]
    assert fruitcakes_in(s, 0) == 3
    for seat in (1, 2, 3):
        s = apply_all(s, draw(seat), discard(seat, s.hands[seat][-1]))
    assert E.to_move(s) == [0]
    assert E.legal_events(s, 0) == [claim(0, "fruitcake")]


def _own_gift_position(options):
    """Seat 0 owns three Snow Globes; the fourth lies on top of the discard pile."""
    return position(
        4,
        {0: [c("fruitcake", 1), *FILL, c("garden-gnome", 1)]},
        table={"snow-globe": (0, [c("snow-globe", i) for i in (1, 2, 3)])},
        discard=[c("snow-globe", 4)],
        options=options,
    )


def test_one_of_each_draw_then_add_to_your_gift_in_the_same_turn():
    """'If the same player gets another of the card in a draw or trade, then they may add
    it to their existing gift claimed during their turn': drawn, then added, one turn."""
    s = apply_all(_own_gift_position(EACH), draw(0, "discard"), discard(0, c("tiki-bar", 1)))
    assert claim(0, "snow-globe") in E.legal_events(s, 0)
    assert PASS0 in E.legal_events(s, 0)  # adding is optional
    s = end_turn(apply_all(s, claim(0, "snow-globe")), 0)
    assert len(s.table["snow-globe"]) == 4
    assert len(s.hands[0]) == 6


def test_one_action_adding_waits_for_the_next_turn():
    """With "one" the drawn Snow Globe can only be added at the seat's next turn."""
    s = apply_all(_own_gift_position(ONE), draw(0, "discard"), discard(0, c("tiki-bar", 1)))
    assert E.to_move(s) == [1]
    assert len(s.table["snow-globe"]) == 3


def _trade_for_a_third(options):
    """Seat 0 holds two Fruitcakes and asks; seat 1 hands over the third."""
    s = position(
        4,
        {
            0: [c("fruitcake", 1), c("fruitcake", 2), *FILL],
            1: [c("fruitcake", 3), c("snow-globe", 1), c("garden-gnome", 1),
                c("bacon-candle", 1), c("robot-vacuum", 1), c("singing-fish", 1)],
        },
        options=options,
    )  # fmt: skip
    s = apply_all(s, {"by": 0, "do": "ask", "gift": "fruitcake"}, answer(1, True))
    order = sorted(x for x in s.hands[0] if GIFT_OF[x] != "fruitcake")
    return apply_all(
        s,
        {"by": CHANCE, "do": "mix", "seat": 0, "order": order},
        {"by": 1, "do": "pick", "position": order.index(c("tiki-bar", 1))},
    )


def test_one_of_each_trade_then_claim_in_the_same_turn():
    """'A player's turn may consist of one of each of the following actions': a trade
    (3) and then a claim (2), in one turn; the trade cannot be asked for again."""
    s = _trade_for_a_third(EACH)
    assert fruitcakes_in(s, 0) == 3
    assert E.view(s, 0)["actions_done"] == ["trade"]
    assert E.legal_events(s, 0) == [claim(0, "fruitcake")]
    s = apply_all(s, claim(0, "fruitcake"))
    assert not [e for e in E.legal_events(s, 0) if e["do"] in ("ask", "claim", "swap")]
    assert draw(0) in E.legal_events(s, 0)
    # The third action: a draw-and-discard. All three done, the turn ends by itself.
    s = apply_all(s, draw(0), discard(0, s.hands[0][-1]))
    assert E.to_move(s) == [1]
    assert len(s.hands[0]) == 6


def test_one_action_a_trade_ends_the_turn():
    """With "one" a completed trade is the whole turn."""
    s = _trade_for_a_third(ONE)
    assert fruitcakes_in(s, 0) == 3
    assert E.to_move(s) == [1]


def test_one_of_each_claim_then_draw_and_each_action_at_most_once():
    """'one of each of the following actions': a claim may come first, then a draw;
    a second claim or a second draw-and-discard in the same turn is refused."""
    s = position(
        4,
        {0: [c("fruitcake", 1), c("fruitcake", 2), c("fruitcake", 3),
             c("tiki-bar", 1), c("tiki-bar", 2), c("tiki-bar", 3)]},
        deck=[c("snow-globe", 1), c("bacon-candle", 1)],
        options=EACH,
    )  # fmt: skip
    s = apply_all(s, claim(0, "fruitcake"))
    refused(s, claim(0, "tiki-bar"), "already_claimed")  # one claim a turn
    s = apply_all(s, draw(0), discard(0, c("snow-globe", 1)))
    refused(s, draw(0), "already_drew")
    assert E.to_move(s) == [0]
    s = end_turn(s, 0)
    assert len(s.hands[0]) == 6
    for seat in (1, 2, 3):
        s = _quiet_turn(s, seat)
    assert E.legal_events(s, 0) == [claim(0, "tiki-bar")]  # the second triple: next turn


def test_one_action_a_claim_ends_the_turn_and_refills_at_once():
    """With "one" the claim is the whole turn; the hand refills at once."""
    s = position(
        4,
        {0: [c("fruitcake", 1), c("fruitcake", 2), c("fruitcake", 3), *FILL[:3]]},
        options=ONE,
    )
    s = apply_all(s, claim(0, "fruitcake"))
    assert E.to_move(s) == [1]
    assert len(s.hands[0]) == 6


def test_one_of_each_pass_needs_an_action_first():
    """A turn consists of actions: 'pass' before any (while the deck lasts) is refused,
    and a refused ask is no completed trade ('offering and completing a trade')."""
    s = position(4, {0: [c("fruitcake", 1), *FILL, c("snow-globe", 1)]}, options=EACH)
    refused(s, PASS0, "wrong_phase")
    s = apply_all(
        s,
        {"by": 0, "do": "ask", "gift": "gold-toilet-seat"},
        answer(1, False),
        answer(2, False),
        answer(3, False),
    )
    assert E.to_move(s) == [0]
    refused(s, PASS0, "wrong_phase")
    s = apply_all(s, draw(0), discard(0, s.hands[0][-1]))
    assert PASS0 in E.legal_events(s, 0)


def test_one_action_pass_only_when_the_cards_ran_out():
    """With "one" there is nothing to end: after the draw the next seat is to move."""
    s = position(4, {0: [c("fruitcake", 1), *FILL, c("snow-globe", 1)]}, options=ONE)
    refused(s, PASS0, "wrong_phase")
    s = apply_all(s, draw(0), discard(0, s.hands[0][-1]))
    assert E.to_move(s) == [1]


# -- give_frozen_in_swap: "... then the gift is frozen from being swapped or stolen." -----


def _frozen_payment(options):
    """Seat 0 owns six Llama Planters (frozen) and holds a Fruitcake; seat 1 owns three."""
    return position(
        4,
        {0: [c("fruitcake", 4), *FILL, c("snow-globe", 1)]},
        table={
            "fruitcake": (1, [c("fruitcake", i) for i in (1, 2, 3)]),
            "llama-planter": (0, [c("llama-planter", i) for i in range(1, 7)]),
        },
        options=options,
    )


SWAP = {"by": 0, "do": "swap", "gift": "fruitcake", "give": "llama-planter"}


def test_frozen_gift_cannot_be_given_in_a_swap_by_default():
    """'... then the gift is frozen from being swapped or stolen': with false, the
    owner's six Llama Planters stay put; giving them away is swapping them."""
    s = _frozen_payment(KEEP_FROZEN)
    refused(s, SWAP, "payment_frozen")
    assert not [e for e in E.legal_events(s, 0) if e["do"] == "swap"]
    assert E.greedy_event(s, 0, random.Random(0))["do"] != "swap"


def test_frozen_gift_may_be_given_in_a_swap_when_allowed():
    """With true only taking a frozen gift is barred: the owner may give its six Llama
    Planters (6 points) for the three Fruitcakes (and its fourth: 20 points)."""
    s = _frozen_payment(GIVE_FROZEN)
    assert SWAP in E.legal_events(s, 0)
    assert E.greedy_event(s, 0, random.Random(0)) == SWAP
    s = apply_all(s, SWAP)
    assert s.owner == {"fruitcake": 0, "llama-planter": 1}
    assert points(s)[:2] == [20, 6]


@pytest.mark.parametrize("options", [KEEP_FROZEN, GIVE_FROZEN])
def test_a_frozen_gift_is_never_taken(options):
    """'A gift may be stolen until the owner has all six (6) of the gift showing in front
    of them': under either value nobody takes a six-card gift."""
    s = position(
        4,
        {0: [c("fruitcake", 1), *FILL, c("snow-globe", 1)]},
        table={
            "llama-planter": (1, [c("llama-planter", i) for i in range(1, 7)]),
            "tiki-bar": (0, [c("tiki-bar", i) for i in range(2, 7)]),
        },
        options=options,
    )
    swap = {"by": 0, "do": "swap", "gift": "llama-planter", "give": "tiki-bar"}
    refused(s, swap, "gift_frozen")


# -- whole games and old records ----------------------------------------------------------


@pytest.mark.parametrize(
    "options", [EACH, ONE, KEEP_FROZEN, GIVE_FROZEN, LEGACY], ids=lambda o: json.dumps(o)
)
@pytest.mark.parametrize("n", [2, 5])
def test_greedy_bots_finish_under_every_option_value(options, n):
    events = play_game(E, n, seed=n, bot="greedy", options=options)
    check_game(E, n, events, seed=n, options=options)


def test_greedy_beats_random_under_the_defaults_and_legacy():
    for options in ({}, LEGACY):
        wins = 0
        for seed in range(10):
            greedy = seed % 2
            bots = [BOTS["random"], BOTS["random"]]
            bots[greedy] = BOTS["greedy"]
            _, final = self_play(E, 2, options=options, rng=random.Random(seed), bots=bots)
            wins += E.result(final).ranks[greedy] == 1
        assert wins >= 7, options


def test_a_record_made_before_the_options_replays_under_the_legacy_values():
    """A record stored before options existed meant one action a turn and frozen gifts
    given in swaps; with LEGACY it replays to the same result, with today's defaults the
    turn after the first draw-and-discard is refused (hence the stored options)."""
    record = json.loads(LEGACY_RECORD.read_text())
    n, events = record["num_players"], record["events"]
    final = replay(E, n, LEGACY, events)
    assert E.result(final).to_json() == record["result"]
    with pytest.raises(IllegalEvent) as info:
        replay(E, n, {}, events)
    assert info.value.code == "not_your_turn"
