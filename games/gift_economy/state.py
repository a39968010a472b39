"""Gift Economy's position: the ``State`` class, the reason codes and the phases.

Also the readers and checkers of event fields that the rules share. The state is a
slotted object whose collections are tuples/frozensets, so ``_apply`` copies it
shallowly (``State.copy``) and rebuilds only the tuples that change. Interpretation
numbers (``I3``...) refer to ``docs/rules/gift_economy.md``.
"""

from __future__ import annotations

import itertools
from typing import Any, Final

from games.base import MALFORMED_EVENT, Event, IllegalEvent, require
from games.gift_economy.cards import GOAL, ORDER, PTS, RES

# -- reason codes ----------------------------------------------------------------

BAD_DECK: Final = "bad_deck"
WRONG_PHASE: Final = "wrong_phase"
CARD_NOT_IN_HAND: Final = "card_not_in_hand"
DUPLICATE_CARD: Final = "duplicate_card"
CARDS_NOT_IN_ORDER: Final = "cards_not_in_order"
NOT_A_RESOURCE: Final = "not_a_resource"
MIXED_RESOURCES: Final = "mixed_resources"
OFFER_TOO_SMALL: Final = "offer_too_small"
COUNTER_TOO_SMALL: Final = "counter_too_small"
POTLATCH: Final = "potlatch"
NO_SUCH_COUNTER: Final = "no_such_counter"
NOT_A_SPECIAL: Final = "not_a_special"
TARGET_HAS_NO_CARDS: Final = "target_has_no_cards"

# Phases
SHUFFLE: Final = "shuffle"
TRADE: Final = "trade"
COUNTER: Final = "counter"
ACCEPT: Final = "accept"
SPECIAL: Final = "special"
CHOOSE: Final = "choose"
RANDOM: Final = "random_discard"
OVER: Final = "over"

#: Which phase each seat event belongs to (anything else: wrong_phase).
PHASE_OF: Final[dict[str, str]] = {
    "offer": TRADE,
    "skip_trade": TRADE,
    "counter": COUNTER,
    "decline": COUNTER,
    "accept": ACCEPT,
    "reject": ACCEPT,
    "play_special": SPECIAL,
    "end_turn": SPECIAL,
    "pass_card": CHOOSE,
    "discard": CHOOSE,
    "shuffle": SHUFFLE,
    "random_discard": RANDOM,
}
FIELDS: Final[dict[str, frozenset[str]]] = {
    "shuffle": frozenset({"deck"}),
    "offer": frozenset({"cards"}),
    "counter": frozenset({"cards"}),
    "accept": frozenset({"seat"}),
    "play_special": frozenset({"card", "target"}),
    "pass_card": frozenset({"card"}),
    "discard": frozenset({"card"}),
    "random_discard": frozenset({"card"}),
}
NO_FIELDS: Final[frozenset[str]] = frozenset()
#: ``totals`` of a hand at the goal: 12 points of each resource.
GOAL_TOTALS: Final[list[int]] = [GOAL] * 4
#: Every field an event of each type may have.
ALLOWED_FIELDS: Final[dict[str, frozenset[str]]] = {
    kind: frozenset({"by", "do"}) | FIELDS.get(kind, NO_FIELDS) for kind in PHASE_OF
}


