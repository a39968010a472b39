"""GiftTRAP rules, edge cases, hidden choices and conformance of every variant."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import IllegalEvent, InvalidSetup
from games.gift_trap import ENGINE, PACK_CARDS, TOKENS, State
from games.play import replay_states
from tests.games.conformance import check_game, play_game

E = ENGINE


# -- helpers -------------------------------------------------------------------------
def ev(by: int | str, do: str, **fields: object) -> dict:
    return {"by": by, "do": do, **fields}


def refused(state: State, event: dict) -> str:
    with pytest.raises(IllegalEvent) as info:
        E.apply(state, event)
    return info.value.code


def natural_deal(state: State) -> dict:
    """The deal a pack allows with the unseen cards taken in id order, side a up."""
    k = state.n + 1
    unseen, queue = state.unseen[state.pack], state.queue[state.pack]
    cards = list(unseen[:k]) if len(unseen) >= k else list(unseen) + list(queue[: k - len(unseen)])
    return ev("chance", "deal", cards=cards, sides=["a"] * k)


def start(n: int, pack: str = "yellow", **options: object) -> State:
    s = E.setup(n, options)
    s = E.apply(s, ev(s.dealer, "choose_pack", pack=pack))
    return E.apply(s, natural_deal(s))


def default_gives(n: int) -> dict[tuple[int, int], int]:
    return {(g, r): (r - g) % n + 1 for g in range(n) for r in range(n) if g != r}


def give_all(s: State, gives: dict[tuple[int, int], int], more: dict | None = None):
    for (g, r), gift in gives.items():
        fields = {"to": r, "gift": gift}
        if s.expert:
            fields["more"] = (more or {}).get(g) == r
        s = E.apply(s, ev(g, "give", **fields))
    return s


def get_all(s: State, gets: dict[int, tuple[int, int, int, int]], get_more=None):
    for seat, gifts in gets.items():
        for token, gift in zip(TOKENS, gifts, strict=True):
            s = E.apply(s, ev(seat, "get", token=token, gift=gift))
        if s.expert:
            s = E.apply(s, ev(seat, "get_more", **{"from": (get_more or {}).get(seat)}))
    return s


def reveal_all(s: State, hook: Callable | None = None) -> State:
    """Reveal in the rulebook's order; each revealer opens tokens in giver-seat order."""
    for i in range(s.n):
        r = (s.dealer + i) % s.n
        s = E.apply(s, ev(r, "reveal_gets"))
        for g in range(s.n):
            if g != r:
                if hook:
                    s = hook(s, r, g)
                s = E.apply(s, ev(r, "reveal", **{"from": g}))
    return s


def play_round(s, gives=None, gets=None, more=None, get_more=None, pack="yellow", hook=None):
    if s.phase == "choose_pack":
        s = E.apply(s, ev(s.dealer, "choose_pack", pack=pack))
        s = E.apply(s, natural_deal(s))
    s = give_all(s, gives or default_gives(s.n), more)
    s = get_all(s, gets or dict.fromkeys(range(s.n), (1, 2, 3, 4)), get_more)
    return reveal_all(s, hook)


def with_tracks(s: State, give: list[int], get: list[int]) -> State:
    """Shortcut for positions many rounds deep: put the markers on given spaces."""
    t = s.copy()
    t.give_pos, t.get_pos = tuple(give), tuple(get)
    return t


# -- the scoring table ---------------------------------------------------------------
GETS_4P = {0: (1, 2, 3, 4), 1: (2, 3, 4, 5), 2: (3, 4, 5, 1), 3: (4, 5, 1, 2)}
GIVES_4P = {
    (0, 1): 2,
    (0, 2): 3,
    (0, 3): 4,
    (1, 0): 1,
    (1, 2): 5,
    (1, 3): 3,
    (2, 0): 5,
    (2, 1): 4,
    (2, 3): 1,
    (3, 0): 4,
    (3, 1): 3,
    (3, 2): 5,
}


