"""Gift Gift Gone in words: each event told to everyone, to the actor and to another seat,
and the labels of moves not yet made. Sentences are compared whole, so a sentence that
says more than its seat may know (or less than it should) fails."""

from __future__ import annotations

import json
import random

import pytest

from games.base import CHANCE
from games.gift_gift_gone import ENGINE as E
from games.gift_gift_gone.cards import FULL_GIFTS, GIFT_OF, NAME
from games.play import BOTS, replay_states, self_play
from tests.games.test_gift_gift_gone import (
    PASS0,
    PASS1,
    _ran_out_position,
    apply_all,
    c,
    claim,
    position,
    stacked_deal,
)
from tests.games.words import card_ids_in, check_sentence, names_in

CATALOG = E.card_catalog()
FILL = [c("tiki-bar", 1), c("foot-spa", 1), c("lava-lamp", 1), c("tube-socks", 1)]


def told(event, before, seats=(None, 0, 1)):
    """The event told to each of ``seats``, given the state it was applied to."""
    after = E.apply(before, event)
    return {seat: E.describe(event, seat, before=before, after=after) for seat in seats}


def labels(state, seat):
    return {E.label(event, seat, state): event for event in E.legal_events(state, seat)}


# -- the catalog -------------------------------------------------------------------
def test_catalog_names_every_card_and_every_gift():
    box = E.setup(4, {}).box
    assert set(CATALOG) == set(box) | set(FULL_GIFTS)
    for card in box:
        info = CATALOG[card]
        assert info["name"] == NAME[GIFT_OF[card]]
        assert info["kind"] == "Gift card"
        assert info["icon"]
        assert info["text"].endswith(".")
    assert CATALOG[c("fruitcake", 1)] == CATALOG[c("fruitcake", 6)]
    assert CATALOG["fruitcake"]["name"] == "Fruitcake"
    assert CATALOG["fruitcake"]["value"] == 5
    assert CATALOG["fruitcake"]["kind"] == "Gift"
    assert CATALOG["llama-planter"]["value"] == 1
    assert {info["colour"] for info in CATALOG.values()} == {
        "green", "blue", "purple", "orange", "red",
    }  # fmt: skip
    assert CATALOG[c("tube-socks", 2)]["colour"] == "green"
    assert CATALOG[c("gold-toilet-seat", 2)]["colour"] == "red"
    json.dumps(CATALOG)


# -- chance events -------------------------------------------------------------------
def test_deal_tells_each_seat_its_own_hand_only():
    zero = [c("fruitcake", 1), c("fruitcake", 2), c("tiki-bar", 1), *FILL[1:]]
    one = [c("gold-toilet-seat", i) for i in (1, 2, 3)] + [c("novelty-tie", i) for i in (1, 2, 3)]
    deal = stacked_deal(4, [zero, one], c("bacon-candle", 1))
    text = told(deal, E.setup(4, {}), seats=(None, 0, 1, 2))
    turned = "; Bacon Candle is turned up to start the discard pile."
    assert text[None] == "The cards are shuffled and dealt, six to each player" + turned
    assert text[0] == (
        "The cards are shuffled and dealt; you get Foot Spa, two Fruitcake cards, Lava Lamp, "
        "Tiki Bar and Tube Socks" + turned
    )
    assert text[1] == (
        "The cards are shuffled and dealt; you get three Gold Toilet Seat cards and "
        "three Novelty Tie cards" + turned
    )
    assert "Gold Toilet Seat" not in text[0]
    assert "Fruitcake" not in text[1]
    assert "Gold Toilet Seat" not in text[2]
    assert "Fruitcake" not in text[2]
    # Without the states around it: the hand, never the first discard nor other hands.
    assert E.describe(deal, 1) == (
        "The cards are shuffled and dealt; you get three Gold Toilet Seat cards and "
        "three Novelty Tie cards."
    )
    assert E.describe(deal, None) == "The cards are shuffled and dealt, six to each player."


