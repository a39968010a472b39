"""Secret Santa in words: the catalog, each event's sentence per seat, move labels.

Each sentence is checked for everyone, for the seat that acts and for a seat
that must not learn the card; the conformance suite checks the same rules on
random games (tests/games/words.py).
"""

from __future__ import annotations

import json

from games.secret_santa import CARDS, ENGINE, State
from games.secret_santa.words import cards_phrase, ordinal
from tests.games.words import check_labels, check_sentence


def take(by: int, source, index: int) -> dict:
    return {"by": by, "do": "take", "from": source, "index": index}


def give(by: int, card: str) -> dict:
    return {"by": by, "do": "give", "card": card}


def position(
    hands: list[list[str]],
    *,
    guest_up: tuple[str, ...] = (),
    guest_down: tuple[str, ...] = (),
    piles: list[list[str]] | None = None,
    active: int = 0,
    totals: tuple[int, ...] | None = None,
) -> State:
    """A mid-round position of round 1 built directly; each seat knows its hand."""
    n = len(hands)
    state = ENGINE.setup(n).copy()
    state.box = ()
    state.phase = "take"
    state.active = active
    state.hands = tuple(tuple(h) for h in hands)
    state.piles = tuple(tuple(p) for p in (piles or [[] for _ in hands]))
    state.guest_up = tuple(guest_up)
    state.guest_down = tuple(guest_down)
    state.known = tuple(frozenset(h) for h in hands)
    state.totals = tuple(totals or (0,) * n)
    return state


def table() -> State:
    """Three players; seat 0 to take. The Matamug is the 2nd card in seat 1's hand."""
    return position(
        [
            ["ss-tea-1", "ss-teapot"],
            ["ss-cup-1", "ss-matamug", "ss-cup-2"],
            ["ss-gift-1", "ss-choc"],
        ],
        guest_up=("ss-cup-3",),
        guest_down=("ss-gift-2", "ss-tea-2"),
    )


def told(event: dict, state: State, n: int = 3) -> dict:
    """The sentence for everyone (None) and each seat, each checked for leaks."""
    after = ENGINE.apply(state, event)
    sentences = {}
    for seat in [None, *range(n)]:
        text = ENGINE.describe(event, seat, before=state, after=after)
        visible = [
            ENGINE.event_view(event, seat, before=state),
            ENGINE.view(state, seat),
            ENGINE.view(after, seat),
        ]
        check_sentence(ENGINE, text, n, seat, visible, f"seat {seat}")
        sentences[seat] = text
    return sentences


# -- the catalog -----------------------------------------------------------------------


def test_catalog_names_every_card_with_value_colour_and_effect():
    catalog = ENGINE.card_catalog()
    assert set(catalog) == set(CARDS)
    assert catalog["ss-teapot"]["name"] == "Tea pot"
    assert catalog["ss-teapot"]["value"] == 1
    assert catalog["ss-teapot"]["colour"] == "green"
    assert "doubles" in catalog["ss-teapot"]["text"]
    assert catalog["ss-gift-4"]["name"] == "Generic present"
    assert catalog["ss-gift-4"]["value"] == 2
    assert catalog["ss-matamug"]["colour"] == "red"
    assert catalog["ss-cup-5"]["value"] is None  # Cups score by how many
    assert "18" in catalog["ss-cup-5"]["text"]
    assert catalog["ss-choc"]["colour"] == "blue"
    assert all(info["icon"] and info["kind"] for info in catalog.values())
    assert ENGINE.card_catalog() is catalog  # built once
    json.dumps(catalog)


def test_phrases():
    assert [ordinal(i) for i in (1, 2, 3, 4, 11, 12, 21)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "21st",
    ]  # fmt: skip
    assert cards_phrase(["ss-teapot", "ss-cup-1", "ss-gift-1", "ss-cup-2"]) == (
        "Tea pot, 2 Cups and Generic present"
    )


# -- deal ------------------------------------------------------------------------------


def test_deal_tells_a_seat_its_own_hand_and_the_guest_face_up_row():
    # The unshuffled box, 3 players, dealt as before the deal_fallback option
    # ("first_with_room": cards nobody can take become thirds): seat 0 gets
    # 2 Generic presents, 3 Tea bags and a Cup; seat 1 has the Tea pot, seat 2
    # the Matamug; the guest shows 3 Cups.
    event = {"by": "chance", "do": "deal", "deck": list(CARDS)}
    said = told(event, ENGINE.setup(3, {"deal_fallback": "first_with_room"}))
    assert said[0] == (
        "The cards are shuffled and dealt for round 1: you get 2 Generic presents, "
        "3 Tea bags and Cup; the Unexpected guest shows 3 Cups face up; you play first."
    )
    assert "you get 3 Generic presents, 2 Tea bags and Tea pot;" in said[1]
    for other in ("Tea pot", "Matamug"):
        assert other not in said[0]
    assert "Matamug" not in said[1]
    assert "Tea pot" not in said[2]
    # Everyone: no "you", the public face-up row.
    assert said[None].startswith("The cards are shuffled and dealt for round 1: the Unexpected")
    assert "you get" not in said[None]


def test_deal_without_states_stays_hidden():
    event = {"by": "chance", "do": "deal", "deck": list(CARDS)}
    for seat in (None, 0, 1):
        assert ENGINE.describe(event, seat) == "The cards are shuffled and dealt."


# -- take ------------------------------------------------------------------------------


