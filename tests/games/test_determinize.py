"""Determinization, for every engine: states dealt from what one seat has seen.

At every step of seeded random games, for every seat, a sampled state (a) shows that
seat exactly its real view, (b) is a state the rules can go on from (the same cards,
legal moves, random play to the end), (c) over many samples puts every hidden card,
and every hidden choice, where the real game has it at least once, and never moves a
card the seat can see, and (d) is the same for the same random seed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import CHANCE, Engine
from games.play import greedy_bot, random_bot, replay_states, seat_histories
from games.registry import all_engines
from tests.games.conformance import play_game
from tests.games.test_conformance import RANDOM_PLAY_CAPS, option_values

ENGINES = all_engines()
CASES = [
    pytest.param(engine, n, id=f"{engine.slug}-{n}p")
    for engine in ENGINES
    for n in range(engine.min_players, engine.max_players + 1)
]
# Steps of one game checked for coverage (many samples each), and played out to the end.
COVERAGE_STEPS = 3
PLAYOUT_STEPS = 3
COVERAGE_SAMPLES = 300
# Steps checked in one game, per seat: every one of the first, a sample of the later
# ones, and the last (the end of the game, when the game ends this early). Random
# GiftTRAP games at large tables run to thousands of events: they are cut.
FIRST_STEPS = 30
LATER_STEPS = 15
MAX_STEPS = 400
RANDOM_PLAYOUT = 200


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def leaves(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """Every (path, scalar) of a JSON value."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index))
    else:
        yield path, value


def places(engine: Engine, full_view: dict) -> set[tuple[tuple, str]]:
    """Where each card lies in a full view: (zone, card), the zone being the path up to
    the card's position in its list (``("players", 2, "hand")``)."""
    catalog = engine.card_catalog()
    out = set()
    for path, value in leaves(full_view):
        if isinstance(value, str) and value in catalog:
            last = max((i for i, k in enumerate(path) if isinstance(k, int)), default=len(path))
            out.add((path[:last], value))
    return out


def choices(engine: Engine, full_view: dict) -> set[tuple[tuple, Any]]:
    """Every leaf of a full view that is not a card nor a score: secret choices among them.

    Cards are compared by zone (``places``), not by position: within a hidden zone the
    order is the sampler's to choose wherever it shows nowhere.
    """
    catalog = engine.card_catalog()
    skip = {"scores", "score", "points", "result", "my_known_score", "total", "totals"}
    return {
        (p, v)
        for p, v in leaves(full_view)
        if not (isinstance(v, str) and v in catalog)
        and not skip & {k for k in p if isinstance(k, str)}
    }


def play_out(engine: Engine, state: Any, rng: random.Random, budget: int = 20_000) -> None:
    """Legal play from ``state`` reaches the end; cards are conserved on the way.

    Random moves first, then the greedy bots: random GiftTRAP play at a large table
    may take a hundred thousand events to end (see test_conformance).
    """
    deck = engine.card_multiset(state)
    for played in range(budget):
        if engine.is_over(state):
            return
        movers = engine.to_move(state)
        if CHANCE in movers:
            event = engine.sample_chance(state, rng)
        else:
            seat = rng.choice(movers)
            bot = random_bot if played < RANDOM_PLAYOUT else greedy_bot
            event = bot(engine, state, seat, rng)
        state = engine.apply(state, event)
        assert engine.card_multiset(state) == deck
    raise AssertionError("random play from a sampled state did not end")


def check_determinization(engine: Engine, n: int, seed: int, options: dict | None = None) -> None:
    events = play_game(engine, n, seed, options=options)[:MAX_STEPS]
    states = list(replay_states(engine, n, options, events))
    deck = engine.card_multiset(states[0])
    rng = random.Random(seed)
    for seat in range(n):
        later = range(FIRST_STEPS, len(states))
        checked = {*range(min(FIRST_STEPS, len(states))), len(states) - 1}
        checked |= set(rng.sample(later, min(LATER_STEPS, len(later))))
        deep = set(rng.sample(sorted(checked), min(COVERAGE_STEPS, len(checked))))
        playout = set(rng.sample(sorted(checked), min(PLAYOUT_STEPS, len(checked))))
        for step, history in enumerate(seat_histories(engine, n, options, events, seat)):
            if step not in checked:
                continue
            real = states[step]
            seen = canonical(engine.view(real, seat))
            determinizer = engine.determinizer(history)
            sample = determinizer.sample(random.Random(step))
            # (a) the seat cannot tell the sample from the real state
            assert canonical(engine.view(sample, seat)) == seen, (
                f"seat {seat} after {step} events: the sample's view differs"
            )
            # (b) a state of the rules: the same cards, moves to make
            assert engine.card_multiset(sample) == deck
            assert engine.to_move(sample) == engine.to_move(real)
            for mover in engine.to_move(sample):
                if mover != CHANCE:
                    assert engine.legal_events(sample, mover)
            # (d) the same seed, the same sample
            again = engine.sample_state(history, random.Random(step))
            assert canonical(engine.view(again, None)) == canonical(engine.view(sample, None))
            if step in playout:
                play_out(engine, sample, random.Random(step))
            if step in deep:
                check_coverage(engine, real, determinizer, seat, step)


