"""Gift Swap: the rulebook's scoring example, each rule's edge cases, secrecy."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import IllegalEvent, InvalidSetup
from games.gift_swap import ENGINE
from games.gift_swap.cards import ALL_IDS, CARDS, score_cards
from games.play import replay
from tests.games.conformance import check_game, play_game

E = ENGINE

# A 3-player deal used by most tests (effects: values 1/4 regift, 2/5 rewrap, 3/6 trade).
ROWS3 = [
    ["gs-r1", "gs-b1", "gs-r2", "gs-b2", "gs-r3"],
    ["gs-p-neonball", "gs-p-polaroid", "gs-b3", "gs-r4", "gs-b4"],
    ["gs-p-hat", "gs-p-horn", "gs-r5", "gs-b5", "gs-r6"],
]
ASIDE3 = ["gs-p-confetti", "gs-p-chicken", "gs-b6"]


def ev(by, do, **fields):
    return {"by": by, "do": do, **fields}


def deal_order(rows, aside):
    """The shuffled order that deals ``rows`` round-robin and sets ``aside`` aside."""
    n = len(rows)
    return [rows[k % n][k // n] for k in range(n * len(rows[0]))] + list(aside)


def started(rows=ROWS3, aside=ASIDE3, options=None):
    """Dealt and arranged exactly as ``rows`` lists (each row already ascending)."""
    state = E.setup(len(rows), options)
    state = E.apply(state, ev("chance", "deal", order=deal_order(rows, aside)))
    for seat, row in enumerate(rows):
        state = E.apply(state, ev(seat, "arrange", order=list(row)))
    return state


def play(state, *events):
    for event in events:
        state = E.apply(state, event)
    return state


def place_all(state):
    """Place every pending received card at its first legal position."""
    while E.step(state) == "place":
        seat = E.to_move(state)[0]
        state = E.apply(state, E.legal_events(state, seat)[0])
    return state


def refused(state, event, code):
    with pytest.raises(IllegalEvent) as info:
        E.apply(state, event)
    assert info.value.code == code, info.value
    return info.value


def row(state, seat):
    return list(state.rows[seat])


# -- the rulebook's scoring example ----------------------------------------------


@pytest.mark.parametrize("third", ["gs-p-hat", "gs-p-chicken"])
def test_scoring_example_scores_five(third):
    total, detail = score_cards(["gs-p-neonball", "gs-p-polaroid", third, "gs-b3", "gs-r5"])
    assert total == 5
    assert detail["party_prop_points"] == 6
    assert detail["polaroid_converts"] == "gs-b3"  # -2 becomes +2
    assert detail["neon_ball_converts"] == "gs-r5"  # +3 becomes -3
    assert detail["nice_points"] == 2
    assert detail["quirky_points"] == -3
    assert not detail["king_of_quirky_gifts"]


def test_scoring_example_with_rubber_chicken_ends_with_two_blue_cards():
    """The text says 'you ended up with only 2 blue cards': the chicken and the Red 5."""
    _, detail = score_cards(["gs-p-neonball", "gs-p-polaroid", "gs-p-chicken", "gs-b3", "gs-r5"])
    assert detail["quirky_cards"] == ["gs-p-chicken", "gs-r5"]


def test_scoring_example_played_to_the_end():
    """Seat 0 collects the example's five cards face up; the game ends and it scores 5."""
    s = started()
    assert E.to_move(s) == [0]
    # Turn 1, seat 0: its Red 3 for seat 1's Neon Ball; seat 0 opens, seat 1 keeps.
    s = play(s, ev(0, "swap", card=4, with_seat=1, with_card=0))
    s = play(s, ev(1, "choose", choice="keep"), ev(0, "choose", choice="open"))
    s = play(s, ev(0, "place", pos=0), ev(1, "place", pos=2))
    assert row(s, 0) == ["gs-p-neonball", "gs-r1", "gs-b1", "gs-r2", "gs-b2"]
    assert row(s, 1) == ["gs-p-polaroid", "gs-b3", "gs-r3", "gs-r4", "gs-b4"]
    assert E.to_move(s) == [1]
    # Turn 2, seat 1: its Polaroid for seat 0's Red 1; seat 0 opens.
    s = play(s, ev(1, "swap", card=0, with_seat=0, with_card=1))
    s = play(s, ev(0, "choose", choice="open"), ev(1, "choose", choice="keep"))
    s = place_all(s)
    # Turn 3, seat 2: its Party Hat for seat 0's Blue 1; seat 0 opens.
    s = play(s, ev(2, "swap", card=0, with_seat=0, with_card=row(s, 0).index("gs-b1")))
    s = play(s, ev(2, "choose", choice="keep"), ev(0, "choose", choice="open"))
    s = place_all(s)
    # Turn 4, seat 0: its Red 2 for seat 2's Red 5 (rewrap effect, declined).
    s = play(
        s,
        ev(
            0,
            "swap",
            card=row(s, 0).index("gs-r2"),
            with_seat=2,
            with_card=row(s, 2).index("gs-r5"),
        ),
    )
    s = place_all(play(s, ev(0, "choose", choice="open"), ev(2, "choose", choice="keep")))
    assert E.step(s) == "effect"
    s = play(s, ev(0, "decline"))
    # Turn 5, seat 1: its Blue 3 for seat 0's last face-down card (Blue 2).
    s = play(
        s,
        ev(
            1,
            "swap",
            card=row(s, 1).index("gs-b3"),
            with_seat=0,
            with_card=row(s, 0).index("gs-b2"),
        ),
    )
    s = place_all(play(s, ev(0, "choose", choice="open"), ev(1, "choose", choice="keep")))
    # Seat 0's row is all face up, but the turn ends only after its trade effect.
    assert all(c in s.up for c in s.rows[0])
    assert not E.is_over(s)
    assert E.step(s) == "effect"
    s = play(s, ev(0, "decline"))
    assert E.is_over(s)
    assert sorted(row(s, 0)) == sorted(
        ["gs-p-neonball", "gs-p-polaroid", "gs-p-hat", "gs-b3", "gs-r5"]
    )
    scores = E.scores(s)
    assert scores[0] == 5
    result = E.result(s)
    assert result.scores == scores
    assert result.details["breakdown"][0]["polaroid_converts"] == "gs-b3"
    # At the end every row card is flipped, and no effect is asked for.
    assert all(c in s.up for r in s.rows for c in r)
    assert E.to_move(s) == []


