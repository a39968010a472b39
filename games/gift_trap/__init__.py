"""GiftTRAP: give every other player a gift, rank the gifts you want, reveal.

Rulebook: ``seeds/002_96452d4b254e46ec.txt``; the rules as implemented, with
every numbered interpretation, are in ``docs/rules/gift_trap.md``.

The modules, in order of dependency (each imports only ``games.base`` and those above
it; ``rules`` imports ``views``, ``bot`` and ``words`` to delegate to them, and they
never import ``rules`` at run time):

- ``cards``: the components: gift cards, packs, GET tokens and their values;
- ``options``: ``OPTIONS``, the typed house rules;
- ``state``: ``State`` (one position, ``copy()``), reason codes, field readers,
  ``owes``/``trap_ok``;
- ``rules``: ``GiftTrapEngine`` (setup, turns, legal events, handlers, scoring), ``ENGINE``;
- ``views``: ``view`` and ``event_view``, what each seat may see;
- ``bot``: ``greedy_event``, the greedy bot;
- ``words``: ``CATALOG``, ``tell`` and ``tell_move``, the events told in words.
"""

from games.gift_trap.cards import CARD_NAMES, PACK_CARDS, PACK_ORDER, TOKENS, gift_name
from games.gift_trap.options import OPTIONS
from games.gift_trap.rules import ENGINE, GiftTrapEngine
from games.gift_trap.state import State

__all__ = [
    "CARD_NAMES",
    "ENGINE",
    "OPTIONS",
    "PACK_CARDS",
    "PACK_ORDER",
    "TOKENS",
    "GiftTrapEngine",
    "State",
    "gift_name",
]
