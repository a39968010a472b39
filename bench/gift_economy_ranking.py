"""Gift Economy's end-of-game ranking under each ``ranking`` value, over seeded bot games.

    .venv/bin/python bench/gift_economy_ranking.py [--games 2000] [--seed 2026]

Plays each game once (the bots do not read the option, so a game's moves are
the same under every value) and ranks its final hands under every reading. For
each player count and bot: how often the goal ends the game, how often the
deck runs out with a resource above 24 points somewhere (where ``closeness``
goes below 0 for it), how often each reading's winners and full ranking differ
from ``closeness`` (the pre-option ranking) and from the chosen default, and how
often each reading's winner is decided by the most-cards tie-break. The figures
are in docs/rules/gift_economy.md.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.base import Result
from games.gift_economy import ENGINE
from games.gift_economy.cards import CLOSENESS, GOAL, RANKINGS, totals
from games.gift_economy.state import State
from games.play import BOTS, self_play

DEFAULT = next(o.default for o in ENGINE.options if o.name == "ranking")


def ranked(final: State, ranking: str) -> Result:
    """The final position's result as if the table had played under ``ranking``."""
    state = final.copy()
    state.ranking = ranking
    return ENGINE.result(state)


def on_cards(result: Result) -> bool:
    """Did the most-cards tie-break pick the winner (the best score shared, winners fewer)?"""
    best = max(result.scores)
    return sum(1 for s in result.scores if s == best) > len(result.winners)


def measure(n: int, bot: str, games: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed * 100 + n * 10 + (bot == "greedy"))
    tally: Counter[str] = Counter()
    for _ in range(games):
        _, final = self_play(ENGINE, n, rng=rng, bots=[BOTS[bot]] * n)
        tally["goal"] += final.end_reason == "goal"
        tally["over24"] += any(p > 2 * GOAL for h in final.hands for p in totals(h))
        results = {r: ranked(final, r) for r in RANKINGS}
        for r, res in results.items():
            for base, name in ((CLOSENESS, "old"), (DEFAULT, "def")):
                tally[f"{r}:{name}:win"] += res.winners != results[base].winners
                tally[f"{r}:{name}:rank"] += res.ranks != results[base].ranks
            tally[f"{r}:cards"] += on_cards(res)
            tally[f"{r}:shared"] += len(res.winners) > 1
    return {k: 100.0 * v / games for k, v in tally.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(f"{args.games} games per row; default ranking: {DEFAULT}\n")
    rows = [
        (n, bot, measure(n, bot, args.games, args.seed))
        for bot in ("greedy", "random")
        for n in range(ENGINE.min_players, ENGINE.max_players + 1)
    ]
    print("| bot | players | goal reached | a resource above 24 |")
    print("|---|---|---|---|")
    for n, bot, m in rows:
        print(f"| {bot} | {n} | {m['goal']:.1f}% | {m['over24']:.1f}% |")
    tables = [
        ("winners differ from `closeness`", "old:win"),
        ("ranking differs from `closeness`", "old:rank"),
        (f"winners differ from `{DEFAULT}`", "def:win"),
        ("winner decided by the most cards", "cards"),
        ("win shared (equal score and cards)", "shared"),
    ]
    if DEFAULT == CLOSENESS:  # the third table would repeat the first
        del tables[2]
    for label, key in tables:
        print(f"\n{label}:\n")
        print("| bot | players | " + " | ".join(f"`{r}`" for r in RANKINGS) + " |")
        print("|---|---|" + "---|" * len(RANKINGS))
        for n, bot, m in rows:
            cells = " | ".join(f"{m.get(f'{r}:{key}', 0.0):.1f}%" for r in RANKINGS)
            print(f"| {bot} | {n} | {cells} |")


if __name__ == "__main__":
    main()