# -- scoring rules -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        (["gs-p-hat"], 0),
        (["gs-p-hat", "gs-p-horn"], 3),
        (["gs-p-hat", "gs-p-horn", "gs-p-confetti"], 6),
        (["gs-p-hat", "gs-p-horn", "gs-p-confetti", "gs-p-chicken"], 12),
        (["gs-p-hat", "gs-p-horn", "gs-p-confetti", "gs-p-chicken", "gs-p-polaroid"], 12),
        (["gs-r6", "gs-r1"], 4),
        (["gs-b6", "gs-b1"], -4),
        (["gs-b1", "gs-b2", "gs-b3"], 4),  # King of Quirky Gifts: 1+1+2
        (["gs-b1", "gs-b2", "gs-p-chicken"], 2),  # the chicken is Quirky: King
        (["gs-b5", "gs-b6", "gs-r1", "gs-p-neonball"], 7),  # Neon Ball crowns the King
        (["gs-b5", "gs-b6", "gs-r1"], -5),
        (["gs-b1", "gs-p-polaroid"], 1),  # the Polaroid must convert, for +1
        (["gs-r3", "gs-p-neonball"], -2),  # the Neon Ball must convert, for -2
    ],
)
def test_scoring(cards, expected):
    assert score_cards(cards)[0] == expected


def test_polaroid_and_neon_ball_pick_different_cards_best_for_owner():
    # Three Props (the chicken is one): 6. The conversions are different cards, and
    # the best keep three Quirky cards, so the King makes 3 + 3 + 1 icons positive.
    total, detail = score_cards(
        ["gs-p-polaroid", "gs-p-neonball", "gs-p-chicken", "gs-b6", "gs-b5", "gs-r1"]
    )
    assert detail["polaroid_converts"] != detail["neon_ball_converts"]
    assert detail["king_of_quirky_gifts"]
    assert total == 6 + 3 + 3 + 1


def test_shared_victory_on_ties():
    s = started()._replace(phase="over", final=(4, 4, 1))
    result = E.result(s)
    assert result.winners == [0, 1]
    assert result.ranks == [1, 1, 3]


def test_card_list():
    assert len(ALL_IDS) == 18
    colors = [c.color for c in CARDS.values()]
    assert colors.count("red") == colors.count("blue") == colors.count("green") == 6
    assert [c.id for c in CARDS.values() if c.color == "green" and c.quirky] == ["gs-p-chicken"]
    assert CARDS["gs-r5"].icons == 3
    assert CARDS["gs-b3"].icons == 2


# -- setup, deal, arrangement ---------------------------------------------------------


def test_setup_options():
    assert E.to_move(E.setup(3)) == ["chance"]
    with pytest.raises(InvalidSetup) as info:
        E.setup(3, {"start_player": 3})
    assert info.value.code == "bad_option"
    with pytest.raises(InvalidSetup):
        E.setup(4, {"start_player": True})
    with pytest.raises(InvalidSetup) as info:
        E.setup(5)
    assert info.value.code == "bad_player_count"


@pytest.mark.parametrize("n", [3, 4])
def test_deal_sizes_and_knowledge(n):
    s = E.setup(n)
    s = E.apply(s, E.sample_chance(s, random.Random(7)))
    size = 5 if n == 3 else 4
    assert [len(r) for r in s.rows] == [size] * n
    assert len(s.aside) == 18 - n * size
    for seat in range(n):
        # A player checks their own cards; everything else is hidden.
        assert E.secrets(s, seat) == set(ALL_IDS) - set(s.rows[seat])
        mine = [slot["card"] for slot in E.view(s, seat)["rows"][seat]]
        assert mine == list(s.rows[seat])
        assert E.event_view({"by": "chance", "do": "deal", "order": list(ALL_IDS)}, seat) == {
            "by": "chance",
            "do": "deal",
            "hidden": True,
        }
    assert E.to_move(s) == list(range(n))


def test_bad_deal_refused():
    s = E.setup(3)
    order = deal_order(ROWS3, ASIDE3)
    refused(s, ev("chance", "deal", order=order[:-1]), "bad_deal")
    refused(s, ev("chance", "deal", order=[*order[:-1], order[0]]), "bad_deal")
    refused(s, ev("chance", "deal", order="x"), "bad_deal")
    refused(s, ev(0, "deal", order=order), "not_your_turn")


def test_arrangement_rules():
    s = E.setup(3)
    s = E.apply(s, ev("chance", "deal", order=deal_order(ROWS3, ASIDE3)))
    refused(
        s, ev(0, "arrange", order=["gs-r3", "gs-b1", "gs-r1", "gs-r2", "gs-b2"]), "not_ascending"
    )
    refused(s, ev(0, "arrange", order=["gs-r1", "gs-b1", "gs-r2", "gs-b2"]), "not_your_cards")
    refused(
        s, ev(0, "arrange", order=["gs-r1", "gs-b1", "gs-r2", "gs-b2", "gs-r4"]), "not_your_cards"
    )
    # Equal values either way round; Party Props anywhere (seat 1 has two of them).
    legal0 = E.legal_events(s, 0)
    assert len(legal0) == 4  # 1s either way, 2s either way
    assert ev(0, "arrange", order=["gs-b1", "gs-r1", "gs-b2", "gs-r2", "gs-r3"]) in legal0
    legal1 = E.legal_events(s, 1)
    assert len(legal1) == 5 * 4 * 2  # two Props into five places; the 4s either way
    assert (
        ev(1, "arrange", order=["gs-b3", "gs-r4", "gs-p-polaroid", "gs-b4", "gs-p-neonball"])
        in legal1
    )
    # Arrangements are secret, simultaneous, in any order.
    s = E.apply(s, ev(2, "arrange", order=ROWS3[2]))
    assert E.to_move(s) == [0, 1]
    assert E.event_view(ev(2, "arrange", order=ROWS3[2]), 0) == {
        "by": 2,
        "do": "arrange",
        "hidden": True,
    }


