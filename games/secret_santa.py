"""Secret Santa (Matagot): blind gift-taking with an "Unexpected guest".

Rules, card ids and every interpretation are in ``docs/rules/secret_santa.md``;
the numbers in comments (``I3``...) refer to that list.

The state is a small slotted object whose collections are tuples/frozensets,
so ``_apply`` copies the object shallowly and rebuilds only the tuples that
change: intermediate states stay valid without any deep copy.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final

from games.base import (
    CHANCE,
    MALFORMED_EVENT,
    Actor,
    BaseEngine,
    CardInfo,
    Event,
    IllegalEvent,
    Option,
    Result,
    check_player_count,
    options_resolve,
    require,
)

# -- cards ---------------------------------------------------------------------

GENERIC: Final = "generic"
MATAMUG: Final = "matamug"
TEA: Final = "tea_bag"
TEAPOT: Final = "teapot"
CUP: Final = "cup"
CHOC: Final = "choc_cawa"

RED: Final = 0
GREEN: Final = 1
BLUE: Final = 2
COLOUR_NAMES: Final = ("red", "green", "blue")

CARDS: Final[tuple[str, ...]] = (
    *(f"ss-gift-{i}" for i in range(1, 8)),
    "ss-matamug",
    *(f"ss-tea-{i}" for i in range(1, 8)),
    "ss-teapot",
    *(f"ss-cup-{i}" for i in range(1, 8)),
    "ss-choc",
)
KIND: Final[dict[str, str]] = {
    **{f"ss-gift-{i}": GENERIC for i in range(1, 8)},
    "ss-matamug": MATAMUG,
    **{f"ss-tea-{i}": TEA for i in range(1, 8)},
    "ss-teapot": TEAPOT,
    **{f"ss-cup-{i}": CUP for i in range(1, 8)},
    "ss-choc": CHOC,
}
COLOUR: Final[dict[str, int]] = {
    card: {GENERIC: RED, MATAMUG: RED, TEA: GREEN, TEAPOT: GREEN, CUP: BLUE, CHOC: BLUE}[kind]
    for card, kind in KIND.items()
}
CARD_SET: Final = frozenset(CARDS)
KIND_NAMES: Final = (GENERIC, MATAMUG, TEA, TEAPOT, CUP, CHOC)

#: Points for all the Cups a player owns, by how many (I5: the rulebook omits the table).
CUPS_TABLE: Final[tuple[int, ...]] = (0, 1, 3, 6, 9, 12, 15, 18)

HAND_SIZE: Final = {2: 7, 3: 6, 4: 5}
TARGET: Final = 25
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

# -- options (house rules) -----------------------------------------------------------

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
    ),
)


def score_breakdown(cards: Sequence[str]) -> dict[str, int]:
    """One player's round score by category; ``total`` is the sum.

    The Matamug cancels its owner's Cups and enables Choc & Cawa; the Tea pot
    doubles its owner's tea bags (1 pt each becomes 2).
    """
    # A plain dict, not a Counter: Counter's counting is interpreted Python even when
    # this module is compiled, and this runs for every pile at every round's end.
    kinds = dict.fromkeys(KIND_NAMES, 0)
    for c in cards:
        kinds[KIND[c]] += 1
    mug = kinds[MATAMUG] > 0
    pot = kinds[TEAPOT] > 0
    parts = {
        GENERIC: 2 * kinds[GENERIC],
        CUP: 0 if mug else CUPS_TABLE[kinds[CUP]],
        MATAMUG: 2 if mug else 0,
        CHOC: 3 if mug and kinds[CHOC] else 0,
        TEA: kinds[TEA] * (2 if pot else 1),
        TEAPOT: 1 if pot else 0,
    }
    parts["total"] = sum(parts.values())
    return parts


def round_score(cards: Sequence[str]) -> int:
    return score_breakdown(cards)["total"]


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


class SecretSantaState:
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
    def start(cls, n: int, options: Mapping[str, Any] | None = None) -> SecretSantaState:
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

    def copy(self) -> SecretSantaState:
        """A shallow copy: every field is immutable, so the copy shares them all.

        Spelled out field by field because it runs for every event (a loop over
        ``__slots__`` with ``setattr`` was a fifth of a checked replay).
        """
        new = SecretSantaState()
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


def _replace_at(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``items`` with ``items[index]`` replaced: through a list, the fastest way both
    interpreted and compiled (a tuple display with two starred slices builds more)."""
    changed = list(items)
    changed[index] = value
    return tuple(changed)


