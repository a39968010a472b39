"""How much the Gift Swap option ``regift_own_row`` changes play (figures for the doc).

    .venv/bin/python -m tests.games.measure_gift_swap_options --games 2000

Plays seeded random-bot games under each value and counts, at every Regift
effect step: whether a face-down card of the player's own row was a legal
target, and which target the random bot took. Not a test: the figures are
quoted in docs/rules/gift_swap.md, "Options (house rules)".
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from statistics import mean

from games.gift_swap import ENGINE as E
from games.play import BOTS


def measure(n: int, value: bool, games: int) -> dict[str, float]:
    counts: Counter[str] = Counter()
    turns: list[int] = []
    for seed in range(games):
        rng = random.Random(seed)
        state = E.setup(n, {"regift_own_row": value})
        own_opened = False
        while not E.is_over(state):
            movers = E.to_move(state)
            if "chance" in movers:
                event = E.sample_chance(state, rng)
            else:
                seat = rng.choice(movers)
                if E.step(state) == "effect" and E.legal_events(state, seat)[1:]:
                    legal = E.legal_events(state, seat)
                    if legal[1]["do"] == "regift":
                        counts["regift_steps"] += 1
                        if any(e.get("row") == seat for e in legal):
                            counts["own_row_available"] += 1
                event = BOTS["random"](E, state, seat, rng)
                if event["do"] == "regift":
                    counts["regifts"] += 1
                    if event["row"] == seat:
                        counts["own_row_regifts"] += 1
                        own_opened = True
                elif own_opened and event["do"] == "choose":
                    counts["own_row_opened"] += event["choice"] == "open"
                    own_opened = False
            state = E.apply(state, event)
        turns.append(state.turn)
        counts["games"] += 1
    steps = counts["regift_steps"] or 1
    return {
        "games": counts["games"],
        "regift steps / game": counts["regift_steps"] / games,
        "own row available %": 100 * counts["own_row_available"] / steps,
        "regifts used / game": counts["regifts"] / games,
        "own-row regifts / game": counts["own_row_regifts"] / games,
        "own-row regift then Open / game": counts["own_row_opened"] / games,
        "mean turns": mean(turns),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    for n in (3, 4):
        for value in (True, False):
            figures = measure(n, value, args.games)
            shown = ", ".join(
                f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in figures.items()
            )
            print(f"{n} players, regift_own_row={str(value).lower()}: {shown}")


if __name__ == "__main__":
    main()
