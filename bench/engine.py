"""Engine throughput: random self-play and checked replay, events per second.

    .venv/bin/python bench/engine.py [--seconds 3] [--game secret_santa]

Prints one line per game and table size. Self-play includes the bots' choice
(legal_events) on every step; replay is what validating an upload costs
(apply only, every event checked).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.play import replay, self_play
from games.registry import all_engines, get_engine


def measure(engine, num_players: int, seconds: float) -> tuple[int, int, float, float]:
    rng = random.Random(2026)
    logs = []
    games = events = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        log, _ = self_play(engine, num_players, rng=rng)
        logs.append(log)
        games += 1
        events += len(log)
    play_rate = events / (time.perf_counter() - started)
    started = time.perf_counter()
    for log in logs:
        replay(engine, num_players, {}, log)
    replay_rate = events / (time.perf_counter() - started)
    return games, events, play_rate, replay_rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="self-play time per case")
    parser.add_argument("--game", help="only this engine slug")
    args = parser.parse_args()
    engines = [get_engine(args.game)] if args.game else all_engines()
    print(
        f"{'game':<16}{'players':>8}{'games':>8}{'events/game':>13}"
        f"{'self-play ev/s':>16}{'replay ev/s':>13}"
    )
    for engine in engines:
        for n in range(engine.min_players, engine.max_players + 1):
            games, events, play_rate, replay_rate = measure(engine, n, args.seconds)
            print(
                f"{engine.slug:<16}{n:>8}{games:>8}{events / games:>13.1f}"
                f"{play_rate:>16,.0f}{replay_rate:>13,.0f}"
            )


if __name__ == "__main__":
    main()