def test_scoring_table_great_good_ok_no_way_no_match():
    s = play_round(start(4), GIVES_4P, GETS_4P)
    # Worked by hand in reveal order (receiver 0,1,2,3; givers in seat order):
    # r0: 1->GREAT +3, 2->no match -1 (giver clamped at GO), 3->NO WAY -4 (both at GO)
    # r1: 0->GREAT +3, 2->OK +1, 3->GOOD +2; r2: 0->GREAT, 1->OK, 3->OK;
    # r3: 0->GREAT, 1->no match, 2->OK.
    assert s.give_pos == (9, 3, 2, 3)
    assert s.get_pos == (0, 6, 5, 3)
    assert E.scores(s) == [9, 9, 7, 6]
    assert [x["match"] for x in E.view(s, None)["round_log"]] == [
        "great",
        "no_match",
        "no_way",
        "great",
        "ok",
        "good",
        "great",
        "ok",
        "ok",
        "great",
        "no_match",
        "ok",
    ]
    first = E.view(s, None)["round_log"][0]
    assert (first["receiver"], first["giver"], first["gift"]) == (0, 1, 1)
    assert (first["give_move"], first["get_move"]) == (3, 3)


def test_no_way_moves_back_four_and_cannot_pass_go():
    s = start(3)
    s = with_tracks(s, [5, 5, 5], [2, 6, 5])
    # seat 1 gives seat 0 gift 4 = seat 0's NO WAY.
    gives = {(0, 1): 1, (0, 2): 2, (1, 0): 4, (1, 2): 2, (2, 0): 1, (2, 1): 2}
    gets = {0: (1, 2, 3, 4), 1: (1, 2, 3, 4), 2: (1, 2, 3, 4)}
    s = play_round(s, gives, gets)
    log = E.view(s, None)["round_log"]
    assert log[0]["match"] == "no_way"
    assert (log[0]["give_move"], log[0]["get_move"]) == (-4, -2)  # get marker stops at GO
    assert log[1]["match"] == "great"


def test_cannot_pass_gifted_but_can_move_back_from_it():
    s = with_tracks(start(3), [24, 25, 25], [25, 24, 25])
    gives = {(0, 1): 1, (0, 2): 4, (1, 0): 1, (1, 2): 2, (2, 0): 4, (2, 1): 3}
    gets = dict.fromkeys(range(3), (1, 2, 3, 4))
    s = play_round(s, gives, gets)
    # r0: from1 gift1 GREAT -> give1 25 (cap), get0 25 (cap); from2 NO WAY -> give2 21, get0 21
    # r1: from0 GREAT -> give0 24+3 = 25 (cap), get1 25 (cap); from2 OK -> give2 22, get1 25
    # r2: from0 NO WAY -> give0 21, get2 21; from1 GOOD -> give1 25 (cap), get2 23
    assert s.give_pos == (21, 25, 22)
    assert s.get_pos == (21, 25, 23)
    assert E.result(s).winners == [1]  # everybody is Gifted; 1 has the highest total


def test_three_players_every_gift_has_a_get_token():
    s = play_round(start(3))
    assert all(x["match"] != "no_match" for x in E.view(s, None)["round_log"])


# -- round flow ---------------------------------------------------------------------
def test_round_flow_dealer_rotates_and_cards_go_under_the_pack():
    s = E.setup(4, {})
    assert E.to_move(s) == [0]
    s = play_round(s)
    assert s.phase == "choose_pack"
    assert s.dealer == 1
    assert s.round == 2
    assert s.queue["yellow"] == PACK_CARDS["yellow"][:5]
    assert len(s.unseen["yellow"]) == 7
    assert E.to_move(s) == [1]
    assert refused(s, ev(0, "choose_pack", pack="red")) == "not_your_turn"
    s = E.apply(s, ev(1, "choose_pack", pack="red"))
    assert E.to_move(s) == ["chance"]


