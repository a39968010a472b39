"""Secret Santa: scoring, the deal, the guest, own-card takes, rounds and game end.

See docs/rules/secret_santa.md for the interpretations these tests pin down.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import IllegalEvent, InvalidSetup
from games.play import BOTS, self_play
from games.secret_santa import (
    CARDS,
    COLOUR,
    CUPS_TABLE,
    ENGINE,
    FIRST_WITH_ROOM,
    HAND_SIZE,
    TO_GUEST,
    State,
    deal_cards,
    round_score,
    score_breakdown,
)
from tests.games.conformance import check_game, play_game

GIFTS = [f"ss-gift-{i}" for i in range(1, 8)]
TEAS = [f"ss-tea-{i}" for i in range(1, 8)]
CUPS = [f"ss-cup-{i}" for i in range(1, 8)]
REDS = [*GIFTS, "ss-matamug"]
GREENS = [*TEAS, "ss-teapot"]
BLUES = [*CUPS, "ss-choc"]


def deal(deck: list[str]) -> dict:
    return {"by": "chance", "do": "deal", "deck": list(deck)}


def code_of(state, event) -> str:
    with pytest.raises(IllegalEvent) as info:
        ENGINE.apply(state, event)
    return info.value.code


def take(by: int, source, index: int) -> dict:
    return {"by": by, "do": "take", "from": source, "index": index}


def position(
    hands: list[list[str]],
    *,
    guest_up: tuple[str, ...] = (),
    guest_down: tuple[str, ...] = (),
    piles: list[list[str]] | None = None,
    active: int = 0,
    first: int = 0,
    totals: tuple[int, ...] | None = None,
    round_no: int = 1,
) -> State:
    """A mid-round position built directly (for edge cases deep in a round)."""
    n = len(hands)
    state = ENGINE.setup(n).copy()
    state.box = ()
    state.phase = "take"
    state.round = round_no
    state.first = first
    state.active = active
    state.hands = tuple(tuple(h) for h in hands)
    state.piles = tuple(tuple(p) for p in (piles or [[] for _ in hands]))
    state.guest_up = tuple(guest_up)
    state.guest_down = tuple(guest_down)
    state.known = tuple(frozenset(h) for h in hands)
    state.totals = tuple(totals or (0,) * n)
    return state


# -- scoring -------------------------------------------------------------------


def test_generic_presents_two_each():
    assert round_score(GIFTS[:3]) == 6
    assert round_score(GIFTS) == 14


def test_cups_by_quantity_table():
    for count in range(8):
        assert round_score(CUPS[:count]) == CUPS_TABLE[count]
    assert CUPS_TABLE == (0, 1, 3, 6, 9, 12, 15, 18)


def test_matamug_scores_two_and_removes_own_cups():
    assert round_score(["ss-matamug"]) == 2
    parts = score_breakdown([*CUPS[:4], "ss-matamug", GIFTS[0]])
    assert parts["cup"] == 0
    assert parts["matamug"] == 2
    assert parts["total"] == 4


def test_choc_and_cawa_needs_the_matamug():
    assert round_score(["ss-choc"]) == 0
    assert round_score(["ss-choc", *CUPS[:2]]) == 3
    assert round_score(["ss-choc", "ss-matamug"]) == 5
    assert round_score(["ss-choc", "ss-matamug", *CUPS[:3]]) == 5


def test_tea_bags_and_tea_pot_doubling():
    assert round_score(TEAS[:3]) == 3
    assert round_score(["ss-teapot"]) == 1
    assert round_score([*TEAS[:3], "ss-teapot"]) == 7
    assert round_score([*TEAS, "ss-teapot"]) == 15


def test_mixed_collection_breakdown():
    cards = [GIFTS[0], GIFTS[1], CUPS[0], CUPS[1], TEAS[0], "ss-teapot", "ss-choc"]
    assert score_breakdown(cards) == {
        "generic": 4,
        "cup": 3,
        "matamug": 0,
        "choc_cawa": 0,
        "tea_bag": 2,
        "teapot": 1,
        "total": 10,
    }


# -- the deal ----------------------------------------------------------------------


def test_setup_refuses_bad_counts_and_options():
    with pytest.raises(InvalidSetup) as info:
        ENGINE.setup(5)
    assert info.value.code == "bad_player_count"
    with pytest.raises(InvalidSetup) as info:
        ENGINE.setup(3, {"target": 30})
    assert info.value.code == "unknown_option"


def test_deal_starts_left_of_first_player_and_lays_out_guest():
    deck = [*REDS[:4], *GREENS[:4], *BLUES[:4], *REDS[4:], *GREENS[4:], *BLUES[4:]]
    state = ENGINE.apply(ENGINE.setup(4), deal(deck))
    # 4 players x 5 cards, one at a time from seat 1 (left of first player 0).
    assert state.hands[1][0] == deck[0]
    assert state.hands[2][0] == deck[1]
    assert state.hands[0][0] == deck[3]
    rest = deck[20:]
    assert list(state.guest_up) == rest[0::2]
    assert list(state.guest_down) == rest[1::2]
    assert (len(state.guest_up), len(state.guest_down)) == (2, 2)
    assert ENGINE.to_move(state) == [0]


@pytest.mark.parametrize(("n", "half"), [(2, 5), (3, 3), (4, 2)])
def test_deal_sizes(n, half):
    deck = list(CARDS)
    random.Random(n).shuffle(deck)
    state = ENGINE.apply(ENGINE.setup(n), deal(deck))
    assert [len(h) for h in state.hands] == [HAND_SIZE[n]] * n
    assert len(state.guest_up) == len(state.guest_down) == half
    assert ENGINE.card_multiset(state) == Counter(CARDS)


def test_third_card_of_a_colour_goes_to_the_next_player():
    r, g, b = REDS, GREENS, BLUES
    head = [r[0], g[0], b[0], r[1], g[1], b[1], r[2], g[2]]
    used = set(head)
    deck = head + [c for c in CARDS if c not in used]
    hands, _, _ = deal_cards(deck, 3, 0)
    # Seat 1 gets r0 and r1; r2 would be its third red, so it goes to seat 2,
    # and dealing continues after seat 2: g2 goes to seat 0.
    assert hands[1][:2] == (r[0], r[1])
    assert r[2] in hands[2]
    assert g[2] == hands[0][2]


def test_deal_falls_back_when_no_player_can_take_the_colour():
    # deal_fallback "first_with_room" (records made before the option): two
    # players, seven reds first: after four reds both hold two, so the fifth
    # red goes where it was meant to go (seat 1: dealing starts there).
    # The default ("guest") is tested in test_secret_santa_options.py.
    deck = [*REDS, *GREENS, *BLUES]
    hands, up, down = deal_cards(deck, 2, 0, FIRST_WITH_ROOM)
    assert hands[1][:3] == (REDS[0], REDS[2], REDS[4])
    assert [len(h) for h in hands] == [7, 7]
    assert len(up) == len(down) == 5


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 4),
    first=st.integers(0, 3),
    fallback=st.sampled_from([TO_GUEST, FIRST_WITH_ROOM]),
)
def test_every_shuffle_deals_completely(seed, n, first, fallback):
    deck = list(CARDS)
    random.Random(seed).shuffle(deck)
    hands, up, down = deal_cards(deck, n, first % n, fallback)
    assert [len(h) for h in hands] == [HAND_SIZE[n]] * n
    assert len(up) == len(down) == (len(CARDS) - n * HAND_SIZE[n]) // 2
    assert sorted([*sum(hands, ()), *up, *down]) == sorted(CARDS)
    # The colour rule is only broken when nobody with room could take the card
    # (and, setting cards aside for the guest, only once the guest's share is full).
    owner = {card: seat for seat, hand in enumerate(hands) for card in hand}
    held: list[list[str]] = [[] for _ in range(n)]
    for card in deck:
        if card not in owner:
            continue
        colour = COLOUR[card]
        seat = owner[card]
        if sum(COLOUR[c] == colour for c in held[seat]) >= 2:
            assert fallback == FIRST_WITH_ROOM or n == 2
            for other in range(n):
                if len(held[other]) < HAND_SIZE[n]:
                    assert sum(COLOUR[c] == colour for c in held[other]) >= 2
        held[seat].append(card)


@pytest.mark.parametrize(
    "deck",
    [
        list(CARDS[:-1]),
        [*CARDS[:-1], CARDS[0]],
        [*CARDS, CARDS[0]],
        "not-a-list",
        [None] * 24,
    ],
)
def test_bad_deck_refused(deck):
    assert code_of(ENGINE.setup(2), deal(deck)) == "bad_deck"


def test_deal_by_a_seat_or_with_extra_fields_refused():
    state = ENGINE.setup(2)
    assert code_of(state, {"by": 0, "do": "deal", "deck": list(CARDS)}) == "not_your_turn"
    extra = {**deal(list(CARDS)), "first": 1}
    assert code_of(state, extra) == "malformed_event"


# -- taking -----------------------------------------------------------------------------


def dealt(n: int, seed: int = 7) -> State:
    deck = list(CARDS)
    random.Random(seed).shuffle(deck)
    return ENGINE.apply(ENGINE.setup(n), deal(deck))


def test_blind_take_from_a_player_shows_only_the_taker():
    state = dealt(3)
    card = state.hands[2][3]
    event = take(0, 2, 3)
    after = ENGINE.apply(state, event)
    assert after.piles[0] == (card,)
    assert card not in after.hands[2]
    assert len(after.hands[2]) == 5
    assert ENGINE.to_move(after) == [1]
    quoted = json.dumps(card)
    assert card in ENGINE.view(after, 0)["players"][0]["face_down"]
    assert quoted not in json.dumps(ENGINE.view(after, 1))
    # The holder knew the card: it sees where it went.
    assert ENGINE.view(after, 2)["players"][0]["face_down_known"] == [card]
    for seat in range(3):
        assert quoted not in json.dumps(ENGINE.event_view(event, seat))
    assert card in ENGINE.secrets(after, 1)
    assert card not in ENGINE.secrets(after, 2)


def test_take_errors():
    state = dealt(2)
    assert code_of(state, take(0, 1, 7)) == "no_such_position"
    assert code_of(state, take(0, 1, -1)) == "no_such_position"
    assert code_of(state, take(0, "guest", 5)) == "no_such_position"
    assert code_of(state, take(0, 0, 0)) == "own_card_not_allowed"
    assert code_of(state, take(0, 2, 0)) == "malformed_event"
    assert code_of(state, take(0, True, 0)) == "malformed_event"
    assert code_of(state, take(0, "1", 0)) == "malformed_event"
    assert code_of(state, {"by": 0, "do": "take", "from": 1}) == "malformed_event"
    assert code_of(state, {**take(0, 1, 0), "card": "ss-cup-1"}) == "malformed_event"
    assert code_of(state, {"by": 0, "do": "give", "card": state.hands[0][0]}) == "wrong_phase"
    assert code_of(state, take(1, 0, 0)) == "not_your_turn"


def test_empty_hand_and_empty_guest_refused():
    state = position([["ss-gift-1"], [], ["ss-cup-1"]], guest_down=())
    assert code_of(state, take(0, 1, 0)) == "empty_hand"
    assert code_of(state, take(0, "guest", 0)) == "no_guest_face_down"
    assert ENGINE.legal_events(state, 0) == [take(0, 2, 0)]


def test_player_without_cards_still_plays():
    state = position([[], ["ss-gift-1", "ss-gift-2"], ["ss-cup-1"]], guest_down=("ss-tea-1",))
    legal = ENGINE.legal_events(state, 0)
    assert take(0, 1, 1) in legal
    assert take(0, "guest", 0) in legal
    after = ENGINE.apply(state, take(0, 1, 1))
    assert after.piles[0] == ("ss-gift-2",)
    assert ENGINE.to_move(after) == [1]


# -- the Unexpected guest ----------------------------------------------------------------------


def test_guest_take_then_next_player_with_cards_gives_face_up():
    state = position(
        [["ss-gift-1"], [], [], ["ss-cup-1", "ss-cup-2"]],
        guest_up=("ss-tea-1",),
        guest_down=("ss-tea-2", "ss-matamug"),
        active=0,
    )
    after = ENGINE.apply(state, take(0, "guest", 1))
    assert after.piles[0] == ("ss-matamug",)
    assert after.guest_down == ("ss-tea-2",)
    # Seats 1 and 2 have no cards: seat 3 replaces the guest's card.
    assert ENGINE.to_move(after) == [3]
    assert after.phase == "give"
    assert ENGINE.legal_events(after, 3) == [
        {"by": 3, "do": "give", "card": "ss-cup-1"},
        {"by": 3, "do": "give", "card": "ss-cup-2"},
    ]
    assert code_of(after, {"by": 3, "do": "give", "card": "ss-gift-1"}) == "card_not_in_hand"
    assert code_of(after, {"by": 3, "do": "give", "card": 3}) == "malformed_event"
    assert code_of(after, take(3, 0, 0)) == "wrong_phase"
    given = ENGINE.apply(after, {"by": 3, "do": "give", "card": "ss-cup-2"})
    assert given.guest_up == ("ss-tea-1", "ss-cup-2")
    assert len(given.guest_up) + len(given.guest_down) == 3
    assert given.hands[3] == ("ss-cup-1",)
    # Play resumes after the player who took, not after the giver.
    assert ENGINE.to_move(given) == [1]
    assert "ss-cup-2" in ENGINE.view(given, 1)["guest"]["face_up"]


def test_guest_face_up_cards_cannot_be_taken():
    state = position([["ss-gift-1"], ["ss-gift-2"]], guest_up=("ss-tea-1",), guest_down=())
    assert all(e["from"] != "guest" for e in ENGINE.legal_events(state, 0))


# -- own card at the end ---------------------------------------------------------------------


def test_only_player_with_cards_takes_own_card():
    state = position(
        [["ss-gift-1"], ["ss-cup-1", "ss-choc"], []], guest_down=("ss-tea-1",), active=1
    )
    # Seat 0 still has a card: no own take yet.
    assert ENGINE.legal_events(state, 1) == [take(1, 0, 0), take(1, "guest", 0)]
    assert code_of(state, take(1, 1, 0)) == "own_card_not_allowed"
    state = position([[], ["ss-cup-1", "ss-choc"], []], guest_down=("ss-tea-1",), active=1)
    assert ENGINE.legal_events(state, 1) == [take(1, 1, 0), take(1, 1, 1)]
    assert code_of(state, take(1, "guest", 0)) == "must_take_own"
    assert code_of(state, take(1, 0, 0)) == "must_take_own"
    after = ENGINE.apply(state, take(1, 1, 1))
    assert after.piles[1] == ("ss-choc",)
    assert ENGINE.to_move(after) == [2]
    # Seat 2 has no cards but still plays: from seat 1 or from the guest,
    # in which case seat 1 (the only one with cards) gives the replacement.
    assert ENGINE.legal_events(after, 2) == [take(2, 1, 0), take(2, "guest", 0)]
    guest = ENGINE.apply(after, take(2, "guest", 0))
    assert ENGINE.to_move(guest) == [1]
    ended = ENGINE.apply(guest, {"by": 1, "do": "give", "card": "ss-cup-1"})
    assert ended.phase == "deal"
    assert ended.guest_up == ("ss-cup-1",)


# -- round end, rotation, game end --------------------------------------------------------


def last_take_position(totals, pile0, pile1, *, first=0, round_no=1):
    """Seat 0 takes the last card in hand (seat 1's ss-gift-7) to end a round."""
    return position(
        [[], ["ss-gift-7"]],
        piles=[pile0, pile1],
        active=0,
        first=first,
        totals=totals,
        round_no=round_no,
    )


def test_round_end_scores_and_rotates_first_player():
    state = last_take_position((0, 0), ["ss-gift-1"], ["ss-tea-1", "ss-teapot"])
    after = ENGINE.apply(state, take(0, 1, 0))
    assert after.round_scores == ((4, 3),)
    assert ENGINE.scores(after) == [4, 3]
    assert after.phase == "deal"
    assert ENGINE.to_move(after) == ["chance"]
    assert after.round == 2
    assert after.first == 1
    # Face-down cards are revealed to everybody after the round.
    assert ENGINE.view(after, 1)["players"][0]["face_down"] == ["ss-gift-1", "ss-gift-7"]
    assert ENGINE.view(after, 1)["last_round"][0]["generic"] == 4
    nxt = ENGINE.apply(after, deal(list(CARDS)))
    assert ENGINE.to_move(nxt) == [1]
    assert ENGINE.view(nxt, 0)["round_scores"] == [[4, 3]]
    assert ENGINE.scores(nxt) == [4, 3]


def test_first_player_rotates_through_rounds():
    state = ENGINE.setup(3)
    firsts = []
    rng = random.Random(3)
    while not ENGINE.is_over(state) and len(firsts) < 4:
        if ENGINE.to_move(state) == ["chance"]:
            state = ENGINE.apply(state, ENGINE.sample_chance(state, rng))
            firsts.append(ENGINE.to_move(state)[0])
        else:
            seat = ENGINE.to_move(state)[0]
            state = ENGINE.apply(state, rng.choice(ENGINE.legal_events(state, seat)))
    assert firsts == [0, 1, 2, 0][: len(firsts)]
    assert len(firsts) >= 2


def test_reaching_25_with_a_single_leader_ends_the_game():
    state = last_take_position((20, 24), ["ss-gift-1", "ss-gift-2"], ["ss-cup-1"])
    after = ENGINE.apply(state, take(0, 1, 0))
    assert ENGINE.is_over(after)
    assert ENGINE.scores(after) == [26, 25]
    result = ENGINE.result(after)
    assert result.winners == [0]
    assert result.ranks == [1, 2]
    assert result.details["round_scores"] == [[6, 1]]
    assert ENGINE.to_move(after) == []
    assert ENGINE.legal_events(after, 0) == []
    assert code_of(after, deal(list(CARDS))) == "game_over"


def test_below_25_plays_on():
    state = last_take_position((10, 10), ["ss-gift-1", "ss-gift-2"], ["ss-cup-1"])
    after = ENGINE.apply(state, take(0, 1, 0))
    assert not ENGINE.is_over(after)
    assert ENGINE.scores(after) == [16, 11]


def test_tie_at_the_top_plays_another_round():
    state = last_take_position((20, 25), ["ss-gift-1", "ss-gift-2"], ["ss-teapot"])
    after = ENGINE.apply(state, take(0, 1, 0))
    assert ENGINE.scores(after) == [26, 26]
    assert not ENGINE.is_over(after)
    assert after.round == 2
    assert after.first == 1
    # The extra round breaks the tie: now the game ends.
    again = last_take_position((26, 26), ["ss-gift-1"], ["ss-cup-1"], first=1, round_no=2)
    done = ENGINE.apply(again, take(0, 1, 0))
    assert ENGINE.is_over(done)
    assert ENGINE.result(done).winners == [0]


def test_tie_below_the_top_does_not_stop_the_game_end():
    state = position(
        [[], ["ss-gift-7"], []],
        piles=[["ss-gift-1"], ["ss-cup-1"], ["ss-cup-2"]],
        active=0,
        totals=(26, 20, 20),
    )
    after = ENGINE.apply(state, take(0, 1, 0))
    assert ENGINE.is_over(after)
    assert ENGINE.result(after).ranks == [1, 2, 2]


def test_each_player_ends_a_round_with_a_full_pile():
    for n in (2, 3, 4):
        state = ENGINE.setup(n)
        rng = random.Random(n)
        while not ENGINE.is_over(state):
            movers = ENGINE.to_move(state)
            if movers == ["chance"]:
                event = ENGINE.sample_chance(state, rng)
            else:
                event = rng.choice(ENGINE.legal_events(state, movers[0]))
            state = ENGINE.apply(state, event)
            if state.phase in ("deal", "over"):
                assert [len(p) for p in state.piles] == [HAND_SIZE[n]] * n
                assert len(state.guest_up) + len(state.guest_down) == 24 - n * HAND_SIZE[n]


# -- hidden information ----------------------------------------------------------------


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 4))
def test_views_never_show_cards_a_seat_has_not_seen(seed, n):
    rng = random.Random(seed)
    state = ENGINE.setup(n)
    seen: list[set[str]] = [set() for _ in range(n)]
    while not ENGINE.is_over(state):
        movers = ENGINE.to_move(state)
        if movers == ["chance"]:
            event = ENGINE.sample_chance(state, rng)
        else:
            event = rng.choice(ENGINE.legal_events(state, movers[0]))
        before, state = state, ENGINE.apply(state, event)
        if event["do"] == "deal":
            seen = [set(h) for h in state.hands]
        elif event["do"] == "take":
            taker = event["by"]
            seen[taker].add(state.piles[taker][-1])
        if state.phase != "take" and state.phase != "give":
            continue
        for seat in range(n):
            hidden = set(state.guest_down)
            for other in range(n):
                if other != seat:
                    hidden |= set(state.hands[other]) | set(state.piles[other])
            hidden -= seen[seat]
            text = (
                json.dumps(ENGINE.view(state, seat))
                + json.dumps(ENGINE.event_view(event, seat))
                + json.dumps(ENGINE.event_view(event, seat, before=before))
            )
            assert not [c for c in hidden if json.dumps(c) in text]
            # Another seat's take names a position, never the card itself.
            if event["do"] == "take" and event["by"] != seat:
                taken = state.piles[event["by"]][-1]
                assert json.dumps(taken) not in json.dumps(ENGINE.event_view(event, seat))


