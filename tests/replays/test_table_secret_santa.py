"""Secret Santa's drawn table: every card in a view drawn, none other; moves land on cards."""

from __future__ import annotations

import random
import re
from html import unescape

import pytest

from games.play import BOTS, replay_states, self_play
from games.secret_santa import ENGINE, State
from replays.tables import table_target
from tests.replays.tables_check import DATA_CARD, DATA_KEY, check_tables, drawn

NAMES = ["Ana", "Ben", "Cy", "Dee"]


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_tables_show_exactly_the_view(n, bot):
    seed = 10 * n + len(bot)
    events, _ = self_play(ENGINE, n, rng=random.Random(seed), bots=[BOTS[bot]] * n)
    check_tables(ENGINE, n, events, sample=12, seed=seed)


def mid_round() -> State:
    """Three players; seat 0 to take; seat 1 has taken seat 0's Tea pot."""
    state = ENGINE.setup(3).copy()
    state.box = ()
    state.phase = "take"
    state.hands = (
        ("ss-tea-1", "ss-cup-5"),
        ("ss-cup-1", "ss-matamug", "ss-cup-2"),
        ("ss-gift-1", "ss-choc"),
    )
    state.piles = (("ss-gift-7",), ("ss-tea-6", "ss-teapot"), ("ss-cup-6",))
    state.guest_up = ("ss-cup-3",)
    state.guest_down = ("ss-gift-2", "ss-tea-2")
    state.known = (
        frozenset({"ss-tea-1", "ss-cup-5", "ss-teapot", "ss-gift-7"}),
        frozenset({"ss-cup-1", "ss-matamug", "ss-cup-2", "ss-tea-6", "ss-teapot"}),
        frozenset({"ss-gift-1", "ss-choc", "ss-cup-6"}),
    )
    return state


def html_for(state: State, seat: int | None) -> str:
    return drawn(ENGINE, state, seat, NAMES[: ENGINE.num_players(state)])


def seat_html(html: str, seat: int) -> str:
    start = html.index(f'data-seat="{seat}"')
    end = html.find('data-seat="', start + 1)
    return html[start : end if end > 0 else len(html)]


def test_own_hand_as_faces_others_as_coloured_backs():
    html = html_for(mid_round(), 0)
    mine = seat_html(html, 0)
    assert 'data-card="ss-tea-1"' in mine
    assert 'data-card="ss-cup-5"' in mine
    assert "1st in hand" in mine
    bens = seat_html(html, 1)
    # Ben's hand: three backs in position order, with their colours as words.
    assert "1st · blue back" in unescape(bens)
    assert "2nd · red back" in unescape(bens)
    assert "3rd · blue back" in unescape(bens)
    assert 'data-card="ss-matamug"' not in html
    # Ben's pile: the Tea pot Ana once held is known to her, marked face down.
    assert re.search(r'class="card colour-green small known-down" data-card="ss-teapot"', bens)
    assert "green back" in bens  # the Tea bag she never saw
    assert 'data-card="ss-tea-6"' not in html
    assert "Ana (you)" in html
    assert "to move" in mine


def test_guest_zone_shows_face_up_cards_and_face_down_backs():
    html = html_for(mid_round(), 2)
    assert "The Unexpected guest" in html
    assert 'data-card="ss-cup-3"' in html
    assert 'data-key="guest-0"' in html
    assert "1st · red back" in unescape(html)
    assert 'data-card="ss-gift-2"' not in html
    everyone = html_for(mid_round(), None)
    assert 'data-card="ss-gift-2"' in everyone
    assert 'data-card="ss-matamug"' in everyone


def test_targets_point_at_the_cards_moves_act_on():
    state = mid_round()
    view = ENGINE.view(state, 0)
    assert table_target("secret_santa", {"by": 0, "do": "take", "from": 1, "index": 2}, view) == (
        "hand-1-2"
    )
    assert (
        table_target("secret_santa", {"by": 0, "do": "take", "from": "guest", "index": 1}, view)
        == "guest-1"
    )
    after = ENGINE.apply(state, {"by": 0, "do": "take", "from": "guest", "index": 0})
    giver_view = ENGINE.view(after, 1)
    give = {"by": 1, "do": "give", "card": "ss-cup-2"}
    assert table_target("secret_santa", give, giver_view) == "hand-1-2"
    html = html_for(after, 1)
    assert 'data-key="hand-1-2"' in html
    assert "gives the guest a card" in html
    keys = set(DATA_KEY.findall(html))
    for event in ENGINE.legal_events(after, 1):
        assert table_target("secret_santa", event, giver_view) in keys


def test_round_end_reveals_piles_and_breaks_down_the_score():
    events, _ = self_play(ENGINE, 2, rng=random.Random(5))
    states = list(replay_states(ENGINE, 2, None, events))
    first_end = next(i for i, s in enumerate(states) if s.round_scores)
    html = html_for(states[first_end], 1)
    assert "Gifts taken, revealed" in html
    assert "Round 1 scoring" in html
    assert "Round 1: " in html
    assert "Total: " in html
    assert "known-down" not in seat_html(html, 0)  # revealed piles are face up
    # The breakdown sums each category: '... = 12 points'.
    assert re.search(r"= \d+ points?</li>", html)
    final = html_for(states[-1], None)
    assert "Winner" in final


def test_the_box_before_the_first_deal():
    html = html_for(ENGINE.setup(2), None)
    assert "In the box" in html
    assert len(set(DATA_CARD.findall(html))) == 24
    assert "In the box" not in html_for(ENGINE.setup(2), 0)