def test_reshuffle_tells_only_the_size_of_the_new_deck():
    pile = [c("fruitcake", 1), c("fruitcake", 2), c("foot-spa", 1)]
    s = position(2, {}, discard=pile)
    rest = list(s.deck)
    s.deck = (rest[0],)
    s.hands = (s.hands[0], s.hands[1] + tuple(rest[1:]))
    s = apply_all(s, {"by": 0, "do": "draw", "from": "deck"})
    shuffle = {"by": CHANCE, "do": "reshuffle", "deck": [c("fruitcake", 2), c("fruitcake", 1)]}
    text = told(shuffle, s)
    expected = (
        "The deck has run out: all of the discard pile but its top card is shuffled into "
        "a new deck of 2 cards."
    )
    assert text == {None: expected, 0: expected, 1: expected}
    assert E.describe(shuffle, 0) == expected


def _trade_position():
    return position(
        4,
        {
            0: [c("fruitcake", 1), c("tiki-bar", 1), *FILL[1:], c("snow-globe", 1)],
            1: [c(g, 2) for g in ("tiki-bar", "foot-spa", "lava-lamp", "tube-socks")]
            + [c("snow-globe", 2), c("novelty-tie", 1)],
            2: [c("fruitcake", 2), c("fruitcake", 3)]
            + [c(g, 3) for g in ("foot-spa", "lava-lamp", "tube-socks", "snow-globe")],
        },
    )


ORDER = [c("snow-globe", 1), c("tube-socks", 1), c("lava-lamp", 1), c("foot-spa", 1)]
ORDER.append(c("tiki-bar", 1))
ASK = {"by": 0, "do": "ask", "gift": "fruitcake"}
MIX = {"by": CHANCE, "do": "mix", "seat": 0, "order": ORDER}


def test_a_whole_trade_told_to_asker_partner_and_the_others():
    s = _trade_position()
    seats = (None, 0, 1, 2, 3)
    asked = "{p0} asks the other players for one Fruitcake card, offering a blind card in return."
    text = told(ASK, s, seats)
    assert text.pop(0) == (
        "You ask the other players for one Fruitcake card, offering a blind card in return."
    )
    assert set(text.values()) == {asked}
    s = E.apply(s, ASK)

    no = {"by": 1, "do": "answer", "yes": False}
    text = told(no, s, seats)
    assert text[0] == "{p1} says no to your ask for one Fruitcake card."
    assert text[1] == "You say no to {p0}'s ask for one Fruitcake card."
    assert {text[None], text[2], text[3]} == {"{p1} says no to {p0}'s ask for one Fruitcake card."}
    assert E.describe(no, 3) == "{p1} says no."
    s = E.apply(s, no)

    yes = {"by": 2, "do": "answer", "yes": True}
    text = told(yes, s, seats)
    assert text[0] == "{p2} says yes and hands you one Fruitcake card."
    assert text[2] == "You say yes and hand {p0} one Fruitcake card."
    assert {text[None], text[1], text[3]} == {"{p2} says yes and hands {p0} one Fruitcake card."}
    assert E.describe(yes, 3) == "{p2} says yes and hands the asker the card asked for."
    s = E.apply(s, yes)

    laid = "{p0} shuffles their other 5 cards and lays them face down for {p2} to pick one."
    text = told(MIX, s, seats)
    assert text[0] == "You shuffle your other 5 cards and lay them face down for {p2} to pick one."
    assert text[2] == (
        "{p0} shuffles their other 5 cards and lays them face down for you to pick one."
    )
    assert {text[None], text[1], text[3]} == {laid}
    assert E.describe(MIX, 3) == (
        "{p0} shuffles their other 5 cards and lays them face down to be picked from."
    )
    s = E.apply(s, MIX)

    pick = {"by": 2, "do": "pick", "position": 3}
    text = told(pick, s, seats)
    seen = "{p2} picks the 4th of {p0}'s face-down cards: Foot Spa (3 points)."
    unseen = "{p2} picks the 4th of {p0}'s face-down cards."
    # The asker laid it out and the picker takes it; the others see only a position.
    assert text == {
        None: seen,
        0: "{p2} picks the 4th of your face-down cards: Foot Spa (3 points).",
        1: unseen,
        2: "You pick the 4th of {p0}'s face-down cards: Foot Spa (3 points).",
        3: unseen,
    }
    assert E.describe(pick, 3) == "{p2} picks the 4th of the asker's face-down cards."