@pytest.mark.parametrize(("n", "first"), [(2, 0), (2, 1), (3, 0), (3, 2), (4, 1), (4, 3)])
def test_deal_event_view_with_before_shows_own_hand_and_guest_face_up(n, first):
    deck = list(CARDS)
    random.Random(10 * n + first).shuffle(deck)
    before = ENGINE.setup(n)
    before.first = first
    before.active = first
    event = deal(deck)
    after = ENGINE.apply(before, event)
    for seat in range(n):
        shown = ENGINE.event_view(event, seat, before=before)
        # Exactly the seat's hand, in position order, and the public face-up row.
        assert shown == {
            "by": "chance",
            "do": "deal",
            "hand": list(after.hands[seat]),
            "guest_face_up": list(after.guest_up),
        }
        text = json.dumps(shown)
        others = {c for s in range(n) if s != seat for c in after.hands[s]}
        assert not [c for c in [*others, *after.guest_down] if json.dumps(c) in text]
        assert "deck" not in shown
    # Seat None (the referee / full record) still sees the whole event.
    assert ENGINE.event_view(event, None, before=before) == event


def test_deal_event_view_follows_the_third_card_rule():
    # The seat's hand comes from the engine's own dealing, not from a naive
    # round-robin slice of the deck: r2 is redirected from seat 1 to seat 2.
    r, g, b = REDS, GREENS, BLUES
    head = [r[0], g[0], b[0], r[1], g[1], b[1], r[2], g[2]]
    deck = head + [c for c in CARDS if c not in set(head)]
    before = ENGINE.setup(3)
    after = ENGINE.apply(before, deal(deck))
    seat1 = ENGINE.event_view(deal(deck), 1, before=before)["hand"]
    seat2 = ENGINE.event_view(deal(deck), 2, before=before)["hand"]
    assert seat1 == list(after.hands[1])
    assert r[2] not in seat1
    assert r[2] in seat2


