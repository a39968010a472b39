"""The seating optimiser against random seating and the BGA rule, over whole events.

    .venv/bin/python bench/seating.py [--events 3] [--rounds 5] [--seed 2026]

For 13, 24 and 40 players of a 3-5 player game, plays ``--events`` seeded events of
``--rounds`` rounds with each seating method and prints, averaged over the events:

- extra meetings: over all pairs, the meetings beyond the first (a pair that sat together
  three times counts 2); max: the most times one pair sat together (largest over events);
- seat imbalance: each player's summed seat advantage over the event, in points of win
  share: its range (best-off minus worst-off player) and its standard deviation;
- points spread: the mean standard deviation of points within a table, rounds 2 on
  (how well a round groups players of similar standing: the BGA rule's strength);
- ms/round: the time to seat one round.

The methods: ``random`` (tables and seats drawn), ``BGA rule`` (leaders together: players
sorted by points fill the tables in order, seats drawn; Board Game Arena's tournament
seating), and the optimiser of ``events.seating`` as ``swiss`` and ``round robin``. The
baselines are the reference, measured in the same run on the same simulated results. The
seat advantage assumed (win share above the fair share, by table size) is ``ADVANTAGE``:
first seat +4 points and last -3 at four players. Results are simulated: each player has a
hidden skill, and a table's finishing order is drawn by Plackett-Luce on skill and seat
advantage; a player scores one point per player finishing behind them. The figures are
in docs/events.md.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from events.seating import Format, Round, seat_round
from events.tables import table_sizes

LOW, HIGH = 3, 5
#: Seat advantage of a 3-5 player game, in win share above the fair share 1/n.
ADVANTAGE: dict[int, list[float]] = {
    3: [0.03, 0.00, -0.03],
    4: [0.04, 0.01, -0.02, -0.03],
    5: [0.04, 0.02, 0.00, -0.02, -0.04],
}

Seater = Callable[[list[str], list[Round], dict[str, float], int], Round]


def _fill(order: Sequence[str]) -> Round:
    """Players in ``order`` fill the tables of the house rule in turn, seat 1 first."""
    tables, at = [], 0
    for size in table_sizes(len(order), LOW, HIGH).sizes:
        tables.append(tuple(order[at : at + size]))
        at += size
    return Round(tuple(tables))


def random_seating(players: list[str], _h: list[Round], _p: dict[str, float], seed: int) -> Round:
    """Tables and seats drawn at random."""
    order = list(players)
    random.Random(seed).shuffle(order)
    return _fill(order)


def bga_rule(players: list[str], _h: list[Round], points: dict[str, float], seed: int) -> Round:
    """Leaders together, seats drawn: sorted by points (ties drawn), then each table shuffled."""
    rng = random.Random(seed)
    order = list(players)
    rng.shuffle(order)
    order.sort(key=lambda p: -points.get(p, 0.0))
    seated = _fill(order)
    return Round(tuple(tuple(rng.sample(t, len(t))) for t in seated.tables))


def optimiser(format: Format) -> Seater:
    """The optimiser of ``events.seating`` in ``format``, with its default step budget."""

    def seat(
        players: list[str], history: list[Round], points: dict[str, float], seed: int
    ) -> Round:
        plan = seat_round(
            players,
            history,
            low=LOW,
            high=HIGH,
            advantage=ADVANTAGE,
            format=format,
            points=points,
            seed=seed,
        )
        return plan.round

    return seat


METHODS: dict[str, Seater] = {
    "random": random_seating,
    "BGA rule": bga_rule,
    "optimiser, swiss": optimiser(Format.SWISS),
    "optimiser, round robin": optimiser(Format.ROUND_ROBIN),
}


def play(table: Sequence[str], skill: Mapping[str, float], rng: random.Random) -> list[str]:
    """A finishing order drawn by Plackett-Luce on skill, the winner also on seat advantage."""
    adv = ADVANTAGE[len(table)]
    weights = {p: math.exp(skill[p]) for p in table}
    first_w = {p: weights[p] * max(0.05, 1 + len(table) * adv[s]) for s, p in enumerate(table)}
    order: list[str] = []
    left = list(table)
    while left:
        w = first_w if not order else weights
        pick = rng.choices(left, weights=[w[p] for p in left])[0]
        order.append(pick)
        left.remove(pick)
    return order


def run_event(
    method: Seater, n: int, rounds: int, seed: int
) -> tuple[dict[frozenset[str], int], dict[str, float], list[float], list[float]]:
    """One event: meetings per pair, summed seat advantage per player, spreads, times."""
    players = [f"p{i:02d}" for i in range(n)]
    skill_rng = random.Random(seed)
    skill = {p: skill_rng.gauss(0, 0.5) for p in players}
    results = random.Random(seed + 1)
    history: list[Round] = []
    points = dict.fromkeys(players, 0.0)
    meetings: dict[frozenset[str], int] = {}
    edge = dict.fromkeys(players, 0.0)
    spreads: list[float] = []
    times: list[float] = []
    for r in range(rounds):
        started = time.perf_counter()
        seated = method(players, history, dict(points), seed * 100 + r)
        times.append(time.perf_counter() - started)
        history.append(seated)
        for table in seated.tables:
            if r:
                spreads.append(statistics.pstdev(points[p] for p in table))
            for s, p in enumerate(table):
                edge[p] += 100 * ADVANTAGE[len(table)][s]
            for a, b in combinations(table, 2):
                key = frozenset((a, b))
                meetings[key] = meetings.get(key, 0) + 1
            for place, p in enumerate(play(table, skill, results)):
                points[p] += len(table) - 1 - place
    return meetings, edge, spreads, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(
        f"{args.events} events x {args.rounds} rounds of a {LOW}-{HIGH} player game, "
        f"seed {args.seed}, Python {sys.version.split()[0]}"
    )
    header = (
        f"{'players':>7}  {'method':<23} {'extra meetings':>14} {'max':>4} "
        f"{'seat range':>10} {'seat std':>8} {'points spread':>13} {'ms/round':>9}"
    )
    print(header)
    print("-" * len(header))
    for n in (13, 24, 40):
        for name, method in METHODS.items():
            extra, worst, ranges, stds, spreads, times = [], 0, [], [], [], []
            for e in range(args.events):
                meetings, edge, spread, took = run_event(method, n, args.rounds, args.seed + e)
                extra.append(sum(m - 1 for m in meetings.values()))
                worst = max(worst, *meetings.values())
                ranges.append(max(edge.values()) - min(edge.values()))
                stds.append(statistics.pstdev(edge.values()))
                spreads.extend(spread)
                times.extend(took)
            print(
                f"{n:>7}  {name:<23} {statistics.mean(extra):>14.1f} {worst:>4} "
                f"{statistics.mean(ranges):>10.1f} {statistics.mean(stds):>8.2f} "
                f"{statistics.mean(spreads):>13.2f} {1000 * statistics.mean(times):>9.1f}"
            )


if __name__ == "__main__":
    main()
