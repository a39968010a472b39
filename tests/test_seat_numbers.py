"""Every message a person reads numbers seats from 1, as every page does.

Two scans: the source of the messages (an f-string saying ``seat {x}`` must say
``seat {x + 1}``: the JSON's seat index is 0-based, the words are not), and the
refusals the engines actually give when each seat in turn tries every event of
the seat whose turn it is, in seeded bot games of every engine.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from games.base import CHANCE, IllegalEvent
from games.play import BOTS, choose_mover
from games.registry import all_engines, get_engine

ROOT = Path(__file__).resolve().parent.parent
# The messages' modules (an engine's words.py tells events, and is checked by its own tests).
SCANNED = [
    *sorted((ROOT / "games").glob("*.py")),
    *sorted(p for p in (ROOT / "games").glob("*/*.py") if p.name != "words.py"),
    *sorted((ROOT / "replays").glob("**/*.py")),
    *sorted((ROOT / "clubs").glob("**/*.py")),
    *sorted((ROOT / "accounts").glob("**/*.py")),
    *sorted((ROOT / "core").glob("**/*.py")),
]
SEAT_IN_FSTRING = re.compile(r"[Ss]eats? \{([^}]+)\}")
SEAT_NUMBER = re.compile(r"\b[Ss]eats? (\d+)\b")
# A count is the last seat's number ("0 (seat 1) to 2 (seat 3)"), not an index.
COUNTS = {"n", "num_players", "numbers[0]", "numbers[-1]", "', '.join(numbers[:-1])"}


def test_message_sources_number_seats_from_1() -> None:
    found = []
    for path in SCANNED:
        if "migrations" in path.parts:
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            for expression in SEAT_IN_FSTRING.findall(line):
                if "+ 1" not in expression and expression not in COUNTS:
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == [], "seats numbered from 0 in a message:\n" + "\n".join(found)


def _refusals(slug: str, n: int, seed: int) -> list[str]:
    """Messages of the refusals met when every other seat tries the mover's events."""
    engine = get_engine(slug)
    rng = random.Random(seed)
    state = engine.setup(n, {"max_rounds": 30} if slug == "gift_trap" else {})
    messages: list[str] = []
    for _ in range(400):
        if engine.is_over(state):
            break
        movers = engine.to_move(state)
        if CHANCE in movers:
            state = engine.apply(state, engine.sample_chance(state, rng))
            continue
        seat = choose_mover(engine, state, list(movers), rng)
        for event in list(engine.legal_events(state, seat))[:3]:
            for other in range(n):
                if other in movers:
                    continue
                try:
                    engine.apply(state, {**event, "by": other})
                except IllegalEvent as exc:
                    messages.append(exc.message)
        state = engine.apply(state, BOTS["random"](engine, state, seat, rng))
    return messages


@pytest.mark.parametrize("slug", [engine.slug for engine in all_engines()])
def test_engine_refusals_number_seats_from_1(slug: str) -> None:
    engine = get_engine(slug)
    n = engine.min_players + 1 if engine.max_players > engine.min_players else engine.min_players
    messages = _refusals(slug, n, seed=3)
    assert messages, "the scan met no refusal"
    for message in messages:
        for number in SEAT_NUMBER.findall(message):
            assert 1 <= int(number) <= n, message
    assert any(SEAT_NUMBER.search(m) for m in messages), "no refusal named a seat"


def test_not_your_turn_names_seats_as_players_do() -> None:
    engine = get_engine("secret_santa")
    rng = random.Random(1)
    state = engine.setup(3, {})
    while CHANCE in engine.to_move(state):
        state = engine.apply(state, engine.sample_chance(state, rng))
    mover = next(iter(engine.to_move(state)))
    event = next(iter(engine.legal_events(state, mover)))
    other = (mover + 1) % 3
    with pytest.raises(IllegalEvent) as caught:
        engine.apply(state, {**event, "by": other})
    assert f"It is not seat {other + 1}'s turn; waiting for seat {mover + 1}." in str(
        caught.value.message
    )
