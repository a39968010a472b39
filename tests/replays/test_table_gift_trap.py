"""GiftTRAP's drawn table: every grid card in a view drawn, no secret shown, moves on the table."""

from __future__ import annotations

import html as html_lib
import random
import re

import pytest

from games.gift_trap import ENGINE, State
from games.play import BOTS, replay_states, self_play
from replays.tables import table_html, table_target
from tests.games.words import card_ids_in
from tests.replays.tables_check import DATA_CARD, DATA_KEY, check_tables

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal"]
EXPERT = {"expert_cards": True, "max_rounds": 3}


def ev(by: int | str, do: str, **fields: object) -> dict:
    return {"by": by, "do": do, **fields}


def html_for(state: State, seat: int | None) -> str:
    return table_html(ENGINE, state, seat=seat, players=NAMES[: state.n])


def seat_html(html: str, seat: int) -> str:
    start = html.index(f'data-seat="{seat}"')
    end = html.find('data-seat="', start + 1)
    return html[start : end if end > 0 else len(html)]


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", html)))


@pytest.mark.parametrize("n", range(3, 9))
def test_tables_show_exactly_the_view(n):
    bot = "greedy" if n % 2 else "random"
    # Random bots at 8 seats drift back down the tracks: a round limit ends the game.
    options = {"max_rounds": 20} if bot == "random" and n >= 7 else None
    events, _ = self_play(ENGINE, n, options=options, rng=random.Random(n), bots=[BOTS[bot]] * n)
    check_tables(ENGINE, n, events, sample=6, seed=n, options=options)


@pytest.mark.parametrize("n", [3, 5])
def test_expert_tables_show_exactly_the_view(n):
    """The shared check plays default options; the expert cards get the same checks here."""
    rng = random.Random(n)
    events, _ = self_play(ENGINE, n, options=EXPERT, rng=rng)
    states = list(replay_states(ENGINE, n, EXPERT, events))
    catalog = ENGINE.card_catalog()
    for step in sorted({0, len(states) - 1, *rng.sample(range(len(states)), 8)}):
        state = states[step]
        for seat in [None, *range(n)]:
            html = html_for(state, seat)
            view = ENGINE.view(state, seat)
            assert set(DATA_CARD.findall(html)) == card_ids_in(view, catalog), step
            if seat is None or seat not in ENGINE.to_move(state):
                continue
            keys = set(DATA_KEY.findall(html))
            for event in ENGINE.legal_events(state, seat):
                key = table_target("gift_trap", event, view)
                assert key is None or key in keys, (step, event, key)


# -- hand-built positions -------------------------------------------------------------------
def dealt(n: int = 3, **options: object) -> State:
    """Yellow pack, gifts 1..n+1 = gt-y-01.. with side a up (Rubber duck, Box of chalk...)."""
    s = ENGINE.setup(n, options)
    s = ENGINE.apply(s, ev(0, "choose_pack", pack="yellow"))
    cards = [f"gt-y-{i:02d}" for i in range(1, n + 2)]
    return ENGINE.apply(s, ev("chance", "deal", cards=cards, sides=["a"] * (n + 1)))


def given(s: State) -> State:
    """Seat g gives seat r gift (r - g) % n + 1."""
    for g in range(s.n):
        for r in range(s.n):
            if g != r:
                extra = {"more": False} if s.expert else {}
                s = ENGINE.apply(s, ev(g, "give", to=r, gift=(r - g) % s.n + 1, **extra))
    return s


def placed(s: State) -> State:
    for seat in range(s.n):
        for token, gift in zip(("great", "good", "ok", "no_way"), (1, 2, 3, 4), strict=True):
            s = ENGINE.apply(s, ev(seat, "get", token=token, gift=gift))
        if s.expert:
            s = ENGINE.apply(s, ev(seat, "get_more", **{"from": None}))
    return s


def test_grid_shows_the_face_up_gift_of_each_card_with_its_number():
    html = html_for(dealt(), 1)
    assert "Gift grid: the yellow pack ($)" in text_of(html)
    assert 'data-card="gt-y-01"' in html
    assert 'data-key="gift-1"' in html
    assert "Gift 1: Rubber duck" in text_of(html)
    assert "Gift 2: Box of chalk" in text_of(html)


