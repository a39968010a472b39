"""Gift Gift Gone's options: the house rules a table may pick.

Each option quotes the rulebook sentence it interprets and says why its default
reads that sentence best; docs/rules/gift_gift_gone.md lists them ("Options (house
rules)"). The default set is what a record without options means.
"""

from __future__ import annotations

from typing import Final

from games.base import Option

OPTIONS: Final[tuple[Option, ...]] = (
    Option(
        name="turn_actions",
        kind="choice",
        default="one_of_each",
        choices=("one_of_each", "one"),
        description=(
            "What a turn may hold. one_of_each: up to one of each kind of action (a "
            "draw-and-discard, a claim/add/swap, a trade), in any order, so a player may "
            'draw and then claim or add in the same turn, and says "pass" when done. '
            "one: exactly one action per turn (draw-and-discard, or claim/add/swap, or a "
            "trade); the turn ends with it."
        ),
        rulebook="A player\u2019s turn may consist of one of each of the following actions:",
        why=(
            'The sentence says "one of each", not "one of": each kind of action at most '
            'once. Two other sentences only make sense that way: "Once you collect three (3) '
            'you must place those three (3) cards ... on the table" (at once, not next '
            'turn), and a player who "gets another of the card in a draw or trade" may '
            '"add it to their existing gift claimed during their turn". The "or" '
            "ending each numbered item lists the kinds; it does not cap the turn at one."
        ),
        label="Actions in a turn",
        hint="What a player may do before the turn passes.",
        choice_words=("One of each kind", "Just one action"),
    ),
    Option(
        name="give_frozen_in_swap",
        kind="bool",
        default=False,
        description=(
            "Whether a player may give away their own frozen gift (all six cards on the "
            "table) as the payment in a swap. false: a frozen gift never moves; true: "
            "a frozen gift cannot be taken, but its owner may still give it away."
        ),
        rulebook=(
            "A gift may be stolen until the owner has all six (6) of the gift showing in "
            "front of them, then the gift is frozen from being swapped or stolen."
        ),
        why=(
            "The rulebook freezes the gift, not the owner's protection: it is \"frozen from "
            'being swapped or stolen", and a gift given as the payment in a swap is being '
            'swapped (it changes owners). "The owner of the gift may decide to continue '
            'collecting that gift\u2019s cards" also pictures it staying with its owner.'
        ),
        label="Giving away a frozen gift in a swap",
        hint="A frozen gift (all six cards showing) is never taken; this lets its owner give it.",
        choice_words=("Allowed", "Not allowed"),
    ),
)