def test_deal_event_view_without_before_stays_hidden():
    deck = list(CARDS)
    random.Random(3).shuffle(deck)
    event = deal(deck)
    for seat in range(3):
        assert ENGINE.event_view(event, seat) == {"by": "chance", "do": "deal", "hidden": True}
    assert ENGINE.event_view(event, None) == event
    # A state that is not this engine's, or a seat outside the game: hidden too.
    hidden = {"by": "chance", "do": "deal", "hidden": True}
    assert ENGINE.event_view(event, 0, before=object()) == hidden
    assert ENGINE.event_view(event, 3, before=ENGINE.setup(3)) == hidden
    # A deal that could not have been applied is not dealt out.
    assert ENGINE.event_view(deal(deck[:-1]), 0, before=ENGINE.setup(3)) == hidden


def test_seat_events_are_public_with_or_without_before():
    state = dealt(3)
    event = take(0, 2, 3)
    for seat in (0, 1, 2, None):
        assert ENGINE.event_view(event, seat) == event
        assert ENGINE.event_view(event, seat, before=state) == event


# -- conformance and bots ------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_conformance(n, bot):
    seed = 100 + n
    events = play_game(ENGINE, n, seed, bot=bot)
    check_game(ENGINE, n, events, seed)


def test_greedy_gift_denies_the_leader():
    # Seat 1 knows seat 0 took its ss-cup-3; seat 1 owns the Matamug, so Cups
    # are worth nothing to it but a second Cup is worth 2 to seat 0.
    state = position(
        [["ss-gift-1"], ["ss-gift-3", "ss-cup-2"], ["ss-choc"]],
        piles=[["ss-cup-3"], ["ss-matamug"], []],
        guest_down=("ss-tea-1",),
        active=0,
    )
    state.known = (state.known[0], state.known[1] | {"ss-cup-3"}, state.known[2])
    state = ENGINE.apply(state, take(0, "guest", 0))
    event = ENGINE.greedy_event(state, 1, random.Random(0))
    assert event == {"by": 1, "do": "give", "card": "ss-cup-2"}
    # The own-card take keeps the most valuable card.
    last = position([[], ["ss-choc", "ss-gift-2"]], active=1)
    assert ENGINE.greedy_event(last, 1, random.Random(0)) == take(1, 1, 1)


