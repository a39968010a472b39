"""The Gift Swap card list and the scoring rules.

The rulebook gives only counts (6 red, 6 blue, 6 green, one green also
Quirky) and one scoring example, so the values, icons and effects below are
a design chosen to fit every number it does give (see
docs/rules/gift_swap.md): values 1-6 once in red and once in blue (so the
"two cards of the same value" rule has work to do), ``ceil(value / 2)`` gift
box icons (Red 5 -> 3 icons, Blue 3 -> 2 icons, as the example needs), and
the Quirky Party Prop with no icon (the example only totals 5 if the third
Party Prop, read as the Quirky one, scores nothing by itself).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

RED: Final = "red"
BLUE: Final = "blue"
GREEN: Final = "green"
REGIFT: Final = "regift"
REWRAP: Final = "rewrap"
TRADE: Final = "trade"
POLAROID: Final = "polaroid"
NEON: Final = "neon"

# 1/2/3/4 Party Props score 0/3/6/12; five (possible with 3 players) counts as four.
PROP_POINTS: Final = (0, 0, 3, 6, 12)
EFFECT_BY_VALUE: Final = {1: REGIFT, 2: REWRAP, 3: TRADE, 4: REGIFT, 5: REWRAP, 6: TRADE}


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    color: str
    value: int | None  # None: a Party Prop, placed anywhere in a row
    icons: int
    quirky: bool  # counts as a Quirky Gift (blue cards and the Rubber Chicken)
    effect: str | None  # immediate effect when flipped face up
    scoring: str | None  # scoring effect (Polaroid, Neon Ball)


def _build() -> dict[str, Card]:
    cards: list[Card] = []
    for color, letter, word in ((RED, "r", "Nice"), (BLUE, "b", "Quirky")):
        for value in range(1, 7):
            cards.append(
                Card(
                    id=f"gs-{letter}{value}",
                    name=f"{word} Gift {value}",
                    color=color,
                    value=value,
                    icons=(value + 1) // 2,
                    quirky=color == BLUE,
                    effect=EFFECT_BY_VALUE[value],
                    scoring=None,
                )
            )
    props = (
        ("gs-p-polaroid", "Polaroid", False, POLAROID),
        ("gs-p-neonball", "Neon Ball", False, NEON),
        ("gs-p-chicken", "Rubber Chicken", True, None),
        ("gs-p-hat", "Party Hat", False, None),
        ("gs-p-horn", "Party Horn", False, None),
        ("gs-p-confetti", "Confetti Popper", False, None),
    )
    for card_id, name, quirky, scoring in props:
        cards.append(Card(card_id, name, GREEN, None, 0, quirky, None, scoring))
    return {card.id: card for card in cards}


CARDS: Final[dict[str, Card]] = _build()
ALL_IDS: Final[tuple[str, ...]] = tuple(CARDS)
VALUE: Final[dict[str, int | None]] = {cid: card.value for cid, card in CARDS.items()}


def is_ascending(order: Iterable[str]) -> bool:
    """Valued cards never decrease left to right; Party Props may sit anywhere."""
    values = [VALUE[c] for c in order if VALUE[c] is not None]
    return all(a <= b for a, b in itertools.pairwise(values))  # type: ignore[operator]


@cache
def arrangements(hand: frozenset[str]) -> tuple[tuple[str, ...], ...]:
    """Every ascending order of a dealt hand, sorted (at most 5! = 120).

    Built rather than filtered from all permutations: Party Props take any
    slots in any order, equal values any order among themselves.
    """
    props = sorted(c for c in hand if VALUE[c] is None)
    valued = sorted((c for c in hand if VALUE[c] is not None), key=lambda c: (VALUE[c], c))
    groups = [tuple(g) for _, g in itertools.groupby(valued, key=VALUE.get)]
    valued_orders = [
        tuple(itertools.chain.from_iterable(p))
        for p in itertools.product(*(itertools.permutations(g) for g in groups))
    ]
    size = len(hand)
    out = []
    for slots in itertools.combinations(range(size), len(props)):
        others = [i for i in range(size) if i not in slots]
        for prop_order in itertools.permutations(props):
            for order in valued_orders:
                row: list[str] = [""] * size
                for i, c in zip(slots, prop_order, strict=True):
                    row[i] = c
                for i, c in zip(others, order, strict=True):
                    row[i] = c
                out.append(tuple(row))
    return tuple(sorted(out))


def valid_positions(rest: tuple[str, ...], card: str) -> range:
    """Where ``card`` may be inserted into an already ascending row ``rest``:
    after the last smaller value and before the first larger one."""
    value = VALUE[card]
    if value is None:
        return range(len(rest) + 1)
    low, high = 0, len(rest)
    for i, c in enumerate(rest):
        other = VALUE[c]
        if other is None:
            continue
        if other < value:
            low = i + 1
        elif other > value:
            high = i
            break
    return range(low, high + 1)


def prop_points(count: int) -> int:
    return PROP_POINTS[min(count, 4)]


def score_cards(ids: Iterable[str]) -> tuple[int, dict[str, Any]]:
    """Score one player's cards; returns the total and how it was reached.

    Polaroid and Neon Ball *must* convert a card each (when one of the right
    colour exists) and the player picks which: every pair of targets is
    tried and the best total kept, because a player at the table always
    picks their best legal conversion and nobody else is affected. The two
    targets are different cards automatically (one is Quirky, the other Nice).
    """
    cards = [CARDS[c] for c in ids]
    props = sum(1 for c in cards if c.color == GREEN)
    nice = [c.id for c in cards if c.color == RED]
    quirky = [c.id for c in cards if c.quirky]
    scorers = {c.scoring for c in cards}
    polaroid_options: list[str | None] = list(quirky) if POLAROID in scorers and quirky else [None]
    neon_options: list[str | None] = list(nice) if NEON in scorers and nice else [None]
    best: tuple[int, dict[str, Any]] | None = None
    for to_nice in polaroid_options:
        for to_quirky in neon_options:
            nice_set = [c for c in nice if c != to_quirky] + ([to_nice] if to_nice else [])
            quirky_set = [c for c in quirky if c != to_nice] + ([to_quirky] if to_quirky else [])
            king = len(quirky_set) >= 3
            nice_points = sum(CARDS[c].icons for c in nice_set)
            quirky_icons = sum(CARDS[c].icons for c in quirky_set)
            quirky_points = quirky_icons if king else -quirky_icons
            total = prop_points(props) + nice_points + quirky_points
            if best is None or total > best[0]:
                best = (
                    total,
                    {
                        "party_props": props,
                        "party_prop_points": prop_points(props),
                        "polaroid_converts": to_nice,
                        "neon_ball_converts": to_quirky,
                        "nice_cards": sorted(nice_set),
                        "quirky_cards": sorted(quirky_set),
                        "king_of_quirky_gifts": king,
                        "nice_points": nice_points,
                        "quirky_points": quirky_points,
                        "total": total,
                    },
                )
    assert best is not None
    return best


@cache
def row_score_range(size: int) -> tuple[int, int]:
    """Lowest and highest score of any ``size`` cards of the deck (for ``score_bounds``)."""
    totals = [score_cards(row)[0] for row in itertools.combinations(ALL_IDS, size)]
    return min(totals), max(totals)