def test_reveal_starts_with_dealer_then_left():
    s = E.setup(4, {"first_dealer": 2})
    s = E.apply(s, ev(2, "choose_pack", pack="blue"))
    s = E.apply(s, natural_deal(s))
    s = give_all(s, default_gives(4))
    assert s.phase == "get"
    s = get_all(s, dict.fromkeys(range(4), (1, 2, 3, 4)))
    assert s.phase == "reveal"
    assert E.to_move(s) == [2]
    assert refused(s, ev(2, "reveal", **{"from": 0})) == "reveal_gets_first"
    s = E.apply(s, ev(2, "reveal_gets"))
    assert refused(s, ev(2, "reveal_gets")) == "gets_already_revealed"
    assert refused(s, ev(2, "reveal", **{"from": 2})) == "no_such_token"
    assert refused(s, ev(3, "reveal_gets")) == "not_your_turn"
    for g in (3, 0, 1):  # the revealer picks which token to turn over
        s = E.apply(s, ev(2, "reveal", **{"from": g}))
    assert E.to_move(s) == [3]


def test_gets_wait_until_all_gifts_are_given():
    s = start(3)
    s = E.apply(s, ev(0, "give", to=1, gift=1))
    assert refused(s, ev(0, "get", token="great", gift=1)) == "wrong_phase"
    assert sorted(E.to_move(s)) == [0, 1, 2]


@pytest.mark.parametrize(
    ("event", "code"),
    [
        (ev(0, "give", to=0, gift=1), "give_to_self"),
        (ev(0, "give", to=3, gift=1), "no_such_seat"),
        (ev(0, "give", to=1, gift=5), "no_such_gift"),
        (ev(0, "give", to=1, gift=0), "no_such_gift"),
        (ev(0, "give", to=1, gift="1"), "malformed_event"),
        (ev(0, "give", to=1, gift=True), "malformed_event"),
        (ev(0, "give", to=1), "malformed_event"),
        (ev(0, "give", to=1, gift=1, more=False), "malformed_event"),
        (ev(0, "gifttrap", gift=1), "expert_cards_off"),
        (ev(0, "choose_pack", pack="red"), "wrong_phase"),
    ],
)
def test_give_refusals(event, code):
    assert refused(start(3), event) == code


def test_one_give_token_per_gift_and_one_gift_per_player():
    s = E.apply(start(3), ev(0, "give", to=1, gift=2))
    assert refused(s, ev(0, "give", to=1, gift=3)) == "already_given"
    assert refused(s, ev(0, "give", to=2, gift=2)) == "token_used"
    assert {"by": 0, "do": "give", "to": 2, "gift": 2} not in E.legal_events(s, 0)
    s = E.apply(s, ev(0, "give", to=2, gift=3))
    assert 0 not in E.to_move(s)
    assert refused(s, ev(0, "give", to=1, gift=4)) == "not_your_turn"


def test_get_refusals():
    s = give_all(start(3), default_gives(3))
    s = E.apply(s, ev(1, "get", token="great", gift=2))
    assert refused(s, ev(1, "get", token="great", gift=3)) == "token_placed"
    assert refused(s, ev(1, "get", token="ok", gift=2)) == "gift_has_token"
    assert refused(s, ev(1, "get", token="meh", gift=3)) == "malformed_event"
    assert refused(s, ev(1, "get_more", **{"from": 0})) == "expert_cards_off"
    assert refused(s, ev(1, "give", to=0, gift=1)) == "wrong_phase"
    assert len(E.legal_events(s, 1)) == 3 * 3  # 3 tokens left x 3 gifts free


def test_pack_choice_and_deal_validation():
    s = E.setup(3, {"packs": ["red", "black"]})
    assert [e["pack"] for e in E.legal_events(s, 0)] == ["red", "black"]
    assert refused(s, ev(0, "choose_pack", pack="yellow")) == "pack_not_in_play"
    assert refused(s, ev(0, "choose_pack", pack=3)) == "malformed_event"
    s = E.apply(s, ev(0, "choose_pack", pack="red"))
    good = ["gt-r-05", "gt-r-01", "gt-r-12", "gt-r-07"]
    assert refused(s, ev("chance", "deal", cards=good[:3], sides=["a"] * 3)) == "malformed_event"
    bad = ["gt-y-01", *good[1:]]
    assert refused(s, ev("chance", "deal", cards=bad, sides=["a"] * 4)) == "bad_deal"
    dup = [good[0], *good[:3]]
    assert refused(s, ev("chance", "deal", cards=dup, sides=["a"] * 4)) == "bad_deal"
    assert refused(s, ev("chance", "deal", cards=good, sides=["a", "c", "a", "b"])) == (
        "malformed_event"
    )
    s = E.apply(s, ev("chance", "deal", cards=good, sides=["a", "b", "a", "b"]))
    grid = E.view(s, 1)["grid"]
    assert [g["card"] for g in grid] == good
    assert grid[1]["name"] == "Fancy teapot"
    assert grid[1]["side"] == "b"
    assert grid[2]["name"] == "Perfume sampler"


