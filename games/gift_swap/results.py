"""What Gift Swap's rules say of a table's final scores alone (a result-only record).

A final score is the score of one row of ``hand_size`` cards, and the engine's
``score_bounds`` try every such row (docs/rules/gift_swap.md): the bounds are
exact, each row can end a game, so nothing more is refused and every score
within them is plausible.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.gift_swap.rules import ENGINE


def result_check(scores: Sequence[int], ranks: Sequence[int], options: Mapping[str, Any]) -> None:
    """Nothing to refuse beyond the score bounds (see the module's docstring)."""


def plausible_scores(num_players: int, options: Mapping[str, Any]) -> tuple[int, int]:
    low, high = ENGINE.score_bounds(num_players, options)
    return low, high if high is not None else 0
