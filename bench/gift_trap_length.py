"""How long GiftTRAP lasts with no round limit (``max_rounds: null``), per table size.

    .venv/bin/python bench/gift_trap_length.py [--games 100] [--seed 2026] [--cap 2000000]

Plays seeded games with the random and the greedy bots of ``games.play`` (the
bots the conformance suite uses), without and with the Expert Strategy Cards,
and prints per player count: games played, rounds (median, 90th percentile,
largest), events (median, 90th percentile, largest), the share of games longer
than ``self_play``'s 100,000-event budget, and the share longer than 15 rounds
(games the old default ``max_rounds: 15`` would have ended without anyone
Gifted). A game still going after ``--cap`` events counts as longer than
everything. The figures are in docs/rules/gift_trap.md (Options, max_rounds).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.gift_trap import ENGINE
from games.play import BOTS, GameTooLong, self_play

BUDGET = 100_000  # games.play.self_play's default max_events
OLD_LIMIT = 15  # the default max_rounds before it became an option


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(n: int, bot: str, expert: bool, games: int, seed: int, cap: int) -> dict[str, float]:
    rounds: list[float] = []
    events: list[float] = []
    started = time.perf_counter()
    for game in range(games):
        rng = random.Random(seed * 1_000 + n * 100 + game)
        try:
            log, state = self_play(
                ENGINE,
                n,
                options={"expert_cards": expert, "max_rounds": None},
                rng=rng,
                bots=[BOTS[bot]] * n,
                max_events=cap,
            )
        except GameTooLong:
            rounds.append(float("inf"))
            events.append(float("inf"))
            continue
        assert ENGINE.result(state).details["ended_by"] == "gifted"
        rounds.append(state.round)
        events.append(len(log))
    return {
        "games": games,
        "rounds_median": statistics.median(rounds),
        "rounds_p90": percentile(rounds, 0.9),
        "rounds_max": max(rounds),
        "events_median": statistics.median(events),
        "events_p90": percentile(events, 0.9),
        "events_max": max(events),
        "over_budget": sum(e > BUDGET for e in events) / games,
        "over_15_rounds": sum(r > OLD_LIMIT for r in rounds) / games,
        "seconds_per_game": (time.perf_counter() - started) / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cap", type=int, default=2_000_000)
    parser.add_argument("--players", type=int, nargs="*", default=list(range(3, 9)))
    parser.add_argument("--bots", nargs="*", default=["random", "greedy"])
    args = parser.parse_args()
    print(
        "bot     expert  n  games  rounds med/p90/max    events med/p90/max"
        "          >100k ev  >15 rounds  s/game"
    )
    for bot in args.bots:
        for expert in (False, True):
            for n in args.players:
                m = measure(n, bot, expert, args.games, args.seed, args.cap)
                print(
                    f"{bot:7} {expert!s:6} {n:2} {m['games']:6}  "
                    f"{m['rounds_median']:>6g}/{m['rounds_p90']:g}/{m['rounds_max']:g}".ljust(48)
                    + f"{m['events_median']:>8g}/{m['events_p90']:g}/{m['events_max']:g}".ljust(30)
                    + f"{m['over_budget']:>7.0%}  {m['over_15_rounds']:>9.0%}"
                    + f"  {m['seconds_per_game']:6.2f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
