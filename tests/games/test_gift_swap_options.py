"""Gift Swap's options (house rules): each value played, each refusal named.

Rulebook: seeds/000_50141e51f899c7e7.txt. The options and why their defaults
were chosen: docs/rules/gift_swap.md, "Options (house rules)".
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from games.base import InvalidSetup
from games.play import BOTS, self_play
from tests.games.conformance import check_game, play_game
from tests.games.test_gift_swap import (
    ASIDE3,
    ROWS3,
    E,
    ev,
    face_up,
    place_all,
    play,
    refused,
    row,
    started,
)

RULEBOOK = Path("/work/shared/seeds/000_50141e51f899c7e7.txt")
REGIFT_SENTENCE = (
    "You may swap this gift with any facedown gift (including the cards that were set aside)."
)
KEEP_OR_OPEN_SENTENCE = (
    "After swapping, you have to decide whether to Keep it or Open it "
    "(and activate the effect, if desired)."
)
START_SENTENCE = (
    "The player who most recently received a gift is the start player and takes the Gift token."
)
OWN, LEGACY = {"regift_own_row": True}, {"regift_own_row": False}
ROWS4 = [
    ["gs-r1", "gs-b1", "gs-r2", "gs-b2"],
    ["gs-p-neonball", "gs-p-polaroid", "gs-b3", "gs-r4"],
    ["gs-p-hat", "gs-p-horn", "gs-r5", "gs-b5"],
    ["gs-p-confetti", "gs-r3", "gs-b4", "gs-r6"],
]
ASIDE4 = ["gs-p-chicken", "gs-b6"]


def regift_step(options=None):
    """Seat 0 gave its Red 1 for seat 1's Red 4 (regift) and opened it; both placed.

    Seat 0's row is then Blue 1, Red 2 (rewrap), Blue 2 (rewrap), Red 3 (trade),
    all face down and known to seat 0, and the face-up Red 4 waiting to be used.
    """
    s = started(options=options)
    s = play(s, ev(0, "swap", card=0, with_seat=1, with_card=3))
    s = place_all(play(s, ev(0, "choose", choice="open"), ev(1, "choose", choice="keep")))
    assert E.step(s) == "effect"
    assert row(s, 0) == ["gs-b1", "gs-r2", "gs-b2", "gs-r3", "gs-r4"]
    return s


def own_row_regifts(state, seat):
    return [e for e in E.legal_events(state, seat) if e["do"] == "regift" and e["row"] == seat]


# -- metadata and refusals -------------------------------------------------------------


def test_options_are_declared_with_their_rulebook_sentences():
    """Every option is typed and explained; a ruling quotes the rulebook exactly."""
    text = " ".join(RULEBOOK.read_text().split())
    by_name = {option.name: option for option in E.options}
    assert set(by_name) == {"start_player", "regift_own_row"}
    for option in E.options:
        assert option.description, option.name
        assert option.why, option.name
        option.check(option.default)
        assert option.rulebook in text, option.name
    assert by_name["regift_own_row"].kind == "bool"
    assert by_name["regift_own_row"].default is True
    assert by_name["regift_own_row"].rulebook == REGIFT_SENTENCE
    assert START_SENTENCE in text  # quoted in the doc; a plain set-up choice here
    assert by_name["start_player"].kind == "int"
    assert (by_name["start_player"].default, by_name["start_player"].low) == (0, 0)
    assert by_name["start_player"].high == E.max_players - 1
    data = [option.to_json() for option in E.options]
    assert data[1]["rulebook"] == REGIFT_SENTENCE


def test_no_options_means_the_defaults():
    """A record without options is played under every default (the stored meaning)."""
    assert E.setup(3) == E.setup(3, {}) == E.setup(3, {"start_player": 0, **OWN})
    assert E.setup(3).regift_own_row is True


@pytest.mark.parametrize("options", [{"regift_from_own_row": True}, {"start": 1}])
def test_unknown_option_is_refused_by_name(options):
    with pytest.raises(InvalidSetup) as info:
        E.setup(3, options)
    assert info.value.code == "unknown_option"
    assert info.value.detail["option"] == next(iter(options))


@pytest.mark.parametrize(
    ("options", "n"),
    [
        ({"regift_own_row": "yes"}, 3),
        ({"regift_own_row": 1}, 3),
        ({"regift_own_row": None}, 4),
        ({"start_player": True}, 3),
        ({"start_player": -1}, 3),
        ({"start_player": 4}, 4),
        ({"start_player": "0"}, 3),
        ({"start_player": 3}, 3),  # a seat beyond the table: checked in setup
    ],
)
def test_bad_value_is_refused_naming_the_option(options, n):
    with pytest.raises(InvalidSetup) as info:
        E.setup(n, options)
    assert info.value.code == "bad_option"
    assert info.value.detail["option"] == next(iter(options))
    assert next(iter(options)) in info.value.message


# -- start_player ----------------------------------------------------------------------


@pytest.mark.parametrize(("n", "start"), [(3, 0), (3, 2), (4, 0), (4, 3)])
def test_start_player_takes_the_first_turn_then_play_passes_left(n, start):
    """Rulebook: "The player who most recently received a gift is the start player and
    takes the Gift token. Players take turns to be the active player in clockwise
    order." The table names that player with start_player; seat + 1 is the left."""
    rows, aside = (ROWS3, ASIDE3) if n == 3 else (ROWS4, ASIDE4)
    s = started(rows, aside, {"start_player": start})
    assert E.to_move(s) == [start]
    assert E.view(s, None)["start_player"] == start
    swap = E.legal_events(s, start)[0]
    s = play(s, swap, ev(start, "choose", choice="keep"))
    s = place_all(play(s, ev(swap["with_seat"], "choose", choice="keep")))
    assert E.to_move(s) == [(start + 1) % n]