def test_a_give_shows_its_gift_to_the_giver_only():
    s = ENGINE.apply(dealt(), ev(1, "give", to=0, gift=3))
    giver = text_of(seat_html(html_for(s, 1), 0))
    receiver = text_of(seat_html(html_for(s, 0), 0))
    assert "from Ben (you) gift 3 · Fortune cookies face down" in giver
    assert "from Ben secret gift face down" in receiver
    assert "Fortune cookies" not in receiver


def test_get_tokens_are_placed_markers_to_others_and_choices_to_their_owner():
    s = given(dealt())
    s = ENGINE.apply(s, ev(2, "get", token="no_way", gift=4))
    own = html_for(s, 2)
    other = html_for(s, 0)
    assert "NO WAY (-4): gift 4" in text_of(seat_html(own, 2))
    assert "NO WAY · Cy (you), face down" in text_of(own)  # on the grid, for its owner
    assert "1 of 4 placed, face down" in text_of(seat_html(other, 2))
    assert "NO WAY" not in text_of(seat_html(other, 2)).replace("and NO WAY on the grid", "")
    assert "NO WAY · Cy" not in text_of(other)


def test_tracks_show_every_marker_and_the_gifted_zone():
    html = html_for(dealt(4), None)
    text = text_of(html)
    assert "GIVE and GET tracks" in text
    assert "Shaded: the Gifted Zone, spaces 21-25 (25 is GIFTED)." in text
    assert html.count('class="gt-space gifted"') == 2 * 5  # both tracks
    assert html.count('class="gt-space"') == 2 * 21
    assert html.count("gt-marker m") == 4 * 3  # legend + two tracks


def test_reveal_progress_and_scoring_are_listed():
    s = placed(given(dealt()))
    s = ENGINE.apply(s, ev(0, "reveal_gets"))
    s = ENGINE.apply(s, ev(0, "reveal", **{"from": 1}))  # Ben gave Ana gift 3: OK
    text = text_of(html_for(s, 2))
    assert "Ana: revealing (GET tokens face up, 1 of 2 gifts turned over)" in text
    assert "Ben: waiting" in text
    assert "Ben → Ana : gift 3 (Fortune cookies), OK: GIVE +1 for Ben, GET +1 for Ana." in text


def test_between_rounds_the_last_grid_is_drawn_beside_its_scoring():
    s = placed(given(dealt()))
    for r in range(3):
        s = ENGINE.apply(s, ev(r, "reveal_gets"))
        for g in range(3):
            if g != r:
                s = ENGINE.apply(s, ev(r, "reveal", **{"from": g}))
    assert s.phase == "choose_pack"
    html = html_for(s, 1)
    text = text_of(html)
    assert "Last round's gifts" in text
    assert 'data-card="gt-y-04"' in html
    assert "Last round's scoring" in text
    assert 'data-key="pack-black"' in html
    assert table_target("gift_trap", ev(1, "choose_pack", pack="black"), {}) == "pack-black"


def test_expert_cards_in_hand_and_hidden():
    s = dealt(3, expert_cards=True)
    s = ENGINE.apply(s, ev(0, "give", to=1, gift=2, more=True))
    s = ENGINE.apply(s, ev(2, "gifttrap", gift=4))
    own = text_of(seat_html(html_for(s, 0), 0))
    other = text_of(seat_html(html_for(s, 1), 0))
    assert "Give More : with the gift to Ben" in own
    assert "Give More : secret until its token is turned over" in other
    assert "GiftTRAP : in hand" in own
    trapper = text_of(seat_html(html_for(s, 1), 2))
    assert "GiftTRAP : played on gift 4 in round 1" in trapper
    assert "GiftTRAPped" in text_of(html_for(s, 1))


def test_moves_target_the_gift_or_the_token_they_act_on():
    s = placed(given(dealt(3, expert_cards=True)))
    view = ENGINE.view(s, 0)
    assert table_target("gift_trap", ev(0, "reveal_gets"), view) == "gets-0"
    assert table_target("gift_trap", ev(0, "reveal", **{"from": 2}), view) == "token-2-0"
    assert table_target("gift_trap", ev(0, "gifttrap", gift=3), view) == "gift-3"
    assert table_target("gift_trap", ev(0, "get_more", **{"from": None}), view) is None
    keys = set(DATA_KEY.findall(html_for(s, 0)))
    assert {"gets-0", "token-1-0", "token-2-0", "gift-3"} <= keys