def check_coverage(engine: Engine, real: Any, determinizer: Any, seat: int, step: int) -> None:
    """(c) Over many samples every hidden card and choice lies where the real one does at
    least once, and a card the seat sees never lies anywhere else than where it does."""
    full = engine.view(real, None)
    real_places = places(engine, full)
    # Cards the seat's view places: every place the card has, the seat sees it there (a
    # card named only in a past deal's summary is seen, but not placed, by the view).
    shown = places(engine, engine.view(real, seat))
    visible = {
        card
        for _, card in shown
        if {p for p in real_places if p[1] == card} == {p for p in shown if p[1] == card}
    }
    fixed = {(zone, card) for zone, card in real_places if card in visible}
    missing = set(real_places) - fixed
    missing_choices = choices(engine, full)
    rng = random.Random(step * 7919 + seat)
    for _ in range(COVERAGE_SAMPLES):
        sample_full = engine.view(determinizer.sample(rng), None)
        sample_places = places(engine, sample_full)
        assert {p for p in sample_places if p[1] in visible} == fixed, (
            f"seat {seat} after {step} events: a card the seat sees moved"
        )
        missing -= sample_places
        missing_choices -= choices(engine, sample_full)
        if not missing and not missing_choices:
            return
    assert not missing, f"seat {seat} after {step} events: never sampled {sorted(missing)[:5]}"
    assert not missing_choices, (
        f"seat {seat} after {step} events: never sampled {sorted(missing_choices, key=str)[:5]}"
    )


@pytest.mark.parametrize(("engine", "num_players"), CASES)
@settings(max_examples=1, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_samples_are_consistent(engine, num_players, seed):
    options = RANDOM_PLAY_CAPS.get((engine.slug, num_players))
    check_determinization(engine, num_players, seed, options)


OPTION_CASES = [
    pytest.param(engine, option.name, value, id=f"{engine.slug}-{option.name}={value}")
    for engine in ENGINES
    for option in engine.options
    for value in option_values(option)
    if value != option.default
]


@pytest.mark.parametrize(("engine", "name", "value"), OPTION_CASES)
def test_samples_are_consistent_under_every_option_value(engine, name, value):
    n = engine.min_players
    if name == "start_player":
        n = max(n, value + 1)
    check_determinization(engine, n, seed=len(name) + n, options={name: value})


def _histories_at(engine: Engine, n: int, events: list[dict], step: int) -> list[Any]:
    """Every seat's history after ``step`` events."""
    return [
        next(
            h for k, h in enumerate(seat_histories(engine, n, None, events[:step], s)) if k == step
        )
        for s in range(n)
    ]


def test_gift_economy_passed_cards_are_with_the_neighbour():
    """Cards a seat passed face down (a jack) are, in every sample of that seat's, in the
    neighbour's hand: no longer in its view, but never dealt anywhere else."""
    from games.registry import get_engine

    engine = get_engine("gift_economy")
    checked = 0
    for seed in range(40):
        events = play_game(engine, 4, seed)
        states = list(replay_states(engine, 4, None, events))
        for k, event in enumerate(events):
            before, after = states[k], states[k + 1]
            if not (
                event["do"] == "pass_card" and after.phase != "choose" and after.phase != "over"
            ):
                continue
            passed = {
                s: before.pending[s] + ((event["card"],) if event["by"] == s else ())
                for s in range(4)
            }
            direction = before.direction
            for seat, history in enumerate(_histories_at(engine, 4, events, k + 1)):
                determinizer = engine.determinizer(history)
                for sample_seed in range(10):
                    sample = determinizer.sample(random.Random(sample_seed))
                    assert set(passed[seat]) <= set(sample.hands[(seat + direction) % 4])
                checked += 1
            if checked >= 8:
                return
    assert checked, "no jack was played in these games"


def test_gift_gift_gone_card_drawn_from_the_discard_is_in_the_drawers_hand():
    """A card drawn from the discard pile is, in every other seat's samples, in the
    drawer's hand: its face was seen."""
    from games.registry import get_engine

    engine = get_engine("gift_gift_gone")
    checked = 0
    for seed in range(20):
        events = play_game(engine, 3, seed)
        states = list(replay_states(engine, 3, None, events))
        for k, event in enumerate(events[:300]):
            if event["do"] != "draw" or event["from"] != "discard":
                continue
            card = states[k].discard[-1]
            drawer = event["by"]
            for history in _histories_at(engine, 3, events, k + 1):
                determinizer = engine.determinizer(history)
                for sample_seed in range(10):
                    sample = determinizer.sample(random.Random(sample_seed))
                    assert card in sample.hands[drawer]
            checked += 1
            if checked >= 5:
                return
    assert checked, "nobody drew from the discard pile"
