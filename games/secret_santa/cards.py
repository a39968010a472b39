"""Secret Santa's components: the 32 cards, their kinds and back colours, and scoring.

Card ids and the scoring interpretations (``I5``...) are in ``docs/rules/secret_santa.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

GENERIC: Final = "generic"
MATAMUG: Final = "matamug"
TEA: Final = "tea_bag"
TEAPOT: Final = "teapot"
CUP: Final = "cup"
CHOC: Final = "choc_cawa"

RED: Final = 0
GREEN: Final = 1
BLUE: Final = 2
COLOUR_NAMES: Final = ("red", "green", "blue")

CARDS: Final[tuple[str, ...]] = (
    *(f"ss-gift-{i}" for i in range(1, 8)),
    "ss-matamug",
    *(f"ss-tea-{i}" for i in range(1, 8)),
    "ss-teapot",
    *(f"ss-cup-{i}" for i in range(1, 8)),
    "ss-choc",
)
KIND: Final[dict[str, str]] = {
    **{f"ss-gift-{i}": GENERIC for i in range(1, 8)},
    "ss-matamug": MATAMUG,
    **{f"ss-tea-{i}": TEA for i in range(1, 8)},
    "ss-teapot": TEAPOT,
    **{f"ss-cup-{i}": CUP for i in range(1, 8)},
    "ss-choc": CHOC,
}
COLOUR: Final[dict[str, int]] = {
    card: {GENERIC: RED, MATAMUG: RED, TEA: GREEN, TEAPOT: GREEN, CUP: BLUE, CHOC: BLUE}[kind]
    for card, kind in KIND.items()
}
CARD_SET: Final = frozenset(CARDS)
KIND_NAMES: Final = (GENERIC, MATAMUG, TEA, TEAPOT, CUP, CHOC)

#: Points for all the Cups a player owns, by how many (I5: the rulebook omits the table).
CUPS_TABLE: Final[tuple[int, ...]] = (0, 1, 3, 6, 9, 12, 15, 18)

HAND_SIZE: Final = {2: 7, 3: 6, 4: 5}


def score_breakdown(cards: Sequence[str]) -> dict[str, int]:
    """One player's round score by category; ``total`` is the sum.

    The Matamug cancels its owner's Cups and enables Choc & Cawa; the Tea pot
    doubles its owner's tea bags (1 pt each becomes 2).
    """
    # A plain dict, not a Counter: Counter's counting is interpreted Python even when
    # this module is compiled, and this runs for every pile at every round's end.
    kinds = dict.fromkeys(KIND_NAMES, 0)
    for c in cards:
        kinds[KIND[c]] += 1
    mug = kinds[MATAMUG] > 0
    pot = kinds[TEAPOT] > 0
    parts = {
        GENERIC: 2 * kinds[GENERIC],
        CUP: 0 if mug else CUPS_TABLE[kinds[CUP]],
        MATAMUG: 2 if mug else 0,
        CHOC: 3 if mug and kinds[CHOC] else 0,
        TEA: kinds[TEA] * (2 if pot else 1),
        TEAPOT: 1 if pot else 0,
    }
    parts["total"] = sum(parts.values())
    return parts


def round_score(cards: Sequence[str]) -> int:
    return score_breakdown(cards)["total"]