def test_trade_labels_never_show_the_laid_out_cards():
    s = apply_all(_trade_position(), ASK)
    assert list(labels(s, 1)) == ["Say no."]
    s = apply_all(s, {"by": 1, "do": "answer", "yes": False})
    assert list(labels(s, 2)) == [
        "Say no.",
        "Say yes: give {p0} one of your Fruitcake cards and pick one of their cards blind.",
    ]
    s = apply_all(s, {"by": 2, "do": "answer", "yes": True}, MIX)
    picks = labels(s, 2)
    assert list(picks) == [f"Pick {{p0}}'s {n} face-down card." for n in ("1st", "2nd", "3rd")] + [
        "Pick {p0}'s 4th face-down card.",
        "Pick {p0}'s 5th face-down card.",
    ]
    assert all(CATALOG[card]["name"] not in " ".join(picks) for card in ORDER)


def test_nobody_says_yes():
    small = ("foot-spa", "tube-socks", "snow-globe", "robot-vacuum", "singing-fish")
    s = position(2, {0: [c("fruitcake", 1)] + [c(g, 1) for g in small]})
    s = apply_all(s, ASK)
    no = {"by": 1, "do": "answer", "yes": False}
    assert told(no, s)[0] == "{p1} says no, so nobody trades with you this turn."
    assert told(no, s)[None] == "{p1} says no, so nobody trades with {p0} this turn."
    s = E.apply(s, no)
    # The asker may not ask again this turn: no ask among its moves.
    assert not [text for text in labels(s, 0) if text.startswith("Ask")]


# -- drawing and discarding ------------------------------------------------------------
def _draw_position():
    zero = [c("fruitcake", 1), c("fruitcake", 2), *FILL]
    return position(4, {0: zero}, discard=[c("novelty-tie", 1)], deck=[c("gold-toilet-seat", 1)])


def test_deck_draw_is_named_to_the_drawer_only():
    s = _draw_position()
    event = {"by": 0, "do": "draw", "from": "deck"}
    text = told(event, s, seats=(None, 0, 1, 2))
    named = "{p0} draws Gold Toilet Seat (5 points) from the deck."
    assert text == {
        None: named,
        0: "You draw Gold Toilet Seat (5 points) from the deck.",
        1: "{p0} draws a card from the deck.",
        2: text[1],
    }
    assert E.describe(event, 1) == "{p0} draws a card from the deck."
    s = E.apply(s, event)
    second = told(event, s, seats=(1,))
    assert second[1] == "{p0} draws a second card from the deck."


def test_discard_draw_and_discard_name_the_face_up_card():
    s = _draw_position()
    take = {"by": 0, "do": "draw", "from": "discard"}
    assert told(take, s) == {
        None: "{p0} takes Novelty Tie (1 point) from the discard pile.",
        0: "You take Novelty Tie (1 point) from the discard pile.",
        1: "{p0} takes Novelty Tie (1 point) from the discard pile.",
    }
    assert E.describe(take, 1) == "{p0} takes the top card from the discard pile."
    s = E.apply(s, take)
    drop = {"by": 0, "do": "discard", "card": c("fruitcake", 2)}
    text = told(drop, s)
    assert text.pop(0) == "You discard Fruitcake (5 points)."
    assert set(text.values()) == {"{p0} discards Fruitcake (5 points)."}
    assert E.describe(drop, 1) == "{p0} discards Fruitcake (5 points)."


