"""What GiftTRAP's rules say of a table's final scores alone (a result-only record).

A score is the GIVE plus the GET position. With no round limit (``max_rounds``
unset, the rulebook's game) the game ends only when a player has both markers in
the Gifted Zone at the end of a round (docs/rules/gift_trap.md, I6 and I7), so
that player scores at least twice the zone's first space. With a round limit any
scores within the track are possible.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.base import ImpossibleResult, options_resolve
from games.gift_trap.rules import ENGINE


def result_check(scores: Sequence[int], ranks: Sequence[int], options: Mapping[str, Any]) -> None:
    """Refuse a game without a round limit in which nobody reached the Gifted Zone."""
    opts = options_resolve(ENGINE, options)
    if opts["max_rounds"] is not None:
        return
    zone_from = opts["track_length"] - opts["zone_size"] + 1
    lowest_winner = 2 * zone_from
    if max(scores) < lowest_winner:
        raise ImpossibleResult(
            "nobody_gifted",
            f"Nobody scores {lowest_winner} or more: with no round limit a game of GiftTRAP "
            "ends only when a player has both markers in the Gifted Zone (from space "
            f"{zone_from}), which is worth at least {lowest_winner}.",
            lowest_winner=lowest_winner,
        )


def plausible_scores(num_players: int, options: Mapping[str, Any]) -> tuple[int, int]:
    """The whole track: every score from GO to twice GIFTED is a real game's."""
    low, high = ENGINE.score_bounds(num_players, options)
    return low, high if high is not None else 0
