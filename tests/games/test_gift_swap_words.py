"""Gift Swap told in words: each event's sentence for everyone, the actor and the others.

The position used throughout is the 3-player deal of ``test_gift_swap`` (seat 0
holds Nice Gift 1, Quirky Gift 1, Nice Gift 2, Quirky Gift 2, Nice Gift 3; seat 1
Neon Ball, Polaroid, Quirky Gift 3, Nice Gift 4, Quirky Gift 4; seat 2 Party Hat,
Party Horn, Nice Gift 5, Quirky Gift 5, Nice Gift 6), played on by hand.
"""

from __future__ import annotations

import json

import pytest

from games.gift_swap.cards import ALL_IDS
from tests.games.test_gift_swap import ASIDE3, ROWS3, E, deal_order, ev, started
from tests.games.words import check_labels, check_sentence


def told(state, event):
    """The event told to everyone (None) and to each seat, with the states around it."""
    return {seat: E.describe(event, seat, before=state) for seat in (None, 0, 1, 2)}


def labels(state, seat):
    return {E.label(e, seat, state) for e in E.legal_events(state, seat)}


def play(state, *events):
    for event in events:
        state = E.apply(state, event)
    return state


SWAP = ev(0, "swap", card=1, with_seat=1, with_card=3)  # Quirky Gift 1 <-> Nice Gift 4


@pytest.fixture
def swapped():
    """Seat 0 has swapped its Quirky Gift 1 for seat 1's Nice Gift 4."""
    return play(started(), SWAP)


@pytest.fixture
def regift_step(swapped):
    """Seat 1 opened Quirky Gift 1 (regift), seat 0 kept Nice Gift 4; both placed."""
    return play(
        swapped,
        ev(1, "choose", choice="open"),
        ev(0, "choose", choice="keep"),
        ev(0, "place", pos=4),
        ev(1, "place", pos=0),
    )


@pytest.fixture
def rewrap_step(regift_step):
    """Seat 1 regifted for seat 2's Nice Gift 5, opened it (rewrap), both placed."""
    return play(
        regift_step,
        ev(1, "regift", row=2, card=2),
        ev(1, "choose", choice="open"),
        ev(1, "place", pos=4),
        ev(2, "place", pos=2),
    )


@pytest.fixture
def trade_step(rewrap_step):
    """Seat 1's turn: it swapped Quirky Gift 4 for seat 2's Nice Gift 6, both opened."""
    return play(
        rewrap_step,
        ev(1, "rewrap", row=2, card=2),
        ev(1, "swap", card=3, with_seat=2, with_card=4),
        ev(1, "choose", choice="open"),
        ev(2, "choose", choice="open"),
        ev(1, "place", pos=4),
        ev(2, "place", pos=3),
    )


def keep_until_special():
    """Everyone keeps for two rounds; returns the state, event and result that start
    the special condition (nobody has opened a card)."""
    state = started()
    while True:
        seat = E.to_move(state)[0]
        legal = E.legal_events(state, seat)
        keeps = [e for e in legal if e.get("choice") == "keep"]
        event = keeps[0] if keeps else legal[0]
        after = E.apply(state, event)
        if after.phase == "special":
            return state, event, after
        state = after


def play_to_the_end():
    """Always open, never use an effect: returns the last state, event and final state."""
    state = started()
    while True:
        seat = E.to_move(state)[0]
        legal = E.legal_events(state, seat)
        opens = [e for e in legal if e.get("choice") == "open"]
        event = opens[0] if opens else legal[0]
        after = E.apply(state, event)
        if E.is_over(after):
            return state, event, after
        state = after


# -- the catalog -------------------------------------------------------------------


def test_catalog_names_every_card_with_points_colour_and_effect():
    catalog = E.card_catalog()
    assert set(catalog) == set(ALL_IDS)
    json.dumps(catalog)
    assert catalog["gs-r5"]["name"] == "Nice Gift 5"
    assert catalog["gs-r5"]["value"] == 3  # three red gift-box icons
    assert catalog["gs-r5"]["colour"] == "red"
    assert "Rewrap" in catalog["gs-r5"]["text"]
    assert catalog["gs-b3"]["value"] == -2
    assert catalog["gs-b3"]["colour"] == "blue"
    assert catalog["gs-b3"]["kind"] == "Quirky Gift"
    assert "Trade" in catalog["gs-b3"]["text"]
    assert catalog["gs-p-chicken"]["value"] is None
    assert catalog["gs-p-chicken"]["kind"] == "Party Prop and Quirky Gift"
    assert "Nice Gift" in catalog["gs-p-polaroid"]["text"]
    assert len({info["name"] for info in catalog.values()}) == len(ALL_IDS)
    for info in catalog.values():
        assert info["icon"]
        assert info["text"].endswith(".")
    assert E.card_catalog() is catalog  # cached