def test_draw_and_discard_labels():
    s = _draw_position()
    moves = labels(s, 0)
    assert moves["Draw a card from the deck."] == {"by": 0, "do": "draw", "from": "deck"}
    take = moves["Take Novelty Tie (1 point) from the discard pile."]
    assert take == {"by": 0, "do": "draw", "from": "discard"}
    s = apply_all(s, {"by": 0, "do": "draw", "from": "deck"})
    moves = labels(s, 0)
    assert "Draw a second card from the deck." in moves
    # Two identical Fruitcakes: two moves, two labels.
    assert moves["Discard your 1st Fruitcake (5 points)."]["card"] == c("fruitcake", 1)
    assert moves["Discard your 2nd Fruitcake (5 points)."]["card"] == c("fruitcake", 2)
    assert moves["Discard Gold Toilet Seat (5 points)."]["card"] == c("gold-toilet-seat", 1)
    assert len(moves) == len(E.legal_events(s, 0))


# -- claiming and swapping -------------------------------------------------------------
def test_claim_new_gift():
    s = position(4, {0: [c("fruitcake", 1), c("fruitcake", 2), c("fruitcake", 3), *FILL[:3]]})
    assert list(labels(s, 0)) == ["Claim Fruitcake: lay your 3 cards on the table (15 points)."]
    event = claim(0, "fruitcake")
    text = told(event, s)
    assert text.pop(0) == "You claim Fruitcake with 3 cards (15 points)."
    assert set(text.values()) == {"{p0} claims Fruitcake with 3 cards (15 points)."}
    assert E.describe(event, 1) == "{p0} places their Fruitcake cards on the table."


def test_adding_cards_freezing_and_winning():
    table = {"fruitcake": (0, [c("fruitcake", i) for i in (1, 2, 3)])}
    s = position(4, {0: [c("fruitcake", 4), c("fruitcake", 5), *FILL]}, table=table)
    moves = labels(s, 0)
    assert "Add 2 cards to your Fruitcake on the table (5 cards, 25 points)." in moves
    text = told(claim(0, "fruitcake"), s)
    assert text.pop(0) == "You add 2 cards to your Fruitcake (5 cards, 25 points)."
    assert set(text.values()) == {"{p0} adds 2 cards to their Fruitcake (5 cards, 25 points)."}

    s = position(4, {0: [c("fruitcake", i) for i in (4, 5, 6)] + FILL[:3]}, table=table)
    text = told(claim(0, "fruitcake"), s)
    assert text[1] == (
        "{p0} adds 3 cards to their Fruitcake (6 cards, 30 points), now frozen with all six."
    )

    table |= {
        "gold-toilet-seat": (0, [c("gold-toilet-seat", i) for i in (1, 2, 3)]),
        "tiki-bar": (0, [c("tiki-bar", i) for i in (2, 3, 4)]),
    }
    s = position(4, {0: [c("fruitcake", 4), c("fruitcake", 5), *FILL[1:]]}, table=table)
    text = told(claim(0, "fruitcake"), s)
    # The end: the target reached, and every final score as it was counted.
    assert text[1] == (
        "{p0} adds 2 cards to their Fruitcake (5 cards, 25 points), and the game ends: "
        "that takes {p0} to 52 points on the table (the target is 50), so {p0} wins; "
        "final scores (points on the table minus the cards left in hand): "
        "{p0} 46 (52 minus 6), you -14 (0 minus 14), {p2} -14 (0 minus 14), {p3} -17 (0 minus 17)."
    )
    assert text[0].startswith(
        "You add 2 cards to your Fruitcake (5 cards, 25 points), and the game ends: "
        "that takes you to 52 points on the table (the target is 50), so you win; "
        "final scores (points on the table minus the cards left in hand): you 46 (52 minus 6), "
    )