@pytest.mark.parametrize("n", [3, 4])
def test_deal_event_view_with_before_shows_each_seat_exactly_its_own_cards(n):
    s = E.setup(n, {"start_player": n - 1})
    deal = E.sample_chance(s, random.Random(11))
    after = E.apply(s, deal)
    for seat in range(n):
        seen = E.event_view(deal, seat, before=s)
        assert seen == {"by": "chance", "do": "deal", "hand": list(after.rows[seat])}
        others = set(after.aside).union(*(after.rows[o] for o in range(n) if o != seat))
        assert not others & set(seen["hand"])
        text = repr(seen)
        assert not [c for c in others if repr(c) in text]  # no other card, no deck order
        # Without the state before, the deal stays hidden.
        assert E.event_view(deal, seat) == {"by": "chance", "do": "deal", "hidden": True}
    assert E.event_view(deal, None, before=s) == deal


def test_deal_event_view_stays_hidden_when_before_does_not_fit():
    s = E.setup(3)
    deal = ev("chance", "deal", order=deal_order(ROWS3, ASIDE3))
    hidden = {"by": "chance", "do": "deal", "hidden": True}
    assert E.event_view(deal, 0, before=s)["hand"] == ROWS3[0]
    assert E.event_view(deal, 3, before=s) == hidden  # no such seat
    assert E.event_view(deal, 0, before=started()) == hidden  # not a deal step
    assert E.event_view(deal, 0, before={"n": 3}) == hidden  # not a Gift Swap state
    bad = ev("chance", "deal", order=deal_order(ROWS3, ASIDE3)[:-1])
    assert E.event_view(bad, 0, before=s) == hidden


def test_arrange_event_view_shows_the_order_only_to_its_maker():
    s = E.setup(3)
    s = E.apply(s, ev("chance", "deal", order=deal_order(ROWS3, ASIDE3)))
    event = ev(1, "arrange", order=ROWS3[1])
    for before in (s, None):
        assert E.event_view(event, 1, before=before) == event
        for other in (0, 2):
            assert E.event_view(event, other, before=before) == {
                "by": 1,
                "do": "arrange",
                "hidden": True,
            }


def test_choose_event_view_with_before_reveals_only_the_completing_choice():
    s = started()
    s = play(s, ev(0, "swap", card=4, with_seat=1, with_card=0))  # r3 <-> Neon Ball
    first = ev(1, "choose", choice="keep")
    mid = E.apply(s, first)
    last = ev(0, "choose", choice="keep")
    done = E.apply(mid, last)
    for seat in (0, 2):  # the first choice stays secret, with or without the state
        assert E.event_view(first, seat, before=s) == {"by": 1, "do": "choose", "hidden": True}
    assert E.event_view(first, 1, before=s) == first
    for seat in range(3):
        # The completing choice is revealed with the other one; it names no card, so
        # the kept cards (Neon Ball for seat 0, Red 3 for seat 1) stay with their owners.
        assert E.event_view(last, seat, before=mid) == last
    assert E.event_view(last, 1) == {"by": 0, "do": "choose", "hidden": True}
    assert E.view(done, 2)["last_choices"] == [
        {"seat": 0, "choice": "keep"},
        {"seat": 1, "choice": "keep"},
    ]
    assert {"gs-p-neonball", "gs-r3"} <= E.secrets(done, 2)
    # A choice given a state where it would not be the last one stays hidden.
    assert E.event_view(last, 2, before=s) == {"by": 0, "do": "choose", "hidden": True}


def test_lone_regift_choice_is_shown_with_before():
    s = started()
    # Seat 0 gives Red 1 (regift) for seat 1's Neon Ball; seat 1 opens the Red 1.
    s = play(s, ev(0, "swap", card=0, with_seat=1, with_card=0))
    s = place_all(play(s, ev(0, "choose", choice="keep"), ev(1, "choose", choice="open")))
    assert E.step(s) == "effect"
    assert E.to_move(s) == [1]
    s = play(s, ev(1, "regift", row="aside", card=0))  # takes the face-down Confetti
    assert E.step(s) == "choose"
    assert E.to_move(s) == [1]
    lone = ev(1, "choose", choice="keep")
    for seat in (0, 2):
        assert E.event_view(lone, seat, before=s) == lone
        assert E.event_view(lone, seat) == {"by": 1, "do": "choose", "hidden": True}
    assert "gs-p-confetti" in E.secrets(E.apply(s, lone), 0)


def test_start_player_option():
    s = started(options={"start_player": 2})
    assert E.to_move(s) == [2]
    refused(s, ev(0, "swap", card=0, with_seat=1, with_card=0), "not_your_turn")


# -- the Gift Swap turn ----------------------------------------------------------------


def test_swap_refusals():
    s = started()
    refused(s, ev(0, "swap", card=0, with_seat=0, with_card=1), "not_an_opponent")
    refused(s, ev(0, "swap", card=5, with_seat=1, with_card=0), "malformed_event")
    refused(s, ev(0, "swap", card=0, with_seat=1, with_card=0, extra=1), "malformed_event")
    refused(s, ev(0, "flip", card=0), "wrong_step")
    s = play(s, ev(0, "swap", card=0, with_seat=1, with_card=0))
    refused(s, ev(0, "swap", card=0, with_seat=1, with_card=0), "wrong_step")
    refused(s, ev(0, "choose", choice="peek"), "malformed_event")
    s = play(s, ev(0, "choose", choice="open"), ev(1, "choose", choice="open"))
    s = place_all(s)
    s = play(s, ev(1, "decline"))  # seat 1's Red 1 (regift)
    # Turn 2 (seat 1): the opened cards cannot be swapped any more.
    at = row(s, 0).index("gs-p-neonball")
    refused(s, ev(1, "swap", card=0, with_seat=0, with_card=at), "card_face_up")
    mine = row(s, 1).index("gs-r1")
    refused(s, ev(1, "swap", card=mine, with_seat=0, with_card=1), "card_face_up")