def test_returned_cards_come_back_in_order_once_the_unseen_ones_are_used():
    s = play_round(start(8, "black"))  # 9 of 12 dealt, 3 unseen left
    assert s.unseen["black"] == PACK_CARDS["black"][9:]
    s = E.apply(s, ev(1, "choose_pack", pack="black"))
    tail = list(PACK_CARDS["black"][:6])
    wrong = ["gt-k-01", *PACK_CARDS["black"][9:], *tail[1:]]
    assert refused(s, ev("chance", "deal", cards=wrong, sides=["a"] * 9)) == "bad_deal"
    top = ["gt-k-12", "gt-k-10", "gt-k-11"]  # unseen cards: any order
    s = E.apply(s, ev("chance", "deal", cards=top + tail, sides=["b"] * 9))
    assert s.unseen["black"] == ()
    assert s.queue["black"] == PACK_CARDS["black"][6:9]
    rng = random.Random(3)
    s = play_round(s)
    s = E.apply(s, ev(2, "choose_pack", pack="black"))
    assert E.sample_chance(s, rng)["cards"] == ["gt-k-07", "gt-k-08", "gt-k-09", *top, *tail[:3]]


# -- winning -------------------------------------------------------------------------
def test_win_needs_both_markers_in_the_zone_at_the_end_of_the_round():
    s = with_tracks(start(3), [20, 0, 0], [20, 0, 0])
    gives = {(0, 1): 1, (0, 2): 2, (1, 0): 1, (1, 2): 4, (2, 0): 2, (2, 1): 4}
    s = play_round(s, gives, dict.fromkeys(range(3), (1, 2, 3, 4)))
    assert E.is_over(s)
    result = E.result(s)
    assert result.winners == [0]
    assert result.details["gifted"] == [0]
    assert result.details["ended_by"] == "gifted"
    # give0: 20 + GREAT 3 + GOOD 2 = 25; get0: the same.
    assert result.details["give_track"] == [25, 0, 0]
    assert result.details["get_track"] == [25, 0, 0]
    assert E.to_move(s) == []
    assert E.legal_events(s, 0) == []
    assert refused(s, ev(0, "choose_pack", pack="red")) == "game_over"


def test_marker_leaving_the_zone_before_the_round_ends_does_not_win():
    s = with_tracks(start(3), [25, 0, 0], [25, 0, 0])
    # Seat 0 gives NO WAY twice: its give marker leaves GIFTED, 25 -> 21 -> 17.
    gives = {(0, 1): 4, (0, 2): 3, (1, 0): 4, (1, 2): 1, (2, 0): 1, (2, 1): 2}
    gets = dict.fromkeys(range(3), (1, 2, 3, 4))
    gets[2] = (1, 2, 4, 3)  # gift 3 is seat 2's NO WAY
    s = play_round(s, gives, gets)
    assert s.get_pos[0] == 25 - 4 + 3 == 24
    assert s.give_pos[0] == 25 - 4 - 4 == 17
    assert not E.is_over(s)
    assert s.phase == "choose_pack"