def test_swap_told_and_labelled():
    table = {
        "fruitcake": (1, [c("fruitcake", i) for i in (1, 2, 3)]),
        "llama-planter": (0, [c("llama-planter", i) for i in (1, 2, 3)]),
    }
    s = position(4, {0: [c("fruitcake", 4), *FILL, c("snow-globe", 1)]}, table=table)
    event = {"by": 0, "do": "swap", "gift": "fruitcake", "give": "llama-planter"}
    moves = labels(s, 0)
    assert moves["Swap your Llama Planter (3 cards) for {p1}'s Fruitcake (3 cards)."] == event
    text = told(event, s, seats=(None, 0, 1, 2))
    expected = (
        "{p0} takes {p1}'s Fruitcake (3 cards) in a swap, adding 1 card of it from their hand "
        "(now 4 cards, 20 points); {p1} gets {p0}'s Llama Planter (3 cards, 3 points) in return."
    )
    assert text == {
        None: expected,
        0: "You take {p1}'s Fruitcake (3 cards) in a swap, adding 1 card of it from your hand "
        "(now 4 cards, 20 points); {p1} gets your Llama Planter (3 cards, 3 points) in return.",
        1: "{p0} takes your Fruitcake (3 cards) in a swap, adding 1 card of it from their hand "
        "(now 4 cards, 20 points); you get {p0}'s Llama Planter (3 cards, 3 points) in return.",
        2: expected,
    }
    assert E.describe(event, 2) == "{p0} swaps their Llama Planter for another player's Fruitcake."


def test_ask_labels_name_every_gift_once():
    s = position(4, {0: [c("fruitcake", 1), *FILL, c("snow-globe", 1)]})
    asks = [text for text in labels(s, 0) if text.startswith("Ask")]
    assert len(asks) == len(FULL_GIFTS)
    assert "Ask the others for one Gold Toilet Seat card." in asks


# -- passing and the end when the cards ran out ------------------------------------------
def test_pass_and_the_end_after_a_quiet_round():
    s = apply_all(_ran_out_position(), claim(0, "llama-planter"))
    # After an action of the turn, "pass" ends the turn (a turn may hold one of each).
    assert labels(s, 0)["End your turn."] == PASS0
    # The turn ends and the hand is refilled: the card drawn is named to its drawer only.
    assert told(PASS0, s) == {
        None: "{p0} ends their turn and draws Llama Planter (1 point) to refill their hand to six.",
        0: "You end your turn and draw Llama Planter (1 point) to refill your hand to six.",
        1: "{p0} ends their turn and draws 1 card to refill their hand to six.",
    }
    s = apply_all(s, PASS0)
    assert labels(s, 1)["Pass: let your turn go."] == PASS1
    assert told(PASS1, s) == {None: "{p1} passes.", 0: "{p1} passes.", 1: "You pass."}
    s = apply_all(s, PASS1, claim(0, "llama-planter"), PASS0, PASS1)
    text = told(PASS0, s)
    ended = (
        "{p0} passes, and the game ends: a full round has passed with no claim or swap since the "
        "cards ran out, so {p0} wins with the best score; final scores (points on the table "
        "minus the cards left in hand): {p0} 37 (46 minus 9), {p1} -33 (39 minus 72)."
    )
    assert text[None] == ended
    assert text[1] == ended.replace("{p1} -33", "you -33")
    assert text[0] == (
        "You pass, and the game ends: a full round has passed with no claim or swap since the "
        "cards ran out, so you win with the best score; final scores (points on the table "
        "minus the cards left in hand): you 37 (46 minus 9), {p1} -33 (39 minus 72)."
    )


