"""What Gift Gift Gone's rules say of a table's final scores alone (a result-only record).

A final score is the claimed points minus the cards still in hand, and a game
ends at the target or when the cards run out (docs/rules/gift_gift_gone.md,
rulings 18 and 19): any score within ``score_bounds`` can end a game, so no
combination is refused beyond them. Plausible scores are narrower.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from games.gift_gift_gone.cards import deck_for
from games.gift_gift_gone.rules import ENGINE

# Bots' games end between -27 and the target + 23 (60 games per table size).
PLAUSIBLE_LOWEST: Final = -30
PLAUSIBLE_OVER_TARGET: Final = 25


def result_check(scores: Sequence[int], ranks: Sequence[int], options: Mapping[str, Any]) -> None:
    """Nothing to refuse beyond the score bounds (see the module's docstring)."""


def plausible_scores(num_players: int, options: Mapping[str, Any]) -> tuple[int, int]:
    low, high = ENGINE.score_bounds(num_players, options)
    _gifts, target = deck_for(num_players)
    top = target + PLAUSIBLE_OVER_TARGET
    return max(low, PLAUSIBLE_LOWEST), min(high, top) if high is not None else top