class State:
    """One position. Never mutated after ``_apply`` returns it."""

    __slots__ = (
        "active",
        "choose_kind",
        "counters",
        "deals_left",
        "deck",
        "direction",
        "discard",
        "end_reason",
        "hands",
        "held",
        "last_deal",
        "n",
        "need",
        "offer",
        "pending",
        "phase",
        "played",
        "public",
        "ranking",
        "responder",
        "start",
        "target",
        "top",
        "turn",
    )

    active: int
    choose_kind: str | None
    counters: tuple[tuple[int, tuple[str, ...] | None], ...]
    deals_left: int
    deck: tuple[str, ...]
    direction: int
    discard: tuple[str, ...]
    end_reason: str | None
    hands: tuple[tuple[str, ...], ...]
    held: tuple[frozenset[str], ...]
    last_deal: dict[str, Any] | None
    n: int
    need: tuple[int, ...]
    offer: tuple[str, ...] | None
    pending: tuple[tuple[str, ...], ...]
    phase: str
    played: str | None
    public: frozenset[str]
    ranking: str
    responder: int | None
    start: int
    target: int | None
    top: int
    turn: int

    def copy(self) -> State:
        """A shallow copy: every field is immutable, so the copy shares them all.

        Spelled out field by field because it runs for every event (a loop over
        ``__slots__`` with ``setattr`` was a quarter of a checked replay).
        """
        new = State()
        new.active = self.active
        new.choose_kind = self.choose_kind
        new.counters = self.counters
        new.deals_left = self.deals_left
        new.deck = self.deck
        new.direction = self.direction
        new.discard = self.discard
        new.end_reason = self.end_reason
        new.hands = self.hands
        new.held = self.held
        new.last_deal = self.last_deal
        new.n = self.n
        new.need = self.need
        new.offer = self.offer
        new.pending = self.pending
        new.phase = self.phase
        new.played = self.played
        new.public = self.public
        new.ranking = self.ranking
        new.responder = self.responder
        new.start = self.start
        new.target = self.target
        new.top = self.top
        new.turn = self.turn
        return new


def without(hand: tuple[str, ...], cards: tuple[str, ...] | frozenset[str]) -> tuple[str, ...]:
    """``hand`` less ``cards``, in the hand's order."""
    return tuple(c for c in hand if c not in cards)


def set_at(tup: tuple, index: int, value: Any) -> tuple:
    """``tup`` with item ``index`` replaced by ``value``."""
    return (*tup[:index], value, *tup[index + 1 :])


# -- reading an event's fields ---------------------------------------------------------


def read_one_resource(st: State, event: Event, actor: int) -> tuple[tuple[str, ...], int]:
    """Read "cards": held, distinct, canonical order, one resource; returns points.

    A legal list passes every check in one loop; anything else goes through the
    checks one by one, in their order, so a refusal names the first problem.
    """
    cards = event.get("cards")
    if type(cards) is list and cards:
        hand = st.hands[actor]
        last, resource, points = -1, RES[cards[0]] if cards[0] in hand else -1, 0
        for card in cards:
            # Held, strictly after the previous card (so distinct), of the one resource.
            if type(card) is not str or card not in hand or ORDER[card] <= last:
                break
            if RES[card] != resource or resource < 0:
                break
            last = ORDER[card]
            points += PTS[card]
        else:
            return tuple(cards), points
    return _read_one_resource_in_turn(st, event, actor)


def _read_one_resource_in_turn(st: State, event: Event, actor: int) -> tuple[tuple[str, ...], int]:
    """The checks of :func:`read_one_resource` one at a time (each raises on its problem)."""
    cards = event.get("cards")
    require(
        isinstance(cards, list) and bool(cards) and all(isinstance(c, str) for c in cards),
        MALFORMED_EVENT,
        '"cards" must be a non-empty list of card ids.',
    )
    assert isinstance(cards, list)
    hand = st.hands[actor]
    for card in cards:
        if card not in hand:
            raise IllegalEvent(CARD_NOT_IN_HAND, f"{card!r} is not in your hand.")
    require(len(set(cards)) == len(cards), DUPLICATE_CARD, "A card is listed twice.")
    require(
        all(ORDER[a] < ORDER[b] for a, b in itertools.pairwise(cards)),
        CARDS_NOT_IN_ORDER,
        "List the cards from the lowest number to the highest.",
    )
    for card in cards:
        if RES[card] < 0:
            raise IllegalEvent(NOT_A_RESOURCE, f"{card!r} is not a resource card.")
    require(
        len({RES[c] for c in cards}) == 1,
        MIXED_RESOURCES,
        "A deal or a counter uses cards of ONE resource only.",
    )
    return tuple(cards), sum(PTS[c] for c in cards)
