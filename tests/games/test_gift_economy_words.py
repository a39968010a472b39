"""Gift Economy told in words: the catalog, one sentence per event type, move labels.

Each event is told to everyone (``None``), to the seat that made it and to
another seat; the tests check what each sentence says and what it must keep
quiet (a card a seat cannot see is never named).
"""

from __future__ import annotations

import json
import random

import pytest

from games.gift_economy import ENGINE
from games.gift_economy.cards import CARDS
from games.gift_economy.words import CATALOG
from games.play import replay_states, self_play
from tests.games.test_gift_economy import JOHN, JOHN_DRAWS, OTHER, begin, play
from tests.games.words import check_sentence

E = ENGINE


def told(state, event, seat):
    """The event told to ``seat``, and the state it makes."""
    after = E.apply(state, event)
    return E.describe(event, seat, before=state, after=after), after


def name(card: str) -> str:
    return CATALOG[card]["name"]


def new_cards(before, after, seat: int) -> list[str]:
    return [c for c in after.hands[seat] if c not in before.hands[seat]]


def safe(text: str, state, event, after, seat, n: int) -> None:
    """The shared checks: no JSON, no ids, no card the seat cannot see."""
    visible = [
        E.event_view(event, seat, before=state),
        E.view(state, seat),
        E.view(after, seat),
    ]
    check_sentence(E, text, n, seat, visible, "test")


# -- the catalog ---------------------------------------------------------------------


def test_catalog_names_every_card_once_with_points_and_colour():
    catalog = E.card_catalog()
    assert list(catalog) == list(CARDS)
    assert len({info["name"] for info in catalog.values()}) == 52
    assert catalog["ge-food-7"] == {
        "name": "Food 7",
        "icon": "🍞",
        "value": 7,
        "colour": "green",
        "text": "7 points of food (clubs).",
        "kind": "Food",
    }
    assert catalog["ge-luxuries-1"]["text"] == "1 point of luxuries (diamonds)."
    assert {catalog[f"ge-{r}-1"]["colour"] for r in ("food", "tools", "medicine", "luxuries")} == {
        "green",
        "blue",
        "red",
        "purple",
    }
    jack = catalog["ge-jack-clubs"]
    assert jack["name"] == "Jack of clubs"
    assert jack["value"] is None
    assert jack["text"] == "Every player passes 3 cards to the left."
    assert catalog["ge-jack-hearts"]["text"] == "Every player passes 2 cards to the right."
    assert (
        catalog["ge-queen-spades"]["text"] == "A player of your choice discards a card at random."
    )
    assert catalog["ge-queen-hearts"]["text"].startswith("Every other player discards")
    assert catalog["ge-king-clubs"]["text"] == "Draw an extra card."
    assert catalog["ge-king-clubs"]["kind"] == "Special Event: Transnational investors"
    json.dumps(catalog)
    assert E.card_catalog() is catalog  # cached


# -- the deal ---------------------------------------------------------------------------


def test_shuffle_tells_each_seat_its_own_cards_only():
    state = E.setup(3, {})
    start = begin(3, [JOHN + JOHN_DRAWS, OTHER, []])
    event = {"by": "chance", "do": "shuffle", "deck": list(start.deck)}
    everyone, _ = told(state, event, None)
    assert everyone == "The cards are shuffled and dealt, 6 each; {p0} starts and draws 2 cards."
    mine, after = told(state, event, 0)
    assert mine.startswith("The cards are shuffled and dealt, 6 each; you get Food 1, Food 2,")
    assert "and you start by drawing Tools 3 and Medicine 4." in mine
    assert "Food 7" not in mine  # seat 1's card
    safe(mine, state, event, after, 0, 3)
    theirs, _ = told(state, event, 1)
    assert theirs.endswith(
        "you get Food 3, Food 7, Tools 8, Medicine 1, Medicine 2 and Luxuries 9; "
        "{p0} starts and draws 2 cards."
    )
    assert "drawing" not in theirs
    assert "Luxuries 6" not in theirs
    assert E.describe(event, 1) == "The cards are shuffled and dealt."  # no state: hidden