def test_keep_is_secret_and_placement_public():
    s = started()
    s = play(s, ev(0, "swap", card=4, with_seat=1, with_card=0))  # r3 <-> Neon Ball
    # Nobody has checked the swapped cards yet.
    assert "gs-p-neonball" in E.secrets(s, 0)
    assert "gs-r3" in E.secrets(s, 1)
    s = play(s, ev(0, "choose", choice="keep"), ev(1, "choose", choice="keep"))
    assert "gs-p-neonball" not in E.secrets(s, 0)
    assert "gs-r3" not in E.secrets(s, 1)
    assert "gs-r3" in E.secrets(s, 2)
    assert E.to_move(s) == [0]  # the active player places first
    # The Neon Ball may go anywhere; the Red 3 only where the order allows.
    assert [e["pos"] for e in E.legal_events(s, 0)] == [0, 1, 2, 3, 4]
    s = play(s, ev(0, "place", pos=2))
    refused(s, ev(1, "place", pos=4), "not_ascending")
    assert [e["pos"] for e in E.legal_events(s, 1)] == [0, 1, 2]
    s = play(s, ev(1, "place", pos=1))
    assert row(s, 1) == ["gs-p-polaroid", "gs-r3", "gs-b3", "gs-r4", "gs-b4"]
    seen_by_2 = E.view(s, 2)["rows"][1]
    assert seen_by_2[1] == {"card": None, "up": False}
    assert E.view(s, 1)["rows"][1][1] == {"card": "gs-r3", "up": False}
    assert E.view(s, 0)["rows"][1][1] == {"card": "gs-r3", "up": False}  # seat 0 gave it
    assert E.to_move(s) == [1]
    assert E.step(s) == "swap"


def test_secret_choices_revealed_only_when_both_are_in():
    s = started()
    s = play(s, ev(0, "swap", card=0, with_seat=2, with_card=0))
    a = E.apply(s, ev(2, "choose", choice="open"))
    b = E.apply(s, ev(2, "choose", choice="keep"))
    for seat in (0, 1):
        assert E.view(a, seat) == E.view(b, seat)
    assert E.view(a, 2)["queue"][0]["my_choice"] == "open"
    assert E.to_move(a) == [0]
    done = E.apply(a, ev(0, "choose", choice="keep"))
    assert E.view(done, 1)["last_choices"] == [
        {"seat": 0, "choice": "keep"},
        {"seat": 2, "choice": "open"},
    ]


# -- immediate effects ------------------------------------------------------------------


def test_active_priority_and_trade_forfeits_the_other_effect():
    s = started()
    # Seat 0 gives Red 2 (rewrap) for seat 1's Blue 3 (trade); both open.
    s = play(s, ev(0, "swap", card=2, with_seat=1, with_card=2))
    s = place_all(play(s, ev(0, "choose", choice="open"), ev(1, "choose", choice="open")))
    assert E.to_move(s) == [0]
    view = E.view(s, 2)
    assert [(t["seat"], t["effect"]) for t in view["queue"]] == [(0, "trade"), (1, "rewrap")]
    refused(s, ev(0, "rewrap", row=1, card=0), "wrong_effect")
    refused(s, ev(0, "trade", row=0, card=0), "own_row")
    refused(s, ev(0, "trade", row=1, card=row(s, 1).index("gs-b4")), "card_face_down")
    at = row(s, 1).index("gs-r2")
    s = play(s, ev(0, "trade", row=1, card=at))
    # The Red 2 moved to seat 0: seat 1's effect is forfeited; both place.
    assert E.step(s) == "place"
    assert E.to_move(s) == [0]
    s = place_all(s)
    assert "gs-r2" in s.rows[0]
    assert "gs-b3" in s.rows[1]
    assert E.step(s) == "swap"
    assert E.to_move(s) == [1]


def test_other_player_effect_after_active_declines():
    s = started()
    s = play(s, ev(0, "swap", card=2, with_seat=1, with_card=2))
    s = place_all(play(s, ev(0, "choose", choice="open"), ev(1, "choose", choice="open")))
    s = play(s, ev(0, "decline"))
    assert E.to_move(s) == [1]
    assert E.step(s) == "effect"
    # Rewrap: any face-up card, own and the effect card itself included.
    targets = {(e["row"], e["card"]) for e in E.legal_events(s, 1) if e["do"] == "rewrap"}
    assert targets == {(0, row(s, 0).index("gs-b3")), (1, row(s, 1).index("gs-r2"))}
    s = play(s, ev(1, "rewrap", row=0, card=row(s, 0).index("gs-b3")))
    assert "gs-b3" not in s.up
    # Everybody saw it: turning it down hides nothing.
    assert all("gs-b3" not in E.secrets(s, seat) for seat in range(3))
    assert E.to_move(s) == [1]
    assert E.step(s) == "swap"


def test_rewrap_forfeits_the_other_effect():
    s = started()
    # Seat 0 gives Red 3 (trade) for seat 2's Red 5 (rewrap); both open.
    s = play(s, ev(0, "swap", card=4, with_seat=2, with_card=2))
    s = place_all(play(s, ev(0, "choose", choice="open"), ev(2, "choose", choice="open")))
    s = play(s, ev(0, "rewrap", row=2, card=row(s, 2).index("gs-r3")))
    assert "gs-r3" not in s.up
    assert E.step(s) == "swap"
    assert E.to_move(s) == [1]


