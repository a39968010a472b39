"""Bot games stored through the same service as uploads (demo data, statistics).

Every game played here is bot play: stored marked simulated (``meta.simulated``), its
seats taken by players of kind bot named ``bot-ana``, ``bot-ben``... so a simulation
can never sit a bot in the seat of a person called "ana". The demo data
(``manage.py demo_data``) is such games too, with ``meta.source`` "demo data".
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games.play import BOTS, self_play
from games.registry import get_engine
from replays.giftlog import FORMAT
from replays.models import Record
from replays.services import record_submit

NAMES = ("ana", "ben", "cy", "dee", "eli", "fay", "gus", "hal", "ivy", "jo", "kit", "lu")
BOT_NAMES = tuple(f"bot-{name}" for name in NAMES)
DEMO_SOURCE = "demo data"  # meta.source of the demo data's games
BOT_MIXES = ("random", "greedy", "mixed")
DEMO_DAYS = 120
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
    source: str | None = None,
    played_at: datetime | None = None,
) -> dict[str, Any]:
    """One bot-played game as a giftlog document (not stored).

    Marked ``meta.simulated`` and seated by ``BOT_NAMES``. ``simulated=False`` is for
    tests and benchmarks only: the same game standing in for one people played, seated
    by plain ``NAMES`` and not marked, so it counts like a club's upload.
    """
    engine = get_engine(game)
    options = {**SIMULATION_OPTIONS.get(game, {}), **(options or {})}
    names = rng.sample(BOT_NAMES if simulated else NAMES, num_players)
    if bots == "mixed":
        seat_bots = [BOTS[rng.choice(("random", "greedy", "greedy"))] for _ in names]
    else:
        seat_bots = [BOTS[bots]] * num_players
    events, _ = self_play(engine, num_players, options=options, rng=rng, bots=seat_bots)
    meta: dict[str, Any] = (
        {"source": source or f"simulate ({bots} bots)", "simulated": True}
        if simulated
        else {"source": "people's play, played by bots (tests)"}
    )
    if played_at is not None:
        meta["played_at"] = played_at.isoformat()
    return {
        "format": FORMAT,
        "game": game,
        "options": options,
        "players": names,
        "meta": meta,
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
    demo: bool = False,
) -> Iterator[tuple[Record, bool]]:
    """Play and store ``games`` games, yielding each stored record as it lands.

    A generator, so callers can show progress on long runs. Without
    ``num_players`` each game picks a table size the game allows. Every game is
    stored as bot play (simulated, its players bots); ``demo`` marks them as the
    demo data and spreads them over the last ``DEMO_DAYS``.
    """
    engine = get_engine(game)
    rng = random.Random(seed)
    now = timezone.now().replace(microsecond=0)
    for number in range(games):
        players = num_players or rng.randint(engine.min_players, engine.max_players)
        # Demo play stands in for a club's history: its games are spread over the last
        # DEMO_DAYS, oldest first, so the charts by month have a history to show.
        played_at = None
        if demo:
            days_ago = DEMO_DAYS * (games - number) / games
            played_at = now - timedelta(days=days_ago, minutes=rng.randint(0, 180))
        document = simulated_document(
            game,
            num_players=players,
            rng=rng,
            bots=bots,
            options=options,
            source=DEMO_SOURCE if demo else None,
            played_at=played_at,
        )
        yield record_submit(document=document, bot_seats=range(players))
