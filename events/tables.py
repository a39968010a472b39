"""How many tables a round needs, of which sizes, and who sits out when the numbers do not fit.

The rule (docs/events.md, "Table sizes"): with ``n`` players and a game for ``low`` to
``high`` players,

1. every table has between ``low`` and ``high`` players, always;
2. as few tables as possible (or, with ``fewest_tables=False``, as many as possible);
3. sizes as equal as possible: they differ by one at most, larger tables first;
4. when no split seats everyone, the fewest players sit out (byes) so that the rest fit.

Equal sizes are always reachable when any split is: with ``k`` tables the players fit
exactly when ``low * k <= n <= high * k``, and then ``n`` divides into ``k`` sizes of
``n // k`` and ``n // k + 1``, all inside the range. So rule 3 never costs a table.

Who sits out is chosen fairly by ``choose_byes``: fewest byes so far first (nobody sits out
twice while someone has not sat out once), then, in events with points, the fewest points
(the convention of swiss tournaments: a bye changes least at the bottom), then a seeded draw.

Pure Python: no Django, so the rule is testable for every ``n`` alone.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


class SeatingError(ValueError):
    """Input the seating cannot use, with a stable ``code`` and a sentence for the organiser."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Split:
    """The tables of one round: their sizes (largest first) and how many players sit out."""

    sizes: tuple[int, ...]
    byes: int

    @property
    def seated(self) -> int:
        """Players at a table this round."""
        return sum(self.sizes)


def check_range(low: int, high: int) -> None:
    """Refuse a player-count range no game has, before anything is computed from it."""
    if low < 1 or high < low:
        raise SeatingError(
            "bad_player_counts",
            f"A game's player counts must be a range like 3 to 5; got {low} to {high}.",
        )


def fits(n: int, low: int, high: int) -> bool:
    """Whether ``n`` players (at least one) split into tables of ``low`` to ``high`` exactly.

    The fewest tables is ``ceil(n / high)``; if even those are too many for ``low`` players
    each, more tables only make it worse, so one test decides.
    """
    check_range(low, high)
    if n < 1:
        return False
    tables = -(-n // high)
    return low * tables <= n


def _equal_sizes(n: int, tables: int) -> tuple[int, ...]:
    """``n`` players at ``tables`` tables whose sizes differ by one at most, larger first."""
    base, extra = divmod(n, tables)
    return tuple([base + 1] * extra + [base] * (tables - extra))


def table_sizes(n: int, low: int, high: int, *, fewest_tables: bool = True) -> Split:
    """The split of ``n`` players by the rule of this module's docstring.

    ``fewest_tables`` picks between the two readings clubs use: 13 players of a 3-5 player
    game at 5, 4 and 4 (fewest tables, the default: longer games, fewer tables to run) or at
    4, 3, 3 and 3 (``fewest_tables=False``: the smallest tables, quicker games).
    """
    check_range(low, high)
    if n < 0:
        raise SeatingError("bad_player_count", f"A round cannot have {n} players.")
    byes = 0
    while n - byes > 0 and not fits(n - byes, low, high):
        byes += 1
    seated = n - byes
    if seated == 0:
        return Split((), n)
    tables = -(-seated // high) if fewest_tables else seated // low
    return Split(_equal_sizes(seated, tables), byes)


def choose_byes(
    players: Sequence[str],
    count: int,
    *,
    byes_so_far: Mapping[str, int],
    points: Mapping[str, float] | None = None,
    rng: random.Random,
) -> tuple[str, ...]:
    """The ``count`` players who sit out, fairly: fewest byes so far, fewest points, then a draw.

    The draw comes first (a seeded shuffle) and the sort is stable, so among players equal
    on byes and points the draw decides, and the same seed gives the same byes.
    """
    if count < 0 or count > len(players):
        raise SeatingError("bad_bye_count", f"Cannot choose {count} byes among {len(players)}.")
    order = list(players)
    rng.shuffle(order)
    order.sort(key=lambda p: (byes_so_far.get(p, 0), (points or {}).get(p, 0.0)))
    return tuple(order[:count])