# -- regift_own_row ------------------------------------------------------------------------


def test_regift_may_take_a_facedown_card_of_your_own_row_by_default():
    """Rulebook: "You may swap this gift with any facedown gift (including the cards that
    were set aside)." Any face-down gift: your own row's too (regift_own_row true)."""
    s = regift_step()
    targets = {(e["row"], e["card"]) for e in E.legal_events(s, 0) if e["do"] == "regift"}
    assert {(0, 0), (0, 1), (0, 2), (0, 3)} <= targets  # own row, all face down
    assert (0, 4) not in targets  # the face-up Red 4 itself is no face-down gift
    assert {(1, 0), ("aside", 0)} <= targets


def test_regift_own_row_false_refuses_your_own_row():
    """Rulebook: "You may swap this gift with any facedown gift (including the cards that
    were set aside)." Read as another player's gift (regift_own_row false, the legacy
    ruling), your own row is refused and every other face-down gift stays a target."""
    s = regift_step(LEGACY)
    assert own_row_regifts(s, 0) == []
    refused(s, ev(0, "regift", row=0, card=1), "own_row")
    allowed = {(e["row"], e["card"]) for e in E.legal_events(s, 0) if e["do"] == "regift"}
    default = {(e["row"], e["card"]) for e in E.legal_events(regift_step(), 0) if "row" in e}
    assert allowed == {target for target in default if target[0] != 0}
    assert {(1, 0), (2, 0), ("aside", 0)} <= allowed


def test_own_row_regift_then_open_flips_a_second_card_and_fires_its_effect():
    """Rulebook: "You may swap this gift with any facedown gift (including the cards that
    were set aside). After swapping, you have to decide whether to Keep it or Open it
    (and activate the effect, if desired)." Opening the Red 2 got from your own row turns
    it face up and its rewrap may be used."""
    s = play(regift_step(OWN), ev(0, "regift", row=0, card=1))  # the Red 2
    assert E.to_move(s) == [0]
    assert E.step(s) == "choose"
    assert E.view(s, 1)["queue"][0]["seats"] == [0]
    s = play(s, ev(0, "choose", choice="open"))
    assert {"gs-r2", "gs-r4"} <= s.up
    # The card got is placed again (Red 2 between Blue 1 and Red 3); the Regift card stays.
    assert E.step(s) == "place"
    assert [e["pos"] for e in E.legal_events(s, 0)] == [1, 2]
    s = play(s, ev(0, "place", pos=2))
    assert row(s, 0) == ["gs-b1", "gs-b2", "gs-r2", "gs-r3", "gs-r4"]
    assert E.step(s) == "effect"
    assert s.queue[0] == ("effect", 0, "gs-r2")
    s = play(s, ev(0, "rewrap", row=0, card=4))  # turns its own Red 4 face down again
    assert s.up == {"gs-r2"}
    assert E.step(s) == "swap"
    assert E.to_move(s) == [1]