def test_tie_between_gifted_players_goes_to_the_higher_total_then_is_shared():
    gets = dict.fromkeys(range(3), (3, 1, 2, 4))  # gift 3 +3, gift 1 +2, gift 2 +1, gift 4 -4
    gives = {(0, 1): 3, (0, 2): 4, (1, 0): 3, (1, 2): 4, (2, 0): 1, (2, 1): 3}
    # Seats 0 and 1 give each other GREAT (+3) and seat 2 NO WAY (-4): give 22 -> 21.
    # Seat 2 gives seat 0 GOOD (+2) and seat 1 GREAT (+3).
    s = play_round(with_tracks(start(3), [22, 22, 0], [17, 18, 0]), gives, gets)
    assert s.give_pos == (21, 21, 5)
    assert s.get_pos == (22, 24, 0)
    result = E.result(s)
    assert result.details["gifted"] == [0, 1]
    assert result.winners == [1]
    assert result.ranks == [2, 1, 3]
    # Same total (45): the higher lower marker wins (22 against 21); markers put directly.
    tied = E.result(with_tracks(s, [21, 22, 0], [24, 23, 0]))
    assert tied.scores[:2] == [45, 45]
    assert tied.winners == [1]
    # Same total and same lower marker: a shared win.
    s = play_round(with_tracks(start(3), [22, 22, 0], [19, 18, 0]), gives, gets)
    assert E.result(s).winners == [0, 1]
    assert E.result(s).ranks == [1, 1, 3]


def test_a_gifted_player_beats_a_higher_total_that_is_not_gifted():
    gives = {(0, 1): 1, (0, 2): 2, (1, 0): 1, (1, 2): 4, (2, 0): 2, (2, 1): 4}
    s = with_tracks(start(3), [20, 0, 0], [20, 0, 0])
    s = play_round(s, gives, dict.fromkeys(range(3), (1, 2, 3, 4)))
    assert E.is_over(s)
    # Only the ranking is under test: markers put where 0 is Gifted with 42
    # and 1 is not (get marker 20) with 45.
    result = E.result(with_tracks(s, [21, 25, 0], [21, 20, 0]))
    assert result.scores == [42, 45, 0]
    assert result.winners == [0]
    assert result.ranks == [1, 2, 3]


def test_round_limit_ends_the_game_and_ranks_by_total():
    s = E.setup(3, {"max_rounds": 1})
    gives = {(0, 1): 1, (0, 2): 2, (1, 0): 1, (1, 2): 4, (2, 0): 4, (2, 1): 1}
    s = play_round(s, gives, dict.fromkeys(range(3), (1, 2, 3, 4)))
    assert E.is_over(s)
    result = E.result(s)
    assert result.details["ended_by"] == "round_limit"
    assert result.details["give_track"] == [5, 0, 3]
    assert result.details["get_track"] == [0, 6, 0]
    assert result.scores == [5, 6, 3]
    assert result.winners == [1]
    assert result.ranks == [2, 1, 3]


# -- expert strategy cards ----------------------------------------------------------
def test_give_more_doubles_only_the_giver():
    s = start(3, expert_cards=True)
    s = E.apply(s, ev(0, "give", to=1, gift=1, more=True))
    assert refused(s, ev(0, "give", to=2, gift=2, more=True)) == "give_more_used"
    assert refused(s, ev(0, "give", to=2, gift=2)) == "malformed_event"
    gives = {(0, 2): 2, (1, 0): 4, (1, 2): 3, (2, 0): 4, (2, 1): 3}
    s = play_round(s, gives, dict.fromkeys(range(3), (1, 2, 3, 4)))
    entry = next(x for x in E.view(s, None)["round_log"] if x["giver"] == 0 and x["receiver"] == 1)
    assert entry["match"] == "great"
    assert entry["give_more"]
    assert (entry["give_move"], entry["get_move"]) == (6, 3)


