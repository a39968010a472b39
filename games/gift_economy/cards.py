"""Gift Economy cards: ids, resources, points and the Special Event effects.

Kept apart from the engine so tests, docs and the greedy bot share one table.
Interpretation numbers (``I4``...) refer to ``docs/rules/gift_economy.md``.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import combinations
from typing import Final

RESOURCES: Final[tuple[str, ...]] = ("food", "tools", "medicine", "luxuries")
SUIT_OF: Final[dict[str, str]] = {
    "food": "clubs",
    "tools": "spades",
    "medicine": "hearts",
    "luxuries": "diamonds",
}
SPECIAL_SUITS: Final[tuple[str, ...]] = ("clubs", "diamonds", "hearts", "spades")
SPECIAL_RANKS: Final[tuple[str, ...]] = ("jack", "queen", "king")

GOAL: Final = 12  # exact points wanted in each resource
HAND_SIZE: Final = 6
DRAWS_PER_TURN: Final = 2
DEALS_PER_TURN: Final = 2  # a first deal, and "one additional deal" if it fails

#: Every card in canonical order: resources by suit then points, then specials.
CARDS: Final[tuple[str, ...]] = (
    *(f"ge-{res}-{pts}" for res in RESOURCES for pts in range(1, 11)),
    *(f"ge-{rank}-{suit}" for rank in SPECIAL_RANKS for suit in SPECIAL_SUITS),
)
CARD_SET: Final = frozenset(CARDS)
ORDER: Final[dict[str, int]] = {card: i for i, card in enumerate(CARDS)}
#: Resource index 0-3 of a resource card, -1 for a Special Event card.
RES: Final[dict[str, int]] = dict.fromkeys(CARDS, -1)
#: Resource points (0 for a Special Event card).
PTS: Final[dict[str, int]] = dict.fromkeys(CARDS, 0)
for _r, _res in enumerate(RESOURCES):
    for _p in range(1, 11):
        RES[f"ge-{_res}-{_p}"] = _r
        PTS[f"ge-{_res}-{_p}"] = _p

LEFT: Final = 1  # I6: "left" is the next seat in turn order
RIGHT: Final = -1
PASS: Final = "pass"
DISCARD_CHOICE: Final = "discard"
RANDOM_DISCARD: Final = "random_discard"
DRAW: Final = "draw"

#: card -> (effect, direction, count)
SPECIALS: Final[dict[str, tuple[str, int, int]]] = {
    "ge-jack-clubs": (PASS, LEFT, 3),
    "ge-jack-diamonds": (PASS, RIGHT, 3),
    "ge-jack-hearts": (PASS, RIGHT, 2),
    "ge-jack-spades": (PASS, LEFT, 2),
    "ge-queen-clubs": (DISCARD_CHOICE, 0, 1),
    "ge-queen-diamonds": (DISCARD_CHOICE, 0, 1),
    "ge-queen-hearts": (DISCARD_CHOICE, 0, 1),
    "ge-queen-spades": (RANDOM_DISCARD, 0, 1),
    "ge-king-clubs": (DRAW, 0, 1),
    "ge-king-diamonds": (DRAW, 0, 1),
    "ge-king-hearts": (DRAW, 0, 1),
    "ge-king-spades": (DRAW, 0, 1),
}


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Canonical order, so an event or a view never depends on draw order."""
    return sorted(cards, key=ORDER.__getitem__)


#: card -> (``RES``, ``PTS``): one look-up per card where both are needed.
RES_PTS: Final[dict[str, tuple[int, int]]] = {card: (RES[card], PTS[card]) for card in CARDS}


def totals(hand: Iterable[str]) -> list[int]:
    """Points held per resource (the goal check runs it on every hand at every turn)."""
    out = [0, 0, 0, 0]
    for card in hand:
        r, points = RES_PTS[card]
        if r >= 0:
            out[r] += points
    return out


def closeness(points: Iterable[int]) -> int:
    """12 per resource minus the distance to 12 (48 = the goal); the greedy bot's guide.

    Also the ``closeness`` reading of the end-of-game ranking (option ``ranking``).
    """
    return sum(GOAL - abs(GOAL - p) for p in points)


# The readings of "the end of the game" ranking (option ``ranking``, I9). Each
# scores a hand out of 48 (12 per resource) so that 48 is always the goal.
CLOSENESS: Final = "closeness"  # 12 minus the distance from 12, per resource (25 -> -1)
CLOSENESS_FLOORED: Final = "closeness_floored"  # the same, never below 0 (25 -> 0)
CAPPED: Final = "capped"  # points up to 12 count, the excess is ignored (25 -> 12)
EXACT: Final = "exact"  # 12 for a resource held at exactly 12, else 0
GOAL_ONLY: Final = "goal_only"  # 48 for the goal, else 0: the rest ties, most cards wins
RANKINGS: Final[tuple[str, ...]] = (CLOSENESS, CLOSENESS_FLOORED, CAPPED, EXACT, GOAL_ONLY)


def resource_score(points: int, ranking: str) -> int:
    """What one resource's points are worth, out of 12, under ``ranking``."""
    if ranking == CLOSENESS:
        return GOAL - abs(GOAL - points)
    if ranking == CLOSENESS_FLOORED:
        return max(0, GOAL - abs(GOAL - points))
    if ranking == CAPPED:
        return min(points, GOAL)
    if ranking == EXACT:
        return GOAL if points == GOAL else 0
    raise ValueError(f"no per-resource score under {ranking!r}")


def hand_score(points: Iterable[int], ranking: str) -> int:
    """A hand's score out of 48 under ``ranking``; 48 always includes the goal."""
    pts = list(points)
    if ranking == GOAL_ONLY:
        return GOAL * len(pts) if all(p == GOAL for p in pts) else 0
    return sum(resource_score(p, ranking) for p in pts)


def counter_range(offered: int) -> tuple[int, int]:
    """Lowest and highest legal counter: more than offered, at most half again (down)."""
    return offered + 1, offered + offered // 2


@cache
def subsets(res: int, points: tuple[int, ...]) -> tuple[tuple[tuple[str, ...], int], ...]:
    """Every non-empty set of one resource's cards, as (canonical ids, point sum).

    Points are unique within a resource, so the point tuple is a complete key;
    a hand's offers and counters are then a cheap filter over this cached list.
    """
    name = RESOURCES[res]
    ordered = sorted(points)
    out = []
    for k in range(1, len(ordered) + 1):
        for combo in combinations(ordered, k):
            out.append((tuple(f"ge-{name}-{p}" for p in combo), sum(combo)))
    return tuple(out)


def resource_sets(hand: Iterable[str]) -> list[tuple[tuple[str, ...], int]]:
    """All one-resource card sets in a hand, for offers and counters."""
    by_res: list[list[int]] = [[], [], [], []]
    for card in hand:
        r = RES[card]
        if r >= 0:
            by_res[r].append(PTS[card])
    out: list[tuple[tuple[str, ...], int]] = []
    for r, pts in enumerate(by_res):
        if pts:
            out.extend(subsets(r, tuple(sorted(pts))))
    return out
