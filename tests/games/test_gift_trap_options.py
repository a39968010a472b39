"""GiftTRAP's options (house rules): each value played, refused values, the metadata.

Rulebook: seeds/002_96452d4b254e46ec.txt. The options, the sentences they
interpret and why their defaults were chosen are in docs/rules/gift_trap.md,
"Options (house rules)". The ruling of issue 14: the round limit is not in the
rulebook, so ``max_rounds`` defaults to no limit (``None``); a game it ends
says ``ended_by: "round_limit"``. A second GiftTRAP card is refused with
``gifttrap_used`` whoever is revealing.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from games.base import InvalidSetup, Option
from games.gift_trap import ENGINE, PACK_CARDS, PACK_ORDER
from games.play import BOTS, self_play
from tests.games.conformance import check_game
from tests.games.test_gift_trap import (
    ev,
    get_all,
    give_all,
    natural_deal,
    play_round,
    refused,
    reveal_all,
    start,
    with_tracks,
)

E = ENGINE
RULEBOOK = Path("/work/shared/seeds/002_96452d4b254e46ec.txt")
NAMES = ["expert_cards", "packs", "first_dealer", "track_length", "zone_size", "max_rounds"]
# The value that reproduces the engine before options were typed (issue 14).
LEGACY = {"max_rounds": 15}
ALL_GETS = (1, 2, 3, 4)  # GREAT on gift 1, GOOD 2, OK 3, NO WAY 4


def option(name: str) -> Option:
    return next(o for o in E.options if o.name == name)


def losing_gives(n: int) -> dict[tuple[int, int], int]:
    """Every gift a NO WAY or an OK (3 players, GET tokens on 1-4): nobody ever advances."""
    return {(g, r): 4 if r == (g + 1) % n else 3 for g in range(n) for r in range(n) if g != r}


# -- metadata and refusals -------------------------------------------------------------


def test_options_metadata_is_complete():
    """Every option is typed and documented, and quotes the rulebook sentence it reads.

    The ruling option quotes "The winner is the first player to have BOTH their Give
    and Get markers in the GIFTED Zone at the end of a round."
    """
    assert [o.name for o in E.options] == NAMES
    text = " ".join(RULEBOOK.read_text().split())
    for o in E.options:
        assert isinstance(o, Option)
        assert o.description, o.name
        assert o.why, o.name
        assert o.rulebook, o.name
        assert " ".join(o.rulebook.split()) in text, f"{o.name}: not quoted exactly"
        o.check(o.default)
        data = o.to_json()
        assert data["rulebook"] == o.rulebook
        assert data["why_default"] == o.why
    limit = option("max_rounds")
    assert (limit.kind, limit.default, limit.low, limit.high) == ("int_or_none", None, 1, 500)
    assert limit.rulebook == (
        "The winner is the first player to have BOTH their Give and Get markers in the "
        "GIFTED Zone at the end of a round."
    )
    assert option("packs").choices == PACK_ORDER
    assert option("packs").default == list(PACK_ORDER)
    assert {o.name: o.kind for o in E.options} == {
        "expert_cards": "bool",
        "packs": "list",
        "first_dealer": "int",
        "track_length": "int",
        "zone_size": "int",
        "max_rounds": "int_or_none",
    }


def test_unknown_option_is_refused_naming_it():
    """Only the options listed in docs/rules/gift_trap.md exist ("round_limit" does not)."""
    with pytest.raises(InvalidSetup) as info:
        E.setup(3, {"round_limit": 10})
    assert info.value.code == "unknown_option"
    assert info.value.detail["option"] == "round_limit"


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"expert_cards": 1}, "expert_cards"),
        ({"expert_cards": None}, "expert_cards"),
        ({"packs": []}, "packs"),
        ({"packs": ["pink"]}, "packs"),
        ({"packs": ["red", "red"]}, "packs"),
        ({"packs": "red"}, "packs"),
        ({"first_dealer": -1}, "first_dealer"),
        ({"first_dealer": 3}, "first_dealer"),  # 3 players: seats 0-2
        ({"first_dealer": "0"}, "first_dealer"),
        ({"track_length": 9}, "track_length"),
        ({"track_length": 101}, "track_length"),
        ({"zone_size": 0}, "zone_size"),
        ({"zone_size": 26}, "zone_size"),  # beyond a 25-space track
        ({"track_length": 10, "zone_size": 11}, "zone_size"),
        ({"max_rounds": 0}, "max_rounds"),
        ({"max_rounds": 501}, "max_rounds"),
        ({"max_rounds": True}, "max_rounds"),
        ({"max_rounds": "none"}, "max_rounds"),
        ({"max_rounds": 1.5}, "max_rounds"),
    ],
)
def test_bad_values_are_refused_naming_the_option(options, name):
    """A value outside the option's range is refused with ``bad_option`` and its name."""
    with pytest.raises(InvalidSetup) as info:
        E.setup(3, options)
    assert info.value.code == "bad_option"
    assert info.value.detail["option"] == name
    assert name in info.value.message