def test_get_more_doubles_only_the_receiver_and_can_double_a_loss():
    s = start(3, expert_cards=True)
    gives = {(0, 1): 1, (0, 2): 2, (1, 0): 1, (1, 2): 4, (2, 0): 4, (2, 1): 3}
    s = give_all(s, gives)
    s = E.apply(s, ev(0, "get_more", **{"from": 1}))
    assert refused(s, ev(0, "get_more", **{"from": 2})) == "get_more_decided"
    assert refused(s, ev(1, "get_more", **{"from": 1})) == "get_more_self"
    s = E.apply(s, ev(2, "get_more", **{"from": 1}))
    for seat in range(3):
        for token, gift in zip(TOKENS, (1, 2, 3, 4), strict=True):
            s = E.apply(s, ev(seat, "get", token=token, gift=gift))
    assert s.phase == "get"
    assert {e["do"] for e in E.legal_events(s, 0)} == {"gifttrap"}
    assert {"by": 1, "do": "get_more", "from": None} in E.legal_events(s, 1)
    s = E.apply(s, ev(1, "get_more", **{"from": None}))
    s = with_tracks(s, [10, 10, 10], [10, 10, 10])
    s = reveal_all(s)
    log = {(x["receiver"], x["giver"]): x for x in E.view(s, None)["round_log"]}
    assert (log[0, 1]["get_move"], log[0, 1]["give_move"]) == (6, 3)  # GREAT doubled for 0
    assert (log[2, 1]["get_move"], log[2, 1]["give_move"]) == (-8, -4)  # NO WAY doubled
    assert (log[1, 2]["get_move"], log[1, 2]["give_move"]) == (1, 1)


def test_gifttrap_blocks_later_scoring_of_that_gift_only_this_round():
    s = start(3, expert_cards=True)
    gives = {(0, 1): 1, (0, 2): 2, (1, 0): 1, (1, 2): 2, (2, 0): 2, (2, 1): 1}
    s = give_all(s, gives)
    s = get_all(s, dict.fromkeys(range(3), (1, 2, 3, 4)))
    s = E.apply(s, ev(0, "reveal_gets"))
    s = E.apply(s, ev(0, "reveal", **{"from": 1}))  # scores before the trap stand
    assert sorted(E.to_move(s)) == [0, 1, 2]  # anyone may shout GiftTRAP now
    s = E.apply(s, ev(2, "gifttrap", gift=1))
    assert refused(s, ev(1, "gifttrap", gift=1)) == "already_trapped"
    assert refused(s, ev(1, "reveal", **{"from": 0})) == "not_revealer"
    assert E.legal_events(s, 2) == []  # not revealing, card used
    assert E.to_move(s) == [0, 1]
    s = reveal_all_rest(s)
    assert s.give_pos == (2, 5, 2)
    assert s.get_pos == (5, 0, 4)
    matches = [x["match"] for x in E.view(s, None)["round_log"]]
    assert matches == ["great", "good", "trapped", "trapped", "good", "good"]
    assert s.phase == "choose_pack"
    assert s.trapped == ()
    s = E.apply(s, ev(1, "choose_pack", pack="red"))
    s = E.apply(s, natural_deal(s))
    assert refused(s, ev(2, "gifttrap", gift=2)) == "gifttrap_used"  # once per game
    s = play_round(s, {(0, 1): 1, (0, 2): 2, (1, 0): 1, (1, 2): 2, (2, 0): 2, (2, 1): 1})
    assert E.view(s, None)["gifttraps"] == [{"round": 1, "seat": 2, "gift": 1, "during": "reveal"}]
    assert all(x["match"] != "trapped" for x in E.view(s, None)["round_log"])


def reveal_all_rest(s: State) -> State:
    while s.phase == "reveal":
        r = s.revealer
        event = next(e for e in E.legal_events(s, r) if e["do"] != "gifttrap")
        s = E.apply(s, event)
    return s


def test_gifttrap_may_be_played_while_giving_by_a_player_who_has_finished():
    s = start(3, expert_cards=True)
    s = E.apply(s, ev(0, "give", to=1, gift=2, more=False))
    s = E.apply(s, ev(0, "give", to=2, gift=3, more=False))
    assert 0 in E.to_move(s)
    assert {e["do"] for e in E.legal_events(s, 0)} == {"gifttrap"}
    s = E.apply(s, ev(0, "gifttrap", gift=4))
    assert 0 not in E.to_move(s)
    assert E.view(s, 1)["grid"][3]["trapped"] is True


