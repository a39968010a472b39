"""Gift Economy: trade toward exactly 12 points of each of four resources.

Rulebook: ``seeds/003_d4eedf21fdf1b0fe.txt``; the rules as implemented, with every
numbered interpretation, are in ``docs/rules/gift_economy.md``. The modules:

* ``cards``: card ids, resources, points, the Special Event effects, hand scores;
* ``options``: ``OPTIONS``, the typed set-up choice and house rule;
* ``state``: ``State`` (one position), the reason codes, phases and event-field readers;
* ``rules``: ``GiftEconomyEngine`` (the rules) and ``ENGINE``;
* ``views``: ``view`` and ``event_view``, what a seat may see;
* ``bot``: ``greedy_event``, the one-step greedy player;
* ``words``: ``CATALOG``, ``tell`` and ``tell_move``, the game in words.
"""

from games.gift_economy.options import OPTIONS
from games.gift_economy.rules import ENGINE, GiftEconomyEngine
from games.gift_economy.state import State

__all__ = ["ENGINE", "OPTIONS", "GiftEconomyEngine", "State"]