def test_own_row_regift_then_keep_changes_only_the_position():
    """Rulebook: "After swapping, you have to decide whether to Keep it or Open it"; a kept
    card from your own row stays face down (you knew it already) and nothing else moves."""
    before = regift_step(OWN)
    s = play(before, ev(0, "regift", row=0, card=0), ev(0, "choose", choice="keep"))
    assert s.up == {"gs-r4"}
    assert E.secrets(s, 1) == E.secrets(before, 1)  # the others learn nothing
    s = place_all(s)
    assert sorted(row(s, 0)) == sorted(row(before, 0))
    assert [row(s, seat) for seat in (1, 2)] == [row(before, seat) for seat in (1, 2)]
    assert s.aside == before.aside
    assert E.step(s) == "swap"
    assert E.to_move(s) == [1]


def test_own_row_regift_can_end_the_game():
    """Rulebook: "You may swap this gift with any facedown gift" and "At the end of a
    player's turn, if any player's cards are all flipped faceup, the game ends
    immediately." Regifting for your own last face-down card and opening it ends the game;
    under regift_own_row false the same move is refused."""
    for options, ends in ((OWN, True), (LEGACY, False)):
        s = face_up(regift_step(options), "gs-b1", "gs-r2", "gs-b2")
        if not ends:
            refused(s, ev(0, "regift", row=0, card=3), "own_row")
            continue
        s = play(s, ev(0, "regift", row=0, card=3), ev(0, "choose", choice="open"))
        s = place_all(s)
        assert E.step(s) == "effect"  # the Red 3's trade, which seat 0 declines
        s = play(s, ev(0, "decline"))
        assert E.is_over(s)


@pytest.mark.parametrize("options", [OWN, LEGACY])
def test_trade_never_takes_from_your_own_row(options):
    """Rulebook: "You may swap this gift with any faceup card (including the cards that
    were set aside)." Not an option: swapping two face-up cards of your own row changes
    nothing, as the card got "won't be activated", so trade stays refused there."""
    s = started(options=options)
    # Seat 0 gives Red 2 (rewrap) for seat 1's Blue 3 (trade); both open.
    s = play(s, ev(0, "swap", card=2, with_seat=1, with_card=2))
    s = place_all(play(s, ev(0, "choose", choice="open"), ev(1, "choose", choice="open")))
    s = face_up(s, "gs-r1")
    refused(s, ev(0, "trade", row=0, card=0), "own_row")
    assert all(e["row"] != 0 for e in E.legal_events(s, 0) if e["do"] == "trade")


def test_own_row_regift_is_told_from_each_seat_view():
    """The sentence names your own card only to those who may see it."""
    s = regift_step(OWN)
    event = ev(0, "regift", row=0, card=1)
    assert E.describe(event, 0, before=s) == (
        "You regift Nice Gift 4, swapping it for your own 2nd card (Nice Gift 2)."
    )
    assert E.describe(event, None, before=s) == (
        "{p0} regifts Nice Gift 4, swapping it for their own 2nd card (Nice Gift 2)."
    )
    assert E.describe(event, 1, before=s) == (
        "{p0} regifts Nice Gift 4, swapping it for their own 2nd card."
    )
    assert E.label(event, 0, s) == "Regift: swap it for your 2nd card (Nice Gift 2)."


@pytest.mark.parametrize("value", [True, False])
@pytest.mark.parametrize("n", [3, 4])
def test_bots_finish_games_under_each_value(value, n):
    """Random and greedy bots play whole games under each value; the greedy bot never
    regifts within its own row (it changes no score), random play may."""
    options = {"regift_own_row": value}
    for bot in ("random", "greedy"):
        for seed in range(3):
            events = play_game(E, n, seed, bot=bot, options=options)
            check_game(E, n, events, seed, options=options)
    own = 0
    for seed in range(40):
        events, state = self_play(
            E, n, options=options, rng=random.Random(seed), bots=[BOTS["greedy"]] * n
        )
        assert E.is_over(state)
        own += sum(1 for e in events if e["do"] == "regift" and e["row"] == e["by"])
    assert own == 0
