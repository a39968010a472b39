"""One Secret Santa position (``State``), the deal that starts a round, the reason codes.

The state is a small slotted object whose collections are tuples/frozensets,
so the engine copies the object shallowly and rebuilds only the tuples that
change: intermediate states stay valid without any deep copy. The numbers in
comments (``I3``...) refer to ``docs/rules/secret_santa.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from games.secret_santa.cards import CARDS, COLOUR, HAND_SIZE
from games.secret_santa.options import OPTIONS, TO_GUEST

TARGET: Final = 25
#: The ``from`` of a take from the Unexpected guest's face-down cards.
GUEST: Final = "guest"

# -- reason codes ----------------------------------------------------------------

BAD_DECK: Final = "bad_deck"
WRONG_PHASE: Final = "wrong_phase"
EMPTY_HAND: Final = "empty_hand"
NO_GUEST_CARD: Final = "no_guest_face_down"
NO_SUCH_POSITION: Final = "no_such_position"
OWN_CARD_NOT_ALLOWED: Final = "own_card_not_allowed"
MUST_TAKE_OWN: Final = "must_take_own"
CARD_NOT_IN_HAND: Final = "card_not_in_hand"

DEAL_PHASE: Final = "deal"
TAKE_PHASE: Final = "take"
GIVE_PHASE: Final = "give"
OVER_PHASE: Final = "over"

# The fields of each event, exactly.
DEAL_KEYS: Final = frozenset({"by", "do", "deck"})
TAKE_KEYS: Final = frozenset({"by", "do", "from", "index"})
GIVE_KEYS: Final = frozenset({"by", "do", "card"})


class State:
    """Everything about one game; treat as immutable (``_apply`` copies it)."""

    __slots__ = (
        "active",
        "box",
        "first",
        "giver",
        "guest_down",
        "guest_up",
        "hands",
        "known",
        "last_breakdown",
        "n",
        "options",
        "phase",
        "piles",
        "round",
        "round_scores",
        "totals",
    )

    active: int
    box: tuple[str, ...]  # cards not on the table (before the first deal)
    first: int
    giver: int | None
    guest_down: tuple[str, ...]
    guest_up: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    # Cards each seat has looked at this round (its deal and what it took).
    known: tuple[frozenset[str], ...]
    last_breakdown: tuple[dict[str, int], ...] | None
    n: int
    # The resolved options (every name in OPTIONS, see setup); never mutated.
    options: Mapping[str, Any]
    phase: str
    piles: tuple[tuple[str, ...], ...]
    round: int
    round_scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]

    @classmethod
    def start(cls, n: int, options: Mapping[str, Any] | None = None) -> State:
        """The state before the first deal.

        A class method, not ``__init__``: ``copy`` and unpickling create the object
        with no arguments, which a class compiled by mypyc allows only without a
        required ``__init__`` argument.
        """
        new = cls()
        new.n = n
        new.options = (
            {option.name: option.default for option in OPTIONS}
            if options is None
            else dict(options)
        )
        new.phase = DEAL_PHASE
        new.round = 1
        new.first = 0  # I1: seat 0 is the first player of round 1
        new.active = 0
        new.giver = None
        new.box = CARDS
        new.hands = ((),) * n
        new.piles = ((),) * n
        new.guest_up = ()
        new.guest_down = ()
        new.known = (frozenset(),) * n
        new.totals = (0,) * n
        new.round_scores = ()
        new.last_breakdown = None
        return new

    def copy(self) -> State:
        """A shallow copy: every field is immutable, so the copy shares them all.

        Spelled out field by field because it runs for every event (a loop over
        ``__slots__`` with ``setattr`` was a fifth of a checked replay).
        """
        new = State()
        new.active = self.active
        new.box = self.box
        new.first = self.first
        new.giver = self.giver
        new.guest_down = self.guest_down
        new.guest_up = self.guest_up
        new.hands = self.hands
        new.known = self.known
        new.last_breakdown = self.last_breakdown
        new.n = self.n
        new.options = self.options
        new.phase = self.phase
        new.piles = self.piles
        new.round = self.round
        new.round_scores = self.round_scores
        new.totals = self.totals
        return new


def revealed(state: State) -> bool:
    """After a round's reveal, the players' face-down cards are public (I12)."""
    return state.phase in (DEAL_PHASE, OVER_PHASE)


# -- the deal (rules and views both need it) ------------------------------------------


def deal_cards(
    deck: Sequence[str], n: int, first: int, fallback: str = TO_GUEST
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], tuple[str, ...]]:
    """Hands, guest face-up and guest face-down cards from one shuffled deck.

    Cards go one at a time from the top, starting with the player left of the
    first player (I2). A card that would be a player's third of its colour
    goes to the next player who can take it (I3). When no player with room
    can, ``fallback`` (the ``deal_fallback`` option) decides: ``"guest"`` sets
    it aside for the guest, while the guest has fewer than its share of
    10 / 6 / 4 cards, and the next card is offered to the same player;
    ``"first_with_room"`` (and ``"guest"`` once the guest's share is full,
    which happens only with 2 players) gives it to the player it was meant
    for, as a third. The guest's cards, those set aside first and then the
    rest of the deck, are laid out alternately face-up, face-down, starting
    face-up (I4).
    """
    size = HAND_SIZE[n]
    share = len(CARDS) - n * size
    hands: list[list[str]] = [[] for _ in range(n)]
    colours = [[0, 0, 0] for _ in range(n)]
    set_aside: list[str] = []
    pointer = (first + 1) % n
    top = 0
    dealt = 0
    while dealt < n * size:
        card = deck[top]
        top += 1
        colour = COLOUR[card]
        # The seats with room, clockwise from the pointer: the first that may take
        # the card gets it; the first of them at all is the fallback.
        target = first_with_room = None
        for k in range(n):
            seat = (pointer + k) % n
            if len(hands[seat]) < size:
                if first_with_room is None:
                    first_with_room = seat
                if colours[seat][colour] < 2:
                    target = seat
                    break
        if target is None:
            if fallback == TO_GUEST and len(set_aside) < share:
                set_aside.append(card)
                continue
            assert first_with_room is not None
            target = first_with_room
        hands[target].append(card)
        colours[target][colour] += 1
        pointer = (target + 1) % n
        dealt += 1
    rest = (*set_aside, *deck[top:])
    return tuple(tuple(h) for h in hands), rest[0::2], rest[1::2]