# -- each event, told -----------------------------------------------------------------


def test_deal_shows_each_seat_only_its_own_cards():
    state = E.setup(3)
    deal = ev("chance", "deal", order=deal_order(ROWS3, ASIDE3))
    words = told(state, deal)
    assert words[0] == (
        "The cards are shuffled and dealt; you get Nice Gift 1, Quirky Gift 1, "
        "Nice Gift 2, Quirky Gift 2 and Nice Gift 3."
    )
    assert "Neon Ball" in words[1]
    assert "Nice Gift 1" not in words[1]
    assert "Party Hat" in words[2]
    assert words[None] == (
        "The cards are shuffled and dealt: 5 to each player, 3 set aside face down."
    )
    for seat in (None, 0, 1):
        assert E.describe(deal, seat) == "The cards are shuffled and dealt."


def test_arrange_is_told_in_full_only_to_its_maker():
    state = E.apply(E.setup(3), ev("chance", "deal", order=deal_order(ROWS3, ASIDE3)))
    event = ev(1, "arrange", order=ROWS3[1])
    words = told(state, event)
    assert words[None] == (
        "{p1} arranges their row face down, left to right: Neon Ball, Polaroid, "
        "Quirky Gift 3, Nice Gift 4 and Quirky Gift 4."
    )
    assert words[1] == (
        "You arrange your row face down, left to right: Neon Ball, Polaroid, "
        "Quirky Gift 3, Nice Gift 4 and Quirky Gift 4."
    )
    assert words[0] == words[2] == "{p1} arranges their row face down."


def test_swap_names_only_the_cards_each_seat_knows():
    words = told(started(), SWAP)
    assert words[None] == (
        "{p0} swaps their 2nd card (Quirky Gift 1) with {p1}'s 4th card (Nice Gift 4), face down."
    )
    assert words[0] == "You swap your 2nd card (Quirky Gift 1) with {p1}'s 4th card, face down."
    assert words[1] == "{p0} swaps their 2nd card with your 4th card (Nice Gift 4), face down."
    assert words[2] == "{p0} swaps their 2nd card with {p1}'s 4th card, face down."


def test_first_choice_stays_secret_from_the_others(swapped):
    words = told(swapped, ev(1, "choose", choice="open"))
    assert words[1] == "You secretly choose to open."
    assert words[0] == words[2] == "{p1} makes a secret choice, Keep or Open."
    assert "open" not in words[0]


def test_last_choice_reveals_both_but_a_kept_card_only_to_who_knows_it(swapped):
    state = E.apply(swapped, ev(1, "choose", choice="open"))
    words = told(state, ev(0, "choose", choice="keep"))
    assert words[0] == (
        "You keep your new card (Nice Gift 4); "
        "{p1} had chosen to open theirs: Quirky Gift 1 (regift)."
    )
    assert words[1] == (
        "{p0} keeps their new card (Nice Gift 4); "
        "you had chosen to open yours: Quirky Gift 1 (regift)."
    )
    # Seat 2 never saw Nice Gift 4: it learns only that it was kept.
    assert words[2] == (
        "{p0} keeps their new card face down; "
        "{p1} had chosen to open theirs: Quirky Gift 1 (regift)."
    )
    assert "Nice Gift 4" not in words[2]
    # Without the states, the other seats are told nothing of the choice.
    assert E.describe(ev(0, "choose", choice="keep"), 2) == (
        "{p0} makes a secret choice, Keep or Open."
    )


def test_place_names_the_card_for_those_who_know_it(swapped):
    state = play(swapped, ev(1, "choose", choice="open"), ev(0, "choose", choice="keep"))
    words = told(state, ev(0, "place", pos=4))
    assert words[0] == "You place Nice Gift 4 as the 5th card of your row."
    assert words[1] == "{p0} places Nice Gift 4 as the 5th card of their row."
    assert words[2] == "{p0} places the card they received as the 5th card of their row."
    opened = E.apply(state, ev(0, "place", pos=4))
    assert told(opened, ev(1, "place", pos=0))[2] == (
        "{p1} places Quirky Gift 1 as the 1st card of their row."
    )


