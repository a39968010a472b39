"""The greedy bots: the same moves compiled and pure, and Gift Gift Gone's quick path.

Analysis values moves by playouts of the greedy bots (games/analysis.py), so a bot's
move is part of a stored figure: the compiled bots (bin/compile_engines.py) must play
exactly as the pure-Python ones, and Gift Gift Gone's bot, which decides the usual
phases without listing every legal event (``bot._quick``), exactly as its strategy
stated over the legal events (``bot._from_legal``), with the same draws from the
generator.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import games
from games.gift_gift_gone import bot
from games.gift_gift_gone.rules import ENGINE as GGG
from games.play import BOTS, random_bot, self_play
from games.registry import all_engines, get_engine

ROOT = Path(__file__).resolve().parents[2]

#: Seeded greedy self-play games per engine, at two table sizes: every move of every
#: seat is the greedy bot's (chance from the same generator).
GAMES = [(engine.slug, n, seed) for engine in all_engines() for n in (3, 4) for seed in (1, 2)]


def _games() -> dict[str, list[list[dict[str, object]]]]:
    out: dict[str, list[list[dict[str, object]]]] = {}
    for slug, n, seed in GAMES:
        engine = get_engine(slug)
        options = {"max_rounds": 3} if slug == "gift_trap" else None
        events, _ = self_play(
            engine, n, options=options, rng=random.Random(seed), bots=[BOTS["greedy"]] * n
        )
        out.setdefault(slug, []).append(events)
    return out


def test_compiled_and_pure_bots_play_the_same_games() -> None:
    """The same seeded greedy games from this process and from one that imports every
    engine and bot as pure Python (``GIFTBOX_COMPILE=0``); with no build present both
    are pure and the test still checks the games are reproducible across processes."""
    code = (
        "import json, games; from tests.games import test_bots; "
        "print(json.dumps([games.ENGINE_BUILD, test_bots._games()]))"
    )
    env = {**os.environ, "GIFTBOX_COMPILE": "0", "PYTHONPATH": str(ROOT)}
    pure = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    build, played = json.loads(pure.stdout)
    assert build == "pure"
    here = json.loads(json.dumps(_games()))
    assert played == here, f"this process's build: {games.ENGINE_BUILD}"
    assert all(len(g) > 10 for games_ in here.values() for g in games_)


@pytest.mark.parametrize("options", [None, {"turn_actions": "one"}, {"give_frozen_in_swap": True}])
@pytest.mark.parametrize("n", [2, 4, 6])
def test_gift_gift_gone_quick_path_chooses_as_the_legal_events_do(options, n) -> None:
    """At every seat decision of games played by a mix of greedy and random moves (so
    that odd positions come up too), the bot's move, the key order of its event and the
    generator's state after it equal ``_from_legal``'s from the same generator state."""
    rng = random.Random(n * 7 + len(options or {}))
    phases: set[str] = set()
    quick = 0
    for game in range(6):
        state = GGG.setup(n, options)
        while not GGG.is_over(state):
            movers = GGG.to_move(state)
            if "chance" in movers:
                state = GGG.apply(state, GGG.sample_chance(state, rng))
                continue
            seat = movers[0]
            assert isinstance(seat, int)
            seed = rng.getrandbits(32)
            fast, slow = random.Random(seed), random.Random(seed)
            chosen = bot.greedy_event(GGG, state, seat, fast)
            expected = bot._from_legal(GGG, state, seat, slow)
            assert chosen == expected, (game, state.phase)
            assert list(chosen) == list(expected)
            assert fast.getstate() == slow.getstate(), (game, state.phase, chosen)
            phases.add(state.phase)
            quick += bot._quick(state, seat, random.Random(seed)) is not None
            mover = random_bot if rng.random() < 0.2 else BOTS["greedy"]
            state = GGG.apply(state, mover(GGG, state, seat, rng))
    assert {"turn", "draw", "discard", "answer"} <= phases
    assert quick > 100  # the quick path was the one taken, mostly