def test_greedy_beats_random_heads_up():
    wins = 0
    games = 120
    for seed in range(games):
        me = seed % 2
        bots = [BOTS["random"], BOTS["random"]]
        bots[me] = BOTS["greedy"]
        _, final = self_play(ENGINE, 2, rng=random.Random(seed), bots=bots)
        wins += me in ENGINE.result(final).winners
    assert wins > games // 2


# -- review additions ------------------------------------------------------------------


def test_setup_refuses_option_names_of_mixed_types():
    # A mapping whose keys cannot be sorted together must still be refused cleanly.
    for options in ({1: 2, "a": 3}, {None: 1, "x": 2}):
        with pytest.raises(InvalidSetup) as info:
            ENGINE.setup(2, options)
        assert info.value.code == "unknown_option"


def test_card_backs_are_public():
    # I16: the dealer applies the third-card rule to cards dealt face down and
    # the backs of taken cards "must remain visible", so a card's colour is on
    # its back: every seat sees the colour of every position in every hand, of
    # every face-down pile card and of the guest's face-down cards.
    state = position(
        [["ss-gift-1", "ss-tea-1"], ["ss-cup-1", "ss-teapot", "ss-matamug"]],
        guest_up=("ss-tea-2",),
        guest_down=("ss-choc", "ss-gift-2"),
        piles=[["ss-cup-2"], []],
    )
    for seat in (0, 1, None):
        view = ENGINE.view(state, seat)
        assert view["players"][0]["hand_backs"] == ["red", "green"]
        assert view["players"][1]["hand_backs"] == ["blue", "green", "red"]
        assert view["players"][0]["face_down_backs"] == ["blue"]
        assert view["players"][1]["face_down_backs"] == []
        assert view["guest"]["face_down_backs"] == ["blue", "red"]
    # Colours, not cards: seat 1 still cannot see seat 0's cards.
    text = json.dumps(ENGINE.view(state, 1))
    assert '"ss-gift-1"' not in text
    assert '"ss-cup-2"' not in text
    assert '"ss-choc"' not in text


def test_greedy_take_uses_the_public_back_colours():
    # Seat 0 holds three Cups: an unseen blue card is worth 2.4 on average
    # (four Cups at +3, Choc & Cawa at 0), more than red (the Matamug would
    # wipe its Cups) or green. It takes seat 1's blue position.
    state = position(
        [[], ["ss-gift-1", "ss-cup-4"]],
        piles=[CUPS[:3], []],
        guest_down=("ss-tea-1",),
    )
    state.known = (frozenset(CUPS[:3]), state.known[1])
    assert ENGINE.greedy_event(state, 0, random.Random(0)) == take(0, 1, 1)