def test_regift_with_set_aside_card_then_keep_or_open_again():
    s = started()
    # Seat 0 gives Red 1 for seat 1's Red 4 (regift); seat 0 opens, seat 1 keeps.
    s = play(s, ev(0, "swap", card=0, with_seat=1, with_card=3))
    s = place_all(play(s, ev(0, "choose", choice="open"), ev(1, "choose", choice="keep")))
    assert E.step(s) == "effect"
    # Your own row is a legal target by default (option regift_own_row, see
    # test_gift_swap_options.py); the set-aside cards are the case under test here.
    assert ev(0, "regift", row=0, card=1) in E.legal_events(s, 0)
    refused(s, ev(0, "regift", row="aside", card=3), "malformed_event")
    refused(s, ev(0, "regift", row="nowhere", card=0), "malformed_event")
    s = play(s, ev(0, "regift", row="aside", card=2))  # the Blue 6
    assert s.aside == ("gs-p-confetti", "gs-p-chicken", "gs-r4")
    assert "gs-r4" in s.up
    assert "gs-b6" in E.secrets(s, 0)  # not checked yet
    assert E.to_move(s) == [0]
    assert E.step(s) == "choose"
    s = play(s, ev(0, "choose", choice="open"))
    s = place_all(s)
    # Blue 6 is a trade card: swap it with the Red 4 now lying face up aside.
    assert E.step(s) == "effect"
    assert E.to_move(s) == [0]
    assert ev(0, "trade", row="aside", card=2) in E.legal_events(s, 0)
    s = play(s, ev(0, "trade", row="aside", card=2))
    s = place_all(s)
    assert s.aside == ("gs-p-confetti", "gs-p-chicken", "gs-b6")
    assert "gs-r4" in s.rows[0]
    assert "gs-b6" in s.up
    assert E.step(s) == "swap"
    assert E.to_move(s) == [1]


def test_regift_into_an_opponent_row_makes_them_place():
    s = started()
    s = play(s, ev(0, "swap", card=0, with_seat=1, with_card=3))  # takes Red 4
    s = place_all(play(s, ev(0, "choose", choice="open"), ev(1, "choose", choice="keep")))
    at = row(s, 2).index("gs-b5")
    s = play(s, ev(0, "regift", row=2, card=at))
    s = play(s, ev(0, "choose", choice="keep"))
    assert E.to_move(s) == [0]
    s = play(s, E.legal_events(s, 0)[0])
    assert E.to_move(s) == [2]
    assert E.step(s) == "place"
    assert E.view(s, 1)["queue"][0]["card"] == "gs-r4"
    s = place_all(s)
    assert "gs-b5" not in E.secrets(s, 0)
    assert "gs-b5" in E.secrets(s, 1)
    assert E.step(s) == "swap"
    assert E.to_move(s) == [1]


# -- special condition and game end --------------------------------------------------------


def keep_turn(s):
    seat = E.to_move(s)[0]
    swap = E.legal_events(s, seat)[0]
    s = E.apply(s, swap)
    for who in list(E.to_move(s)):
        s = E.apply(s, ev(who, "choose", choice="keep"))
    return place_all(s)


@pytest.mark.parametrize("start", [0, 2])
def test_special_condition_after_two_rounds_without_a_flip(start):
    s = started(options={"start_player": start})
    for _ in range(5):
        s = keep_turn(s)
        assert s.phase == "turn"
    s = keep_turn(s)
    assert s.phase == "special"
    order = [(start + k) % 3 for k in range(3)]
    for seat in order:
        assert E.to_move(s) == [seat]
        assert E.step(s) == "flip"
        assert len(E.legal_events(s, seat)) == 5
        refused(s, ev(seat, "swap", card=0, with_seat=(seat + 1) % 3, with_card=0), "wrong_step")
        card = s.rows[seat][0]
        s = E.apply(s, ev(seat, "flip", card=0))
        assert card in s.up
        if E.step(s) == "effect":
            s = E.apply(s, ev(seat, "decline"))
    assert s.phase == "turn"
    assert E.to_move(s) == [start]
    assert E.step(s) == "swap"
    assert E.view(s, None)["round"] == 3


def test_no_special_condition_once_a_card_was_flipped():
    s = started()
    s = play(s, ev(0, "swap", card=1, with_seat=1, with_card=0))
    s = place_all(play(s, ev(0, "choose", choice="open"), ev(1, "choose", choice="keep")))
    for _ in range(5):
        s = keep_turn(s)
    assert s.phase == "turn"
    assert s.turn == 6


# -- random play: conformance and secrecy --------------------------------------------------


@pytest.mark.parametrize(
    ("n", "options"),
    [(3, None), (4, None), (3, {"start_player": 1}), (4, {"start_player": 3})],
)
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_conformance_with_options(n, options, bot):
    for seed in (1, 2):
        events = play_game(E, n, seed, bot=bot, options=options)
        check_game(E, n, events, seed, options=options)
        final = replay(E, n, options, events)
        assert E.is_over(final)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.sampled_from([3, 4]))
def test_views_never_expose_an_uncommitted_choice(seed, n):
    """While the other seat has not chosen, whatever a seat chose looks the same to others."""
    events = play_game(E, n, seed)
    checked = 0
    for state in _states(n, events):
        movers = E.to_move(state)
        if E.step(state) != "choose" or len(movers) < 2:
            continue  # a lone (or last) choice is revealed at once, by the rules
        for seat in movers:
            made = {c: ev(seat, "choose", choice=c) for c in ("keep", "open")}
            after = {c: E.apply(state, e) for c, e in made.items()}
            assert E.view(after["keep"], seat) != E.view(after["open"], seat)
            for other in range(n):
                if other != seat:
                    assert E.view(after["keep"], other) == E.view(after["open"], other)
                    assert E.event_view(made["keep"], other) == E.event_view(made["open"], other)
                    assert E.event_view(made["keep"], other, before=state) == E.event_view(
                        made["open"], other, before=state
                    )
            checked += 1
    assert checked > 0


def _states(n, events):
    state = E.setup(n)
    yield state
    for event in events:
        state = E.apply(state, event)
        yield state


# -- robustness ----------------------------------------------------------------------------


@pytest.mark.parametrize("options", [[1], "abc", 5, ("start_player", 0), {1: 2, "a": 3}])
def test_setup_refuses_options_that_are_not_an_object_of_names(options):
    with pytest.raises(InvalidSetup) as info:
        E.setup(3, options)
    assert info.value.code in ("bad_options", "unknown_option")
    assert info.value.message


def test_event_with_non_string_field_names_is_malformed():
    s = started()
    refused(
        s,
        {"by": 0, "do": "swap", "card": 0, "with_seat": 1, "with_card": 0, 1: 2, "zz": 3},
        "malformed_event",
    )
    refused(E.setup(3), {"by": "chance", "do": "deal", None: 1, "x": 2}, "malformed_event")


