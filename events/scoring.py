"""Points by place at a table: the event's scheme, with tied places sharing the average.

Pure arithmetic on fractions, so standings compare exactly (2.5 is 5/2, not a float).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction


def place_points(scheme: Sequence[float], size: int, place: int) -> Fraction:
    """Points for ``place`` (1 = first) at a table of ``size``.

    An empty scheme is the default: ``size - place`` (a table of 4 gives 3, 2, 1,
    0). Otherwise the scheme's entry for that place, 0 past its end.
    """
    if not scheme:
        return Fraction(size - place)
    return Fraction(str(scheme[place - 1])) if place <= len(scheme) else Fraction(0)


def table_points(scheme: Sequence[float], ranks: Sequence[int]) -> list[Fraction]:
    """Each seat's points from its competition rank (1, 1, 3, 4 for a tie for first).

    Tied seats share the places they cover: at a table of 4 with the default
    scheme, two players tied first get (3 + 2) / 2 = 2.5 each.
    """
    size = len(ranks)
    points = []
    for rank in ranks:
        tied = sum(1 for r in ranks if r == rank)
        covered = [place_points(scheme, size, rank + k) for k in range(tied)]
        points.append(sum(covered, Fraction(0)) / tied)
    return points


def bye_points(scheme: Sequence[float], size: int) -> Fraction:
    """What a bye scores: the average points of a seat at a table of ``size`` (the
    round's smallest table; the event's smallest allowed table when none was played)."""
    return sum((place_points(scheme, size, p) for p in range(1, size + 1)), Fraction(0)) / size