# -- whole games: a stricter leak check than the conformance suite's ------------------------
def _strictly_seen(values) -> set[str]:
    """Card names a seat saw, not counting the view's list of every gift in the game."""
    seen: set[str] = set()
    for value in values:
        if isinstance(value, dict):
            value = {k: v for k, v in value.items() if k != "catalogue"}
        seen |= {CATALOG[x]["name"] for x in card_ids_in(value, CATALOG)}
    return seen


@pytest.mark.parametrize(("n", "seed", "bot"), [(3, 11, "random"), (5, 12, "greedy")])
def test_no_sentence_names_a_card_its_seat_did_not_see(n, seed, bot):
    events, _ = self_play(E, n, rng=random.Random(seed), bots=[BOTS[bot]] * n)
    states = list(replay_states(E, n, None, events))
    names = {info["name"] for info in CATALOG.values()}
    kinds: set[str] = set()
    for step in range(0, len(events), 3):
        event, before, after = events[step], states[step], states[step + 1]
        kinds.add(event["do"])
        for seat in range(n):
            text = E.describe(event, seat, before=before, after=after)
            visible = [E.event_view(event, seat, before), E.view(before, seat)]
            visible.append(E.view(after, seat))
            check_sentence(E, text, n, seat, visible, f"step {step}")
            leaked = names_in(text, names) - _strictly_seen(visible)
            assert not leaked, (step, seat, text)
            if seat in E.to_move(before):
                for move in E.legal_events(before, seat):
                    label = E.label(move, seat, before)
                    shown = [E.view(before, seat), E.event_view(move, seat, before)]
                    assert not names_in(label, names) - _strictly_seen(shown), label
    assert {"deal", "draw", "discard", "ask", "answer"} <= kinds


def test_a_turn_that_ends_by_itself_is_told_with_its_refill():
    """With one action a turn, a claim ends the turn: the sentence says so, and the cards
    drawn to refill the hand are named to their drawer (and everyone) only."""
    hand = [c("fruitcake", 1), c("fruitcake", 2), c("fruitcake", 3), *FILL[:3]]
    deck = [c("gold-toilet-seat", 1), c("novelty-tie", 1), c("tiki-bar", 2)]
    s = position(4, {0: hand}, deck=deck, options={"turn_actions": "one"})
    text = told(claim(0, "fruitcake"), s, seats=(None, 0, 1))
    assert text == {
        None: "{p0} claims Fruitcake with 3 cards (15 points); that ends {p0}'s turn, and {p0} "
        "draws Gold Toilet Seat (5 points), Novelty Tie (1 point) and Tiki Bar (4 points) to "
        "refill their hand to six.",
        0: "You claim Fruitcake with 3 cards (15 points); that ends your turn, and you draw "
        "Gold Toilet Seat (5 points), Novelty Tie (1 point) and Tiki Bar (4 points) to refill "
        "your hand to six.",
        1: "{p0} claims Fruitcake with 3 cards (15 points); that ends {p0}'s turn, and {p0} "
        "draws 3 cards to refill their hand to six.",
    }


def test_an_ask_at_a_table_of_two_names_the_one_other_player():
    """With two at the table there are no "other players", only the one opponent."""
    asks = next(found for seed in range(40) if (found := _asks_in_a_game(players=2, seed=seed)))
    before, ask = asks[0]
    asker = ask["by"]
    other = 1 - asker
    text = told(ask, before, (None, asker, other))
    assert text[asker].startswith(f"You ask {{p{other}}} for ")
    assert text[other].startswith(f"{{p{asker}}} asks you for ")
    assert text[None].startswith(f"{{p{asker}}} asks {{p{other}}} for ")
    assert all("other players" not in sentence for sentence in text.values())


def _asks_in_a_game(*, players, seed):
    """(state before, ask event) of every ask in a self-played game."""
    events, _ = self_play(E, players, rng=random.Random(seed), bots=[BOTS["random"]] * players)
    states = list(replay_states(E, players, {}, events))  # states[i]: before event i
    return [(states[i], e) for i, e in enumerate(events) if e.get("do") == "ask"]
