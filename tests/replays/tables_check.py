"""Checks every drawing module must pass (and the generic fallback too).

For sampled steps of a game and every viewer (everyone, each seat): the table
draws; the card faces drawn are exactly the cards in that viewer's view (so a
page never shows a card the seat may not see, and never drops one it may);
every legal move's target is an element on the drawn table.
"""

from __future__ import annotations

import random
import re
from typing import Any

from games.base import Engine
from games.play import replay_states
from replays.tables import table_html, table_target
from tests.games.words import card_ids_in

DATA_CARD = re.compile(r'data-card="([^"]+)"')
DATA_KEY = re.compile(r'data-key="([^"]+)"')


def drawn(engine: Engine, state: Any, seat: int | None, players: list[str]) -> str:
    return table_html(engine, state, seat=seat, players=players)


def check_tables(
    engine: Engine,
    num_players: int,
    events: list[dict],
    *,
    sample: int = 25,
    seed: int = 0,
    options: dict | None = None,
) -> None:
    rng = random.Random(seed)
    states = list(replay_states(engine, num_players, options, events))
    picked = rng.sample(range(len(states)), min(sample, len(states)))
    steps = sorted({0, 1, len(states) - 1, *picked})
    players = [f"Player {i + 1}" for i in range(num_players)]
    catalog = engine.card_catalog()
    for step in steps:
        state = states[step]
        for seat in [None, *range(num_players)]:
            html = drawn(engine, state, seat, players)
            view = engine.view(state, seat)
            faces = set(DATA_CARD.findall(html))
            expected = card_ids_in(view, catalog)
            assert faces <= expected, (
                f"step {step}, seat {seat}: drew {sorted(faces - expected)} not in the view"
            )
            assert faces == expected, (
                f"step {step}, seat {seat}: the view's {sorted(expected - faces)} are not drawn"
            )
            if seat is None:
                continue
            assert not (faces & engine.secrets(state, seat)), "drew a secret"
            keys = set(DATA_KEY.findall(html))
            if seat in engine.to_move(state):
                for event in engine.legal_events(state, seat):
                    key = table_target(engine.slug, event, view)
                    assert key is None or key in keys, (
                        f"step {step}: move {event} targets {key!r}, which is not drawn"
                    )
