"""Gift Economy's options: the set-up choice and the house rule a table may pick.

Each option quotes the rulebook sentence it interprets and says why its default
reads that sentence best; ``docs/rules/gift_economy.md`` lists them in a table
with the measurements behind the ``ranking`` default. The default set is what a
record without options means.
"""

from __future__ import annotations

from typing import Final

from games.base import Option
from games.gift_economy.cards import CLOSENESS, RANKINGS

#: The end-of-game text the ``ranking`` option interprets, exactly as printed.
END_OF_GAME: Final = (
    "The game ends after the deck is exhausted OR someone has EXACTLY 12 points of "
    "resources in each of the four resource types. If there is a tie, the person with "
    "the most cards wins."
)

OPTIONS: Final[tuple[Option, ...]] = (
    Option(
        name="start_player",
        kind="int",
        default=0,
        description=(
            "The seat that takes the first turn and is dealt the first card (seat "
            "numbers start at 0). The rulebook starts with the player whose birthday is "
            "farthest away: find that player at the table and record the seat here. "
            "Must be below the number of players."
        ),
        rulebook="",
        why="Who starts is settled at the table; the first seat is as good as any.",
        low=0,
        high=5,
        label="Who starts",
        hint="Who takes the first turn (the rulebook: whose birthday is farthest away).",
        seat=True,
    ),
    Option(
        name="ranking",
        kind="choice",
        default=CLOSENESS,
        description=(
            "How hands are ranked when the deck runs out and nobody holds exactly 12 of "
            "each resource (a player who does always wins). Each resource scores up to "
            "12, a hand up to 48. closeness: 12 minus how far the resource is from 12, "
            "over or under (11 or 13 points score 11, 0 scores 0, 25 scores -1). "
            "closeness_floored: the same, but never below 0 (24 points or more score 0). "
            "capped: points count up to 12 and extra points are ignored (25 scores 12). "
            "exact: 12 for a resource at exactly 12, else 0. goal_only: no partial "
            "score, so everyone is tied and the most cards wins. Under every choice "
            "equal scores go to the most cards; still equal, the win is shared."
        ),
        rulebook=END_OF_GAME,
        why=(
            "The rulebook names no score, only the object (EXACTLY 12 of EACH) and a "
            "tie-break, which presumes that ties are the exception. Closeness measures "
            "how far each resource is from exactly 12, a point over counting like a "
            "point under, as EXACTLY asks: 25 points are 13 away from 12, farther than "
            "an empty pile, so they score lower, and a score may go below 0. capped "
            "rewards going over 12, which EXACTLY rules out; goal_only and exact leave "
            "the most-cards tie-break to decide many games (41-100% of bot games) "
            "and many wins shared; "
            "closeness_floored adds a cut-off at 24 points that the rulebook never "
            "states. It is also the ranking every game used before options existed."
        ),
        choices=RANKINGS,
        label="Scoring when the deck runs out",
        hint="How hands compare when nobody has exactly 12 of each resource; ties: most cards.",
        choice_words=(
            "Closeness to 12",
            "Closeness to 12, never below 0",
            "Capped at 12",
            "Exactly 12 only",
            "Goal only (most cards wins)",
        ),
    ),
)