def test_take_from_a_hand_is_named_to_taker_and_holder_only():
    said = told(take(0, 1, 1), table())
    assert said[0] == "You take {p1}'s Matamug (2 points)."
    assert said[1] == "{p0} takes your Matamug (2 points)."
    assert said[None] == "{p0} takes {p1}'s Matamug (2 points)."
    assert said[2] == "{p0} takes {p1}'s 2nd card in hand (red back)."


def test_take_from_the_guest_names_the_next_giver():
    said = told(take(0, "guest", 1), table())
    assert said[0] == (
        "You take the Unexpected guest's face-down Tea bag (1 point); "
        "{p1} must now give the guest a card, face up."
    )
    assert said[2] == (
        "{p0} takes the Unexpected guest's 2nd face-down card (green back); "
        "{p1} must now give the guest a card, face up."
    )
    assert said[1] == (
        "{p0} takes the Unexpected guest's 2nd face-down card (green back); "
        "you must now give the guest a card, face up."
    )
    assert "Tea bag" in said[None]


def test_take_without_states_names_only_the_position():
    assert ENGINE.describe(take(0, 1, 1), 0) == "You take {p1}'s 2nd card in hand."
    assert ENGINE.describe(take(0, 1, 1), 1) == "{p0} takes your 2nd card in hand."
    assert ENGINE.describe(take(0, "guest", 0), 0) == (
        "You take the Unexpected guest's 1st face-down card."
    )
    for seat in (None, 2):
        assert ENGINE.describe(take(0, 1, 1), seat) == "{p0} takes {p1}'s 2nd card in hand."
        assert ENGINE.describe(take(0, "guest", 0), seat) == (
            "{p0} takes the Unexpected guest's 1st face-down card."
        )


def test_own_card_at_the_end_and_the_round_end():
    state = position(
        [["ss-cup-1", "ss-teapot"], [], []],
        piles=[["ss-tea-1", "ss-tea-2"], ["ss-gift-1", "ss-gift-2"], ["ss-cup-2"]],
    )
    said = told(take(0, 0, 1), state)
    assert said[0] == "You take your own Tea pot (1 point)."
    assert said[2] == "{p0} takes their own 2nd card in hand (green back)."
    assert "Tea pot" not in said[1]
    # Then seat 1 takes the last card, from seat 0: the round ends and is scored.
    last = ENGINE.apply(state, take(0, 0, 1))
    said = told(take(1, 0, 0), last)
    assert said[2] == (
        "{p1} takes {p0}'s 1st card in hand (blue back); that ends round 1 "
        "({p0} 5 points, {p1} 5 points, you 1 point)."
    )
    assert said[0].startswith("{p1} takes your Cup; that ends round 1 (you 5 points, ")
    assert said[1].startswith("You take {p0}'s Cup; that ends round 1 ({p0} 5 points, you 5")


def test_the_last_take_tells_the_winner():
    state = position(
        [["ss-gift-3"], [], []],
        piles=[["ss-gift-1", "ss-gift-2"], ["ss-tea-1"], []],
        totals=(22, 20, 3),
    )
    said = told(take(0, 0, 0), state)
    assert said[2] == (
        "{p0} takes their own 1st card in hand (red back); that ends round 1 "
        "({p0} 6 points, {p1} 1 point, you 0 points), and {p0} wins the game with 28 points; "
        "final scores: {p0} 28, {p1} 21, you 3."
    )


# -- give ------------------------------------------------------------------------------


def test_a_gift_to_the_guest_is_public():
    state = ENGINE.apply(table(), take(0, "guest", 0))
    said = told(give(1, "ss-matamug"), state)
    for seat in (None, 0, 2):
        assert said[seat] == "{p1} gives Matamug (2 points) to the Unexpected guest, face up."
    assert said[1] == "You give Matamug (2 points) to the Unexpected guest, face up."
    assert ENGINE.describe(give(1, "ss-cup-1"), 2) == (
        "{p1} gives Cup to the Unexpected guest, face up."
    )


# -- move labels -----------------------------------------------------------------------


def test_take_labels_show_position_and_back_never_the_card():
    state = table()
    labels = [ENGINE.label(e, 0, state) for e in ENGINE.legal_events(state, 0)]
    assert labels == [
        "Take {p1}'s 1st card in hand (blue back).",
        "Take {p1}'s 2nd card in hand (red back).",
        "Take {p1}'s 3rd card in hand (blue back).",
        "Take {p2}'s 1st card in hand (red back).",
        "Take {p2}'s 2nd card in hand (blue back).",
        "Take the Unexpected guest's 1st face-down card (red back).",
        "Take the Unexpected guest's 2nd face-down card (green back).",
    ]
    assert not any(name in label for label in labels for name in ("Matamug", "Cup", "Choc"))
    check_labels(ENGINE, state, 3, 0)


def test_give_labels_are_distinct_for_identical_cards():
    state = ENGINE.apply(table(), take(0, "guest", 0))
    labels = [ENGINE.label(e, 1, state) for e in ENGINE.legal_events(state, 1)]
    assert labels == [
        "Give your 1st card, Cup, to the guest.",
        "Give your 2nd card, Matamug (2 points), to the guest.",
        "Give your 3rd card, Cup, to the guest.",
    ]
    check_labels(ENGINE, state, 3, 1)


def test_own_card_labels_name_the_cards_the_seat_holds():
    state = position([["ss-cup-1", "ss-teapot"], [], []])
    labels = [ENGINE.label(e, 0, state) for e in ENGINE.legal_events(state, 0)]
    assert labels == [
        "Take your own 1st card: Cup.",
        "Take your own 2nd card: Tea pot (1 point).",
    ]