# -- trading -----------------------------------------------------------------------------


def trade_start(n: int = 3):
    return begin(n, [JOHN + JOHN_DRAWS, OTHER, *([[]] * (n - 2))])


def test_offer_is_public_with_the_counter_range():
    state = trade_start()
    event = {"by": 0, "do": "offer", "cards": ["ge-luxuries-6"]}
    for seat in (None, 0, 1, 2):
        text, _ = told(state, event, seat)
        assert text == (
            ("You offer" if seat == 0 else "{p0} offers") + " Luxuries 6 (6 points of luxuries); "
            "a counter must be worth 7 to 9 points of one resource."
        )
    two = {"by": 0, "do": "offer", "cards": ["ge-food-2"]}
    assert "exactly 3 points of one resource" in told(state, two, 1)[0]
    many = {"by": 0, "do": "offer", "cards": ["ge-food-1", "ge-food-2"]}
    assert told(state, many, 2)[0].startswith("{p0} offers Food 1 and Food 2 (3 points of food);")
    assert E.describe(event, 2) == "{p0} offers Luxuries 6 (6 points of luxuries)."
    assert E.label(many, 0, state) == "Offer Food 1 and Food 2 (3 points of food)."


def test_skip_trade():
    state = trade_start()
    event = {"by": 0, "do": "skip_trade"}
    assert told(state, event, 1)[0] == "{p0} makes no more offers this turn."
    assert E.label(event, 0, state) == "Make no offer; go on to Special Events."


def test_counter_decline_and_the_call_to_accept():
    state = play(trade_start(), {"by": 0, "do": "offer", "cards": ["ge-luxuries-6"]})
    counter = {"by": 1, "do": "counter", "cards": ["ge-tools-8"]}
    text, state = told(state, counter, 2)
    assert text == "{p1} counters with Tools 8 (8 points of tools)."
    decline = {"by": 2, "do": "decline"}
    text, _after = told(state, decline, 0)
    assert text == "{p2} declines to counter; you may now accept one counter."
    assert told(state, decline, 1)[0] == (
        "{p2} declines to counter; {p0} may now accept one counter."
    )
    assert E.label(decline, 2, state) == "Decline: make no counter."
    labels = [E.label(e, 2, state) for e in E.legal_events(state, 2)]
    assert labels[-1] == "Decline: make no counter."
    assert all(label.startswith("Counter with ") for label in labels[:-1])


def test_counter_labels_name_the_cards_and_points():
    state = play(trade_start(2), {"by": 0, "do": "offer", "cards": ["ge-luxuries-6"]})
    labels = [E.label(e, 1, state) for e in E.legal_events(state, 1)]
    assert labels == [
        "Counter with Food 7 (7 points of food).",
        "Counter with Tools 8 (8 points of tools).",
        "Counter with Luxuries 9 (9 points of luxuries).",
        "Decline: make no counter.",
    ]


def test_nobody_counters_then_one_more_deal_then_none():
    state = play(trade_start(), {"by": 0, "do": "offer", "cards": ["ge-luxuries-6"]})
    state = play(state, {"by": 1, "do": "decline"})
    text, state = told(state, {"by": 2, "do": "decline"}, 1)
    assert text == "{p2} declines to counter; no deal, so {p0} may offer one more deal."
    state = play(
        state,
        {"by": 0, "do": "offer", "cards": ["ge-food-2"]},
        {"by": 1, "do": "counter", "cards": ["ge-food-3"]},
        {"by": 2, "do": "decline"},
    )
    reject = {"by": 0, "do": "reject"}
    assert E.label(reject, 0, state) == "Turn down every counter."
    text, _ = told(state, reject, 2)
    assert text == "{p0} turns down every counter; no deal this turn."


