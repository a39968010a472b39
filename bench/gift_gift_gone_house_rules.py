"""What Gift Gift Gone's two house rules change, per table size.

    .venv/bin/python bench/gift_gift_gone_house_rules.py [--games 200] [--bot greedy]

Plays seeded games (seeds 0..games-1) with one bot of ``games.play`` at every seat,
under the defaults, each option's other value, and the legacy values (what a record
without stored options meant before the options existed), and prints per player
count: turns per game, the share of games ending with a winner at the target (the rest
end when the cards ran out, ruling 17), claims and swaps per game, claims or swaps made
after a draw in the same turn (possible only with ``"turn_actions": "one_of_each"``),
and frozen (six-card) gifts given away in swaps, with the share of games where it
happened (possible only with ``"give_frozen_in_swap": true``). The figures are in
docs/rules/gift_gift_gone.md (Options (house rules)).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.gift_gift_gone import ENGINE
from games.play import BOTS, self_play

SETTINGS: dict[str, dict[str, object]] = {
    "defaults (one_of_each, false)": {},
    "turn_actions: one": {"turn_actions": "one"},
    "give_frozen_in_swap: true": {"give_frozen_in_swap": True},
    "legacy (one, true)": {"turn_actions": "one", "give_frozen_in_swap": True},
}


def measure(n: int, options: dict[str, object], games: int, bot: str) -> dict[str, float]:
    totals = dict.fromkeys(
        ("turns", "target", "claims", "swaps", "after_draw", "frozen", "frozen_games"), 0
    )
    for seed in range(games):
        events, final = self_play(
            ENGINE, n, options=options, rng=random.Random(seed), bots=[BOTS[bot]] * n
        )
        state = ENGINE.setup(n, options)
        frozen = 0
        for event in events:
            before, state = state, ENGINE.apply(state, event)
            if event["do"] in ("claim", "swap"):
                totals["claims" if event["do"] == "claim" else "swaps"] += 1
                totals["after_draw"] += before.drawn
                if event["do"] == "swap" and len(before.table[event["give"]]) == 6:
                    frozen += 1
            if state.turn != before.turn or ENGINE.is_over(state):
                totals["turns"] += 1
        totals["target"] += final.end == "target"
        totals["frozen"] += frozen
        totals["frozen_games"] += frozen > 0
    return {key: value / games for key, value in totals.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bot", choices=sorted(BOTS), default="greedy")
    args = parser.parse_args()
    print(f"{args.games} games per row, {args.bot} bots at every seat")
    print(
        "players | options | turns | won at target | claims | swaps | claim/swap after a draw"
        " | frozen gifts given (games)"
    )
    for n in (2, 3, 4, 6, 8):
        for label, options in SETTINGS.items():
            m = measure(n, options, args.games, args.bot)
            print(
                f"{n} | {label} | {m['turns']:.1f} | {m['target']:.0%} | {m['claims']:.1f} | "
                f"{m['swaps']:.1f} | {m['after_draw']:.1f} | "
                f"{m['frozen']:.2f} ({m['frozen_games']:.0%})",
                flush=True,
            )


if __name__ == "__main__":
    main()
