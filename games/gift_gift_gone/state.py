"""The Gift Gift Gone position, its phases and event fields, reason codes, and the small
readers and checkers on states and events that the rules and the views share.

States are never mutated once made: the rules work on a ``copy()`` and replace the
tuples and dicts they change (see ``games/gift_gift_gone/rules.py``).
"""

from __future__ import annotations

from typing import Final

from games.base import MALFORMED_EVENT, Event, IllegalEvent, field_str, require
from games.gift_gift_gone.cards import GIFT_OF, VALUE

# Phases. "refill" is the end of a turn waiting only for a reshuffle.
DEAL: Final = "deal"  # fmt: skip
TURN: Final = "turn"
DRAW: Final = "draw"
DISCARD: Final = "discard"
ANSWER: Final = "answer"
MIX: Final = "mix"
PICK: Final = "pick"
REFILL: Final = "refill"
OVER: Final = "over"

FIELDS: Final[dict[str, frozenset[str]]] = {
    "deal": frozenset({"deck"}),
    "reshuffle": frozenset({"deck"}),
    "mix": frozenset({"seat", "order"}),
    "draw": frozenset({"from"}),
    "discard": frozenset({"card"}),
    "claim": frozenset({"gift"}),
    "swap": frozenset({"gift", "give"}),
    "ask": frozenset({"gift"}),
    "answer": frozenset({"yes"}),
    "pick": frozenset({"position"}),
    "pass": frozenset(),
}
ENVELOPE: Final = frozenset({"by", "do"})
#: Every field an event of each type may have.
ALLOWED_FIELDS: Final[dict[str, frozenset[str]]] = {
    kind: ENVELOPE | f for kind, f in FIELDS.items()
}

# The turn's three kinds of action, in the rulebook's order (view's "actions_done").
ACTIONS: Final = ("draw", "claim", "trade")

# Reason codes of this game (the shared ones live in games.base).
WRONG_CHANCE_EVENT: Final = "wrong_chance_event"
WRONG_SEAT: Final = "wrong_seat"
BAD_SHUFFLE: Final = "bad_shuffle"
UNKNOWN_GIFT: Final = "unknown_gift"
FINISH_DRAWING: Final = "finish_drawing"
DRAW_FIRST: Final = "draw_first"
WRONG_PHASE: Final = "wrong_phase"
MUST_CLAIM: Final = "must_claim"
ALREADY_DREW: Final = "already_drew"
DRAW_LIMIT: Final = "draw_limit"
DECK_EMPTY: Final = "deck_empty"
DISCARD_EMPTY: Final = "discard_empty"
CARD_NOT_IN_HAND: Final = "card_not_in_hand"
OWNED_BY_OTHER: Final = "owned_by_other"
TOO_FEW_TO_CLAIM: Final = "too_few_to_claim"
NO_CARD_OF_GIFT: Final = "no_card_of_gift"
NOT_ANOTHERS_GIFT: Final = "not_anothers_gift"
GIFT_FROZEN: Final = "gift_frozen"
NOT_YOUR_GIFT: Final = "not_your_gift"
PAYMENT_FROZEN: Final = "payment_frozen"
TOO_FEW_TO_SWAP: Final = "too_few_to_swap"
ALREADY_CLAIMED: Final = "already_claimed"
ALREADY_ASKED: Final = "already_asked"
NOTHING_TO_OFFER: Final = "nothing_to_offer"


class State:
    """One position. Hands are tuples of card ids; ``owner``/``table`` map a claimed gift
    to its owner and its cards on the table (a gift has one owner at a time)."""

    __slots__ = (
        "ask_gift", "asked", "box", "claimed", "combine", "deck", "discard", "discards",
        "drawn", "draws", "end", "gifts", "give_frozen", "hands", "n", "order", "owner",
        "partner", "phase", "quiet", "shuffle_due", "table", "target", "traded", "turn",
        "winner",
    )  # fmt: skip

    ask_gift: str | None
    asked: bool
    box: tuple[str, ...]
    # This turn's actions so far (the draw-and-discard finished, a claim/add/swap made,
    # a trade completed); only "turn_actions": "one_of_each" lets a turn go on after one.
    claimed: bool
    combine: bool
    deck: tuple[str, ...]
    discard: tuple[str, ...]
    discards: int
    drawn: bool
    draws: int
    end: str | None
    gifts: tuple[str, ...]
    give_frozen: bool
    hands: tuple[tuple[str, ...], ...]
    n: int
    order: tuple[str, ...]
    owner: dict[str, int]
    partner: int | None
    phase: str
    quiet: int
    shuffle_due: bool
    table: dict[str, tuple[str, ...]]
    target: int
    traded: bool
    turn: int
    winner: int | None

    def copy(self) -> State:
        """Shallow: the fields are immutable tuples, or dicts replaced (never edited) on change."""
        new = State()
        new.ask_gift = self.ask_gift
        new.asked = self.asked
        new.box = self.box
        new.claimed = self.claimed
        new.combine = self.combine
        new.deck = self.deck
        new.discard = self.discard
        new.discards = self.discards
        new.drawn = self.drawn
        new.draws = self.draws
        new.end = self.end
        new.gifts = self.gifts
        new.give_frozen = self.give_frozen
        new.hands = self.hands
        new.n = self.n
        new.order = self.order
        new.owner = self.owner
        new.partner = self.partner
        new.phase = self.phase
        new.quiet = self.quiet
        new.shuffle_due = self.shuffle_due
        new.table = self.table
        new.target = self.target
        new.traded = self.traded
        new.turn = self.turn
        new.winner = self.winner
        return new


