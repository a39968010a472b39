"""Gift Swap: swap face-down gifts, keep or open them, and score the best row.

Rulebook: ``seeds/000_50141e51f899c7e7.txt``; the rules as implemented, with
every numbered interpretation, are in ``docs/rules/gift_swap.md``.

The package, each module importing only those above it:

* ``cards``: the 18 cards, the ascending-row rule and the scoring;
* ``options``: ``OPTIONS``, the typed house rules;
* ``state``: ``State`` (one position), the reason codes and the event fields;
* ``rules``: ``GiftSwapEngine`` (setup, legal events, applying events, scores) and ``ENGINE``;
* ``views``: what a seat may see of a position and of an event;
* ``bot``: the greedy bot;
* ``words``: the card catalog, event sentences and move labels.
"""

from games.gift_swap.options import OPTIONS
from games.gift_swap.rules import ENGINE, GiftSwapEngine
from games.gift_swap.state import State

__all__ = ["ENGINE", "OPTIONS", "GiftSwapEngine", "State"]
