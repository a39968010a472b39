"""GiftTRAP: give every other player a gift, rank the gifts you want, reveal.

Rulebook: ``seeds/002_96452d4b254e46ec.txt``; the rules as implemented, with
every numbered interpretation, are in ``docs/rules/gift_trap.md``.

The package is split so each part stays readable: ``cards`` (components),
``options`` (the typed house rules), ``state`` (the position, reason codes),
``engine`` (the rules) and ``present`` (views and the greedy bot).
"""

from games.gift_trap.cards import CARD_NAMES, PACK_CARDS, PACK_ORDER, TOKENS, gift_name
from games.gift_trap.engine import ENGINE, GiftTrapEngine
from games.gift_trap.options import OPTIONS
from games.gift_trap.state import GiftTrapState

__all__ = [
    "CARD_NAMES",
    "ENGINE",
    "OPTIONS",
    "PACK_CARDS",
    "PACK_ORDER",
    "TOKENS",
    "GiftTrapEngine",
    "GiftTrapState",
    "gift_name",
]
