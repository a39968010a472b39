"""Secret Santa (Matagot): blind gift-taking with an "Unexpected guest".

Rulebook: ``seeds/004_f300be116f1d864e.txt``; the rules as implemented, with
every numbered interpretation, are in ``docs/rules/secret_santa.md``.

Modules, each importing only those above it (and ``games.base``):

* ``cards``: the 32 cards, their kinds and back colours, scoring;
* ``options``: ``OPTIONS``, the typed house rules (``deal_fallback``);
* ``state``: ``State`` (one position), reason codes, phases, the deal;
* ``rules``: ``SecretSantaEngine`` (the rules) and ``ENGINE``;
* ``views``: what a seat may see of a position and of an event;
* ``bot``: the greedy bot;
* ``words``: the card catalog, event sentences and move labels.
"""

from games.secret_santa.cards import (
    CARDS,
    COLOUR,
    CUPS_TABLE,
    HAND_SIZE,
    round_score,
    score_breakdown,
)
from games.secret_santa.options import FIRST_WITH_ROOM, OPTIONS, THIRD_CARD_RULE, TO_GUEST
from games.secret_santa.rules import ENGINE, SecretSantaEngine
from games.secret_santa.state import State, deal_cards

__all__ = [
    "CARDS",
    "COLOUR",
    "CUPS_TABLE",
    "ENGINE",
    "FIRST_WITH_ROOM",
    "HAND_SIZE",
    "OPTIONS",
    "THIRD_CARD_RULE",
    "TO_GUEST",
    "SecretSantaEngine",
    "State",
    "deal_cards",
    "round_score",
    "score_breakdown",
]