def fields(state: object) -> dict[str, object]:
    """Every field of a state (``vars`` does not see the fields of a compiled class)."""
    names = [n for n in dir(state) if not n.startswith("_")]
    return {n: getattr(state, n) for n in names if not callable(getattr(state, n))}


def test_no_options_means_the_defaults():
    """A record without options is played under the defaults: no round limit."""
    s = E.setup(4)
    assert (s.expert, s.packs, s.dealer, s.track, s.zone_from, s.max_rounds) == (
        False, PACK_ORDER, 0, 25, 21, None,
    )
    assert fields(E.setup(4, {})) == fields(s)
    assert E.view(s, 0)["max_rounds"] is None


# -- max_rounds: the ruling ------------------------------------------------------------------


def test_no_round_limit_plays_on_until_someone_is_gifted():
    """"The winner is the first player to have BOTH their Give and Get markers in the
    GIFTED Zone at the end of a round." With no limit (the default) a game where nobody
    reaches the zone goes on: past the old limit of 15 rounds it is still not over."""
    s = E.setup(3)
    for _ in range(16):
        s = play_round(s, losing_gives(3))
    assert not E.is_over(s)
    assert s.round == 17
    assert s.phase == "choose_pack"
    assert E.to_move(s) == [s.dealer]


def test_a_round_limit_ends_the_game_and_says_so():
    """"The winner is the first player to have BOTH their Give and Get markers in the
    GIFTED Zone at the end of a round." A house limit (here the legacy 15) ends the game
    anyway, ranking by position, and the result says it was ended by the limit."""
    s = E.setup(3, LEGACY)
    for _ in range(14):
        s = play_round(s, losing_gives(3))
    assert not E.is_over(s)
    s = play_round(s, losing_gives(3))
    assert E.is_over(s)
    result = E.result(s)
    assert result.details["ended_by"] == "round_limit"
    assert result.details["rounds"] == 15
    assert result.details["gifted"] == []
    assert result.winners  # a winner nobody reached the zone for: why it is not the default


def test_the_gifted_zone_ends_the_game_with_or_without_a_limit():
    """"The winner is the first player to have BOTH their Give and Get markers in the
    GIFTED Zone at the end of a round." That end is the same under both values, and the
    result tells it apart from a round-limit end."""
    gives = {(0, 1): 1, (0, 2): 2, (1, 0): 1, (1, 2): 4, (2, 0): 2, (2, 1): 4}
    for limit in (None, 1, 15):
        s = with_tracks(E.setup(3, {"max_rounds": limit}), [20, 0, 0], [20, 0, 0])
        s = play_round(s, gives, dict.fromkeys(range(3), ALL_GETS))
        assert E.is_over(s)
        assert E.result(s).details["ended_by"] == "gifted"
        assert E.result(s).winners == [0]


# -- the GiftTRAP reason code -------------------------------------------------------------


def trap_position():
    s = start(3, expert_cards=True)
    s = give_all(s, {(0, 1): 1, (0, 2): 2, (1, 0): 1, (1, 2): 2, (2, 0): 2, (2, 1): 1})
    s = get_all(s, dict.fromkeys(range(3), ALL_GETS))
    return E.apply(s, ev(0, "reveal_gets"))


def test_a_second_gifttrap_in_a_round_is_gifttrap_used_for_every_seat():
    """"Each player can play his or her GIFTTRAP card once per game." A second card is
    refused with ``gifttrap_used``, also from a seat that is not revealing (which has
    nothing else to do, so it is not waiting to move)."""
    s = E.apply(trap_position(), ev(2, "gifttrap", gift=1))
    assert 2 not in E.to_move(s)
    assert refused(s, ev(2, "gifttrap", gift=2)) == "gifttrap_used"
    s = E.apply(s, ev(0, "gifttrap", gift=3))  # the revealer, still on the move
    assert refused(s, ev(0, "gifttrap", gift=2)) == "gifttrap_used"
    assert refused(s, ev(1, "reveal", **{"from": 0})) == "not_revealer"  # other codes stand


