"""The rating model: openskill's Plackett-Luce, and its update computed directly.

Every scope uses :func:`rating_model` (openskill's defaults). A full recompute
applies hundreds of thousands of records, so the update of one record,
:func:`plackett_luce`, is computed here with openskill's arithmetic in
openskill's order rather than through ``PlackettLuce.rate``, which deep-copies
its teams and makes a rating object with a random id per player.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from openskill.models import PlackettLuce


def rating_model() -> PlackettLuce:
    """The model every scope uses: openskill's defaults (mu 25, sigma 25/3, beta 25/6)."""
    return PlackettLuce()


MODEL = rating_model()

BETA_SQUARED = MODEL.beta**2
TAU_SQUARED = MODEL.tau * MODEL.tau
KAPPA = MODEL.kappa


def plackett_luce(
    mus: Sequence[float], sigmas: Sequence[float], ranks: Sequence[int]
) -> list[tuple[float, float]]:
    """openskill's ``PlackettLuce().rate`` for teams of one, computed directly: new (mu, sigma).

    The same arithmetic in the same order as openskill 6 (sigma widened by tau,
    teams sorted by rank, ``c``, the sums over each rank's group, omega and delta
    per team; a tied group's mean change is a no-op there, so it is here), without
    its deep copies, rating objects and random ids: several times faster, and equal
    to openskill's figures (``tests/analytics/test_ratings_bulk.py`` compares them).
    """
    n = len(ranks)
    if len(mus) != n or len(sigmas) != n:
        raise ValueError(f"{n} ranks for {len(mus)} players")
    order = sorted(range(n), key=ranks.__getitem__)  # stable, as openskill sorts its teams
    rank = [ranks[i] for i in order]
    sigma = [math.sqrt(sigmas[i] * sigmas[i] + TAU_SQUARED) for i in order]
    variance = [s**2 for s in sigma]
    total = 0.0
    for v in variance:
        total += v + BETA_SQUARED
    c = math.sqrt(total)
    c_squared = c**2
    strength = [math.exp(mus[i] / c) for i in order]
    # Sorted by rank, the teams ranked at or below q's are those from the first of q's
    # group on (summed in openskill's order), the ones at or above i's those up to the
    # last of i's group.
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for index, r in enumerate(rank):
        first.setdefault(r, index)
        last[r] = index
    tails: dict[int, float] = {}
    for start in first.values():
        tail = 0.0
        for e in strength[start:]:
            tail += e
        tails[start] = tail
    sum_q = [tails[first[r]] for r in rank]
    tied = [last[r] - first[r] + 1 for r in rank]
    out: list[tuple[float, float]] = [(0.0, 0.0)] * n
    for i in range(n):
        omega = delta = 0.0
        e = strength[i]
        for q in range(last[rank[i]] + 1):
            share = e / sum_q[q]
            delta += share * (1 - share) / tied[q]
            if q == i:
                omega += (1 - share) / tied[q]
            else:
                omega -= share / tied[q]
        omega *= variance[i] / c
        delta *= variance[i] / c_squared
        delta *= math.sqrt(variance[i]) / c
        seat = order[i]
        out[seat] = (mus[seat] + omega, sigma[i] * math.sqrt(max(1 - delta, KAPPA)))
    return out