def test_decline_names_the_effect(regift_step):
    words = told(regift_step, ev(1, "decline"))
    assert words.pop(1) == "You do not use the regift effect of Quirky Gift 1."
    assert set(words.values()) == {"{p1} does not use the regift effect of Quirky Gift 1."}
    assert E.describe(ev(1, "decline"), 0) == "{p1} does not use the card's effect."


def test_regift_names_the_target_only_for_its_owner(regift_step):
    words = told(regift_step, ev(1, "regift", row=2, card=2))
    assert words[2] == "{p1} regifts Quirky Gift 1, swapping it for your 3rd card (Nice Gift 5)."
    assert words[0] == "{p1} regifts Quirky Gift 1, swapping it for {p2}'s 3rd card."
    assert words[1] == "You regift Quirky Gift 1, swapping it for {p2}'s 3rd card."
    aside = told(regift_step, ev(1, "regift", row="aside", card=0))
    assert aside[1] == "You regift Quirky Gift 1, swapping it for the 1st set-aside card."
    assert "Confetti Popper" in aside[None]
    assert "Confetti Popper" not in aside[1]


def test_lone_choice_after_a_regift_is_told_at_once(regift_step):
    state = E.apply(regift_step, ev(1, "regift", row=2, card=2))
    keep = told(state, ev(1, "choose", choice="keep"))
    assert keep[1] == "You keep your new card (Nice Gift 5)."
    assert keep[2] == "{p1} keeps their new card (Nice Gift 5)."  # seat 2 dealt it
    assert keep[0] == "{p1} keeps their new card face down."
    opened = told(state, ev(1, "choose", choice="open"))
    assert opened.pop(1) == "You open your new card: Nice Gift 5 (rewrap)."
    assert set(opened.values()) == {"{p1} opens their new card: Nice Gift 5 (rewrap)."}


def test_rewrap_names_the_card_turned_down(rewrap_step):
    words = told(rewrap_step, ev(1, "rewrap", row=2, card=2))
    assert words.pop(1) == (
        "You rewrap with Nice Gift 5: {p2}'s 3rd card (Quirky Gift 1) is turned face down."
    )
    assert words.pop(2) == (
        "{p1} rewraps with Nice Gift 5: your 3rd card (Quirky Gift 1) is turned face down."
    )
    assert set(words.values()) == {
        "{p1} rewraps with Nice Gift 5: {p2}'s 3rd card (Quirky Gift 1) is turned face down."
    }
    own = told(rewrap_step, ev(1, "rewrap", row=1, card=4))[0]
    assert own == "{p1} rewraps with Nice Gift 5: their 5th card (Nice Gift 5) is turned face down."
    assert E.describe(ev(1, "rewrap", row=2, card=2), 0) == (
        "{p1} rewraps: {p2}'s 3rd card is turned face down."
    )


def test_trade_names_both_face_up_cards(trade_step):
    words = told(trade_step, ev(1, "trade", row=2, card=3))
    assert words.pop(1) == (
        "You trade Nice Gift 6 for {p2}'s 4th card (Quirky Gift 4), both face up."
    )
    assert words.pop(2) == (
        "{p1} trades Nice Gift 6 for your 4th card (Quirky Gift 4), both face up."
    )
    assert set(words.values()) == {
        "{p1} trades Nice Gift 6 for {p2}'s 4th card (Quirky Gift 4), both face up."
    }
    assert E.describe(ev(1, "trade", row=2, card=3), 0) == (
        "{p1} trades their card for {p2}'s 4th card, both face up."
    )


def test_special_condition_is_announced():
    before, event, _ = keep_until_special()
    words = told(before, event)
    for text in words.values():
        assert text.endswith(
            "; nobody has opened a gift in two rounds, so each player now flips one card."
        )
    assert "nobody" not in E.describe(event, 0)  # no states: nothing to compare


def test_flip_names_the_card_it_turns_up():
    _, _, state = keep_until_special()
    flip = ev(0, "flip", card=2)
    name = E.card_catalog()[state.rows[0][2]]["name"]
    words = told(state, flip)
    for seat, text in words.items():
        flips = "You flip your" if seat == 0 else "{p0} flips their"
        assert text.startswith(f"{flips} 3rd card face up: {name}")
    assert E.describe(flip, 1) == "{p0} flips their 3rd card face up."
    assert labels(state, 0) == {
        f"Flip your {nth} card ({E.card_catalog()[card]['name']})."
        for nth, card in zip(("1st", "2nd", "3rd", "4th", "5th"), state.rows[0], strict=True)
    }


