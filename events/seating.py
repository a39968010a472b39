"""Who sits at which table, in which seat, round after round: the seating of club events.

Pure Python (no Django, no I/O), so it is tested against an exhaustive search and
benchmarked alone (``bench/seating.py``). docs/events.md explains the objective, its
weights and the search; this module is the code of that page.

The pieces:

- ``Round``: one round's tables (each a tuple of player names in seat order, seat 1
  first) and the players who sit out.
- ``objective``: what a proposed round costs given the rounds before it, in parts (repeat
  meetings, seat balance, same neighbour, score spread, same seat), so every choice of the
  optimiser can be told in words.
- ``seat_round``: the optimiser, a seeded simulated annealing over swaps of two players,
  finished by a descent until no single swap helps; it returns a ``Plan`` with the round,
  its cost and a sentence per table saying why it is so.
- ``swap_change``: what a hand swap of two players does to the objective, part by part.

Seat advantage comes from analytics (per game, table size and house rules) as plain
numbers: ``{table_size: [advantage of seat 1, seat 2, ...]}`` in win share above the fair
share (``+0.04`` means four points of win share more than ``1/n``);
``advantage_from_seat_figures`` turns analytics' seat figures into that shape.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from events.tables import SeatingError, check_range, choose_byes, table_sizes

Table = tuple[str, ...]

#: The parts of the objective, in the order they are reported.
PARTS = ("repeat", "seat_balance", "neighbour", "score_spread", "same_seat")

#: The parts in words, for sentences.
PART_WORDS = {
    "repeat": "repeat meetings",
    "seat_balance": "seat balance",
    "neighbour": "same neighbour",
    "score_spread": "score spread",
    "same_seat": "same seat",
}


class Format(StrEnum):
    """How an event seats its rounds (docs/events.md, "Formats")."""

    #: Players with similar points sit together from round 2; repeats avoided.
    SWISS = "swiss"
    #: Everyone meets everyone as evenly as the table sizes allow; points ignored.
    ROUND_ROBIN = "round_robin"
    #: Tables drawn at random; only the seat order within each table is balanced.
    RANDOM = "random"
    #: The leaders on points at one top table; everyone else seated as in swiss.
    FINAL = "final"


@dataclass(frozen=True)
class Weights:
    """The price of each part of the objective (docs/events.md gives the reasoning).

    ``repeat`` is per pair and per square of their meetings so far (a second meeting costs
    1 unit, a third 4); ``seat_balance`` per squared point of win share by which a player's
    summed seat advantage strays from the mean; ``neighbour`` per earlier time the same
    player sat directly before the same other player; ``score_spread`` per squared point
    of distance from the table's mean points; ``same_seat`` per earlier time in that seat.
    """

    repeat: float = 10.0
    seat_balance: float = 0.5
    neighbour: float = 3.0
    score_spread: float = 10.0
    same_seat: float = 2.0

    def of(self, part: str) -> float:
        """The weight of a part by its name in ``PARTS``."""
        return float(getattr(self, part))


@dataclass(frozen=True)
class Round:
    """One round: tables in order (table 1 first), each listing its players seat 1 first."""

    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()

    def seated(self) -> list[str]:
        """Every player at a table, table by table, seat by seat."""
        return [p for table in self.tables for p in table]


@dataclass(frozen=True)
class Cost:
    """The objective of a round: its total, the weighted parts, and the raw (unweighted) ones."""

    total: float
    parts: Mapping[str, float]
    raw: Mapping[str, float]


@dataclass(frozen=True)
class Plan:
    """A proposed round with its cost, a reason per table and per bye, and how the search ended.

    ``stopped_by`` is ``"steps"`` when the search used its whole step budget (then the
    plan is reproducible from ``seed``) or ``"time"`` when the time limit cut it short.
    """

    round: Round
    cost: Cost
    reasons: tuple[str, ...]
    bye_reasons: tuple[str, ...]
    seed: int
    steps: int
    stopped_by: str


@dataclass(frozen=True)
class SwapChange:
    """A hand swap of two players: the round after it and the objective before and after.

    ``changed`` holds only the parts whose value moved, as (before, after), weighted.
    """

    round: Round
    before: Cost
    after: Cost
    changed: Mapping[str, tuple[float, float]]

    @property
    def delta(self) -> float:
        """How much the total grows (negative: the swap is an improvement)."""
        return self.after.total - self.before.total


def advantage_from_seat_figures(
    by_players: Mapping[Any, Mapping[str, Any]],
) -> dict[int, list[float]]:
    """Analytics' seat figures (``by_players[n]["seats"]``) as ``{n: [advantage per seat]}``.

    Advantage is the seat's win rate minus the fair share; a seat without games counts as
    fair (0). The input is the plain dictionary analytics computes, so this stays pure.
    """
    table: dict[int, list[float]] = {}
    for n, size in by_players.items():
        seats = sorted(size.get("seats", []), key=lambda s: int(s["seat"]))
        table[int(n)] = [
            float(s["win_rate"]) - float(s["fair"]) if s.get("games") else 0.0 for s in seats
        ]
    return table


def _advantage_points(
    advantage: Mapping[int, Sequence[float]], sizes: Iterable[int]
) -> dict[int, list[float]]:
    """The advantage in points of win share (x100) for each size, zeros where none is known.

    A size analytics has no games of is fair as far as anyone knows; a list of the wrong
    length is a mistake worth refusing.
    """
    out: dict[int, list[float]] = {}
    for size in set(sizes):
        values = advantage.get(size)
        if values is None:
            out[size] = [0.0] * size
            continue
        if len(values) != size:
            raise SeatingError(
                "bad_advantage",
                f"The seat advantage for {size}-player tables has {len(values)} values, "
                f"not {size}.",
            )
        out[size] = [100.0 * float(v) for v in values]
    return out


class _Tally:
    """The rounds so far, compiled for the players present now into lists indexed by player.

    The search evaluates tens of thousands of tables per round; integer indexes and nested
    lists keep each evaluation to a few dozen list reads.
    """

    def __init__(
        self,
        players: Sequence[str],
        history: Sequence[Round],
        advantage: Mapping[int, Sequence[float]],
        points: Mapping[str, float] | None,
        weights: Weights,
        sizes: Iterable[int],
    ) -> None:
        self.names = list(players)
        self.index = {p: i for i, p in enumerate(self.names)}
        if len(self.index) != len(self.names):
            raise SeatingError("duplicate_player", "A player is listed twice for this round.")
        n = len(self.names)
        seen_sizes = {len(t) for r in history for t in r.tables}
        self.adv = _advantage_points(advantage, seen_sizes | set(sizes))
        widest = max([*self.adv, 1])
        self.meet = [[0] * n for _ in range(n)]
        self.before = [[0] * n for _ in range(n)]
        self.seat = [[0] * widest for _ in range(n)]
        self.edge = [0.0] * n
        self.byes = dict.fromkeys(self.names, 0)
        for r in history:
            for p in r.byes:
                if p in self.byes:
                    self.byes[p] += 1
            for table in r.tables:
                k = len(table)
                ids = [self.index.get(p) for p in table]
                for s, a in enumerate(ids):
                    if a is None:
                        continue
                    self.seat[a][s] += 1
                    self.edge[a] += self.adv[k][s]
                    b = ids[(s + 1) % k]
                    if b is not None and k > 1:
                        self.before[a][b] += 1
                    for c in ids[s + 1 :]:
                        if c is not None:
                            self.meet[a][c] += 1
                            self.meet[c][a] += 1
        self.points = [float((points or {}).get(p, 0.0)) for p in self.names]
        self.w = [weights.of(part) for part in PARTS]

    def raw_parts(self, table: Sequence[int]) -> list[float]:
        """The raw parts one table contributes, with seat balance as the sum of squared edges.

        The sum of squares differs from the spread around the mean by a constant of the
        round (the seat values of a round's tables are fixed by its sizes), so it ranks
        rounds the same and lets each table be priced alone.
        """
        k = len(table)
        adv = self.adv[k]
        meet, before, seat, edge, pts = self.meet, self.before, self.seat, self.edge, self.points
        repeat = 0
        near = 0
        same = 0
        balance = 0.0
        total = 0.0
        squares = 0.0
        for s in range(k):
            a = table[s]
            row = meet[a]
            for t in range(s + 1, k):
                m = row[table[t]]
                repeat += m * m
            if k > 1:
                near += before[a][table[(s + 1) % k]]
            same += seat[a][s]
            e = edge[a] + adv[s]
            balance += e * e
            p = pts[a]
            total += p
            squares += p * p
        spread = squares - total * total / k if k else 0.0
        return [float(repeat), balance, float(near), spread, float(same)]

    def cost(self, table: Sequence[int]) -> float:
        """The weighted cost of one table (see ``raw_parts``)."""
        w = self.w
        r = self.raw_parts(table)
        return w[0] * r[0] + w[1] * r[1] + w[2] * r[2] + w[3] * r[3] + w[4] * r[4]


def check_round(proposed: Round, players: Sequence[str], low: int, high: int) -> None:
    """Refuse a round that seats someone twice, leaves someone out, or has a wrong-sized table."""
    check_range(low, high)
    seen: set[str] = set()
    for p in [*proposed.seated(), *proposed.byes]:
        if p in seen:
            raise SeatingError("seated_twice", f"{p} is seated twice in this round.")
        seen.add(p)
    missing = set(players) - seen
    extra = seen - set(players)
    if missing:
        raise SeatingError("not_seated", f"Not seated and not sitting out: {sorted(missing)}.")
    if extra:
        raise SeatingError("unknown_player", f"Seated but not present: {sorted(extra)}.")
    for i, table in enumerate(proposed.tables, 1):
        if not low <= len(table) <= high:
            raise SeatingError(
                "bad_table_size",
                f"Table {i} has {len(table)} players; the game is for {low} to {high}.",
            )


def objective(
    proposed: Round,
    history: Sequence[Round],
    *,
    advantage: Mapping[int, Sequence[float]],
    points: Mapping[str, float] | None = None,
    weights: Weights | None = None,
) -> Cost:
    """What ``proposed`` costs after ``history``: the total and each part (docs/events.md).

    Seat balance is reported as the spread of the present players' summed seat advantage
    after the round (the sum of squared distances from their mean, in squared points of
    win share), so it reads the same whatever the table sizes. Pass ``points`` only for
    rounds where score groups matter (swiss, final); without them score spread is 0.
    """
    weights = weights or Weights()
    present = [*proposed.seated(), *proposed.byes]
    tally = _Tally(present, history, advantage, points, weights, (len(t) for t in proposed.tables))
    raw = dict.fromkeys(PARTS, 0.0)
    for table in proposed.tables:
        for part, value in zip(
            PARTS, tally.raw_parts([tally.index[p] for p in table]), strict=True
        ):
            raw[part] += value
    edges = list(tally.edge)
    for table in proposed.tables:
        for s, p in enumerate(table):
            edges[tally.index[p]] += tally.adv[len(table)][s]
    mean = sum(edges) / len(edges) if edges else 0.0
    raw["seat_balance"] = sum((e - mean) ** 2 for e in edges)
    parts = {part: weights.of(part) * raw[part] for part in PARTS}
    return Cost(total=sum(parts.values()), parts=parts, raw=raw)


def swap_players(proposed: Round, a: str, b: str) -> Round:
    """``proposed`` with players ``a`` and ``b`` in each other's seats (tables or byes)."""
    if a == b:
        return proposed

    def put(p: str) -> str:
        return b if p == a else a if p == b else p

    found = set(proposed.seated()) | set(proposed.byes)
    for p in (a, b):
        if p not in found:
            raise SeatingError("unknown_player", f"{p} is not in this round.")
    return Round(
        tables=tuple(tuple(put(p) for p in table) for table in proposed.tables),
        byes=tuple(put(p) for p in proposed.byes),
    )


def swap_change(
    proposed: Round,
    a: str,
    b: str,
    history: Sequence[Round],
    *,
    advantage: Mapping[int, Sequence[float]],
    points: Mapping[str, float] | None = None,
    weights: Weights | None = None,
) -> SwapChange:
    """What swapping ``a`` and ``b`` by hand does: the objective before, after, and what moved.

    An organiser overriding the optimiser sees the price of the override part by part
    ("repeat meetings 0 -> 10") before confirming it.
    """
    after_round = swap_players(proposed, a, b)
    kwargs: dict[str, Any] = {"advantage": advantage, "points": points, "weights": weights}
    before = objective(proposed, history, **kwargs)
    after = objective(after_round, history, **kwargs)
    changed = {
        part: (before.parts[part], after.parts[part])
        for part in PARTS
        if not math.isclose(before.parts[part], after.parts[part], abs_tol=1e-9)
    }
    return SwapChange(round=after_round, before=before, after=after, changed=changed)


def describe_swap(change: SwapChange, a: str, b: str) -> str:
    """One sentence for a hand swap: the total's change and every part that moved."""
    moved = ", ".join(
        f"{PART_WORDS[part]} {old:.1f} -> {new:.1f}" for part, (old, new) in change.changed.items()
    )
    verb = "adds" if change.delta > 0 else "saves" if change.delta < 0 else "changes nothing:"
    amount = f" {abs(change.delta):.1f}" if change.delta else ""
    return f"Swapping {a} and {b} {verb}{amount}" + (f" ({moved})." if moved else ".")


# The search ---------------------------------------------------------------------------------


@dataclass
class _Board:
    """Tables of player indexes with cached costs; ``movable[i]``: may table i trade players."""

    tally: _Tally
    tables: list[list[int]]
    movable: list[bool]
    costs: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.costs = [self.tally.cost(t) for t in self.tables]

    def total(self) -> float:
        return sum(self.costs)

    def swap_delta(self, i: int, s: int, j: int, t: int) -> tuple[float, float, float]:
        """Cost change of swapping seat s of table i with seat t of table j, and the new costs."""
        ti, tj = self.tables[i], self.tables[j]
        if i == j:
            ti[s], ti[t] = ti[t], ti[s]
            ci = self.tally.cost(ti)
            ti[s], ti[t] = ti[t], ti[s]
            return ci - self.costs[i], ci, ci
        ti[s], tj[t] = tj[t], ti[s]
        ci = self.tally.cost(ti)
        cj = self.tally.cost(tj)
        ti[s], tj[t] = tj[t], ti[s]
        return ci + cj - self.costs[i] - self.costs[j], ci, cj

    def apply(self, i: int, s: int, j: int, t: int, ci: float, cj: float) -> None:
        ti, tj = self.tables[i], self.tables[j]
        ti[s], tj[t] = tj[t], ti[s]
        self.costs[i] = ci
        self.costs[j] = cj

    def random_move(self, rng: random.Random, mix: bool) -> tuple[int, int, int, int] | None:
        """A random swap: between two movable tables (when ``mix``) or two seats of one table."""
        movable = [i for i, m in enumerate(self.movable) if m]
        if mix and len(movable) >= 2 and rng.random() < 0.7:
            i, j = rng.sample(movable, 2)
            return i, rng.randrange(len(self.tables[i])), j, rng.randrange(len(self.tables[j]))
        i = rng.randrange(len(self.tables))
        k = len(self.tables[i])
        if k < 2:
            return None
        s, t = rng.sample(range(k), 2)
        return i, s, i, t

    def all_moves(self, mix: bool) -> Iterable[tuple[int, int, int, int]]:
        """Every swap of two seats the format allows, for the final descent."""
        n = len(self.tables)
        for i in range(n):
            k = len(self.tables[i])
            for s in range(k):
                for t in range(s + 1, k):
                    yield i, s, i, t
                if not (mix and self.movable[i]):
                    continue
                for j in range(i + 1, n):
                    if self.movable[j]:
                        for t in range(len(self.tables[j])):
                            yield i, s, j, t


#: Coolings per search, and how far each cools (a fraction of the starting temperature).
REHEATS = 4
COOL_TO = 1 / 200


def _anneal(
    board: _Board,
    rng: random.Random,
    *,
    steps: int,
    mix: bool,
    deadline: float | None,
) -> tuple[list[list[int]], int, str]:
    """Simulated annealing over swaps, then a descent until no single swap lowers the cost.

    The temperature starts at the mean cost rise of 200 random moves (so about a third of
    typical bad moves are taken at first) and cools geometrically to ``COOL_TO`` of it; the
    budget is split into ``REHEATS`` such coolings, each starting again from the best
    seating seen so far (one long cooling sometimes freezes in a poor valley; the
    exhaustive tests found such cases). The descent at the end makes every table's reason true:
    no single swap the format allows would have lowered the total.
    """
    rises = []
    for _ in range(200):
        move = board.random_move(rng, mix)
        if move is not None:
            d = board.swap_delta(*move)[0]
            if d > 0:
                rises.append(d)
    t0 = sum(rises) / len(rises) if rises else 1.0
    current = board.total()
    best = current
    best_tables = [list(t) for t in board.tables]
    done = 0
    stopped_by = "steps"
    per_run = steps // REHEATS
    cool = COOL_TO ** (1.0 / max(per_run, 1))
    for run in range(REHEATS):
        if run:  # reheat from the best seating so far
            board.tables = [list(t) for t in best_tables]
            board.costs = [board.tally.cost(t) for t in board.tables]
            current = best
        temp = t0
        for step in range(per_run if run < REHEATS - 1 else steps - done):
            if deadline is not None and step % 256 == 0 and time.perf_counter() > deadline:
                stopped_by = "time"
                break
            done += 1
            temp *= cool
            move = board.random_move(rng, mix)
            if move is None:
                continue
            delta, ci, cj = board.swap_delta(*move)
            if delta <= 0 or rng.random() < math.exp(-delta / temp):
                board.apply(*move, ci, cj)
                current += delta
                if current < best - 1e-9:
                    best = current
                    best_tables = [list(t) for t in board.tables]
        if stopped_by == "time":
            break
    board.tables = best_tables
    board.costs = [board.tally.cost(t) for t in board.tables]
    improved = True
    while improved:
        improved = False
        for move in board.all_moves(mix):
            delta, ci, cj = board.swap_delta(*move)
            if delta < -1e-9:
                board.apply(*move, ci, cj)
                improved = True
    return board.tables, done, stopped_by


def _default_steps(players: int) -> int:
    """The step budget: enough for the exhaustive tests' optimum, and a second at 40 players."""
    return 2_000 + 400 * players


def seat_round(
    players: Sequence[str],
    history: Sequence[Round],
    *,
    low: int,
    high: int,
    advantage: Mapping[int, Sequence[float]],
    format: Format = Format.SWISS,
    points: Mapping[str, float] | None = None,
    weights: Weights | None = None,
    seed: int = 0,
    steps: int | None = None,
    time_limit: float | None = None,
    fewest_tables: bool = True,
    top_table: int | None = None,
) -> Plan:
    """Seat the present ``players`` for the next round after ``history``.

    ``players`` is who checked in for this round: late arrivals are simply present (with
    no history), dropped players simply absent. The table sizes follow
    ``events.tables.table_sizes``; when the numbers do not fit, ``choose_byes`` picks who
    sits out. The search is reproducible from ``seed`` as long as it ends by its step
    budget; ``time_limit`` (seconds) only cuts it short on a slow machine, and the plan
    says which ended it. ``top_table`` is the size of the final's top table (default: the
    largest the game allows that leaves everyone else seatable with the fewest byes).
    """
    check_range(low, high)
    weights = weights or Weights()
    if format is Format.ROUND_ROBIN or format is Format.RANDOM:
        weights = replace(weights, score_spread=0.0)
        points_used: Mapping[str, float] | None = None
    else:
        points_used = points or {}
    rng = random.Random(seed)
    present = list(players)
    if len(set(present)) != len(present):
        raise SeatingError("duplicate_player", "A player is listed twice for this round.")
    prior_byes = {p: sum(p in r.byes for r in history) for p in present}

    fixed: list[str] = []
    fixed_reason = ""
    if format is Format.FINAL:
        fixed, fixed_reason = _top_table(present, points_used or {}, low, high, top_table, rng)
    rest = [p for p in present if p not in fixed]
    split = table_sizes(len(rest), low, high, fewest_tables=fewest_tables)
    byes = choose_byes(rest, split.byes, byes_so_far=prior_byes, points=points_used, rng=rng)
    seated = [p for p in rest if p not in byes]
    sizes = list(split.sizes)

    tally = _Tally(present, history, advantage, points_used, weights, [*sizes, len(fixed) or low])
    order = list(seated)
    rng.shuffle(order)
    if format in (Format.SWISS, Format.FINAL):
        order.sort(key=lambda p: -tally.points[tally.index[p]])  # leaders together to start
    tables: list[list[int]] = []
    at = 0
    for size in sizes:
        tables.append([tally.index[p] for p in order[at : at + size]])
        at += size
    movable = [format is not Format.RANDOM] * len(tables)
    if fixed:
        tables.insert(0, [tally.index[p] for p in fixed])
        movable.insert(0, False)

    budget = steps if steps is not None else _default_steps(len(present))
    deadline = time.perf_counter() + time_limit if time_limit is not None else None
    board = _Board(tally, tables, movable)
    mix = format is not Format.RANDOM
    final_tables, done, stopped_by = _anneal(board, rng, steps=budget, mix=mix, deadline=deadline)

    # Table 1 is the top table in events with points (the fixed final table first), else the
    # largest; the order is for the organiser and changes no cost.
    fixed_first = bool(fixed)
    if format in (Format.SWISS, Format.FINAL):
        keyed = sorted(
            range(len(final_tables)),
            key=lambda i: (
                not (fixed_first and i == 0),
                -sum(tally.points[a] for a in final_tables[i]) / len(final_tables[i]),
            ),
        )
    else:
        keyed = sorted(range(len(final_tables)), key=lambda i: -len(final_tables[i]))
    board.tables = [final_tables[i] for i in keyed]
    board.movable = [board.movable[i] for i in keyed]
    board.costs = [tally.cost(t) for t in board.tables]

    result = Round(
        tables=tuple(tuple(tally.names[a] for a in t) for t in board.tables),
        byes=tuple(byes),
    )
    cost = objective(result, history, advantage=advantage, points=points_used, weights=weights)
    reasons = tuple(
        _table_reason(board, i, format, fixed_reason if fixed and i == 0 else "", len(history))
        for i in range(len(board.tables))
    )
    bye_reasons = tuple(
        _bye_reason(p, len(rest), low, high, prior_byes, points_used, byes) for p in byes
    )
    return Plan(
        round=result,
        cost=cost,
        reasons=reasons,
        bye_reasons=bye_reasons,
        seed=seed,
        steps=done,
        stopped_by=stopped_by,
    )


def _top_table(
    present: Sequence[str],
    points: Mapping[str, float],
    low: int,
    high: int,
    size: int | None,
    rng: random.Random,
) -> tuple[list[str], str]:
    """The final's top table: the leaders on points, ties for the last places by seeded draw."""
    if size is None:
        # the largest top table that leaves everyone else seatable with the fewest byes
        size = min(
            range(low, min(high, len(present)) + 1),
            key=lambda s: (table_sizes(len(present) - s, low, high).byes, -s),
            default=high,
        )
    if not low <= size <= high or size > len(present):
        raise SeatingError(
            "bad_top_table",
            f"A top table of {size} is not possible with {len(present)} players of a "
            f"{low}-{high} player game.",
        )
    order = list(present)
    rng.shuffle(order)
    order.sort(key=lambda p: -points.get(p, 0.0))
    top = order[:size]
    leaders = ", ".join(f"{p} {_num(points.get(p, 0.0))}" for p in top)
    reason = f"The top table: the {size} leaders on points ({leaders})."
    if size < len(order):
        cut = points.get(order[size - 1], 0.0)
        tied_in = [p for p in top if points.get(p, 0.0) == cut]
        tied_out = [p for p in order[size:] if points.get(p, 0.0) == cut]
        if tied_out:
            reason += (
                f" {_and(tied_in + tied_out)} were tied on {_points(cut)}; "
                f"the draw took {_and(tied_in)}."
            )
    return top, reason


def _and(names: Sequence[str]) -> str:
    """``ana``, ``ana and ben``, ``ana, ben and cyd``: names in a sentence."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _num(x: float) -> str:
    """A number of points as people write it: 6, not 6.0; 2.5 stays."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _points(x: float) -> str:
    """``1 point``, ``6 points``: a number of points in a sentence."""
    return f"{_num(x)} point{'' if x == 1 else 's'}"


def _ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... for meeting counts in sentences."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _best_parting(
    board: _Board, i: int, s: int, t: int
) -> tuple[float, list[float], str, str, int] | None:
    """The cheapest swap that parts seat s and seat t of table i: (delta, raw part deltas, ...).

    Either player may go to any other movable table, in any seat, for any player there.
    None when no such swap exists (one table, or the table is fixed).
    """
    if not board.movable[i]:
        return None
    tally = board.tally
    best: tuple[float, list[float], str, str, int] | None = None
    table = board.tables[i]
    for seat in (s, t):
        for j, other in enumerate(board.tables):
            if j == i or not board.movable[j]:
                continue
            for u in range(len(other)):
                delta, _, _ = board.swap_delta(i, seat, j, u)
                if best is None or delta < best[0] - 1e-9:
                    before_i = tally.raw_parts(table)
                    before_j = tally.raw_parts(other)
                    board.tables[i][seat], board.tables[j][u] = other[u], table[seat]
                    after_i = tally.raw_parts(board.tables[i])
                    after_j = tally.raw_parts(board.tables[j])
                    board.tables[i][seat], board.tables[j][u] = other[u], table[seat]
                    raw = [
                        ai + aj - bi - bj
                        for ai, aj, bi, bj in zip(after_i, after_j, before_i, before_j, strict=True)
                    ]
                    best = (delta, raw, tally.names[table[seat]], tally.names[other[u]], j)
    return best


