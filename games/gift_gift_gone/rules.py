"""The Gift Gift Gone rules: setup, whose turn, legal events, applying them, scoring.

Rulebook: ``seeds/001_669ec57016f647dc.txt``; the rulings are numbered in
docs/rules/gift_gift_gone.md and quoted here as (ruling 17)...

States are never mutated: ``_apply`` works on a shallow ``State.copy()`` and replaces
the tuples and dicts it changes, so every earlier state stays valid for callers
that keep the whole history. What a seat sees is in ``views``, the greedy bot in
``bot`` and the sentences in ``words``; the engine's methods delegate to them.
The module runs a little over 500 lines because every event handler is a rule and
the state's phases, reason codes and checkers are imported here one name a line.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from games.base import (
    CHANCE,
    JSON,
    MALFORMED_EVENT,
    Actor,
    BaseEngine,
    CardInfo,
    Event,
    IllegalEvent,
    Result,
    SeatHistory,
    check_player_count,
    field_int,
    field_str,
    options_resolve,
    require,
)
from games.gift_gift_gone import bot, determinize, views, words
from games.gift_gift_gone.cards import COPIES, GIFT_OF, HAND_SIZE, NAME, VALUE, cards_of, deck_for
from games.gift_gift_gone.options import OPTIONS
from games.gift_gift_gone.state import (
    ALLOWED_FIELDS,
    ALREADY_ASKED,
    ALREADY_DREW,
    ANSWER,
    CARD_NOT_IN_HAND,
    DEAL,
    DECK_EMPTY,
    DISCARD,
    DISCARD_EMPTY,
    DRAW,
    DRAW_LIMIT,
    ENVELOPE,
    FIELDS,
    GIFT_FROZEN,
    MIX,
    NO_CARD_OF_GIFT,
    NOT_ANOTHERS_GIFT,
    NOT_YOUR_GIFT,
    NOTHING_TO_OFFER,
    OVER,
    OWNED_BY_OTHER,
    PAYMENT_FROZEN,
    PICK,
    REFILL,
    TOO_FEW_TO_CLAIM,
    TOO_FEW_TO_SWAP,
    TURN,
    WRONG_CHANCE_EVENT,
    WRONG_PHASE,
    WRONG_SEAT,
    State,
    cards_out,
    check_claim_unused,
    check_must_claim,
    check_phase,
    count_of,
    eligible,
    forced_claims,
    hand_value,
    may_end_turn,
    read_gift,
    read_permutation,
    set_hand,
    table_points,
)


class GiftGiftGoneEngine(BaseEngine):
    slug = "gift_gift_gone"
    name = "Gift Gift Gone"
    min_players = 2
    max_players = 8
    event_types = frozenset(FIELDS)
    chance_event_types = frozenset({"deal", "reshuffle", "mix"})
    options = OPTIONS

    # -- setup ---------------------------------------------------------------
    def setup(self, num_players: int, options: Mapping[str, Any] | None = None) -> State:
        check_player_count(self, num_players)
        opts = options_resolve(self, options)
        gifts, target = deck_for(num_players)
        s = State()
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
    def num_players(self, state: State) -> int:
        return state.n

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def may_act(self, state: State, actor: Actor) -> bool:
        s = state
        if s.phase == OVER:
            return False
        if s.shuffle_due or s.phase in (DEAL, MIX):
            return actor == CHANCE
        if s.phase in (ANSWER, PICK):
            return actor == s.partner
        return actor == s.turn

    def to_move(self, state: State) -> list[Actor]:
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
    def _apply(self, state: State, event: Event, actor: Actor) -> State:
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

    def _chance(self, s: State, event: Event, kind: str) -> None:
        expected = "reshuffle" if s.shuffle_due else s.phase
        if kind != expected:
            raise IllegalEvent(
                WRONG_CHANCE_EVENT, f"Chance must now make a {expected!r} event, not {kind!r}."
            )
        if kind == "deal":
            deck = read_permutation(event, "deck", s.box)
            dealt = HAND_SIZE * s.n
            s.hands = tuple(tuple(deck[i : i + HAND_SIZE]) for i in range(0, dealt, HAND_SIZE))
            s.discard = (deck[dealt],)
            s.deck = tuple(deck[dealt + 1 :])
            s.phase = TURN
        elif kind == "reshuffle":
            s.deck = tuple(read_permutation(event, "deck", tuple(sorted(s.discard[:-1]))))
            s.discard = s.discard[-1:]
            s.shuffle_due = False
        else:
            asker = field_int(event, "seat", 0, s.n - 1)
            if asker != s.turn:
                raise IllegalEvent(
                    WRONG_SEAT, f"The asker is seat {s.turn + 1}, not seat {asker + 1}."
                )
            s.order = tuple(read_permutation(event, "order", eligible(s)))
            s.phase = PICK

    def _settle(self, s: State) -> None:
        """Run what needs no decision: reshuffles become due, hands refill, turns pass."""
        while True:
            if s.phase in (TURN, DRAW, REFILL) and not s.deck and len(s.discard) >= 2:
                s.shuffle_due = True
                return
            if s.phase == REFILL:
                hand = s.hands[s.turn]
                missing = HAND_SIZE - len(hand)
                if missing > 0 and s.deck:
                    set_hand(s, s.turn, hand + s.deck[:missing])
                    s.deck = s.deck[missing:]
                    continue
                s.turn = (s.turn + 1) % s.n
                s.phase, s.draws, s.discards, s.asked = TURN, 0, 0, False
                s.drawn, s.claimed, s.traded = False, False, False
                if cards_out(s):
                    # Ruling 17: play goes on without the deck until a full round of turns
                    # passes with no claim, add or swap.
                    if s.quiet >= s.n:
                        s.phase, s.end = OVER, "cards_ran_out"
                        return
                    s.quiet += 1
                continue
            return

    def _do_draw(self, s: State, event: Event, seat: int) -> None:
        source = field_str(event, "from", ("deck", "discard"))
        check_phase(s, "draw", TURN, DRAW)
        if s.phase == TURN:
            require(not s.drawn, ALREADY_DREW, "You have already drawn and discarded this turn.")
            check_must_claim(s, seat)
        require(s.draws < 2, DRAW_LIMIT, "You may draw at most two cards; now discard.")
        if source == "deck":
            require(bool(s.deck), DECK_EMPTY, "The deck is empty.")
            card, s.deck = s.deck[0], s.deck[1:]
        else:
            require(bool(s.discard), DISCARD_EMPTY, "The discard pile is empty.")
            card, s.discard = s.discard[-1], s.discard[:-1]
        set_hand(s, seat, (*s.hands[seat], card))
        s.phase, s.draws = DRAW, s.draws + 1

    def _do_discard(self, s: State, event: Event, seat: int) -> None:
        card = field_str(event, "card")
        check_phase(s, "discard", DRAW, DISCARD)
        hand = s.hands[seat]
        if card not in hand:
            raise IllegalEvent(CARD_NOT_IN_HAND, f"{card!r} is not in your hand.")
        i = hand.index(card)
        set_hand(s, seat, hand[:i] + hand[i + 1 :])
        s.discard = (*s.discard, card)
        s.discards += 1
        if s.discards == s.draws:
            s.drawn = True
            self._after_action(s)
        else:
            s.phase = DISCARD

    def _do_claim(self, s: State, event: Event, seat: int) -> None:
        gift = read_gift(s, event)
        check_phase(s, "claim", TURN)
        check_claim_unused(s)
        check_must_claim(s, seat, gift)
        hand = s.hands[seat]
        mine = tuple(c for c in hand if GIFT_OF[c] == gift)
        owner = s.owner.get(gift)
        if not (owner is None or owner == seat):
            raise IllegalEvent(
                OWNED_BY_OTHER, f"{NAME[gift]} is another player's gift; swap for it instead."
            )
        if owner is None:
            if len(mine) < 3:
                raise IllegalEvent(TOO_FEW_TO_CLAIM, f"Claiming needs three {NAME[gift]}.")
        else:
            if not mine:
                raise IllegalEvent(NO_CARD_OF_GIFT, f"You hold no {NAME[gift]} to add.")
        s.table = {**s.table, gift: s.table.get(gift, ()) + mine}
        s.owner = {**s.owner, gift: seat}
        set_hand(s, seat, tuple(c for c in hand if GIFT_OF[c] != gift))
        self._end_action(s, seat)

    def _do_swap(self, s: State, event: Event, seat: int) -> None:
        gift = read_gift(s, event)
        give = read_gift(s, event, "give")
        check_phase(s, "swap", TURN)
        check_claim_unused(s)
        check_must_claim(s, seat)
        victim = s.owner.get(gift)
        if not (victim is not None and victim != seat):
            raise IllegalEvent(
                NOT_ANOTHERS_GIFT, f"{NAME[gift]} is not a gift another player has claimed."
            )
        assert victim is not None
        if len(s.table[gift]) >= 6:
            raise IllegalEvent(
                GIFT_FROZEN, f"All six {NAME[gift]} are on the table: the gift is frozen."
            )
        if s.owner.get(give) != seat:
            raise IllegalEvent(NOT_YOUR_GIFT, f"{NAME[give]} is not your gift.")
        if not (s.give_frozen or len(s.table[give]) < 6):
            raise IllegalEvent(
                PAYMENT_FROZEN,
                f"Your {NAME[give]} has all six cards on the table: it is frozen and stays yours.",
            )
        if len(s.table[give]) < len(s.table[gift]):
            raise IllegalEvent(
                TOO_FEW_TO_SWAP,
                f"You need at least {len(s.table[gift])} {NAME[give]} to swap for {NAME[gift]}.",
            )
        hand = s.hands[seat]
        mine = tuple(c for c in hand if GIFT_OF[c] == gift)
        if not mine:
            raise IllegalEvent(NO_CARD_OF_GIFT, f"Swapping needs a {NAME[gift]} in your hand.")
        s.table = {**s.table, gift: s.table[gift] + mine}
        s.owner = {**s.owner, gift: seat, give: victim}
        set_hand(s, seat, tuple(c for c in hand if GIFT_OF[c] != gift))
        self._end_action(s, seat, victim)

    def _end_action(self, s: State, *seats: int) -> None:
        """The game ends at once when a claim or swap takes someone to the target;
        the acting seat is looked at first. A claim or swap restarts the count of quiet
        turns after the cards ran out (ruling 17)."""
        s.quiet = 0
        for seat in seats:
            if table_points(s, seat) >= s.target:
                s.phase, s.winner, s.end = OVER, seat, "target"
                return
        s.claimed = True
        self._after_action(s)

    def _after_action(self, s: State) -> None:
        """One action is done: with "turn_actions": "one" the turn ends (refill, next
        seat); with "one_of_each" the seat goes on until it passes or has used all three."""
        done = s.drawn and s.claimed and s.asked
        s.phase = REFILL if not s.combine or done else TURN

    def _do_pass(self, s: State, event: Event, seat: int) -> None:
        """End the turn: after an action when a turn may hold one of each, or once the
        cards have run out (ruling 17)."""
        check_phase(s, "pass", TURN)
        after = "after an action of this turn or " if s.combine else ""
        if not may_end_turn(s):
            raise IllegalEvent(
                WRONG_PHASE,
                f"You may pass only {after}once the deck is gone and cannot be rebuilt.",
            )
        check_must_claim(s, seat)
        s.phase = REFILL

    def _do_ask(self, s: State, event: Event, seat: int) -> None:
        gift = read_gift(s, event)
        check_phase(s, "ask", TURN)
        check_must_claim(s, seat)
        require(not s.asked, ALREADY_ASKED, "You already asked for a trade this turn.")
        if not any(GIFT_OF[c] != gift for c in s.hands[seat]):
            raise IllegalEvent(
                NOTHING_TO_OFFER, f"You have no card other than {NAME[gift]} to offer in return."
            )
        s.phase, s.ask_gift, s.partner = ANSWER, gift, (seat + 1) % s.n

    def _do_answer(self, s: State, event: Event, seat: int) -> None:
        yes = event.get("yes")
        require(isinstance(yes, bool), MALFORMED_EVENT, '"yes" must be true or false.')
        check_phase(s, "answer", ANSWER)
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
            raise IllegalEvent(NO_CARD_OF_GIFT, f"You hold no {NAME[gift]} to hand over.")
        card = cards[0]
        i = hand.index(card)
        set_hand(s, seat, hand[:i] + hand[i + 1 :])
        set_hand(s, s.turn, (*s.hands[s.turn], card))
        s.phase = MIX

    def _do_pick(self, s: State, event: Event, seat: int) -> None:
        check_phase(s, "pick", PICK)
        position = field_int(event, "position", 0, len(s.order) - 1)
        card = s.order[position]
        hand = s.hands[s.turn]
        i = hand.index(card)
        set_hand(s, s.turn, hand[:i] + hand[i + 1 :])
        set_hand(s, seat, (*s.hands[seat], card))
        s.order, s.ask_gift, s.partner = (), None, None
        s.traded = True
        if s.combine:
            s.asked = True
        self._after_action(s)

    # -- enumerating ---------------------------------------------------------
    def legal_events(self, state: State, seat: int) -> list[Event]:
        s = state
        if seat == CHANCE or not self.may_act(s, seat):  # may_act: to_move without the list
            return []
        hand = s.hands[seat]
        if s.phase == ANSWER:
            assert s.ask_gift is not None
            events = [{"by": seat, "do": "answer", "yes": False}]
            if count_of(hand, s.ask_gift) > 0:
                events.append({"by": seat, "do": "answer", "yes": True})
            return events
        if s.phase == PICK:
            return [{"by": seat, "do": "pick", "position": p} for p in range(len(s.order))]
        if s.phase == DISCARD:
            return [{"by": seat, "do": "discard", "card": c} for c in sorted(set(hand))]
        draws = [
            {"by": seat, "do": "draw", "from": src}
            for src, pile in (("deck", s.deck), ("discard", s.discard))
            if pile
        ]
        if s.phase == DRAW:
            discards = [{"by": seat, "do": "discard", "card": c} for c in sorted(set(hand))]
            return (draws if s.draws < 2 else []) + discards
        forced = forced_claims(s, seat)
        if forced:
            return [{"by": seat, "do": "claim", "gift": g} for g in forced]
        # A plain dict, not a Counter: compiled, a Counter stays the interpreted class,
        # and its look-ups of gifts not held cost more than the rest of this method.
        counts: dict[str, int] = {}
        for c in hand:
            g = GIFT_OF[c]
            counts[g] = counts.get(g, 0) + 1
        events = []
        if not s.claimed:
            events.extend(
                {"by": seat, "do": "claim", "gift": g}
                for g in s.gifts
                if counts.get(g, 0) and s.owner.get(g) == seat
            )
            mine = [
                g
                for g, o in s.owner.items()
                if o == seat and (s.give_frozen or len(s.table[g]) < 6)
            ]
            for gift, victim in s.owner.items():
                size = len(s.table[gift])
                if victim == seat or size >= 6 or not counts.get(gift, 0):
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
                {"by": seat, "do": "ask", "gift": g}
                for g in s.gifts
                if counts.get(g, 0) < len(hand)
            )
        if may_end_turn(s):
            events.append({"by": seat, "do": "pass"})
        return events

    def sample_chance(self, state: State, rng: random.Random) -> Event:
        s = state
        if s.shuffle_due:
            deck = sorted(s.discard[:-1])
            rng.shuffle(deck)
            return {"by": CHANCE, "do": "reshuffle", "deck": deck}
        if s.phase == DEAL:
            deck = list(s.box)
            rng.shuffle(deck)
            return {"by": CHANCE, "do": "deal", "deck": deck}
        order = list(eligible(s))
        rng.shuffle(order)
        return {"by": CHANCE, "do": "mix", "seat": s.turn, "order": order}

    # -- what seats see (games/gift_gift_gone/views.py) ------------------------
    def determinizer(self, history: SeatHistory) -> determinize.GiftGiftGoneDeterminizer:
        """See :mod:`games.gift_gift_gone.determinize`."""
        return determinize.GiftGiftGoneDeterminizer(history)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(self, state, seat)

    def event_view(
        self, event: Mapping[str, Any], seat: int | None, before: Any = None
    ) -> Event:
        return views.event_view(self, event, seat, before)

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

    def scores(self, state: State) -> list[int]:
        """Claimed points while the game runs; at the end, minus the cards still in hand."""
        s = state
        points = [table_points(s, i) for i in range(s.n)]
        if s.phase == OVER:
            return [p - hand_value(h) for p, h in zip(points, s.hands, strict=True)]
        return points

    def result(self, state: State) -> Result:
        s = state
        scores = self.scores(s)
        return Result.from_scores(
            scores,
            order=[(1 if i == s.winner else 0, sc) for i, sc in enumerate(scores)],
            details={
                "end": s.end,
                "winner": s.winner,
                "points": [table_points(s, i) for i in range(s.n)],
                "in_hand": [hand_value(h) for h in s.hands],
            },
        )

    def card_multiset(self, state: State) -> Counter[str]:
        s = state
        cards: Counter[str] = Counter(s.deck)
        cards.update(s.discard)
        for hand in s.hands:
            cards.update(hand)
        for pile in s.table.values():
            cards.update(pile)
        return cards

    def secrets(self, state: State, seat: int) -> set[str]:
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

    # -- the greedy bot (games/gift_gift_gone/bot.py) -------------------------
    def greedy_event(self, state: State, seat: int, rng: random.Random) -> Event:
        return bot.greedy_event(self, state, seat, rng)

ENGINE = GiftGiftGoneEngine()