def _backs(cards: Sequence[str]) -> list[str]:
    """The colour on each card's back, public to every seat (I16)."""
    return [COLOUR_NAMES[COLOUR[c]] for c in cards]


def _without(items: tuple[str, ...], index: int) -> tuple[str, ...]:
    return items[:index] + items[index + 1 :]


class SecretSantaEngine(BaseEngine):
    slug = "secret_santa"
    name = "Secret Santa"
    min_players = 2
    max_players = 4
    event_types = frozenset({"deal", "take", "give"})
    chance_event_types = frozenset({"deal"})
    options = OPTIONS

    # -- setup / turn order ------------------------------------------------------
    def setup(self, num_players: int, options: Mapping[str, Any] | None = None) -> SecretSantaState:
        check_player_count(self, num_players)
        return SecretSantaState.start(num_players, options_resolve(self, options))

    def num_players(self, state: SecretSantaState) -> int:
        return state.n

    def to_move(self, state: SecretSantaState) -> list[Actor]:
        if state.phase == DEAL_PHASE:
            return [CHANCE]
        if state.phase == TAKE_PHASE:
            return [state.active]
        if state.phase == GIVE_PHASE:
            assert state.giver is not None
            return [state.giver]
        return []

    def may_act(self, state: SecretSantaState, actor: Actor) -> bool:
        phase = state.phase
        if phase == TAKE_PHASE:
            return actor == state.active
        if phase == GIVE_PHASE:
            return actor == state.giver
        return phase == DEAL_PHASE and actor == CHANCE

    def is_over(self, state: SecretSantaState) -> bool:
        return state.phase == OVER_PHASE

    # -- events --------------------------------------------------------------------
    def _apply(self, state: SecretSantaState, event: Event, actor: Actor) -> SecretSantaState:
        kind = event["do"]
        if kind == "deal":
            return self._deal(state, event)
        assert isinstance(actor, int)
        if kind == "take":
            if state.phase != TAKE_PHASE:
                raise IllegalEvent(WRONG_PHASE, self._phase_message(state))
            return self._take(state, event, actor)
        if state.phase != GIVE_PHASE:
            raise IllegalEvent(WRONG_PHASE, self._phase_message(state))
        return self._give(state, event, actor)

    @staticmethod
    def _phase_message(state: SecretSantaState) -> str:
        if state.phase == GIVE_PHASE:
            return f"Seat {state.giver} must first give a card to the Unexpected guest."
        return f"Seat {state.active} must take a card now; nobody gives a gift."

    @staticmethod
    def _check_keys(event: Event, keys: frozenset[str]) -> None:
        if event.keys() != keys:
            expected = ", ".join(sorted(keys))
            raise IllegalEvent(MALFORMED_EVENT, f"This event has exactly the fields: {expected}.")

    def _deal(self, state: SecretSantaState, event: Event) -> SecretSantaState:
        self._check_keys(event, DEAL_KEYS)
        deck = event.get("deck")
        require(
            isinstance(deck, list)
            and len(deck) == len(CARDS)
            and all(isinstance(c, str) for c in deck)
            and set(deck) == CARD_SET,
            BAD_DECK,
            f"A deal lists the {len(CARDS)} Secret Santa cards, each exactly once.",
        )
        assert isinstance(deck, list)
        hands, up, down = deal_cards(deck, state.n, state.first, state.options["deal_fallback"])
        new = state.copy()
        new.phase = TAKE_PHASE
        new.active = state.first
        new.giver = None
        new.box = ()
        new.hands = hands
        new.piles = ((),) * state.n
        new.guest_up = up
        new.guest_down = down
        new.known = tuple(frozenset(h) for h in hands)
        return new

    def _take(self, state: SecretSantaState, event: Event, actor: int) -> SecretSantaState:
        # Messages are built only for a refusal: this runs for most events of a log.
        if event.keys() != TAKE_KEYS:
            self._check_keys(event, TAKE_KEYS)
        source = event.get("from")
        index = event.get("index")
        n = state.n
        # A seat (an int in range) first: comparing an int with "guest" is slow.
        if (type(source) is not int or not 0 <= source < n) and source != GUEST and (
            not isinstance(source, int) or isinstance(source, bool) or not 0 <= source < n
        ):
            raise IllegalEvent(
                MALFORMED_EVENT, f'"from" must be a seat number 0-{n - 1} or "guest".'
            )
        if type(index) is not int and (not isinstance(index, int) or isinstance(index, bool)):
            raise IllegalEvent(MALFORMED_EVENT, '"index" must be a whole number.')
        hands = state.hands
        mine = len(hands[actor])
        only_me = mine > 0 and sum(map(len, hands)) == mine  # _only_me, inlined
        from_guest = type(source) is not int and source == GUEST
        new = state.copy()
        if from_guest:
            down = state.guest_down
            if only_me:
                raise IllegalEvent(MUST_TAKE_OWN, "Only you have cards left: take one of your own.")
            if not down:
                raise IllegalEvent(NO_GUEST_CARD, "The guest has no face-down card left.")
            if not 0 <= index < len(down):
                raise IllegalEvent(
                    NO_SUCH_POSITION,
                    f"The guest has {len(down)} face-down cards (positions from 0).",
                )
            card = down[index]
            new.guest_down = down[:index] + down[index + 1 :]
        else:
            hand = hands[source]
            if source == actor:
                if not only_me:
                    raise IllegalEvent(
                        OWN_CARD_NOT_ALLOWED,
                        "You may take one of your own cards only when nobody else has cards "
                        "in hand.",
                    )
            elif only_me:
                raise IllegalEvent(MUST_TAKE_OWN, "Only you have cards left: take one of your own.")
            elif not hand:
                raise IllegalEvent(EMPTY_HAND, f"Seat {source} has no cards in hand.")
            if not 0 <= index < len(hand):
                raise IllegalEvent(
                    NO_SUCH_POSITION, f"Seat {source} holds {len(hand)} cards (positions from 0)."
                )
            card = hand[index]
            new.hands = _replace_at(hands, source, hand[:index] + hand[index + 1 :])
        piles, known = state.piles, state.known
        new.piles = _replace_at(piles, actor, (*piles[actor], card))
        new.known = _replace_at(known, actor, known[actor] | {card})
        if from_guest:
            new.phase = GIVE_PHASE
            new.giver = self._next_with_cards(new, actor)
            return new
        if any(new.hands):  # the common case of _advance: the next seat's turn
            new.phase = TAKE_PHASE
            new.active = (new.active + 1) % n
            return new
        return self._advance(new)

    def _give(self, state: SecretSantaState, event: Event, actor: int) -> SecretSantaState:
        self._check_keys(event, GIVE_KEYS)
        card = event.get("card")
        if not isinstance(card, str):
            raise IllegalEvent(MALFORMED_EVENT, '"card" must be a card id.')
        hand = state.hands[actor]
        if card not in hand:
            raise IllegalEvent(CARD_NOT_IN_HAND, f"{card!r} is not in your hand.")
        new = state.copy()
        new.hands = _replace_at(state.hands, actor, _without(hand, hand.index(card)))
        new.guest_up = (*state.guest_up, card)
        new.giver = None
        return self._advance(new)

    # -- flow ------------------------------------------------------------------------
    @staticmethod
    def _only_me(state: SecretSantaState, seat: int) -> bool:
        """True when ``seat`` is the only player with cards in hand (must take its own)."""
        hands = state.hands
        mine = len(hands[seat])
        return mine > 0 and sum(map(len, hands)) == mine

    @staticmethod
    def _next_with_cards(state: SecretSantaState, seat: int) -> int:
        """The next seat clockwise from ``seat`` still holding cards (I8)."""
        for k in range(1, state.n):
            other = (seat + k) % state.n
            if state.hands[other]:
                return other
        raise AssertionError("a guest take always leaves another player with cards")

    def _advance(self, state: SecretSantaState) -> SecretSantaState:
        """Mutates a fresh copy: next turn, or the round end and scoring."""
        if any(state.hands):
            state.phase = TAKE_PHASE
            state.active = (state.active + 1) % state.n
            return state
        breakdown = tuple(score_breakdown(pile) for pile in state.piles)
        scores = tuple(b["total"] for b in breakdown)
        state.last_breakdown = breakdown
        state.round_scores = (*state.round_scores, scores)
        state.totals = tuple(t + s for t, s in zip(state.totals, scores, strict=True))
        best = max(state.totals)
        if best >= TARGET and state.totals.count(best) == 1:
            state.phase = OVER_PHASE
        else:
            state.phase = DEAL_PHASE
            state.round += 1
            state.first = (state.first + 1) % state.n
            state.active = state.first
        return state

    # -- enumeration -------------------------------------------------------------------
    def legal_events(self, state: SecretSantaState, seat: int) -> list[Event]:
        if seat not in self.to_move(state):
            return []
        if state.phase == GIVE_PHASE:
            return [{"by": seat, "do": "give", "card": c} for c in state.hands[seat]]
        if self._only_me(state, seat):
            return [
                {"by": seat, "do": "take", "from": seat, "index": i}
                for i in range(len(state.hands[seat]))
            ]
        events: list[Event] = []
        for other in range(state.n):
            if other != seat:
                events.extend(
                    {"by": seat, "do": "take", "from": other, "index": i}
                    for i in range(len(state.hands[other]))
                )
        events.extend(
            {"by": seat, "do": "take", "from": GUEST, "index": i}
            for i in range(len(state.guest_down))
        )
        return events

    def sample_chance(self, state: SecretSantaState, rng: random.Random) -> Event:
        deck = list(CARDS)
        rng.shuffle(deck)
        return {"by": CHANCE, "do": "deal", "deck": deck}

    # -- information -------------------------------------------------------------------
    def _revealed(self, state: SecretSantaState) -> bool:
        """After a round's reveal, the players' face-down cards are public (I12)."""
        return state.phase in (DEAL_PHASE, OVER_PHASE)

    def view(self, state: SecretSantaState, seat: int | None) -> dict[str, Any]:
        revealed = self._revealed(state)
        everything = seat is None
        players = []
        for s in range(state.n):
            info: dict[str, Any] = {
                "seat": s,
                "hand_size": len(state.hands[s]),
                "face_down_count": len(state.piles[s]),
                "total": state.totals[s],
                # I16: card backs show the colour, for everybody to see.
                "hand_backs": _backs(state.hands[s]),
                "face_down_backs": _backs(state.piles[s]),
            }
            if everything or s == seat:
                info["hand"] = list(state.hands[s])
            if everything or s == seat or revealed:
                info["face_down"] = list(state.piles[s])
            elif seat is not None:
                # Cards this seat once held that seat s has taken from it.
                info["face_down_known"] = [c for c in state.piles[s] if c in state.known[seat]]
            players.append(info)
        guest: dict[str, Any] = {
            "face_up": list(state.guest_up),
            "face_down_count": len(state.guest_down),
            "face_down_backs": _backs(state.guest_down),
        }
        if everything:
            guest["face_down"] = list(state.guest_down)
        data: dict[str, Any] = {
            "game": self.slug,
            "you": seat,
            "phase": state.phase,
            "round": state.round,
            "first_player": state.first,
            "active": state.active if state.phase == TAKE_PHASE else None,
            "giver": state.giver if state.phase == GIVE_PHASE else None,
            "to_move": self.to_move(state),
            "players": players,
            "guest": guest,
            "totals": list(state.totals),
            "round_scores": [list(r) for r in state.round_scores],
            "last_round": (
                [dict(b) for b in state.last_breakdown] if state.last_breakdown else None
            ),
            "target": TARGET,
        }
        if state.box and everything:
            data["box"] = list(state.box)
        if state.phase == OVER_PHASE:
            data["winners"] = self.result(state).winners
        return data

    def event_view(self, event: Mapping[str, Any], seat: int | None, before: Any = None) -> Event:
        """A deal shows a seat its own dealt hand and the guest's face-up cards.

        With ``before`` (the state the deal was applied to) the engine's own
        dealing (I2-I4) gives the seat's hand, in position order, and the
        guest's face-up row, which every seat sees anyway. Other seats' hands,
        the guest's face-down cards and the deck order stay hidden. Without
        ``before`` (or with a deal that could not have been applied) a deal is
        hidden entirely. Takes and gives name no hidden card: public as they are.
        """
        if seat is None or event.get("by") != CHANCE:
            return dict(event)
        hidden: Event = {"by": CHANCE, "do": event.get("do"), "hidden": True}
        deck = event.get("deck")
        if (
            event.get("do") != "deal"
            or not isinstance(before, SecretSantaState)
            or before.n not in HAND_SIZE
            or not 0 <= seat < before.n
            or not isinstance(deck, list)
            or len(deck) != len(CARDS)
            or not all(isinstance(c, str) for c in deck)
            or set(deck) != CARD_SET
        ):
            return hidden
        hands, up, _down = deal_cards(deck, before.n, before.first, before.options["deal_fallback"])
        return {"by": CHANCE, "do": "deal", "hand": list(hands[seat]), "guest_face_up": list(up)}

    def secrets(self, state: SecretSantaState, seat: int) -> set[str]:
        hidden = set(state.guest_down)
        if not self._revealed(state):
            for s in range(state.n):
                if s != seat:
                    hidden.update(state.hands[s])
                    hidden.update(state.piles[s])
        return hidden - state.known[seat]

    def card_multiset(self, state: SecretSantaState) -> Counter[str]:
        counts: Counter[str] = Counter(state.box)
        for hand in state.hands:
            counts.update(hand)
        for pile in state.piles:
            counts.update(pile)
        counts.update(state.guest_up)
        counts.update(state.guest_down)
        return counts

    # -- scoring -------------------------------------------------------------------
    def scores(self, state: SecretSantaState) -> list[int]:
        return list(state.totals)

    def result(self, state: SecretSantaState) -> Result:
        return Result.from_scores(
            list(state.totals),
            details={
                "rounds": len(state.round_scores),
                "round_scores": [list(r) for r in state.round_scores],
            },
        )

    def score_bounds(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> tuple[int, int | None]:
        """0 up, with no highest score.

        Nothing scores below 0 (at worst Cups with the Matamug, or Choc & Cawa
        without it, score 0), so a total is at least 0. The game ends only when
        one player *alone* has the best total of 25 or more: while the best
        totals are tied the rounds go on, each adding points to the tied players
        alike, so no total is out of reach.
        """
        check_player_count(self, num_players)
        options_resolve(self, options)
        return 0, None

    # -- words (games/secret_santa_words.py) ------------------------------------------
    # Imported when called: the words module reads this module's card tables.
    def card_catalog(self) -> dict[str, CardInfo]:
        from games.secret_santa_words import CATALOG

        return CATALOG

    def tell(
        self,
        event: Event,
        seat: int | None,
        before: dict[str, Any] | None,
        after: dict[str, Any] | None,
    ) -> str:
        from games.secret_santa_words import tell

        return tell(event, seat, before, after)

    def tell_move(self, event: Event, seat: int, before: dict[str, Any]) -> str:
        from games.secret_santa_words import tell_move

        return tell_move(event, seat, before)

    # -- bot -----------------------------------------------------------------------
    def greedy_event(self, state: SecretSantaState, seat: int, rng: random.Random) -> Event:
        """Uses only what ``seat`` knows: its hand, its pile, public counts.

        A take picks the back colour (public, I16) with the best expected
        gain over the cards of that colour this seat has not seen; among
        equals it prefers the guest (the next player must then hand one of
        their cards to the guest, out of everybody's reach), else the
        leader's hand. A gift to the guest
        denies the leading opponent the card worth most to them (as far as
        this seat knows their pile) relative to its worth to this seat; an
        own-card take keeps the card worth most here. In trials it wins about
        58% of 2-player games against the random bot; with more players the
        game is mostly blind luck and it is about even.
        """
        legal = self.legal_events(state, seat)
        pile = state.piles[seat]

        def gain(cards: tuple[str, ...], card: str) -> int:
            return round_score((*cards, card)) - round_score(cards)

        if state.phase == GIVE_PHASE:
            leader = max((s for s in range(state.n) if s != seat), key=lambda s: state.totals[s])
            theirs = tuple(c for c in state.piles[leader] if c in state.known[seat])
            worth = {e["card"]: gain(theirs, e["card"]) - gain(pile, e["card"]) for e in legal}
            best = max(worth.values())
            return rng.choice([e for e in legal if worth[e["card"]] == best])
        if legal and legal[0]["from"] == seat:
            hand = state.hands[seat]
            best = max(gain(pile, c) for c in hand)
            return rng.choice([e for e in legal if gain(pile, hand[e["index"]]) == best])
        # Other hands and the guest's face-down row hold only cards this seat
        # has not seen: judge each position by the unseen cards of its colour.
        unseen = [c for c in CARDS if c not in state.known[seat] and c not in state.guest_up]
        expected = {
            colour: sum(gain(pile, c) for c in cards) / len(cards)
            for colour in range(len(COLOUR_NAMES))
            if (cards := [c for c in unseen if COLOUR[c] == colour])
        }

        def value(event: Event) -> tuple[float, int, int]:
            source = event["from"]
            if source == GUEST:
                card = state.guest_down[event["index"]]
                return (expected[COLOUR[card]], 1, 0)
            card = state.hands[source][event["index"]]
            return (expected[COLOUR[card]], 0, state.totals[source])

        best_value = max(value(e) for e in legal)
        return rng.choice([e for e in legal if value(e) == best_value])


ENGINE: Final = SecretSantaEngine()
