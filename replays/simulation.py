"""Bot games stored through the same service as uploads (demo data, statistics)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from games.play import BOTS, self_play
from games.registry import get_engine
from replays.giftlog import FORMAT
from replays.models import Record
from replays.services import record_submit

DEMO_NAMES = ("ana", "ben", "cy", "dee", "eli", "fay", "gus", "hal", "ivy", "jo", "kit", "lu")
BOT_MIXES = ("random", "greedy", "mixed")
# House rules a simulation plays under unless it is told otherwise. GiftTRAP's
# rulebook game has no round limit, and random bots at 7-8 seats drift back down
# the tracks (a random gift scores below 0 on average there): a median of 87,000
# events at 8 players, beyond what a record may hold (docs/rules/gift_trap.md).
# Simulated games stop after 30 rounds and say so (result details: round_limit).
SIMULATION_OPTIONS: dict[str, dict[str, Any]] = {"gift_trap": {"max_rounds": 30}}


def simulated_document(
    game: str,
    *,
    num_players: int,
    rng: random.Random,
    bots: str = "mixed",
    options: dict[str, Any] | None = None,
    simulated: bool = True,
) -> dict[str, Any]:
    """One bot-played game as a giftlog document (not stored).

    Marked ``meta.simulated`` unless ``simulated=False`` (demo data, which stands in
    for a club's play so every page has something to show).
    """
    engine = get_engine(game)
    options = {**SIMULATION_OPTIONS.get(game, {}), **(options or {})}
    names = rng.sample(DEMO_NAMES, num_players)
    if bots == "mixed":
        seat_bots = [BOTS[rng.choice(("random", "greedy", "greedy"))] for _ in names]
    else:
        seat_bots = [BOTS[bots]] * num_players
    events, _ = self_play(engine, num_players, options=options, rng=rng, bots=seat_bots)
    return {
        "format": FORMAT,
        "game": game,
        "options": options,
        "players": names,
        "meta": (
            {"source": f"simulate ({bots} bots)", "simulated": True}
            if simulated
            else {"source": "demo data"}
        ),
        "events": events,
    }


def records_simulate(
    game: str,
    *,
    games: int,
    num_players: int | None = None,
    seed: int | None = None,
    bots: str = "mixed",
    options: dict[str, Any] | None = None,
    simulated: bool = True,
) -> Iterator[tuple[Record, bool]]:
    """Play and store ``games`` games, yielding each stored record as it lands.

    A generator, so callers can show progress on long runs. Without
    ``num_players`` each game picks a table size the game allows.
    """
    engine = get_engine(game)
    rng = random.Random(seed)
    for _ in range(games):
        players = num_players or rng.randint(engine.min_players, engine.max_players)
        document = simulated_document(
            game, num_players=players, rng=rng, bots=bots, options=options, simulated=simulated
        )
        yield record_submit(document=document)