def test_chance_events_are_not_enumerated():
    assert E.legal_events(E.setup(3), "chance") == []


# -- second review: one rulebook sentence per test ---------------------------------------


def both_open(s, active, target_seat, mine, theirs):
    """A swap by ``active`` in which both seats Open, placed at the first legal slots."""
    s = play(s, ev(active, "swap", card=mine, with_seat=target_seat, with_card=theirs))
    return place_all(
        play(s, ev(active, "choose", choice="open"), ev(target_seat, "choose", choice="open"))
    )


def test_regift_chain_resolves_before_the_other_effect_and_can_forfeit_it():
    """'After swapping, you have to decide whether to Keep it or Open it (and activate
    the effect)'; the chain is the active player's, so it runs before the opponent's
    pending effect, and turning that card face down forfeits it."""
    s = started()
    # Seat 0 gives Blue 2 (rewrap) for seat 1's Red 4 (regift); both open.
    s = both_open(s, 0, 1, 3, 3)
    assert [(t[0], t[1], t[2]) for t in s.queue] == [
        ("effect", 0, "gs-r4"),
        ("effect", 1, "gs-b2"),
    ]
    # Regift aims at face-down cards only.
    refused(s, ev(0, "regift", row=1, card=row(s, 1).index("gs-b2")), "card_face_up")
    s = play(s, ev(0, "regift", row=2, card=2))  # seat 2's Red 5 (rewrap), face down
    assert E.step(s) == "choose"
    assert E.to_move(s) == [0]  # only the effect user chooses
    s = place_all(play(s, ev(0, "choose", choice="open")))
    assert "gs-r4" in s.rows[2]
    assert "gs-r4" in s.up
    # The Red 5's rewrap comes before seat 1's pending rewrap.
    assert E.step(s) == "effect"
    assert E.to_move(s) == [0]
    assert [(t[1], t[2]) for t in s.queue] == [(0, "gs-r5"), (1, "gs-b2")]
    s = play(s, ev(0, "rewrap", row=1, card=row(s, 1).index("gs-b2")))
    # Seat 1's effect is forfeited: the turn is over.
    assert "gs-b2" not in s.up
    assert s.queue == ()
    assert E.step(s) == "swap"
    assert E.to_move(s) == [1]


def test_regift_chain_kept_then_the_other_effect_follows():
    s = started()
    s = both_open(s, 0, 1, 3, 3)  # seat 0 gets Red 4 (regift), seat 1 Blue 2 (rewrap)
    s = place_all(play(s, ev(0, "regift", row=2, card=2), ev(0, "choose", choice="keep")))
    assert "gs-r5" not in s.up
    assert "gs-r5" not in E.secrets(s, 0)  # Keep: checked secretly
    assert "gs-r5" in E.secrets(s, 1)
    assert E.step(s) == "effect"
    assert E.to_move(s) == [1]
    assert s.queue == (("effect", 1, "gs-b2"),)
    # Rewrap: any face-up card, including the Red 4 now in seat 2's row.
    targets = {(e["row"], e["card"]) for e in E.legal_events(s, 1) if e["do"] == "rewrap"}
    assert targets == {(1, row(s, 1).index("gs-b2")), (2, row(s, 2).index("gs-r4"))}
    s = play(s, ev(1, "rewrap", row=2, card=row(s, 2).index("gs-r4")))
    assert "gs-r4" not in s.up
    assert E.step(s) == "swap"


def test_active_rewrap_of_another_card_keeps_the_other_effect():
    """Only the card turned face down loses its effect."""
    s = started()
    # Seat 0 gives Red 3 (trade) for seat 2's Red 5 (rewrap); both open.
    s = both_open(s, 0, 2, 4, 2)
    s = play(s, ev(0, "rewrap", row=0, card=row(s, 0).index("gs-r5")))  # its own card
    assert E.step(s) == "effect"
    assert E.to_move(s) == [2]
    # Seat 2's trade needs a face-up card outside its row: there is none now.
    assert E.legal_events(s, 2) == [ev(2, "decline")]
    refused(s, ev(2, "trade", row=0, card=row(s, 0).index("gs-r5")), "card_face_down")
    s = play(s, ev(2, "decline"))
    assert E.step(s) == "swap"


def test_effects_are_optional_for_both_players():
    s = started()
    s = both_open(s, 0, 1, 3, 3)
    assert ev(0, "decline") in E.legal_events(s, 0)
    s = play(s, ev(0, "decline"))
    assert E.to_move(s) == [1]
    s = play(s, ev(1, "decline"))
    assert {"gs-r4", "gs-b2"} <= s.up
    assert E.step(s) == "swap"
    assert E.to_move(s) == [1]


def test_only_the_opened_card_has_an_effect_step():
    """Keep never fires an effect; an opened Party Prop has no immediate effect."""
    s = started()
    # Seat 0 gives Red 1 (regift) for seat 1's Neon Ball; seat 0 opens, seat 1 keeps.
    s = play(s, ev(0, "swap", card=0, with_seat=1, with_card=0))
    s = place_all(play(s, ev(0, "choose", choice="open"), ev(1, "choose", choice="keep")))
    assert s.queue == ()
    assert E.step(s) == "swap"
    assert "gs-p-neonball" in s.up
    assert "gs-r1" not in s.up


def test_rewrapped_card_can_be_swapped_again():
    """'The facedown card can be used for swapping again.'"""
    s = started()
    s = both_open(s, 0, 1, 2, 2)  # seat 0 gets Blue 3 (trade), seat 1 Red 2 (rewrap)
    s = play(s, ev(0, "decline"))
    at = row(s, 0).index("gs-b3")
    s = play(s, ev(1, "rewrap", row=0, card=at))
    mine = row(s, 1).index("gs-p-neonball")
    swap = ev(1, "swap", card=mine, with_seat=0, with_card=at)
    assert swap in E.legal_events(s, 1)
    s = play(s, swap)
    assert "gs-b3" in s.rows[1]
    assert E.step(s) == "choose"


