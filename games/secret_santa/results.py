"""What Secret Santa's rules say of a table's final scores alone (a result-only record).

The game ends after a round only if someone has 25 or more *and* one player alone
has the highest total (docs/rules/secret_santa.md, ruling 14): while the top is
tied the rounds go on. So a finished game has a single highest total of at least
25; a tie lower down is fine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from games.base import ImpossibleResult, seats_named

WINNING_TOTAL: Final = 25
# Played games end with totals of 15 to 55 in 3 to 6 rounds; a two-player table
# runs longest (bots reached 81 in 60 games). Above 100 a total is possible (the
# rules set no highest) but far more often a typing error: 310 for 31.
PLAUSIBLE_HIGHEST: Final = 100


def result_check(scores: Sequence[int], ranks: Sequence[int], options: Mapping[str, Any]) -> None:
    """Refuse a tied top or a top below 25: no game of Secret Santa ends that way."""
    best = max(scores)
    top = [seat for seat, score in enumerate(scores) if score == best]
    if len(top) > 1:
        raise ImpossibleResult(
            "tied_for_first",
            f"{seats_named(top).capitalize()} share the highest total ({best}): in Secret "
            "Santa the rounds go on while the top is tied, so a game cannot end this way.",
            seat=top[1],
            seats=top,
        )
    if best < WINNING_TOTAL:
        raise ImpossibleResult(
            "below_winning_total",
            f"The highest total is {best} ({seats_named(top)}): a game of Secret Santa ends "
            f"only once someone has {WINNING_TOTAL} or more.",
            seat=top[0],
            seats=top,
        )


def plausible_scores(num_players: int, options: Mapping[str, Any]) -> tuple[int, int]:
    return 0, PLAUSIBLE_HIGHEST