def test_a_gifttrap_while_giving_after_the_card_is_used_is_gifttrap_used():
    """"Each player can play his or her GIFTTRAP card once per game." A player who has
    given every gift and played the card is told ``gifttrap_used``."""
    s = start(3, expert_cards=True)
    s = E.apply(s, ev(0, "give", to=1, gift=2, more=False))
    s = E.apply(s, ev(0, "give", to=2, gift=3, more=False))
    s = E.apply(s, ev(0, "gifttrap", gift=4))
    assert 0 not in E.to_move(s)
    assert refused(s, ev(0, "gifttrap", gift=1)) == "gifttrap_used"


def test_a_gifttrap_without_expert_cards_is_expert_cards_off_for_every_seat():
    """"Expert Strategy Cards (Optional Play)": without them a GiftTRAP is refused with
    ``expert_cards_off``, also from a seat that is not revealing."""
    s = play_round_until_reveal(start(3))
    assert refused(s, ev(2, "gifttrap", gift=1)) == "expert_cards_off"
    assert refused(s, ev(0, "gifttrap", gift=1)) == "expert_cards_off"


def play_round_until_reveal(s):
    s = give_all(s, {(0, 1): 1, (0, 2): 2, (1, 0): 1, (1, 2): 2, (2, 0): 2, (2, 1): 1})
    s = get_all(s, dict.fromkeys(range(3), ALL_GETS))
    return E.apply(s, ev(0, "reveal_gets"))


# -- expert_cards ---------------------------------------------------------------------------


@pytest.mark.parametrize("expert", [False, True])
def test_expert_cards_bring_give_more_get_more_and_gifttrap(expert):
    """"Expert Strategy Cards (Optional Play)": with the cards a give carries the Give
    More flag, a Get More decision is due and a GiftTRAP may be shouted; without them
    none of these exists."""
    s = start(3, expert_cards=expert)
    kinds = {e["do"] for e in E.legal_events(s, 0)}
    fields = {tuple(sorted(e)) for e in E.legal_events(s, 0) if e["do"] == "give"}
    if expert:
        assert kinds == {"give", "gifttrap"}
        assert fields == {("by", "do", "gift", "more", "to")}
        s = E.apply(s, ev(0, "give", to=1, gift=1, more=True))
        assert refused(s, ev(0, "give", to=2, gift=2, more=True)) == "give_more_used"
    else:
        assert kinds == {"give"}
        assert fields == {("by", "do", "gift", "to")}
        assert refused(s, ev(0, "gifttrap", gift=1)) == "expert_cards_off"
        assert refused(s, ev(0, "give", to=1, gift=1, more=True)) == "malformed_event"
        assert "gifttrap_played" not in E.view(s, 0)["players"][0]


def test_give_more_doubles_the_givers_move_only_with_expert_cards():
    """"Give More - Double Your Giving": the same round scores double for the giver
    with the card on that token; without expert cards there is no card to double."""
    gives = {(0, 1): 1, (0, 2): 2, (1, 0): 1, (1, 2): 2, (2, 0): 2, (2, 1): 1}
    gets = dict.fromkeys(range(3), ALL_GETS)
    plain = play_round(start(3), gives, gets)
    doubled = play_round(start(3, expert_cards=True), gives, gets, more={0: 1})
    assert plain.give_pos[0] == 3 + 2  # GREAT to 1, GOOD to 2
    assert doubled.give_pos[0] == 2 * 3 + 2


# -- packs -----------------------------------------------------------------------------------


def test_all_four_packs_by_default():
    """"It is optional to play all the gift cards." By default the four packs are next
    to the board and the dealer may pick any of them."""
    s = E.setup(3)
    assert [e["pack"] for e in E.legal_events(s, 0)] == list(PACK_ORDER)
    assert E.secrets(s, 0) == {c for p in PACK_ORDER for c in PACK_CARDS[p]}


def test_packs_left_out_cannot_be_chosen():
    """"It is optional to play all the gift cards." A pack left out stays in the box:
    the dealer cannot pick it and its cards are never dealt."""
    s = E.setup(3, {"packs": ["blue", "yellow"]})
    assert [e["pack"] for e in E.legal_events(s, 0)] == ["yellow", "blue"]
    assert refused(s, ev(0, "choose_pack", pack="black")) == "pack_not_in_play"
    assert E.secrets(s, 0) == set(PACK_CARDS["yellow"]) | set(PACK_CARDS["blue"])
    assert sum(E.card_multiset(s).values()) == 48  # the box still holds the others