def test_accept_tells_the_swap_and_labels_name_each_counter():
    state = play(
        trade_start(),
        {"by": 0, "do": "offer", "cards": ["ge-luxuries-6"]},
        {"by": 1, "do": "counter", "cards": ["ge-tools-8"]},
        {"by": 2, "do": "decline"},
    )
    accept = {"by": 0, "do": "accept", "seat": 1}
    assert E.label(accept, 0, state) == "Accept {p1}'s Tools 8 (8 points of tools)."
    told_to = {seat: told(state, accept, seat)[0] for seat in (None, 0, 1, 2)}
    them = "{p0} accepts {p1}'s counter: Luxuries 6 goes to {p1} and Tools 8 to {p0}."
    assert told_to == {
        None: them,
        0: "You accept {p1}'s counter: Luxuries 6 goes to {p1} and Tools 8 to you.",
        1: "{p0} accepts your counter: Luxuries 6 goes to you and Tools 8 to {p0}.",
        2: them,
    }
    assert E.describe(accept, 2) == "{p0} accepts {p1}'s counter and they swap the cards."


def test_reaching_the_goal_ends_the_game_in_words():
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
    state = play(
        begin(3, [seat0, ["ge-luxuries-4"], []]),
        {"by": 0, "do": "offer", "cards": ["ge-tools-3"]},
        {"by": 1, "do": "counter", "cards": ["ge-luxuries-4"]},
        {"by": 2, "do": "decline"},
    )
    text, _ = told(state, {"by": 0, "do": "accept", "seat": 1}, 2)
    assert text.endswith(
        "; {p0} holds exactly 12 points of each resource, so the game ends and {p0} wins by "
        "reaching the goal; final scores (each resource scores 12 less its distance from 12 "
        "points; 48 is the best): {p0} 48 (food 12, tools 12, medicine 12, luxuries 12), "
        "{p1} 7 (food 24, tools 7, medicine 0, luxuries 0), you 11 (food 19, tools 6, "
        "medicine 0, luxuries 0)."
    )


# -- special events ----------------------------------------------------------------------


def test_king_draw_is_named_only_to_the_drawer():
    state = play(begin(3, [["ge-king-clubs"], [], []]), {"by": 0, "do": "skip_trade"})
    event = {"by": 0, "do": "play_special", "card": "ge-king-clubs"}
    assert E.label(event, 0, state) == "Play the King of clubs: draw an extra card."
    after = E.apply(state, event)
    extra = new_cards(state, after, 0)
    drawn = new_cards(state, after, 1)
    assert len(extra) == 1
    assert len(drawn) == 2
    mine = E.describe(event, 0, before=state, after=after)
    assert mine == (
        f"You play the King of clubs and draw {name(extra[0])}; "
        "{p1} begins their turn and draws 2 cards."
    )
    theirs = E.describe(event, 1, before=state, after=after)
    assert theirs == (
        "{p0} plays the King of clubs and draws an extra card; "
        f"you begin your turn and draw {name(drawn[0])} and {name(drawn[1])}."
    )
    third = E.describe(event, 2, before=state, after=after)
    assert name(extra[0]) not in third
    assert name(drawn[0]) not in third
    assert third.endswith("draws an extra card; {p1} begins their turn and draws 2 cards.")
    everyone = E.describe(event, None, before=state, after=after)
    assert name(extra[0]) in everyone
    assert name(drawn[1]) in everyone
    for seat in (0, 1, 2):
        safe(E.describe(event, seat, before=state, after=after), state, event, after, seat, 3)


def jack_game():
    seats = [
        ["ge-jack-clubs", "ge-food-1", "ge-food-2", "ge-food-3", "ge-food-4", "ge-food-5"],
        ["ge-tools-1", "ge-tools-2", "ge-tools-3", "ge-tools-4", "ge-tools-5", "ge-tools-6"],
        ["ge-medicine-1", "ge-medicine-2", "ge-medicine-3", "ge-medicine-4", "ge-medicine-5"],
    ]
    return play(begin(3, seats), {"by": 0, "do": "skip_trade"})