def test_options_are_checked():
    for bad in (
        {"expert_cards": 1},
        {"packs": []},
        {"packs": ["pink"]},
        {"packs": ["red", "red"]},
        {"packs": "red"},
        {"track_length": 5},
        {"zone_size": 0},
        {"zone_size": 26},
        {"first_dealer": 3},
        {"max_rounds": 0},
        {"max_rounds": True},
    ):
        with pytest.raises(InvalidSetup) as info:
            E.setup(3, bad)
        assert info.value.code == "bad_option", bad
    s = E.setup(5, {"track_length": 40, "zone_size": 10, "first_dealer": 4})
    assert (s.zone_from, s.dealer) == (31, 4)
    assert E.view(s, 0)["gifted_zone_from"] == 31


def test_card_multiset_includes_packs_left_in_the_box():
    s = E.setup(3, {"packs": ["red"]})
    assert sum(E.card_multiset(s).values()) == 48
    assert E.secrets(s, 0) == set(PACK_CARDS["red"])


# -- hidden choices -----------------------------------------------------------------
def scramble(s: State, seat: int) -> State:
    """Change every choice of other seats that ``seat`` may not know yet."""
    t = s.copy()
    k = max(len(s.grid), 1)
    gives, give_more, gets, get_more = list(map(list, s.gives)), list(s.give_more), [], []
    for p in range(s.n):
        if p == seat:
            continue
        hidden = [r for r in range(s.n) if r != p and s.gives[p][r] and not s.shown[r][p]]
        for r in hidden:
            gives[p][r] = gives[p][r] % k + 1
        if give_more[p] < 0 or give_more[p] in hidden:
            options = [-1, *hidden]
            give_more[p] = options[(options.index(give_more[p]) + 1) % len(options)]
    for p in range(s.n):
        row = list(s.gets[p])
        choice = s.get_more[p]
        if p != seat and not s.gets_shown[p]:
            row = [(g % k) + 1 if g else 0 for g in row]
            choice = choice if choice is None else (choice + 2) % s.n - 1
        gets.append(tuple(row))
        get_more.append(choice)
    t.gives = tuple(map(tuple, gives))
    t.give_more, t.gets, t.get_more = tuple(give_more), tuple(gets), tuple(get_more)
    return t


def scramble_event(event: dict) -> dict:
    out = dict(event)
    for key, value in event.items():
        if key in ("gift", "from") and isinstance(value, int):
            out[key] = value + 1
        elif key == "more":
            out[key] = not value
        elif key == "token":
            out[key] = "ok" if value != "ok" else "great"
        elif key == "from" and value is None:
            out[key] = 0
    return out


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(3, 6),
    expert=st.booleans(),
)
def test_views_never_show_another_seats_unrevealed_choice(seed, n, expert):
    options = {"expert_cards": expert, "max_rounds": 2}
    events = play_game(E, n, seed, options=options)
    rng = random.Random(seed)
    states = list(replay_states(E, n, options, events))
    checked = 0
    for step in sorted(rng.sample(range(1, len(states)), min(40, len(states) - 1))):
        state, last = states[step], events[step - 1]
        for seat in range(n):
            plain = json.dumps(E.view(state, seat), sort_keys=True)
            other = json.dumps(E.view(scramble(state, seat), seat), sort_keys=True)
            assert plain == other, f"seat {seat} can tell others' hidden choices apart"
            if last["by"] not in ("chance", seat) and last["do"] in ("give", "get", "get_more"):
                assert E.event_view(last, seat) == E.event_view(scramble_event(last), seat)
                checked += 1
    assert checked  # a played game always has hidden events to look at


def test_scramble_would_catch_a_leak():
    """The property test is not a tautology: a seat's own view does change."""
    s = give_all(start(3), default_gives(3))
    s = E.apply(s, ev(1, "get", token="ok", gift=2))
    assert E.view(s, 1) != E.view(scramble(s, 0), 1)
    assert E.view(s, None) != E.view(scramble(s, 1), None)
    assert E.event_view(ev(1, "give", to=0, gift=3), 1) != E.event_view(
        scramble_event(ev(1, "give", to=0, gift=3)), 1
    )


