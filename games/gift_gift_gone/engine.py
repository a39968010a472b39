"""The Gift Gift Gone rules engine (docs/rules/gift_gift_gone.md has the rulings).

States are never mutated: ``_apply`` works on a shallow copy and replaces the
tuples and dicts it changes, so every earlier state stays valid for callers
that keep the whole history.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

from games.base import (
    CHANCE,
    JSON,
    MALFORMED_EVENT,
    Actor,
    BaseEngine,
    CardInfo,
    Event,
    IllegalEvent,
    Option,
    Result,
    check_player_count,
    field_int,
    field_str,
    options_resolve,
    require,
)
from games.gift_gift_gone import words
from games.gift_gift_gone.cards import (
    COPIES,
    GIFT_OF,
    HAND_SIZE,
    NAME,
    VALUE,
    cards_of,
    deck_for,
)

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
    ),
)


class GGGState:
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

    def copy(self) -> GGGState:
        """Shallow: the fields are immutable tuples, or dicts replaced (never edited) on change."""
        new = GGGState()
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


def _count(hand: tuple[str, ...], gift: str) -> int:
    return sum(1 for c in hand if GIFT_OF[c] == gift)


def _points(s: GGGState, seat: int) -> int:
    return sum(VALUE[g] * len(s.table[g]) for g, o in s.owner.items() if o == seat)


def _hand_value(hand: tuple[str, ...]) -> int:
    return sum(VALUE[GIFT_OF[c]] for c in hand)


def _forced(s: GGGState, seat: int) -> list[str]:
    """Gifts the seat must claim now: three or more in hand and nobody owns them, while
    the seat may still claim this turn (cards collected after its claim wait a turn)."""
    if s.claimed:
        return []
    counts: dict[str, int] = {}
    for card in s.hands[seat]:
        gift = GIFT_OF[card]
        counts[gift] = counts.get(gift, 0) + 1
    return sorted(g for g, k in counts.items() if k >= 3 and g not in s.owner)


def _set_hand(s: GGGState, seat: int, hand: tuple[str, ...]) -> None:
    hands = list(s.hands)
    hands[seat] = hand
    s.hands = tuple(hands)


def _cards_out(s: GGGState) -> bool:
    """The deck is empty and cannot be rebuilt (at most one card in the discard pile).
    Once true at the start of a turn it stays true: a draw-and-discard turn leaves the
    discard pile as it was, claims and swaps only take cards out of play (ruling 17)."""
    return s.phase != DEAL and not s.deck and len(s.discard) <= 1


def _may_end_turn(s: GGGState) -> bool:
    """A seat may pass once the cards ran out (ruling 17), or, when a turn may hold one of
    each action, once it has done one (a refused ask is no trade)."""
    return _cards_out(s) or (s.combine and (s.drawn or s.claimed or s.traded))


def _eligible(s: GGGState) -> tuple[str, ...]:
    """The asker's cards the trading partner may pick from: any but the gift just traded."""
    return tuple(sorted(c for c in s.hands[s.turn] if GIFT_OF[c] != s.ask_gift))