def test_jack_pass_is_secret_until_everyone_has_chosen():
    state = jack_game()
    jack = {"by": 0, "do": "play_special", "card": "ge-jack-clubs"}
    text, state = told(state, jack, 2)
    assert text == "{p0} plays the Jack of clubs: every player passes 3 cards to the left."
    assert E.label({"by": 1, "do": "pass_card", "card": "ge-tools-1"}, 1, state) == (
        "Pass Tools 1 to {p2}."
    )
    event = {"by": 1, "do": "pass_card", "card": "ge-tools-1"}
    mine, _ = told(state, event, 1)
    assert mine == "You set aside Tools 1 to pass to {p2}."
    assert told(state, event, None)[0] == "{p1} sets aside Tools 1 to pass to {p2}."
    theirs, _ = told(state, event, 2)
    assert theirs == "{p1} sets aside a card to pass."
    assert E.describe(event, 2) == "{p1} sets aside a card to pass."
    for card in ("ge-tools-1", "ge-tools-2", "ge-tools-3", "ge-food-1", "ge-food-2", "ge-food-3"):
        state = play(state, {"by": 1 if "tools" in card else 0, "do": "pass_card", "card": card})
    state = play(
        state,
        {"by": 2, "do": "pass_card", "card": "ge-medicine-1"},
        {"by": 2, "do": "pass_card", "card": "ge-medicine-2"},
    )
    last = {"by": 2, "do": "pass_card", "card": "ge-medicine-3"}
    after = E.apply(state, last)
    to_seat_2 = E.describe(last, 2, before=state, after=after)
    assert to_seat_2 == (
        "You set aside Medicine 3 to pass to {p0}; all set-aside cards move to the left "
        "at once, and you get Tools 1, Tools 2 and Tools 3 from {p1}; "
        "{p1} begins their turn and draws 2 cards."
    )
    to_seat_0 = E.describe(last, 0, before=state, after=after)
    assert to_seat_0.startswith(
        "{p2} sets aside a card to pass; all set-aside cards move to the left at once, "
        "and you get Medicine 1, Medicine 2 and Medicine 3 from {p2};"
    )
    assert "Tools" not in to_seat_0
    # Seat 1 receives and draws at once: it sees which cards came from its neighbour and
    # which from the deck, so both are named, apart (never "draws 2 cards" then named).
    to_seat_1 = E.describe(last, 1, before=state, after=after)
    passed = {"ge-food-1", "ge-food-2", "ge-food-3"}
    drawn = [c for c in new_cards(state, after, 1) if c not in passed]
    assert len(drawn) == 2
    assert to_seat_1 == (
        "{p2} sets aside a card to pass; all set-aside cards move to the left at once, and you "
        "get Food 1, Food 2 and Food 3 from {p0}; you begin your turn and draw "
        f"{name(drawn[0])} and {name(drawn[1])}."
    )
    assert "Medicine" not in to_seat_1
    for seat in (0, 1, 2):
        text = E.describe(last, seat, before=state, after=after)
        safe(text, state, last, after, seat, 3)


def test_queen_discards_are_hidden_then_shown_together():
    state = play(
        begin(3, [["ge-queen-hearts", "ge-food-1"], ["ge-tools-9"], ["ge-medicine-9"]]),
        {"by": 0, "do": "skip_trade"},
    )
    queen = {"by": 0, "do": "play_special", "card": "ge-queen-hearts"}
    assert E.label(queen, 0, state) == (
        "Play the Queen of hearts: every other player discards one card of their choice."
    )
    text, state = told(state, queen, 1)
    assert text == (
        "{p0} plays the Queen of hearts: every other player discards one card of their choice."
    )
    first = {"by": 2, "do": "discard", "card": "ge-medicine-9"}
    assert E.label(first, 2, state) == "Discard Medicine 9."
    assert told(state, first, 2)[0] == "You set aside Medicine 9 to discard."
    assert told(state, first, None)[0] == "{p2} sets aside Medicine 9 to discard."
    assert told(state, first, 1)[0] == "{p2} sets aside a card to discard."
    state = play(state, first)
    last = {"by": 1, "do": "discard", "card": "ge-tools-9"}
    text, after = told(state, last, 2)
    assert text.startswith(
        "{p1} sets aside Tools 9 to discard; the chosen cards go face up on the discard pile: "
        "Tools 9 and Medicine 9; {p1} begins their turn and draws "
    )
    assert E.describe(last, 2) == "{p1} sets aside a card to discard."  # no state: hidden
    safe(text, state, last, after, 2, 3)


