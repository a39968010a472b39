"""Gift Swap's drawn table: every card the view holds, nothing more; moves point at cards."""

from __future__ import annotations

import random
from html import unescape

import pytest

from games.gift_swap import ENGINE
from games.gift_swap.cards import ALL_IDS
from games.play import self_play
from replays.tables.gift_swap import target
from tests.games.test_gift_swap import ROWS3, ev, play, started
from tests.games.test_gift_swap_words import SWAP
from tests.replays.tables_check import DATA_CARD, check_tables, drawn


@pytest.mark.parametrize(("num_players", "seed"), [(3, 1), (3, 7), (4, 2), (4, 11)])
def test_tables_draw_exactly_the_view(num_players, seed):
    events, _ = self_play(ENGINE, num_players, rng=random.Random(seed))
    check_tables(ENGINE, num_players, events, sample=12, seed=seed)


PLAYERS = ["Ana", "Ben", "Cy"]


def table_of(state, seat):
    return drawn(ENGINE, state, seat, PLAYERS)


def test_a_seat_sees_its_own_row_as_faces_and_the_others_as_backs():
    html = table_of(started(), 0)
    assert set(DATA_CARD.findall(html)) == set(ROWS3[0])
    assert html.count("face down</span>") >= 10  # seat 1 and 2's rows, numbered backs
    assert "1st · face down" in unescape(html)  # the dot as a character reference
    assert "Set-aside cards (never scored)" in html
    assert "Ana (you)" in html
    everyone = table_of(started(), None)
    assert set(DATA_CARD.findall(everyone)) == set(ALL_IDS)


def test_the_deck_before_the_deal():
    html = table_of(ENGINE.setup(3), None)
    assert "18 cards to deal" in html
    assert "about to be shuffled and dealt" in html


def test_a_secret_choice_shows_only_that_it_was_made():
    state = play(started(), SWAP, ev(1, "choose", choice="open"))
    others = table_of(state, 0)
    assert "<b>Keep or Open</b> has chosen</span>" in others
    assert "(Open, secret)" not in others
    assert "just received" in others  # seat 0's new card, not looked at yet
    mine = table_of(state, 1)
    assert "has chosen (Open, secret)" in mine
    assert "choosing" in mine  # seat 0 has still to choose
    assert "Ana and Ben each choose in secret" in table_of(state, 2)


def test_the_pending_task_and_the_last_choices():
    state = play(started(), SWAP, ev(1, "choose", choice="open"), ev(0, "choose", choice="keep"))
    html = table_of(state, 2)
    assert "Ana places the card they received in their row in ascending order." in html
    assert "Then: Ben places Quirky Gift 1 in their row" in html
    assert "Last Keep or Open: Ana kept and Ben opened." in html
    assert "to be placed" in html
    assert "Nice Gift 4" not in html  # kept by Ana, never seen by Cy


def test_targets_point_at_the_card_a_move_acts_on():
    state = started()
    view = ENGINE.view(state, 0)
    assert target(SWAP, view) == "row-1-3"
    assert 'data-key="row-1-3"' in table_of(state, 0)
    state = play(state, SWAP, ev(1, "choose", choice="open"), ev(0, "choose", choice="keep"))
    view = ENGINE.view(state, 0)
    assert target(ev(0, "place", pos=4), view) == "row-0-1"  # Nice Gift 4 sits where it came
    assert target(ev(0, "choose", choice="keep"), view) is None
    assert target(ev(1, "regift", row="aside", card=2), view) == "aside-2"
    assert target(ev(1, "decline"), view) is None


def test_the_end_shows_the_final_breakdown():
    _, final = self_play(ENGINE, 3, rng=random.Random(3))
    html = table_of(final, 1)
    assert html.count("Final scoring") == 3
    assert "Total:" in html
    assert "Final score" in html
    assert "winner" in html
    assert "Game over" in html