def _why_together(tally: _Tally, a: int, b: int, weighted: list[float], seated: set[int]) -> str:
    """The clause naming the score group, when points are what keeps ``a`` and ``b`` together.

    It reads the cheapest parting swap's change part by part: only when the score spread
    is the part that would rise most does the clause speak of points, so it states what
    the objective actually weighed. Other parts are listed with their figures instead.
    """
    rise = max(range(len(PARTS)), key=lambda n: weighted[n])
    if PARTS[rise] != "score_spread" or weighted[rise] <= 1e-9:
        return ""
    pa, pb = tally.points[a], tally.points[b]
    group = [x for x in seated if tally.points[x] == pa]
    if pa == pb and len(group) == 2:
        return f" because they are the only two on {_points(pa)}"
    if pa == pb:
        return f" because they share {_points(pa)} with {len(group) - 2} others this round"
    return f" because they are close on points ({_num(pa)} and {_num(pb)})"


def _table_reason(board: _Board, i: int, format: Format, fixed_reason: str, played: int) -> str:
    """The sentences of table ``i``: who meets again and why, then why the seat order is so.

    Every statement is read off the objective: the meetings, neighbours and seats so far
    from the tally, and the price of the cheapest swap that would part a repeated pair.
    """
    tally = board.tally
    table = board.tables[i]
    names = [tally.names[a] for a in table]
    k = len(table)
    said: list[str] = [f"Table {i + 1}:"]
    if fixed_reason:
        said.append(fixed_reason)
    if format in (Format.SWISS, Format.FINAL) and played:
        pts = [tally.points[a] for a in table]
        if min(pts) == max(pts):
            said.append(f"Everyone here has {_points(pts[0])}.")
        else:
            said.append(f"Points here run from {_num(max(pts))} to {_num(min(pts))}.")
    repeats = [
        (s, t) for s in range(k) for t in range(s + 1, k) if tally.meet[table[s]][table[t]] > 0
    ]
    if not repeats:
        said.append(
            "Nobody has met yet: this is the first round."
            if not played
            else "Nobody at this table has met before."
        )
    seated = {x for t in board.tables for x in t}
    if fixed_reason and repeats:
        # The top table is fixed by points: one sentence names every pair meeting again.
        pairs = [
            f"{tally.names[table[s]]} and {tally.names[table[t]]} "
            f"({_ordinal(tally.meet[table[s]][table[t]] + 1)} time)"
            for s, t in repeats
        ]
        said.append(f"Meeting again, as points alone decide the top table: {'; '.join(pairs)}.")
        repeats = []
    for s, t in repeats:
        a, b = table[s], table[t]
        pa, pb = tally.names[a], tally.names[b]
        nth = _ordinal(tally.meet[a][b] + 1)
        head = f"{pa} and {pb} meet for the {nth} time"
        everyone = [
            tally.names[x] for x in (a, b) if all(tally.meet[x][y] > 0 for y in seated if y != x)
        ]
        if format is Format.RANDOM:
            said.append(f"{head}: tables are drawn at random in this format.")
            continue
        if fixed_reason:
            said.append(f"{head}: the top table is decided by points alone.")
            continue
        if everyone:
            said.append(
                f"{head}: {everyone[0]} has already met everyone seated this round, "
                f"so any table with {everyone[0]} repeats a meeting."
            )
            continue
        parting = _best_parting(board, i, s, t)
        if parting is None:
            said.append(f"{head}: there is no other table to move either of them to.")
            continue
        delta, raw, mover, other, j = parting
        weighted = [tally.w[n] * raw[n] for n in range(len(PARTS))]
        why = _why_together(tally, a, b, weighted, seated) if delta > 1e-9 else ""
        changes = ", ".join(
            f"{PART_WORDS[part]} {weighted[n]:+.1f}"
            for n, part in enumerate(PARTS)
            if abs(weighted[n]) > 1e-9
        )
        verdict = "parting them costs more" if delta > 1e-9 else "parting them saves nothing"
        said.append(
            f"{head}{why}: {verdict}; the cheapest swap that parts them, {mover} for "
            f"{other} of table {j + 1}, would add {delta:.1f} ({changes or 'nothing changes'})."
        )
    for s in range(k):
        a, b = table[s], table[(s + 1) % k]
        if k > 1 and tally.before[a][b]:
            said.append(
                f"{tally.names[a]} sits directly before {tally.names[b]} again "
                f"({_ordinal(tally.before[a][b] + 1)} time)."
            )
    for s in range(k):
        if tally.seat[table[s]][s]:
            nth = _ordinal(tally.seat[table[s]][s] + 1)
            said.append(f"{names[s]} has seat {s + 1} again ({nth} time).")
    adv = tally.adv[k]
    best_seat = max(range(k), key=lambda x: adv[x])
    edges = [tally.edge[a] for a in table]
    if max(adv) == min(adv):
        said.append(f"No seat is known to favour anyone at {k}-player tables.")
    elif max(edges) == min(edges):
        said.append(
            f"Seat {best_seat + 1} is the best seat ({adv[best_seat]:+.1f} points of win "
            f"share); nobody here has had an edge from earlier seats yet."
        )
    else:
        own = edges[best_seat]
        rank = 1 + sum(1 for e in edges if e < own - 1e-9)
        which = "the lowest" if rank == 1 else f"the {_ordinal(rank)} lowest"
        said.append(
            f"Seat {best_seat + 1}, the best seat ({adv[best_seat]:+.1f} points of win share), "
            f"goes to {names[best_seat]}, whose seats so far add up to {own:+.1f}, {which} "
            f"at this table."
        )
    return " ".join(said)


def _bye_reason(
    player: str,
    n: int,
    low: int,
    high: int,
    prior_byes: Mapping[str, int],
    points: Mapping[str, float] | None,
    byes: Sequence[str],
) -> str:
    """Why ``player`` sits out: the numbers do not fit, and the fair order chose them."""
    count = prior_byes.get(player, 0)
    sentence = (
        f"{player} sits out: {n} players do not fit tables of {low} to {high}, so "
        f"{len(byes)} must sit out, chosen by fewest rounds sat out before ({player}: {count})"
    )
    if points is not None:
        sentence += f", then fewest points ({player}: {_num(points.get(player, 0.0))})"
    return sentence + ", then a draw."
