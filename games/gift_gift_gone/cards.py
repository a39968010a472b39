"""The Gift Gift Gone cards: 17 gifts of six identical cards each.

The rulebook names only two gifts (Fruitcake and Llama Planter); the other
names are ours. The swap example says the Fruitcake owner's points "drop"
when given Llama Planters and the swapper's "jump greatly", so the Fruitcake
is worth more than the Llama Planter: we make it a 5 and the Llama Planter a 1.
Within each value group the first gifts listed are the ones kept in the
2-3 player deck, so both named gifts are in every game.
"""

from __future__ import annotations

from typing import Final

PREFIX: Final = "ggg"
COPIES: Final = 6
HAND_SIZE: Final = 6

# (gift id, display name, value, in the 2-3 player deck)
GIFTS: Final[tuple[tuple[str, str, int, bool], ...]] = (
    ("llama-planter", "Llama Planter", 1, True),
    ("tube-socks", "Tube Socks", 1, True),
    ("ugly-sweater", "Ugly Sweater", 1, True),
    ("novelty-tie", "Novelty Tie", 1, False),
    ("soap-on-a-rope", "Soap on a Rope", 1, False),
    ("singing-fish", "Singing Fish", 2, True),
    ("snow-globe", "Snow Globe", 2, True),
    ("garden-gnome", "Garden Gnome", 2, True),
    ("lava-lamp", "Lava Lamp", 2, False),
    ("foot-spa", "Foot Spa", 3, True),
    ("karaoke-machine", "Karaoke Machine", 3, True),
    ("bacon-candle", "Bacon Candle", 3, False),
    ("robot-vacuum", "Robot Vacuum", 4, True),
    ("espresso-machine", "Espresso Machine", 4, True),
    ("tiki-bar", "Tiki Bar", 4, False),
    ("fruitcake", "Fruitcake", 5, True),
    ("gold-toilet-seat", "Gold Toilet Seat", 5, False),
)

NAME: Final[dict[str, str]] = {gift: name for gift, name, _, _ in GIFTS}
VALUE: Final[dict[str, int]] = {gift: value for gift, _, value, _ in GIFTS}
FULL_GIFTS: Final[tuple[str, ...]] = tuple(gift for gift, _, _, _ in GIFTS)
SMALL_GIFTS: Final[tuple[str, ...]] = tuple(gift for gift, _, _, small in GIFTS if small)

FULL_TARGET: Final = 50
SMALL_TARGET: Final = 60


def card_id(gift: str, copy: int) -> str:
    return f"{PREFIX}-{gift}-{copy}"


def cards_of(gifts: tuple[str, ...]) -> tuple[str, ...]:
    """Every physical card of ``gifts``, in a fixed (sorted) order: the box before a shuffle."""
    return tuple(sorted(card_id(g, c) for g in gifts for c in range(1, COPIES + 1)))


# Card id -> gift id, for every card of the full deck (the small deck is a subset).
GIFT_OF: Final[dict[str, str]] = {
    card_id(g, c): g for g in FULL_GIFTS for c in range(1, COPIES + 1)
}


def deck_for(num_players: int) -> tuple[tuple[str, ...], int]:
    """The gifts in play and the winning target: the rulebook's 2-3 player adjustment is
    not optional ("the deck should be adjusted"), so it follows from the player count."""
    if num_players <= 3:
        return SMALL_GIFTS, SMALL_TARGET
    return FULL_GIFTS, FULL_TARGET