class GiftGiftGoneEngine(BaseEngine):
    slug = "gift_gift_gone"
    name = "Gift Gift Gone"
    min_players = 2
    max_players = 8
    event_types = frozenset(FIELDS)
    chance_event_types = frozenset({"deal", "reshuffle", "mix"})
    options = OPTIONS

    # -- setup ---------------------------------------------------------------
    def setup(self, num_players: int, options: Mapping[str, Any] | None = None) -> GGGState:
        check_player_count(self, num_players)
        opts = options_resolve(self, options)
        gifts, target = deck_for(num_players)
        s = GGGState()
        s.n, s.gifts, s.target = num_players, gifts, target
        s.box = cards_of(gifts)
        s.phase, s.deck, s.discard = DEAL, s.box, ()
        s.hands = tuple(() for _ in range(num_players))
        s.owner, s.table = {}, {}
        s.turn, s.draws, s.discards, s.asked = 0, 0, 0, False
        s.ask_gift, s.partner, s.order = None, None, ()
        s.shuffle_due, s.winner, s.end = False, None, None
        s.quiet = 0
        s.combine = opts["turn_actions"] == "one_of_each"
        s.give_frozen = opts["give_frozen_in_swap"]
        s.drawn, s.claimed, s.traded = False, False, False
        return s

    # -- turn order ----------------------------------------------------------
    def num_players(self, state: GGGState) -> int:
        return state.n

    def is_over(self, state: GGGState) -> bool:
        return state.phase == OVER

    def may_act(self, state: GGGState, actor: Actor) -> bool:
        s = state
        if s.phase == OVER:
            return False
        if s.shuffle_due or s.phase in (DEAL, MIX):
            return actor == CHANCE
        if s.phase in (ANSWER, PICK):
            return actor == s.partner
        return actor == s.turn

    def to_move(self, state: GGGState) -> list[Actor]:
        s = state
        if s.phase == OVER:
            return []
        if s.shuffle_due or s.phase in (DEAL, MIX):
            return [CHANCE]
        if s.phase in (ANSWER, PICK):
            assert s.partner is not None
            return [s.partner]
        return [s.turn]

    # -- applying events -----------------------------------------------------
    def _apply(self, state: GGGState, event: Event, actor: Actor) -> GGGState:
        kind = event["do"]
        extra = () if event.keys() <= ALLOWED_FIELDS[kind] else set(event) - ENVELOPE - FIELDS[kind]
        if extra:
            raise IllegalEvent(MALFORMED_EVENT, f"Unexpected field(s) {sorted(extra)} in {kind!r}.")
        s = state.copy()
        if actor == CHANCE:
            self._chance(s, event, kind)
        else:
            assert isinstance(actor, int)
            # An if-chain, most frequent first: compiled, each is a direct native call.
            if kind == "draw":
                self._do_draw(s, event, actor)
            elif kind == "discard":
                self._do_discard(s, event, actor)
            elif kind == "claim":
                self._do_claim(s, event, actor)
            elif kind == "swap":
                self._do_swap(s, event, actor)
            elif kind == "pass":
                self._do_pass(s, event, actor)
            elif kind == "ask":
                self._do_ask(s, event, actor)
            elif kind == "answer":
                self._do_answer(s, event, actor)
            elif kind == "pick":
                self._do_pick(s, event, actor)
            else:
                raise KeyError(kind)
        phase = s.phase
        # _settle has work only in these cases; most events leave a decision pending.
        if phase == REFILL or (not s.deck and phase in (TURN, DRAW) and len(s.discard) >= 2):
            self._settle(s)
        return s

    def _chance(self, s: GGGState, event: Event, kind: str) -> None:
        expected = "reshuffle" if s.shuffle_due else s.phase
        if kind != expected:
            raise IllegalEvent(
                "wrong_chance_event", f"Chance must now make a {expected!r} event, not {kind!r}."
            )
        if kind == "deal":
            deck = _permutation(event, "deck", s.box)
            dealt = HAND_SIZE * s.n
            s.hands = tuple(tuple(deck[i : i + HAND_SIZE]) for i in range(0, dealt, HAND_SIZE))
            s.discard = (deck[dealt],)
            s.deck = tuple(deck[dealt + 1 :])
            s.phase = TURN
        elif kind == "reshuffle":
            s.deck = tuple(_permutation(event, "deck", tuple(sorted(s.discard[:-1]))))
            s.discard = s.discard[-1:]
            s.shuffle_due = False
        else:
            asker = field_int(event, "seat", 0, s.n - 1)
            if asker != s.turn:
                raise IllegalEvent("wrong_seat", f"The asker is seat {s.turn}, not {asker}.")
            s.order = tuple(_permutation(event, "order", _eligible(s)))
            s.phase = PICK

    def _settle(self, s: GGGState) -> None:
        """Run what needs no decision: reshuffles become due, hands refill, turns pass."""
        while True:
            if s.phase in (TURN, DRAW, REFILL) and not s.deck and len(s.discard) >= 2:
                s.shuffle_due = True
                return
            if s.phase == REFILL:
                hand = s.hands[s.turn]
                missing = HAND_SIZE - len(hand)
                if missing > 0 and s.deck:
                    _set_hand(s, s.turn, hand + s.deck[:missing])
                    s.deck = s.deck[missing:]
                    continue
                s.turn = (s.turn + 1) % s.n
                s.phase, s.draws, s.discards, s.asked = TURN, 0, 0, False
                s.drawn, s.claimed, s.traded = False, False, False
                if _cards_out(s):
                    # Ruling 17: play goes on without the deck until a full round of turns
                    # passes with no claim, add or swap.
                    if s.quiet >= s.n:
                        s.phase, s.end = OVER, "cards_ran_out"
                        return
                    s.quiet += 1
                continue
            return

    def _gift(self, s: GGGState, event: Event, name: str = "gift") -> str:
        gift = field_str(event, name)
        if gift not in s.gifts:
            raise IllegalEvent(
                "unknown_gift",
                f"There is no gift {gift!r} in this game; gifts: {', '.join(s.gifts)}.",
            )
        return gift

    def _phase(self, s: GGGState, kind: str, *phases: str) -> None:
        if s.phase in phases:
            return
        if s.phase in (DRAW, DISCARD):
            raise IllegalEvent(
                "finish_drawing", f"You are drawing and discarding; no {kind!r} now."
            )
        if kind == "discard" and s.phase == TURN:
            raise IllegalEvent("draw_first", "Draw one or two cards before discarding.")
        raise IllegalEvent("wrong_phase", f"A {kind!r} is not possible now (phase {s.phase}).")

    def _must_claim(self, s: GGGState, seat: int, gift: str | None = None) -> None:
        forced = _forced(s, seat)
        if forced and gift not in forced:
            raise IllegalEvent(
                "must_claim",
                "You hold three or more of an unclaimed gift and must claim it: "
                f"{', '.join(forced)}.",
            )

    def _do_draw(self, s: GGGState, event: Event, seat: int) -> None:
        source = field_str(event, "from", ("deck", "discard"))
        self._phase(s, "draw", TURN, DRAW)
        if s.phase == TURN:
            require(not s.drawn, "already_drew", "You have already drawn and discarded this turn.")
            self._must_claim(s, seat)
        require(s.draws < 2, "draw_limit", "You may draw at most two cards; now discard.")
        if source == "deck":
            require(bool(s.deck), "deck_empty", "The deck is empty.")
            card, s.deck = s.deck[0], s.deck[1:]
        else:
            require(bool(s.discard), "discard_empty", "The discard pile is empty.")
            card, s.discard = s.discard[-1], s.discard[:-1]
        _set_hand(s, seat, (*s.hands[seat], card))
        s.phase, s.draws = DRAW, s.draws + 1

    def _do_discard(self, s: GGGState, event: Event, seat: int) -> None:
        card = field_str(event, "card")
        self._phase(s, "discard", DRAW, DISCARD)
        hand = s.hands[seat]
        if card not in hand:
            raise IllegalEvent("card_not_in_hand", f"{card!r} is not in your hand.")
        i = hand.index(card)
        _set_hand(s, seat, hand[:i] + hand[i + 1 :])
        s.discard = (*s.discard, card)
        s.discards += 1
        if s.discards == s.draws:
            s.drawn = True
            self._after_action(s)
        else:
            s.phase = DISCARD

    def _do_claim(self, s: GGGState, event: Event, seat: int) -> None:
        gift = self._gift(s, event)
        self._phase(s, "claim", TURN)
        self._claim_unused(s)
        self._must_claim(s, seat, gift)
        hand = s.hands[seat]
        mine = tuple(c for c in hand if GIFT_OF[c] == gift)
        owner = s.owner.get(gift)
        if not (owner is None or owner == seat):
            raise IllegalEvent(
                "owned_by_other", f"{NAME[gift]} is another player's gift; swap for it instead."
            )
        if owner is None:
            if len(mine) < 3:
                raise IllegalEvent("too_few_to_claim", f"Claiming needs three {NAME[gift]}.")
        else:
            if not mine:
                raise IllegalEvent("no_card_of_gift", f"You hold no {NAME[gift]} to add.")
        s.table = {**s.table, gift: s.table.get(gift, ()) + mine}
        s.owner = {**s.owner, gift: seat}
        _set_hand(s, seat, tuple(c for c in hand if GIFT_OF[c] != gift))
        self._end_action(s, seat)

    def _do_swap(self, s: GGGState, event: Event, seat: int) -> None:
        gift = self._gift(s, event)
        give = self._gift(s, event, "give")
        self._phase(s, "swap", TURN)
        self._claim_unused(s)
        self._must_claim(s, seat)
        victim = s.owner.get(gift)
        if not (victim is not None and victim != seat):
            raise IllegalEvent(
                "not_anothers_gift", f"{NAME[gift]} is not a gift another player has claimed."
            )
        assert victim is not None
        if len(s.table[gift]) >= 6:
            raise IllegalEvent(
                "gift_frozen", f"All six {NAME[gift]} are on the table: the gift is frozen."
            )
        if s.owner.get(give) != seat:
            raise IllegalEvent("not_your_gift", f"{NAME[give]} is not your gift.")
        if not (s.give_frozen or len(s.table[give]) < 6):
            raise IllegalEvent(
                "payment_frozen",
                f"Your {NAME[give]} has all six cards on the table: it is frozen and stays yours.",
            )
        if len(s.table[give]) < len(s.table[gift]):
            raise IllegalEvent(
                "too_few_to_swap",
                f"You need at least {len(s.table[gift])} {NAME[give]} to swap for {NAME[gift]}.",
            )
        hand = s.hands[seat]
        mine = tuple(c for c in hand if GIFT_OF[c] == gift)
        if not mine:
            raise IllegalEvent("no_card_of_gift", f"Swapping needs a {NAME[gift]} in your hand.")
        s.table = {**s.table, gift: s.table[gift] + mine}
        s.owner = {**s.owner, gift: seat, give: victim}
        _set_hand(s, seat, tuple(c for c in hand if GIFT_OF[c] != gift))
        self._end_action(s, seat, victim)

    def _claim_unused(self, s: GGGState) -> None:
        require(
            not s.claimed, "already_claimed",
            "You have already claimed, added or swapped this turn.",
        )  # fmt: skip

    def _end_action(self, s: GGGState, *seats: int) -> None:
        """The game ends at once when a claim or swap takes someone to the target;
        the acting seat is looked at first. A claim or swap restarts the count of quiet
        turns after the cards ran out (ruling 17)."""
        s.quiet = 0
        for seat in seats:
            if _points(s, seat) >= s.target:
                s.phase, s.winner, s.end = OVER, seat, "target"
                return
        s.claimed = True
        self._after_action(s)

    def _after_action(self, s: GGGState) -> None:
        """One action is done: with "turn_actions": "one" the turn ends (refill, next
        seat); with "one_of_each" the seat goes on until it passes or has used all three."""
        done = s.drawn and s.claimed and s.asked
        s.phase = REFILL if not s.combine or done else TURN

    def _do_pass(self, s: GGGState, event: Event, seat: int) -> None:
        """End the turn: after an action when a turn may hold one of each, or once the
        cards have run out (ruling 17)."""
        self._phase(s, "pass", TURN)
        after = "after an action of this turn or " if s.combine else ""
        if not _may_end_turn(s):
            raise IllegalEvent(
                "wrong_phase",
                f"You may pass only {after}once the deck is gone and cannot be rebuilt.",
            )
        self._must_claim(s, seat)
        s.phase = REFILL

    def _do_ask(self, s: GGGState, event: Event, seat: int) -> None:
        gift = self._gift(s, event)
        self._phase(s, "ask", TURN)
        self._must_claim(s, seat)
        require(not s.asked, "already_asked", "You already asked for a trade this turn.")
        if not any(GIFT_OF[c] != gift for c in s.hands[seat]):
            raise IllegalEvent(
                "nothing_to_offer", f"You have no card other than {NAME[gift]} to offer in return."
            )
        s.phase, s.ask_gift, s.partner = ANSWER, gift, (seat + 1) % s.n

    def _do_answer(self, s: GGGState, event: Event, seat: int) -> None:
        yes = event.get("yes")
        require(isinstance(yes, bool), MALFORMED_EVENT, '"yes" must be true or false.')
        self._phase(s, "answer", ANSWER)
        gift = s.ask_gift
        assert gift is not None
        if not yes:
            nxt = (seat + 1) % s.n
            if nxt == s.turn:
                s.phase, s.asked, s.ask_gift, s.partner = TURN, True, None, None
                if s.combine:
                    self._after_action(s)
            else:
                s.partner = nxt
            return
        hand = s.hands[seat]
        cards = sorted(c for c in hand if GIFT_OF[c] == gift)
        if not cards:
            raise IllegalEvent("no_card_of_gift", f"You hold no {NAME[gift]} to hand over.")
        card = cards[0]
        i = hand.index(card)
        _set_hand(s, seat, hand[:i] + hand[i + 1 :])
        _set_hand(s, s.turn, (*s.hands[s.turn], card))
        s.phase = MIX

    def _do_pick(self, s: GGGState, event: Event, seat: int) -> None:
        self._phase(s, "pick", PICK)
        position = field_int(event, "position", 0, len(s.order) - 1)
        card = s.order[position]
        hand = s.hands[s.turn]
        i = hand.index(card)
        _set_hand(s, s.turn, hand[:i] + hand[i + 1 :])
        _set_hand(s, seat, (*s.hands[seat], card))
        s.order, s.ask_gift, s.partner = (), None, None
        s.traded = True
        if s.combine:
            s.asked = True
        self._after_action(s)

    # -- enumerating ---------------------------------------------------------
    def legal_events(self, state: GGGState, seat: int) -> list[Event]:
        s = state
        if seat == CHANCE or seat not in self.to_move(s):
            return []
        hand = s.hands[seat]
        if s.phase == ANSWER:
            assert s.ask_gift is not None
            events = [{"by": seat, "do": "answer", "yes": False}]
            if _count(hand, s.ask_gift) > 0:
                events.append({"by": seat, "do": "answer", "yes": True})
            return events
        if s.phase == PICK:
            return [{"by": seat, "do": "pick", "position": p} for p in range(len(s.order))]
        discards = [{"by": seat, "do": "discard", "card": c} for c in sorted(set(hand))]
        draws = [
            {"by": seat, "do": "draw", "from": src}
            for src, pile in (("deck", s.deck), ("discard", s.discard))
            if pile
        ]
        if s.phase == DISCARD:
            return discards
        if s.phase == DRAW:
            return (draws if s.draws < 2 else []) + discards
        forced = _forced(s, seat)
        if forced:
            return [{"by": seat, "do": "claim", "gift": g} for g in forced]
        counts = Counter(GIFT_OF[c] for c in hand)
        events = []
        if not s.claimed:
            events.extend(
                {"by": seat, "do": "claim", "gift": g}
                for g in s.gifts
                if counts[g] and s.owner.get(g) == seat
            )
            mine = [
                g
                for g, o in s.owner.items()
                if o == seat and (s.give_frozen or len(s.table[g]) < 6)
            ]
            for gift, victim in s.owner.items():
                size = len(s.table[gift])
                if victim == seat or size >= 6 or not counts[gift]:
                    continue
                events.extend(
                    {"by": seat, "do": "swap", "gift": gift, "give": give}
                    for give in mine
                    if len(s.table[give]) >= size
                )
        if not s.drawn:
            events.extend(draws)
        if not s.asked:
            events.extend(
                {"by": seat, "do": "ask", "gift": g} for g in s.gifts if counts[g] < len(hand)
            )
        if _may_end_turn(s):
            events.append({"by": seat, "do": "pass"})
        return events

    def sample_chance(self, state: GGGState, rng: random.Random) -> Event:
        s = state
        if s.shuffle_due:
            deck = sorted(s.discard[:-1])
            rng.shuffle(deck)
            return {"by": CHANCE, "do": "reshuffle", "deck": deck}
        if s.phase == DEAL:
            deck = list(s.box)
            rng.shuffle(deck)
            return {"by": CHANCE, "do": "deal", "deck": deck}
        order = list(_eligible(s))
        rng.shuffle(order)
        return {"by": CHANCE, "do": "mix", "seat": s.turn, "order": order}

    # -- what seats see ------------------------------------------------------
    def view(self, state: GGGState, seat: int | None) -> dict[str, Any]:
        s = state
        hands = []
        for i, hand in enumerate(s.hands):
            entry: dict[str, Any] = {"seat": i, "count": len(hand)}
            if seat is None or seat == i:
                entry["cards"] = sorted(hand)
            hands.append(entry)
        data: dict[str, Any] = {
            "game": self.slug,
            "phase": s.phase,
            "turn": s.turn,
            "to_move": self.to_move(s),
            "target": s.target,
            "catalogue": [{"gift": g, "name": NAME[g], "value": VALUE[g]} for g in s.gifts],
            "deck_count": len(s.deck),
            "discard": list(s.discard),
            "hands": hands,
            "gifts": [
                {
                    "gift": g,
                    "name": NAME[g],
                    "value": VALUE[g],
                    "owner": s.owner[g],
                    "cards": list(s.table[g]),
                    "frozen": len(s.table[g]) >= 6,
                }
                for g in s.gifts
                if g in s.owner
            ],
            "points": [_points(s, i) for i in range(s.n)],
            "scores": self.scores(s),
            "draws": s.draws,
            "discards": s.discards,
            "asked": s.asked,
            "actions_done": [
                a for a, done in zip(ACTIONS, (s.drawn, s.claimed, s.traded), strict=True) if done
            ],
            "shuffle_due": s.shuffle_due,
            "cards_out": s.phase != OVER and _cards_out(s),
            "quiet_turns": s.quiet,
            "winner": s.winner,
            "end": s.end,
        }
        if seat is None:
            data["deck"] = list(s.deck)
        if s.phase in (ANSWER, MIX, PICK):
            trade: dict[str, Any] = {"asker": s.turn, "gift": s.ask_gift, "partner": s.partner}
            if s.phase == PICK:
                trade["positions"] = len(s.order)
                if seat is None or seat == s.turn:
                    trade["order"] = list(s.order)
            data["trade"] = trade
        return data

    def event_view(
        self, event: Mapping[str, Any], seat: int | None, before: Any = None
    ) -> Event:
        """A deal shows a seat its own hand (the first discard is in every view).

        A reshuffle shows only the new deck's size; a mix (the asker's face-down
        hand order) is shown only to the asker, whom the event names because
        event_view is given no state. Seat events never name a hidden card, so
        they are public as they are.
        """
        if seat is None or event.get("by") != CHANCE:
            return dict(event)
        kind = event.get("do")
        shown: Event = {"by": CHANCE, "do": kind}
        cards = event.get("deck") if kind != "mix" else event.get("order")
        if not isinstance(cards, list):
            return {**shown, "hidden": True}
        if kind == "mix":
            asker = event.get("seat")
            if asker == seat:
                return dict(event)
            return {**shown, "seat": asker, "count": len(cards)}
        if kind == "deal":
            # Hands are dealt in blocks of six, so a seat's hand is known from the seat
            # number alone (event_view gets no state, hence no player count).
            hand = cards[HAND_SIZE * seat : HAND_SIZE * seat + HAND_SIZE]
            return {**shown, "hand": sorted(str(c) for c in hand)}
        return {**shown, "count": len(cards)}

    def score_bounds(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> tuple[int, int | None]:
        """From minus a hand of the dearest cards to the target plus one big claim.

        Final score = claimed points - the value of the cards in hand (ruling 19).
        Claimed points only change by a claim or a swap, and every one of them is
        checked against the target at once for both seats it touches (ruling 18),
        so before the last action everyone has at most ``target - 1``; one action
        adds at most six cards of one gift, six times the dearest value. A hand
        holds six cards (a draw of two is discarded back to six before anything
        else); two more are allowed for here to stay on the safe side. Nobody
        claims negative points, so the lowest score is a full hand of the dearest
        gift in play, unclaimed.
        """
        check_player_count(self, num_players)
        options_resolve(self, options)
        gifts, target = deck_for(num_players)
        dearest = max(VALUE[gift] for gift in gifts)
        return -(HAND_SIZE + 2) * dearest, target - 1 + COPIES * dearest

    def scores(self, state: GGGState) -> list[int]:
        """Claimed points while the game runs; at the end, minus the cards still in hand."""
        s = state
        points = [_points(s, i) for i in range(s.n)]
        if s.phase == OVER:
            return [p - _hand_value(h) for p, h in zip(points, s.hands, strict=True)]
        return points

    def result(self, state: GGGState) -> Result:
        s = state
        scores = self.scores(s)
        return Result.from_scores(
            scores,
            order=[(1 if i == s.winner else 0, sc) for i, sc in enumerate(scores)],
            details={
                "end": s.end,
                "winner": s.winner,
                "points": [_points(s, i) for i in range(s.n)],
                "in_hand": [_hand_value(h) for h in s.hands],
            },
        )

    def card_multiset(self, state: GGGState) -> Counter[str]:
        s = state
        cards: Counter[str] = Counter(s.deck)
        cards.update(s.discard)
        for hand in s.hands:
            cards.update(hand)
        for pile in s.table.values():
            cards.update(pile)
        return cards

    def secrets(self, state: GGGState, seat: int) -> set[str]:
        hidden = set(state.deck)
        for i, hand in enumerate(state.hands):
            if i != seat:
                hidden.update(hand)
        return hidden

    # -- words (games/gift_gift_gone/words.py) --------------------------------
    def card_catalog(self) -> dict[str, CardInfo]:
        """Every card id, and every gift id (events name gifts): name, icon, value."""
        return words.CATALOG

    def tell(
        self,
        event: Event,
        seat: int | None,
        before: dict[str, JSON] | None,
        after: dict[str, JSON] | None,
    ) -> str:
        return words.tell(event, seat, before, after)

    def tell_move(self, event: Event, seat: int, before: dict[str, JSON]) -> str:
        return words.tell_move(event, seat, before)

    def greedy_event(self, state: GGGState, seat: int, rng: random.Random) -> Event:
        from games.gift_gift_gone.greedy import choose

        return choose(self, state, seat, rng)


def _permutation(event: Event, name: str, cards: tuple[str, ...]) -> list[str]:
    value = event.get(name)
    if not (isinstance(value, list) and all(isinstance(c, str) for c in value)):
        raise IllegalEvent(MALFORMED_EVENT, f'"{name}" must be a list of card ids.')
    assert isinstance(value, list)
    if not (len(value) == len(cards) and sorted(value) == sorted(cards)):
        raise IllegalEvent(
            "bad_shuffle", f'"{name}" must hold each of these {len(cards)} cards exactly once.'
        )
    return value
