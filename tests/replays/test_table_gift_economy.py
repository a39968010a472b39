"""Gift Economy's drawn table: the shared checks over bot games, and what a player sees."""

from __future__ import annotations

import html as html_lib
import random
import re

import pytest

from games.gift_economy import ENGINE
from games.play import greedy_bot, self_play
from replays.tables import gift_economy as drawing
from tests.games.test_gift_economy import JOHN, JOHN_DRAWS, OTHER, begin, play
from tests.replays.tables_check import check_tables, drawn

E = ENGINE
NAMES = ["Ana", "Ben", "Cy", "Dee", "Eli", "Fay"]


@pytest.mark.parametrize("n", range(E.min_players, E.max_players + 1))
def test_tables_of_random_games(n):
    events, _ = self_play(E, n, rng=random.Random(n))
    check_tables(E, n, events, sample=4, seed=n)


def test_tables_of_a_greedy_game():
    """Greedy bots trade more (accepted deals, counters on the table)."""
    events, _ = self_play(E, 3, rng=random.Random(13), bots=[greedy_bot] * 3)
    check_tables(E, 3, events, sample=8, seed=3)


def faces(html: str) -> set[str]:
    return set(re.findall(r'data-card="([^"]+)"', html))


def keys(html: str) -> set[str]:
    return set(re.findall(r'data-key="([^"]+)"', html))


def html_of(state, seat):
    return drawn(E, state, seat, NAMES[: E.num_players(state)])


def text_of(html: str) -> str:
    """The words on the page, tags dropped and entities undone (for readable asserts)."""
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", html))


def test_own_hand_is_faces_in_resource_groups_others_are_counts():
    state = begin(3, [JOHN + JOHN_DRAWS, OTHER, []])
    page = html_of(state, 0)
    assert faces(page) == set(state.hands[0])
    words = " ".join(text_of(page).split())
    assert "Ana (you)" in words
    assert "Food: 3 / 12 9 to go" in words  # Food 1 + Food 2
    assert "Luxuries: 6 / 12 6 to go" in words
    assert "6 in hand" in words  # Ben's and Cy's hands are piles with a count
    assert "Score 22 (48 is the best)" in words  # 3 + 6 + 7 + 6
    # the viewer's cards are keyed for live play; nobody else's are drawn
    assert keys(page) >= set(state.hands[0])
    assert not faces(page) & set(state.hands[1])
    # the whole table sees every hand, and the deck in draw order
    everyone = html_of(state, None)
    assert set(state.hands[1]) <= faces(everyone)
    assert "The deck in draw order (32 cards)" in text_of(everyone)


def test_the_deal_on_the_table_with_counters_and_accept_targets():
    state = play(
        begin(3, [JOHN + JOHN_DRAWS, OTHER, []]),
        {"by": 0, "do": "offer", "cards": ["ge-luxuries-6"]},
        {"by": 1, "do": "counter", "cards": ["ge-tools-8"]},
    )
    page = html_of(state, 2)
    words = " ".join(text_of(page).split())
    assert "The deal on the table" in words
    assert "Ana offers 6 points of luxuries:" in words
    assert "A counter may be 7 to 9 points of any one resource; more than 9 is potlatching." in (
        words
    )
    assert "Ben counters with 8 points of tools:" in words
    assert "Cy (you): answering now…" in words
    assert {"ge-luxuries-6", "ge-tools-8"} <= faces(page)
    state = play(state, {"by": 2, "do": "decline"})
    page = html_of(state, 0)
    assert "Cy: declines" in text_of(page)
    assert "on offer" in text_of(page)  # the offered card still sits in Ana's hand
    view = E.view(state, 0)
    accept = {"by": 0, "do": "accept", "seat": 1}
    assert drawing.target(accept, view) == "counter-1"
    assert "counter-1" in keys(page)
    assert drawing.target({"by": 0, "do": "reject"}, view) is None


def test_targets_are_the_cards_a_move_uses():
    view = {}
    offer = {"by": 0, "do": "offer", "cards": ["ge-food-1", "ge-food-2"]}
    assert drawing.target(offer, view) == "ge-food-2"  # the highest card of the set
    counter = {"by": 1, "do": "counter", "cards": ["ge-tools-8"]}
    assert drawing.target(counter, view) == "ge-tools-8"
    special = {"by": 0, "do": "play_special", "card": "ge-queen-spades", "target": 2}
    assert drawing.target(special, view) == "ge-queen-spades"
    assert drawing.target({"by": 0, "do": "pass_card", "card": "ge-food-1"}, view) == "ge-food-1"
    assert drawing.target({"by": 0, "do": "discard", "card": "ge-food-1"}, view) == "ge-food-1"
    for kind in ("skip_trade", "decline", "end_turn"):
        assert drawing.target({"by": 0, "do": kind}, view) is None


def test_special_event_in_play_and_set_aside_cards():
    seats = [
        ["ge-jack-clubs", "ge-food-1", "ge-food-2", "ge-food-3", "ge-food-4", "ge-food-5"],
        ["ge-tools-1", "ge-tools-2", "ge-tools-3", "ge-tools-4", "ge-tools-5", "ge-tools-6"],
        [],
    ]
    state = play(
        begin(3, seats),
        {"by": 0, "do": "skip_trade"},
        {"by": 0, "do": "play_special", "card": "ge-jack-clubs"},
        {"by": 1, "do": "pass_card", "card": "ge-tools-1"},
    )
    mine = html_of(state, 1)
    words = " ".join(text_of(mine).split())
    assert "Special Event" in words
    assert "Ana played it: every player passes 3 cards to the left." in words
    assert "Still choosing: Ana, Ben (you), Cy." in words
    assert "ge-tools-1" in faces(mine)  # Ben's own set-aside card, drawn face down
    assert 'data-card="ge-tools-1"' in mine
    assert "known-down" in mine
    theirs = html_of(state, 0)
    assert "ge-tools-1" not in faces(theirs)
    assert "1 set aside" in text_of(theirs)


def test_final_ranking():
    _, final = self_play(E, 3, rng=random.Random(1))
    page = html_of(final, 1)
    words = " ".join(text_of(page).split())
    assert "Final ranking" in words
    result = E.result(final)
    winner = NAMES[result.winners[0]] + (" (you)" if result.winners[0] == 1 else "")
    assert f"1st 🏆 {winner}: {result.scores[result.winners[0]]} points" in words
    assert "The deck ran out." in words
    # every hand is shown at the end
    assert all(set(hand) <= faces(page) for hand in final.hands)


def test_ranking_after_the_goal():
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
        {"by": 0, "do": "accept", "seat": 1},
    )
    words = " ".join(text_of(html_of(state, 2)).split())
    assert "A player holds exactly 12 of each resource." in words
    assert "1st 🏆 Ana: 48 points (food 12, tools 12, medicine 12, luxuries 12)" in words
    assert "Food: 12 / 12 ✓ exactly 12" in words
    assert "Taken by Ben for 4 points of luxuries:" in words


def test_a_queens_player_is_not_asked_to_choose():
    state = play(
        begin(3, [["ge-queen-hearts", "ge-food-1"], ["ge-tools-9"], ["ge-medicine-9"]]),
        {"by": 0, "do": "skip_trade"},
        {"by": 0, "do": "play_special", "card": "ge-queen-hearts"},
    )
    page = html_of(state, 0)
    words = " ".join(text_of(page).split())
    assert "every other player sets one card aside to discard" in words
    assert words.count("Still to choose") == 2  # Ben and Cy, not Ana
    assert "Still choosing: Ben, Cy." in words