def test_queen_of_spades_labels_each_target_and_tells_the_random_card():
    state = play(
        begin(3, [["ge-queen-spades", "ge-food-1"], [], ["ge-medicine-9"]]),
        {"by": 0, "do": "skip_trade"},
    )
    labels = [E.label(e, 0, state) for e in E.legal_events(state, 0)]
    assert labels == [
        "Play the Queen of spades on yourself: discard a card at random.",
        "Play the Queen of spades on {p1}: {p1} discards a card at random.",
        "Play the Queen of spades on {p2}: {p2} discards a card at random.",
        "End your turn.",
    ]
    event = {"by": 0, "do": "play_special", "card": "ge-queen-spades", "target": 2}
    text, state = told(state, event, 1)
    assert text == "{p0} plays the Queen of spades: {p2} must discard a card at random."
    chance = {"by": "chance", "do": "random_discard", "card": "ge-medicine-9"}
    for seat in (None, 0, 1, 2):
        text, _after = told(state, chance, seat)
        if seat == 2:
            assert text.startswith("You discard Medicine 9, picked at random; {p1} begins their")
        elif seat == 1:
            assert text.startswith("{p2} discards Medicine 9, picked at random; you begin your")
        else:
            assert text.startswith("{p2} discards Medicine 9, picked at random; {p1} begins their")
    assert E.describe(chance, 1) == "Medicine 9 is discarded at random."


def test_end_turn_and_the_empty_deck():
    state = play(trade_start(), {"by": 0, "do": "skip_trade"})
    event = {"by": 0, "do": "end_turn"}
    assert E.label(event, 0, state) == "End your turn."
    after = E.apply(state, event)
    drawn = new_cards(state, after, 1)
    assert E.describe(event, 2, before=state, after=after) == (
        "{p0} ends their turn; {p1} begins their turn and draws 2 cards."
    )
    assert E.describe(event, 0, before=state, after=after) == (
        "You end your turn; {p1} begins their turn and draws 2 cards."
    )
    assert E.describe(event, 1, before=state, after=after) == (
        f"{{p0}} ends their turn; you begin your turn and draw {name(drawn[0])} "
        f"and {name(drawn[1])}."
    )
    # the last end of turn: the deck is empty when the next draw is due
    state = skip_to_end_but_one(begin(2, [[], []]))
    seat = E.to_move(state)[0]
    state = play(state, {"by": seat, "do": "skip_trade"})
    last = {"by": seat, "do": "end_turn"}
    text, after = told(state, last, 1 - seat)
    assert E.is_over(after)
    assert "the deck is empty, so the game ends and" in text
    # No "score of 36 out of 48": the score, then how every seat's score was counted.
    assert "out of 48" not in text
    assert "; final scores (each resource scores 12 less its distance from 12 points; 48 is " in (
        text
    )


def skip_to_end_but_one(state):
    """Skip turns until the next end of turn ends the game."""
    while True:
        seat = E.to_move(state)[0]
        nxt = play(state, {"by": seat, "do": "skip_trade"}, {"by": seat, "do": "end_turn"})
        if E.is_over(nxt):
            return state
        state = nxt


# -- whole games -----------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 4])
def test_every_sentence_of_a_game_is_safe_and_ends_with_a_period(n):
    events, _ = self_play(E, n, rng=random.Random(n))
    states = list(replay_states(E, n, None, events))
    for i, event in enumerate(events):
        for seat in [None, *range(n)]:
            text = E.describe(event, seat, before=states[i], after=states[i + 1])
            assert text.endswith("."), text
            assert text.count(".") == 1, text
            assert "{" not in text.replace("{p", "")
            assert "_" not in text
            assert "ge-" not in text
