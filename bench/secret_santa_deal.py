"""Secret Santa's third-card rule under each ``deal_fallback`` value, over seeded shuffles.

    .venv/bin/python bench/secret_santa_deal.py [--deals 10000] [--seed 2026]

For each player count and each value: how often a deal breaks "no player holds
three of a colour", how many cards beyond a second of a colour players hold,
how many cards the dealer sets aside for the Unexpected guest, the guest's
final card count, how often its colours are even (no colour two or more
ahead of another), and how often the deal differs from the ``first_with_room``
(pre-option) deal of the same shuffle. The figures are in docs/rules/secret_santa.md.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.secret_santa import (
    CARDS,
    COLOUR,
    FIRST_WITH_ROOM,
    HAND_SIZE,
    OPTIONS,
    deal_cards,
)


def excess(hand: tuple[str, ...]) -> int:
    """Cards in a hand beyond the second of their colour."""
    return sum(max(0, k - 2) for k in Counter(COLOUR[c] for c in hand).values())


def measure(n: int, fallback: str, deals: int, seed: int) -> dict[str, float | str]:
    rng = random.Random(seed + n)
    broken = extra = worst = differs = set_aside = 0
    guest_sizes: Counter[int] = Counter()
    guest_even = 0
    for index in range(deals):
        deck = list(CARDS)
        rng.shuffle(deck)
        first = index % n
        hands, up, down = deal_cards(deck, n, first, fallback)
        legacy = deal_cards(deck, n, first, FIRST_WITH_ROOM)
        per_hand = [excess(h) for h in hands]
        broken += any(per_hand)
        extra += sum(per_hand)
        worst = max(worst, max(per_hand))
        differs += (hands, up, down) != legacy
        dealt_cards = {c for h in hands for c in h}
        last = max(deck.index(c) for c in dealt_cards)
        set_aside += sum(1 for c in deck[:last] if c not in dealt_cards)
        guest_sizes[len(up) + len(down)] += 1
        mix = Counter(COLOUR[c] for c in (*up, *down))
        guest_even += max(mix.values()) - min(mix.get(k, 0) for k in range(3)) <= 1
    return {
        "broken %": 100 * broken / deals,
        "extra cards / deal": extra / deals,
        "worst hand: cards beyond 2": worst,
        "set aside / deal": set_aside / deals,
        "guest cards": "/".join(str(k) for k in sorted(guest_sizes)),
        "guest colours even (spread <= 1) %": 100 * guest_even / deals,
        "differs from first_with_room %": 100 * differs / deals,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    (option,) = (o for o in OPTIONS if o.name == "deal_fallback")
    for n in sorted(HAND_SIZE):
        for value in option.choices:
            figures = measure(n, value, args.deals, args.seed)
            text = ", ".join(
                f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in figures.items()
            )
            print(f"{n}p {value}: {text}")


if __name__ == "__main__":
    main()