def test_trade_takes_a_set_aside_face_up_card_and_its_effect_is_not_activated():
    s = started()
    # Seat 0 gives Red 1 for seat 1's Red 4 (regift); regifts it aside for the Blue 6.
    s = play(s, ev(0, "swap", card=0, with_seat=1, with_card=3))
    s = place_all(play(s, ev(0, "choose", choice="open"), ev(1, "choose", choice="keep")))
    s = place_all(play(s, ev(0, "regift", row="aside", card=2), ev(0, "choose", choice="keep")))
    assert s.aside[2] == "gs-r4"
    assert "gs-r4" in s.up
    # Turn 2: seat 1 gives Blue 4 for seat 2's Red 6 (trade); seat 1 opens it.
    s = play(s, ev(1, "swap", card=row(s, 1).index("gs-b4"), with_seat=2, with_card=4))
    s = place_all(play(s, ev(1, "choose", choice="open"), ev(2, "choose", choice="keep")))
    # Seat 1 holds the Red 6 (trade): swap it with the Red 4 lying face up aside.
    assert E.to_move(s) == [1]
    trades = [e for e in E.legal_events(s, 1) if e["do"] == "trade"]
    assert ev(1, "trade", row="aside", card=2) in trades
    s = play(s, ev(1, "trade", row="aside", card=2))
    # The Red 4 (regift) arrives face up; only a placement follows, no effect.
    assert E.step(s) == "place"
    s = place_all(s)
    assert s.aside[2] == "gs-r6"
    assert "gs-r6" in s.up
    assert "gs-r4" in s.rows[1]
    assert E.step(s) == "swap"
    assert E.to_move(s) == [2]


def test_received_cards_are_placed_in_ascending_order_after_open_and_trade():
    s = started()
    s = play(s, ev(0, "swap", card=2, with_seat=1, with_card=2))  # Red 2 <-> Blue 3
    s = play(s, ev(0, "choose", choice="open"), ev(1, "choose", choice="open"))
    # Seat 0 received the Blue 3: after its 2s, either side of its Red 3.
    assert [e["pos"] for e in E.legal_events(s, 0)] == [3, 4]
    refused(s, ev(0, "place", pos=0), "not_ascending")
    s = place_all(s)
    assert row(s, 0) == ["gs-r1", "gs-b1", "gs-b2", "gs-b3", "gs-r3"]
    # Seat 0 trades the Blue 3 for the Red 2 now face up in seat 1's row.
    s = play(s, ev(0, "trade", row=1, card=row(s, 1).index("gs-r2")))
    assert E.to_move(s) == [0]
    refused(s, ev(0, "place", pos=4), "not_ascending")
    s = play(s, ev(0, "place", pos=2))
    assert row(s, 0) == ["gs-r1", "gs-b1", "gs-r2", "gs-b2", "gs-r3"]
    assert E.to_move(s) == [1]
    s = play(s, ev(1, "place", pos=2))
    assert row(s, 1) == ["gs-p-neonball", "gs-p-polaroid", "gs-b3", "gs-r4", "gs-b4"]


def test_rewrap_refuses_a_face_down_card():
    s = started()
    s = both_open(s, 0, 2, 4, 2)  # seat 0 gets Red 5 (rewrap)
    refused(s, ev(0, "rewrap", row=1, card=0), "card_face_down")
    refused(s, ev(0, "rewrap", row="aside", card=0), "card_face_down")
    refused(s, ev(2, "decline"), "not_your_turn")


# -- special condition, second review ---------------------------------------------------


def test_special_condition_flip_stays_in_place_and_may_chain_effects():
    s = started()
    for _ in range(6):
        s = keep_turn(s)
    assert s.phase == "special"
    assert E.to_move(s) == [0]
    # Seat 0 flips a regift card where it lies and uses it on the set-aside Blue 6.
    before = row(s, 0)
    i = next(k for k, c in enumerate(before) if CARDS[c].effect == "regift")
    card = before[i]
    s = play(s, ev(0, "flip", card=i))
    assert row(s, 0) == before  # flipped in place
    assert E.step(s) == "effect"
    assert s.aside[2] == "gs-b6"
    s = play(s, ev(0, "regift", row="aside", card=2))
    s = place_all(play(s, ev(0, "choose", choice="open")))
    # The Blue 6 (trade) fires in turn, before seat 1 flips; it may take the set-aside card.
    assert E.step(s) == "effect"
    assert ev(0, "trade", row="aside", card=2) in E.legal_events(s, 0)
    s = play(s, ev(0, "decline"))
    assert s.aside[2] == card
    assert card in s.up
    assert s.phase == "special"
    assert E.to_move(s) == [1]
    assert E.step(s) == "flip"


def test_special_condition_happens_only_once():
    s = started()
    for _ in range(6):
        s = keep_turn(s)
    for seat in range(3):
        s = play(s, ev(seat, "flip", card=0))
        while E.step(s) == "effect":
            s = play(s, ev(E.to_move(s)[0], "decline"))
    assert s.phase == "turn"
    # Two more rounds in which nobody opens: no second special condition.
    for _ in range(6):
        s = keep_turn(s)
        assert s.phase == "turn"


def test_special_condition_counts_a_flip_in_the_second_round():
    s = started()
    for _ in range(4):
        s = keep_turn(s)
    # Turn 5 (seat 1): seat 1 opens its swapped card.
    swap = E.legal_events(s, 1)[0]
    s = play(
        s, swap, ev(1, "choose", choice="open"), ev(swap["with_seat"], "choose", choice="keep")
    )
    s = place_all(s)
    while E.step(s) == "effect":
        s = play(s, ev(E.to_move(s)[0], "decline"))
    s = keep_turn(s)
    assert s.turn == 6
    assert s.phase == "turn"


