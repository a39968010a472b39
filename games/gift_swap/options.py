"""Gift Swap's options: the house rules and set-up choices a table may pick.

Each option quotes the rulebook sentence it interprets (if any) and says why its
default reads it best; ``docs/rules/gift_swap.md`` lists them in a table. The
default set is what a record without options means.
"""

from __future__ import annotations

from typing import Final

from games.base import Option

OPTIONS: Final[tuple[Option, ...]] = (
    Option(
        name="start_player",
        kind="int",
        default=0,
        low=0,
        high=3,
        description=(
            "The seat that takes the first turn (and the Gift token); play then "
            "passes to the left (seat + 1). Must be a seat at the table."
        ),
        rulebook="",
        why=(
            "The rulebook's start player is whoever most recently received a gift, "
            "which is settled at the table and not known to the record; seat 0 is "
            "the plain choice, and the club enters another seat when it differs."
        ),
        label="Who starts",
        hint="Who takes the first turn and the Gift token; play passes to the left.",
        seat=True,
    ),
    Option(
        name="regift_own_row",
        kind="bool",
        default=True,
        description=(
            "Whether a Regift card (values 1 and 4) may be swapped with a face-down "
            "card in your own row. Nothing leaves your row, but you then Keep or "
            "Open that card, and opening it turns a second card of yours face up "
            "(its effect may fire, and your row may be all face up sooner). If "
            "false, a Regift must take a card from an opponent's row or from the "
            "set-aside cards."
        ),
        rulebook=(
            "You may swap this gift with any facedown gift "
            "(including the cards that were set aside)."
        ),
        why=(
            'The card says "any facedown gift" and names the set-aside cards as '
            "included, so it widens rather than narrows. Where the rulebook means "
            "opponents only, it says so: the turn's swap takes \"one of the facedown "
            "cards in one of your opponents' card row\". A swap within your own row "
            "is not idle either: you then Keep or Open the card, and Open flips it."
        ),
        label="Regift within your own row",
        hint="Otherwise a Regift takes a card from an opponent's row or the set-aside cards.",
        choice_words=("Allowed", "Not allowed"),
    ),
)