def test_the_last_event_tells_who_wins():
    before, event, after = play_to_the_end()
    result = E.result(after)
    refs = [f"{{p{w}}}" for w in result.winners]
    names = refs[0] if len(refs) == 1 else ", ".join(refs[:-1]) + " and " + refs[-1]
    verb = "wins" if len(result.winners) == 1 else "share the win"
    best = result.scores[result.winners[0]]
    amount = f"{best} point" if abs(best) == 1 else f"{best} points"
    ending = f"; a row is all face up, so the game ends and {names} {verb} with {amount}; "
    assert ending in E.describe(event, None, before=before)
    text = E.describe(event, None, before=before)
    # Every seat's final score, with how it was counted, in seat order.
    parts = []
    for seat, part in enumerate(result.details["breakdown"]):
        note = (
            f"Party Props {part['party_prop_points']}, Nice Gifts {part['nice_points']:+d}, "
            f"Quirky Gifts {part['quirky_points']:+d}".replace("+0", "0")
        )
        if part["king_of_quirky_gifts"]:
            note += " as King of Quirky Gifts"
        parts.append(f"{{p{seat}}} {result.scores[seat]} ({note})")
    assert text.endswith("; final scores: " + ", ".join(parts) + ".")
    assert "game ends" not in E.describe(event, 0)


# -- move labels --------------------------------------------------------------------------


def test_arrange_labels_list_the_row():
    state = E.apply(E.setup(3), ev("chance", "deal", order=deal_order(ROWS3, ASIDE3)))
    texts = labels(state, 1)
    assert len(texts) == len(E.legal_events(state, 1))
    assert (
        "Arrange your row as Neon Ball, Polaroid, Quirky Gift 3, Nice Gift 4 and "
        "Quirky Gift 4, left to right."
    ) in texts
    check_labels(E, state, 3, 1)


def test_swap_labels_name_only_own_cards():
    state = started()
    texts = labels(state, 0)
    assert len(texts) == 50
    assert "Swap your 2nd card (Quirky Gift 1) for {p1}'s 4th card." in texts
    assert not any("Nice Gift 4" in t or "Party Hat" in t for t in texts)


def test_choose_labels(swapped):
    assert (
        labels(swapped, 0)
        == labels(swapped, 1)
        == {
            "Keep it (look at it secretly).",
            "Open it (turn it face up).",
        }
    )


def test_place_labels_give_the_neighbours(regift_step, swapped):
    state = play(swapped, ev(1, "choose", choice="open"), ev(0, "choose", choice="keep"))
    assert labels(state, 0) == {"Place it 5th, right of Nice Gift 3."}
    state = E.apply(state, ev(0, "place", pos=4))
    assert labels(state, 1) == {
        "Place it 1st, left of Neon Ball.",
        "Place it 2nd, between Neon Ball and Polaroid.",
        "Place it 3rd, between Polaroid and Quirky Gift 3.",
    }


def test_effect_labels(regift_step, rewrap_step, trade_step):
    regift = labels(regift_step, 1)
    assert "Do not use the regift effect." in regift
    assert "Regift: swap it for {p2}'s 3rd card." in regift
    assert "Regift: swap it for {p0}'s 5th card (Nice Gift 4)." in regift  # seat 1 gave it
    assert "Regift: swap it for the 2nd set-aside card." in regift
    assert not any("Rubber Chicken" in t or "Party Hat" in t for t in regift)
    assert labels(rewrap_step, 1) == {
        "Do not use the rewrap effect.",
        "Rewrap: turn your 5th card (Nice Gift 5) face down.",
        "Rewrap: turn {p2}'s 3rd card (Quirky Gift 1) face down.",
    }
    assert labels(trade_step, 1) == {
        "Do not use the trade effect.",
        "Trade: swap it for {p2}'s 4th card (Quirky Gift 4).",
    }
    for state in (regift_step, rewrap_step, trade_step):
        check_labels(E, state, 3, 0)


def test_sentences_pass_the_shared_word_checks(trade_step):
    event = ev(1, "trade", row=2, card=3)
    after = E.apply(trade_step, event)
    for seat in (0, 1, 2):
        text = E.describe(event, seat, before=trade_step)
        visible = [
            E.event_view(event, seat, before=trade_step),
            E.view(trade_step, seat),
            E.view(after, seat),
        ]
        check_sentence(E, text, 3, seat, visible, "trade")
