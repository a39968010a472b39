"""GiftTRAP's options: the house rules and set-up choices a table may pick.

Each option quotes the rulebook sentence it interprets and says why its default
reads that sentence best; ``docs/rules/gift_trap.md`` lists them in a table.
The default set is what a record without options means.
"""

from __future__ import annotations

from typing import Final

from games.base import Option
from games.gift_trap.cards import PACK_ORDER

OPTIONS: Final[tuple[Option, ...]] = (
    Option(
        name="expert_cards",
        kind="bool",
        default=False,
        description=(
            "Play with the Expert Strategy Cards: each player has a Give More and a Get "
            "More card (double one gift's score each round) and one GiftTRAP card (block "
            "a gift's scoring for the rest of the round, once per game)."
        ),
        rulebook="Expert Strategy Cards (Optional Play)",
        why=(
            "The rulebook calls the cards optional play for experts, so the basic game "
            "is played without them."
        ),
        label="Expert Strategy Cards",
        hint="Each player also gets a Give More, a Get More and a once-a-game GiftTRAP card.",
        choice_words=("Played", "Not played"),
    ),
    Option(
        name="packs",
        kind="list",
        default=list(PACK_ORDER),
        description=(
            "Which packs of gift cards are in play; the dealer picks one of these each "
            "round and the others stay in the box (for example to leave out gifts not "
            "suited to a young table)."
        ),
        rulebook="It is optional to play all the gift cards.",
        why=(
            'The set-up places "the four packs of colored gift cards next to the board", '
            "so all four are in play unless the table leaves some out."
        ),
        choices=PACK_ORDER,
        label="Packs of gift cards in play",
        hint="The dealer picks one of these packs each round; the others stay in the box.",
        choice_words=("Yellow ($)", "Red ($$)", "Blue ($$$)", "Black ($$$$)"),
    ),
    Option(
        name="first_dealer",
        kind="int",
        default=0,
        description=(
            "The seat of the first dealer (seat numbers start at 0). The dealer chooses "
            "the pack, reveals first, and the deal passes to the left each round. Must "
            "be below the number of players."
        ),
        rulebook="Choose a dealer.",
        why="The rulebook leaves the choice to the table; the first seat is as good as any.",
        low=0,
        high=7,
        label="First dealer",
        hint="Who deals the first round; the deal then passes to the left.",
        seat=True,
    ),
    Option(
        name="track_length",
        kind="int",
        default=25,
        description=(
            "How many spaces from GO to GIFTED on the GIVE and GET tracks (GO is space "
            "0, GIFTED is this number): a longer track makes a longer game."
        ),
        rulebook="Be the first to move both your markers from Go to Gifted.",
        why=(
            "The rulebook does not print the board; 25 spaces give a game of a handful "
            "of rounds for a table that gives well. Set it to match your board."
        ),
        low=10,
        high=100,
        label="Track length",
        hint="Spaces from GO to GIFTED on your board: a longer track makes a longer game.",
    ),
    Option(
        name="zone_size",
        kind="int",
        default=5,
        description=(
            "How many spaces at the end of each track, GIFTED included, form the Gifted "
            "Zone where both markers must be at the end of a round to win (5 on a "
            "25-space track: spaces 21 to 25). At most the track length."
        ),
        rulebook=(
            "To get to Gifted is not enough, you need to remain Gifted until both your "
            "markers are in the Gifted Zone at the end of a round."
        ),
        why=(
            "The rulebook names a Gifted Zone but does not print its size; the last "
            "five spaces make a zone one good round can reach and one bad gift can leave."
        ),
        low=1,
        high=100,
        label="Gifted Zone size",
        hint="How many spaces at the end of each track form the Gifted Zone, GIFTED included.",
    ),
    Option(
        name="max_rounds",
        kind="int_or_none",
        default=None,
        description=(
            "A house limit on the number of rounds, for a table with a fixed time: after "
            "that round the game ends even if nobody is in the Gifted Zone, and the best "
            "placed player wins (the result then says ended_by: round_limit). "
            "null means no limit: play until someone is Gifted, as the rulebook does."
        ),
        rulebook=(
            "The winner is the first player to have BOTH their Give and Get markers in "
            "the GIFTED Zone at the end of a round."
        ),
        why=(
            "The rulebook ends the game only when a player has both markers in the "
            "Gifted Zone and has no round limit, so the default is no limit; a limit "
            "declares a winner nobody reached the zone for."
        ),
        low=1,
        high=500,
        label="Round limit",
        hint="Empty: play until someone is Gifted. With a limit, the best placed player wins then.",
    ),
)