def count_of(hand: tuple[str, ...], gift: str) -> int:
    return sum(1 for c in hand if GIFT_OF[c] == gift)


def table_points(s: State, seat: int) -> int:
    return sum(VALUE[g] * len(s.table[g]) for g, o in s.owner.items() if o == seat)


def hand_value(hand: tuple[str, ...]) -> int:
    return sum(VALUE[GIFT_OF[c]] for c in hand)


def forced_claims(s: State, seat: int) -> list[str]:
    """Gifts the seat must claim now: three or more in hand and nobody owns them, while
    the seat may still claim this turn (cards collected after its claim wait a turn)."""
    if s.claimed:
        return []
    counts: dict[str, int] = {}
    for card in s.hands[seat]:
        gift = GIFT_OF[card]
        counts[gift] = counts.get(gift, 0) + 1
    return sorted(g for g, k in counts.items() if k >= 3 and g not in s.owner)


def set_hand(s: State, seat: int, hand: tuple[str, ...]) -> None:
    hands = list(s.hands)
    hands[seat] = hand
    s.hands = tuple(hands)


def cards_out(s: State) -> bool:
    """The deck is empty and cannot be rebuilt (at most one card in the discard pile).
    Once true at the start of a turn it stays true: a draw-and-discard turn leaves the
    discard pile as it was, claims and swaps only take cards out of play (ruling 17)."""
    return s.phase != DEAL and not s.deck and len(s.discard) <= 1


def may_end_turn(s: State) -> bool:
    """A seat may pass once the cards ran out (ruling 17), or, when a turn may hold one of
    each action, once it has done one (a refused ask is no trade)."""
    return cards_out(s) or (s.combine and (s.drawn or s.claimed or s.traded))


def eligible(s: State) -> tuple[str, ...]:
    """The asker's cards the trading partner may pick from: any but the gift just traded."""
    return tuple(sorted(c for c in s.hands[s.turn] if GIFT_OF[c] != s.ask_gift))


# -- readers and checkers on events ---------------------------------------------
def read_gift(s: State, event: Event, name: str = "gift") -> str:
    """The gift id in field ``name``, which must be one of this game's gifts."""
    gift = field_str(event, name)
    if gift not in s.gifts:
        raise IllegalEvent(
            UNKNOWN_GIFT,
            f"There is no gift {gift!r} in this game; gifts: {', '.join(s.gifts)}.",
        )
    return gift


def read_permutation(event: Event, name: str, cards: tuple[str, ...]) -> list[str]:
    """The list of card ids in field ``name``, which must hold each of ``cards`` once."""
    value = event.get(name)
    if not (isinstance(value, list) and all(isinstance(c, str) for c in value)):
        raise IllegalEvent(MALFORMED_EVENT, f'"{name}" must be a list of card ids.')
    assert isinstance(value, list)
    if not (len(value) == len(cards) and sorted(value) == sorted(cards)):
        raise IllegalEvent(
            BAD_SHUFFLE, f'"{name}" must hold each of these {len(cards)} cards exactly once.'
        )
    return value


def check_phase(s: State, kind: str, *phases: str) -> None:
    """A ``kind`` event is possible only in one of ``phases``."""
    if s.phase in phases:
        return
    if s.phase in (DRAW, DISCARD):
        raise IllegalEvent(
            FINISH_DRAWING, f"You are drawing and discarding; no {kind!r} now."
        )
    if kind == "discard" and s.phase == TURN:
        raise IllegalEvent(DRAW_FIRST, "Draw one or two cards before discarding.")
    raise IllegalEvent(WRONG_PHASE, f"A {kind!r} is not possible now (phase {s.phase}).")


def check_must_claim(s: State, seat: int, gift: str | None = None) -> None:
    """Refuse anything but claiming a gift the seat must claim now (see ``forced_claims``)."""
    must = forced_claims(s, seat)
    if must and gift not in must:
        raise IllegalEvent(
            MUST_CLAIM,
            "You hold three or more of an unclaimed gift and must claim it: "
            f"{', '.join(must)}.",
        )


def check_claim_unused(s: State) -> None:
    """A turn holds at most one claim, add or swap."""
    require(
        not s.claimed, ALREADY_CLAIMED,
        "You have already claimed, added or swapped this turn.",
    )  # fmt: skip
