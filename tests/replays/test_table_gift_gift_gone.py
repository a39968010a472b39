"""Gift Gift Gone's table: every card the view holds is drawn, no other; moves find their card."""

from __future__ import annotations

import random
import re
from functools import cache

import pytest

from games.base import CHANCE
from games.gift_gift_gone import ENGINE as E
from games.play import BOTS, replay_states, self_play
from replays.tables import gift_gift_gone as drawing
from tests.replays.tables_check import check_tables, drawn

PLAYERS = ["Ana", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal"]
DATA_CARD = re.compile(r'data-card="([^"]+)"')
DATA_KEY = re.compile(r'data-key="([^"]+)"')


@cache
def game(n: int, seed: int, bot: str = "random") -> tuple[list[dict], list]:
    events, _ = self_play(E, n, rng=random.Random(seed), bots=[BOTS[bot]] * n)
    return events, list(replay_states(E, n, None, events))


@pytest.mark.parametrize("n", range(E.min_players, E.max_players + 1))
def test_every_view_drawn_exactly(n):
    # Greedy games are shorter than random ones (random players rarely claim).
    events, _ = self_play(E, n, rng=random.Random(100 + n), bots=[BOTS["greedy"]] * n)
    check_tables(E, n, events, sample=3, seed=n)


def test_random_game_drawn_exactly():
    events, _ = game(3, 1)
    check_tables(E, 3, events, sample=10, seed=3)


def first(states, test):
    return next(i for i, s in enumerate(states) if test(s))


def html_at(state, seat, n=3):
    return drawn(E, state, seat, PLAYERS[:n])


def test_own_hand_faces_other_hands_backs():
    _, states = game(3, 1)
    state = states[1]
    html = html_at(state, 0)
    faces = set(DATA_CARD.findall(html))
    assert set(state.hands[0]) <= faces
    assert not faces & (set(state.hands[1]) | set(state.hands[2]) | set(state.deck))
    # The other two hands are six backs each.
    backs = html.split('class="cards ggg-backs"')[1:]
    assert [part.split("</div></div>")[0].count("card back") for part in backs] == [6, 6]
    assert "Ana (you)" in html
    assert "Hand" in html
    everyone = html_at(state, None)
    assert set(state.hands[1]) <= set(DATA_CARD.findall(everyone))
    assert "The deck in order, top first" in everyone


def test_zones_target_and_piles():
    _, states = game(3, 1)
    html = html_at(states[30], 0)
    assert "First to 60 points on the table wins." in html
    assert ">Deck<" in html
    assert "Discard pile (" in html
    assert "Gifts in this game (six cards each)" in html
    top = states[30].discard[-1]
    assert f'data-card="{top}" data-key="discard"' in html
    assert 'data-key="deck"' in html


def test_claimed_gift_grouped_with_points_and_frozen_marked():
    _, states = game(3, 1)
    step = first(states, lambda s: any(len(t) >= 6 for t in s.table.values()))
    state = states[step]
    gift = next(g for g, t in state.table.items() if len(t) >= 6)
    owner = state.owner[gift]
    html = html_at(state, None)
    panel = html.split(f'data-seat="{owner}"', 1)[1].split("</section>\n", 1)[0]
    name = E.card_catalog()[gift]["name"]
    value = E.card_catalog()[gift]["value"]
    assert f"<b>{name}</b> 6 cards, {6 * value} points" in html
    assert "frozen: all six" in html
    for card in state.table[gift]:
        assert f'data-card="{card}" data-key="table-{gift}"' in html
    assert "Claimed gifts" in panel


def test_trade_zone_shows_laid_out_cards_to_asker_only():
    _, states = game(3, 1)
    step = first(states, lambda s: s.phase == "pick")
    state = states[step]
    asker, partner = state.turn, state.partner
    third = ({0, 1, 2} - {asker, partner}).pop()
    mine = html_at(state, asker)
    assert "Trade" in mine
    assert "face down" in mine
    for p, card in enumerate(state.order):
        assert f'data-card="{card}" data-key="pick-{p}"' in mine
    theirs = html_at(state, partner)
    assert f"{PLAYERS[partner]} (you)" in theirs
    assert "you said yes and now pick one of" in theirs
    for p in range(len(state.order)):
        assert f'data-key="pick-{p}"' in theirs
    assert not set(state.order) & set(DATA_CARD.findall(html_at(state, third)))


def test_end_shows_final_scores_and_winner():
    _, states = game(3, 1)
    final = states[-1]
    html = html_at(final, None)
    assert "Final score" in html
    if final.winner is not None:
        assert f"{PLAYERS[final.winner]} reached the target and wins." in html


def test_targets_name_drawn_elements():
    _, states = game(3, 1)
    checked = set()
    for state in states[1:80]:
        for seat in E.to_move(state):
            if seat == CHANCE:
                continue
            view = E.view(state, seat)
            keys = set(DATA_KEY.findall(html_at(state, seat)))
            for event in E.legal_events(state, seat):
                key = drawing.target(event, view)
                if event["do"] == "pass" or (event["do"] == "answer" and not event["yes"]):
                    assert key is None
                    continue
                assert key in keys, (event, key)
                checked.add(event["do"])
    assert {"draw", "discard", "ask", "answer", "pick"} <= checked
    # Specific keys.
    view = {"trade": {"gift": "fruitcake"}}
    assert drawing.target({"by": 0, "do": "claim", "gift": "fruitcake"}, view) == "hand-fruitcake"
    assert drawing.target({"by": 0, "do": "answer", "yes": True}, view) == "hand-fruitcake"
    swap = {"by": 0, "do": "swap", "gift": "fruitcake", "give": "tube-socks"}
    assert drawing.target(swap, view) == "table-fruitcake"
    assert drawing.target({"by": 0, "do": "ask", "gift": "fruitcake"}, view) == "gift-fruitcake"