def test_special_condition_with_four_players():
    rows = [
        ["gs-r1", "gs-b1", "gs-r2", "gs-b2"],
        ["gs-p-neonball", "gs-p-polaroid", "gs-b3", "gs-r4"],
        ["gs-p-hat", "gs-p-horn", "gs-r5", "gs-b5"],
        ["gs-p-confetti", "gs-r3", "gs-b4", "gs-r6"],
    ]
    s = started(rows, ["gs-p-chicken", "gs-b6"], {"start_player": 1})
    for _ in range(7):
        s = keep_turn(s)
        assert s.phase == "turn"
    s = keep_turn(s)
    assert s.phase == "special"
    assert E.to_move(s) == [1]
    assert s.special == (1, 2, 3, 0)


# -- game end, second review -------------------------------------------------------------


def face_up(s, *cards):
    """Shortcut for a position reached earlier: these cards lie face up, seen by all."""
    return s._replace(up=s.up | set(cards), known=tuple(k | set(cards) for k in s.known))


def test_game_ends_when_the_other_players_row_is_all_face_up():
    s = face_up(started(), "gs-p-neonball", "gs-p-polaroid", "gs-b3", "gs-r4")
    # Seat 0 takes seat 1's last face-down card (Blue 4) for its Red 1; seat 1
    # opens the Red 1 (regift) and declines: the turn ends, and so does the game.
    s = play(s, ev(0, "swap", card=0, with_seat=1, with_card=4))
    s = place_all(play(s, ev(0, "choose", choice="keep"), ev(1, "choose", choice="open")))
    assert all(c in s.up for c in s.rows[1])
    assert not E.is_over(s)  # the turn is not over: seat 1's effect is pending
    s = play(s, ev(1, "decline"))
    assert E.is_over(s)
    assert E.to_move(s) == []
    refused(s, ev(1, "swap", card=0, with_seat=0, with_card=0), "game_over")
    # Everyone's cards are flipped; the set-aside cards are not scored.
    assert all(c in s.up for r in s.rows for c in r)
    assert not set(s.aside) & s.up
    assert E.scores(s) == [score_cards(r)[0] for r in s.rows]


def test_no_end_if_the_row_is_no_longer_all_face_up_at_the_end_of_the_turn():
    s = face_up(started(), "gs-p-neonball", "gs-p-polaroid", "gs-b3", "gs-r4")
    s = play(s, ev(0, "swap", card=0, with_seat=1, with_card=4))
    s = place_all(play(s, ev(0, "choose", choice="keep"), ev(1, "choose", choice="open")))
    # Seat 1 regifts its Red 1 for a face-down card and keeps it: a face-down card again.
    s = place_all(play(s, ev(1, "regift", row="aside", card=0), ev(1, "choose", choice="keep")))
    assert not all(c in s.up for c in s.rows[1])
    assert not E.is_over(s)
    assert E.step(s) == "swap"
    assert E.to_move(s) == [1]


def test_no_end_if_the_full_row_is_rewrapped_in_the_same_turn():
    s = face_up(started(), "gs-p-neonball", "gs-p-polaroid", "gs-b3", "gs-r4")
    # Seat 0 gives Red 2 (rewrap) for seat 1's Blue 4; both open.
    s = both_open(s, 0, 1, 2, 4)
    assert all(c in s.up for c in s.rows[1])
    s = play(s, ev(0, "decline"))  # seat 0's Blue 4 (regift)
    s = play(s, ev(1, "rewrap", row=1, card=0))  # seat 1 turns its own Neon Ball down
    assert not E.is_over(s)
    assert E.to_move(s) == [1]


def test_game_can_end_after_a_special_condition_flip():
    s = started()
    for _ in range(6):
        s = keep_turn(s)
    assert s.phase == "special"
    # Seat 0 already has four face-up cards (a shortcut), and flips its fifth.
    last = s.rows[0][4]
    s = face_up(s, *s.rows[0][:4])
    s = play(s, ev(0, "flip", card=4))
    while E.step(s) == "effect":
        s = play(s, ev(0, "decline"))
    assert last in s.up
    assert E.is_over(s)


# -- scoring, second review --------------------------------------------------------------


def test_polaroid_must_convert_even_when_it_costs_the_king():
    # Three Quirky Gifts would be a King (+4), but the Polaroid must convert one:
    # best is the Blue 3 (+2), leaving Blue 1 and Blue 2 at -1 each.
    total, detail = score_cards(["gs-p-polaroid", "gs-b1", "gs-b2", "gs-b3"])
    assert total == 0
    assert detail["polaroid_converts"] == "gs-b3"
    assert not detail["king_of_quirky_gifts"]


def test_king_counts_the_card_the_neon_ball_converted():
    # Blue 1, Blue 2 and the converted Red 1: three Quirky Gifts, all positive.
    total, detail = score_cards(["gs-p-neonball", "gs-b1", "gs-b2", "gs-r1"])
    assert detail["king_of_quirky_gifts"]
    assert detail["quirky_cards"] == ["gs-b1", "gs-b2", "gs-r1"]
    assert total == 0 + 1 + 1 + 1


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        # Each converts its own card: 3 (two Props) + 2 - 3.
        (["gs-p-polaroid", "gs-p-neonball", "gs-b3", "gs-r5"], 2),
        # The Neon Ball may not turn back the card the Polaroid converted: 3 + 2.
        (["gs-p-polaroid", "gs-p-neonball", "gs-b3"], 5),
        # The Polaroid may not turn back the card the Neon Ball converted: 3 - 3.
        (["gs-p-polaroid", "gs-p-neonball", "gs-r5"], 0),
    ],
)
def test_polaroid_and_neon_ball_never_share_a_card(cards, expected):
    total, detail = score_cards(cards)
    assert total == expected
    assert detail["polaroid_converts"] != detail["neon_ball_converts"] or (
        detail["polaroid_converts"] is None
    )


@pytest.mark.parametrize(("count", "points"), [(0, 0), (1, 0), (2, 3), (3, 6), (4, 12)])
def test_party_props_table(count, points):
    props = ["gs-p-hat", "gs-p-horn", "gs-p-confetti", "gs-p-polaroid"][:count]
    # The Polaroid has no Quirky Gift to convert here, so only the table counts.
    total, detail = score_cards([*props, "gs-r2"])
    assert detail["party_prop_points"] == points
    assert total == points + 1
