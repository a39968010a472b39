"""Secret Santa's options (house rules): ``deal_fallback``, the third-card rule (I3).

See ``docs/rules/secret_santa.md``, "Options".
"""

from __future__ import annotations

from typing import Final

from games.base import Option

#: ``deal_fallback`` values: where a card goes that no player with room can take
#: without it being their third of its colour (I3).
TO_GUEST: Final = "guest"
FIRST_WITH_ROOM: Final = "first_with_room"

THIRD_CARD_RULE: Final = (
    "If a player is dealt the third card of the same color, "
    "deal this card to the next player instead."
)

OPTIONS: Final[tuple[Option, ...]] = (
    Option(
        name="deal_fallback",
        kind="choice",
        default=TO_GUEST,
        choices=(TO_GUEST, FIRST_WITH_ROOM),
        description=(
            "While dealing, a card that would be a player's third of one colour goes to the "
            "next player who can take it. When no player who still needs cards can take it "
            'without it being their third, "guest" puts it with the Unexpected guest\'s cards '
            "(so no player ever holds three of a colour with 3 or 4 players), "
            '"first_with_room" gives it to the player it was meant for anyway, as a third '
            "of that colour (how records made before this option was added were dealt)."
        ),
        rulebook=THIRD_CARD_RULE,
        why=(
            "The rule says no player is dealt a third card of a colour. Setting the card aside "
            "for the guest keeps that in every 3- and 4-player deal, while giving it back "
            "breaks it in 84% of 3-player and 43% of 4-player deals (10,000 shuffles each, "
            "bench/secret_santa_deal.py); the guest still gets exactly 10 / 6 / 4 cards. "
            "With 2 players a third card cannot be avoided (7 cards, 3 colours): the guest "
            "reading holds each player to one colour of 3, never 4 or 5."
        ),
        label="A third card of one colour that nobody can take",
        hint=(
            "Where a card goes when every player still needing cards would get it as a "
            "third of its colour."
        ),
        choice_words=("To the Unexpected guest", "To its player anyway"),
    ),
)
