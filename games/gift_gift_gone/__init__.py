"""Gift Gift Gone: collect three of a gift to claim it, swap and steal claimed gifts,
trade blind; first to 50 points on the table (60 with 2-3 players) wins.

Rulebook: ``seeds/001_669ec57016f647dc.txt``; the rulings and the event vocabulary
are in ``docs/rules/gift_gift_gone.md``.

The modules, each importing only those above it:

- ``cards``: the 17 gifts, their card ids, names and values, the deck for a player count;
- ``options``: ``OPTIONS``, the typed house rules;
- ``state``: ``State`` (one position), phases, event fields, reason codes, checkers;
- ``rules``: ``GiftGiftGoneEngine`` (setup, turns, legal events, applying, scoring), ``ENGINE``;
- ``views``: what a position and its events show each seat;
- ``bot``: the greedy bot;
- ``words``: the card catalog, event sentences and move labels.
"""

from games.gift_gift_gone.options import OPTIONS
from games.gift_gift_gone.rules import ENGINE, GiftGiftGoneEngine
from games.gift_gift_gone.state import State

__all__ = ["ENGINE", "OPTIONS", "GiftGiftGoneEngine", "State"]
