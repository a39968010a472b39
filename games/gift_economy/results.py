"""What Gift Economy's rules say of a table's final scores alone (a result-only record).

A hand is scored resource by resource under the table's ``ranking``
(docs/rules/gift_economy.md, I9), so only some totals exist: under ``goal_only``
a hand scores 48 or 0, under ``exact`` a multiple of 12. A total no hand can
score is refused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, Final

from games.base import ImpossibleResult, options_resolve
from games.gift_economy.cards import GOAL, GOAL_ONLY, PTS, RES, RESOURCES, hand_score
from games.gift_economy.rules import ENGINE

# Bots' games end between -44 and 48 (60 games per table size); the rules reach
# -124 (every resource 43 points from 12), which no real hand comes near.
PLAUSIBLE_LOWEST: Final = -60


@cache
def _reachable(ranking: str) -> frozenset[int]:
    """Every hand score under ``ranking``: each resource holds 0 to its cards' total."""
    if ranking == GOAL_ONLY:
        return frozenset({0, GOAL * len(RESOURCES)})
    totals: set[int] = {0}
    for resource in range(len(RESOURCES)):
        most = sum(points for card, points in PTS.items() if RES[card] == resource)
        one = {hand_score([points], ranking) for points in range(most + 1)}
        totals = {total + score for total in totals for score in one}
    return frozenset(totals)


def result_check(scores: Sequence[int], ranks: Sequence[int], options: Mapping[str, Any]) -> None:
    """Refuse a total that no hand scores under the table's ranking."""
    ranking = options_resolve(ENGINE, options)["ranking"]
    reachable = _reachable(ranking)
    for seat, score in enumerate(scores):
        if score not in reachable:
            shown = ", ".join(str(s) for s in sorted(reachable)) if len(reachable) <= 6 else ""
            raise ImpossibleResult(
                "unreachable_score",
                f"Seat {seat + 1} scored {score}, which no hand scores when hands are ranked "
                f"by {ranking!r}" + (f" (a hand scores {shown})." if shown else "."),
                seat=seat,
            )


def plausible_scores(num_players: int, options: Mapping[str, Any]) -> tuple[int, int]:
    low, high = ENGINE.score_bounds(num_players, options)
    return max(low, PLAUSIBLE_LOWEST), high if high is not None else 0