def test_a_give_is_shown_to_its_receiver_only_when_turned_over():
    s = E.apply(start(3), ev(1, "give", to=0, gift=3))
    assert E.event_view(ev(1, "give", to=0, gift=3), 0) == {
        "by": 1,
        "do": "give",
        "to": 0,
        "hidden": True,
    }
    assert E.view(s, 0)["players"][1]["gave"] == [{"to": 0}]
    assert E.view(s, 1)["players"][1]["gave"] == [{"to": 0, "gift": 3}]
    s = give_all(s, {k: v for k, v in default_gives(3).items() if k != (1, 0)})
    s = get_all(s, dict.fromkeys(range(3), (1, 2, 3, 4)))
    assert "get_tokens" not in E.view(s, 1)["players"][0]
    s = E.apply(s, ev(0, "reveal_gets"))
    assert E.view(s, 1)["players"][0]["get_tokens"] == {"great": 1, "good": 2, "ok": 3, "no_way": 4}
    assert "get_tokens" not in E.view(s, 0)["players"][2]
    s = E.apply(s, ev(0, "reveal", **{"from": 1}))
    assert E.view(s, 2)["players"][1]["gave"][0] == {"to": 0, "gift": 3}


# -- conformance of every variant ------------------------------------------------------
VARIANTS = [
    (3, {"expert_cards": True}),
    (6, {"expert_cards": True, "max_rounds": 4}),
    (8, {"packs": ["black"], "max_rounds": 4}),
    (4, {"packs": ["yellow", "blue"], "first_dealer": 3, "track_length": 10, "zone_size": 3}),
    (5, {"expert_cards": True, "track_length": 12, "zone_size": 4}),
    (3, {"max_rounds": 1}),
]


@pytest.mark.parametrize(("n", "options"), VARIANTS)
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_variants_conform(n, options, bot):
    seed = 11 * n + len(options)
    events = play_game(E, n, seed, bot=bot, options=options)
    check_game(E, n, events, seed, options=options)


def test_greedy_gifttraps_a_no_way_it_gave():
    s = start(3, expert_cards=True)
    s = give_all(s, {(0, 1): 1, (0, 2): 2, (1, 0): 4, (1, 2): 1, (2, 0): 1, (2, 1): 2})
    s = get_all(s, dict.fromkeys(range(3), (1, 2, 3, 4)))
    s = E.apply(s, ev(0, "reveal_gets"))
    assert E.greedy_event(s, 1, random.Random(0)) == ev(1, "gifttrap", gift=4)


@pytest.mark.parametrize(
    "packs", [[["red"]], ["red", ["blue"]], [{"a": 1}], [None], [1.0], [["red"], "red"]]
)
def test_packs_option_with_unhashable_or_junk_entries_is_refused(packs):
    with pytest.raises(InvalidSetup) as info:
        E.setup(3, {"packs": packs})
    assert info.value.code == "bad_option"
    assert "packs" in info.value.message


def test_reveal_order_wraps_left_from_each_rounds_dealer():
    """Dealer reveals first, then to the left (seat + 1), wrapping past the last seat."""
    s = play_round(E.setup(4, {"first_dealer": 3}))  # round 1 dealer 3, round 2 dealer 0
    s = play_round(s)
    assert s.dealer == 1
    s = E.apply(s, ev(1, "choose_pack", pack="red"))
    s = E.apply(s, natural_deal(s))
    s = give_all(s, default_gives(4))
    s = get_all(s, dict.fromkeys(range(4), (1, 2, 3, 4)))
    order = []
    while s.phase == "reveal":
        r = s.revealer
        assert E.to_move(s) == [r]
        event = E.legal_events(s, r)[0]
        if not order or order[-1][0] != r:
            assert event["do"] == "reveal_gets"  # GET tokens first, then each GIVE token
        order.append((r, event["do"]))
        s = E.apply(s, event)
    assert [r for r, do in order if do == "reveal_gets"] == [1, 2, 3, 0]
    assert len(order) == 4 * 4