# -- first_dealer ----------------------------------------------------------------------------


@pytest.mark.parametrize(("first", "reveal_order"), [(0, [0, 1, 2, 3]), (2, [2, 3, 0, 1])])
def test_first_dealer_chooses_the_pack_and_reveals_first(first, reveal_order):
    """"Choose a dealer." The chosen seat picks the first pack, reveals first, and the
    deal then passes to the left."""
    s = E.setup(4, {"first_dealer": first} if first else {})
    assert E.to_move(s) == [first]
    others = [p for p in range(4) if p != first]
    assert refused(s, ev(others[0], "choose_pack", pack="red")) == "not_your_turn"
    s = E.apply(s, ev(first, "choose_pack", pack="red"))
    s = E.apply(s, natural_deal(s))
    s = give_all(s, {(g, r): (r - g) % 4 + 1 for g in range(4) for r in range(4) if g != r})
    s = get_all(s, dict.fromkeys(range(4), ALL_GETS))
    order = []
    while s.phase == "reveal":
        event = E.legal_events(s, s.revealer)[0]
        if event["do"] == "reveal_gets":
            order.append(s.revealer)
        s = E.apply(s, event)
    assert order == reveal_order
    assert s.dealer == (first + 1) % 4


# -- track_length and zone_size ----------------------------------------------------------------


@pytest.mark.parametrize(("track", "top"), [(25, 25), (10, 10)])
def test_track_length_is_where_markers_stop(track, top):
    """"Be the first to move both your markers from Go to Gifted." and "You can't move
    back from GO or advance beyond GIFTED": GIFTED is space ``track_length``."""
    options = {} if track == 25 else {"track_length": track}
    s = with_tracks(start(3, **options), [top - 1, 0, 0], [0, 0, 0])
    s = give_all(s, {(0, 1): 1, (0, 2): 2, (1, 0): 4, (1, 2): 3, (2, 0): 4, (2, 1): 3})
    s = get_all(s, dict.fromkeys(range(3), ALL_GETS))
    s = reveal_all(s)
    assert s.give_pos[0] == top  # GREAT +3 and GOOD +2 from top - 1 stop at GIFTED
    assert E.view(s, None)["track_length"] == top


@pytest.mark.parametrize(("zone", "wins"), [(5, True), (1, False)])
def test_zone_size_decides_who_is_gifted(zone, wins):
    """"To get to Gifted is not enough, you need to remain Gifted until both your
    markers are in the Gifted Zone at the end of a round." Markers ending on space 21
    are in the default zone (21-25), not in a one-space zone (GIFTED only)."""
    options = {} if zone == 5 else {"zone_size": zone}
    s = with_tracks(E.setup(3, options), [16, 0, 0], [16, 0, 0])
    gives = {(0, 1): 1, (0, 2): 2, (1, 0): 1, (1, 2): 4, (2, 0): 2, (2, 1): 4}
    s = play_round(s, gives, dict.fromkeys(range(3), ALL_GETS))
    assert (s.give_pos[0], s.get_pos[0]) == (21, 21)
    assert E.is_over(s) is wins
    assert E.view(s, 0)["gifted_zone_from"] == 26 - zone


# -- every value with both bots --------------------------------------------------------------

VALUES = [
    ("expert_cards", True),
    ("packs", ["black"]),
    ("first_dealer", 2),
    ("track_length", 10),
    ("zone_size", 1),
    ("max_rounds", None),
    ("max_rounds", 1),
    ("max_rounds", 15),
]


@pytest.mark.parametrize("bot", ["random", "greedy"])
@pytest.mark.parametrize(("name", "value"), VALUES, ids=lambda v: str(v))
def test_both_bots_play_every_value_to_the_end(name, value, bot):
    """Both bots finish a game under each value (3 players, where random play drifts
    forward) and the log passes the conformance checks."""
    seed = 7 + len(str(value))
    options = {name: value}
    events, state = self_play(
        E, 3, options=options, rng=random.Random(seed), bots=[BOTS[bot]] * 3
    )
    assert E.is_over(state)
    ended_by = E.result(state).details["ended_by"]
    assert ended_by in ("gifted", "round_limit")
    if value is None or name != "max_rounds":
        assert ended_by == "gifted"
    check_game(E, 3, events, seed, options=options)
