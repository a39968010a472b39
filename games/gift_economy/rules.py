"""Gift Economy's rules: ``GiftEconomyEngine`` and ``ENGINE``.

Rules, card ids and every interpretation are in ``docs/rules/gift_economy.md``;
the numbers in comments (``I3``...) refer to that list. The position and the reason
codes are in ``state.py``; what a seat sees is in ``views.py``, the greedy bot in
``bot.py`` and the words in ``words.py``, which the engine's methods delegate to.

It runs to about 580 lines because the twelve event handlers and the turn machinery they
share (drawing, the goal check, passing the turn, resolving set-aside cards) belong in one
place, and its typed imports alone take 80 lines.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

from games.base import (
    CHANCE,
    MALFORMED_EVENT,
    Actor,
    BaseEngine,
    CardInfo,
    Event,
    IllegalEvent,
    InvalidSetup,
    Result,
    SeatHistory,
    check_player_count,
    field_int,
    field_str,
    options_resolve,
    require,
)
from games.gift_economy import bot, determinize, views, words
from games.gift_economy.cards import (
    CARD_SET,
    CARDS,
    DEALS_PER_TURN,
    DRAW,
    DRAWS_PER_TURN,
    GOAL,
    HAND_SIZE,
    PASS,
    PTS,
    RANDOM_DISCARD,
    RES,
    RESOURCES,
    SPECIALS,
    counter_range,
    hand_score,
    resource_sets,
    sort_cards,
    totals,
)
from games.gift_economy.options import OPTIONS
from games.gift_economy.state import (
    ACCEPT,
    ALLOWED_FIELDS,
    BAD_DECK,
    CARD_NOT_IN_HAND,
    CHOOSE,
    COUNTER,
    COUNTER_TOO_SMALL,
    GOAL_TOTALS,
    NO_SUCH_COUNTER,
    NOT_A_SPECIAL,
    OFFER_TOO_SMALL,
    OVER,
    PHASE_OF,
    POTLATCH,
    RANDOM,
    SHUFFLE,
    SPECIAL,
    TARGET_HAS_NO_CARDS,
    TRADE,
    WRONG_PHASE,
    State,
    read_one_resource,
    set_at,
    without,
)


class GiftEconomyEngine(BaseEngine):
    slug = "gift_economy"
    name = "Gift Economy"
    min_players = 2  # I1
    max_players = 6
    event_types = frozenset(PHASE_OF)
    chance_event_types = frozenset({"shuffle", "random_discard"})
    scores_public = False  # closeness to 12/12/12/12 is computed from hidden hands
    options = OPTIONS

    # -- setup -------------------------------------------------------------------
    def setup(self, num_players: int, options: Mapping[str, Any] | None = None) -> State:
        check_player_count(self, num_players)
        opts = options_resolve(self, options)
        start = opts["start_player"]
        if start >= num_players:
            raise InvalidSetup(
                "bad_option",
                f'Option "start_player" must be a seat index, 0 (seat 1) to {num_players - 1} '
                f"(seat {num_players}), not {start}.",
                option="start_player",
            )
        st = State()
        st.n, st.start, st.phase = num_players, start, SHUFFLE
        st.ranking = opts["ranking"]
        st.deck, st.top = CARDS, 0  # still boxed, in canonical order
        st.hands = ((),) * num_players
        st.discard = ()
        st.active, st.turn, st.deals_left = start, 0, 0
        st.offer, st.responder, st.counters, st.last_deal, st.played = None, None, (), None, None
        st.choose_kind, st.direction, st.need = None, 0, (0,) * num_players
        st.pending = ((),) * num_players
        st.target = None
        st.public = frozenset()
        st.held = (frozenset(),) * num_players
        st.end_reason = None
        return st

    # -- protocol basics ---------------------------------------------------------
    def num_players(self, state: State) -> int:
        return state.n

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def may_act(self, state: State, actor: Actor) -> bool:
        phase = state.phase
        if phase in (TRADE, ACCEPT, SPECIAL):
            return actor == state.active
        if phase == COUNTER:
            return actor == state.responder
        if phase == CHOOSE:
            return actor != CHANCE and bool(state.need[actor])
        return phase in (SHUFFLE, RANDOM) and actor == CHANCE

    def to_move(self, state: State) -> list[Actor]:
        phase = state.phase
        if phase in (TRADE, ACCEPT, SPECIAL):
            return [state.active]
        if phase == COUNTER:
            assert state.responder is not None
            return [state.responder]
        if phase == CHOOSE:
            return [s for s in range(state.n) if state.need[s]]
        if phase in (SHUFFLE, RANDOM):
            return [CHANCE]
        return []

    def card_multiset(self, state: State) -> Counter[str]:
        cards = Counter(state.deck[state.top :])
        for hand in state.hands:
            cards.update(hand)
        for pend in state.pending:
            cards.update(pend)
        cards.update(state.discard)
        return cards

    def score_bounds(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> tuple[int, int | None]:
        """The worst and best hand score under the table's ``ranking`` (I9).

        Each resource holds 0 to 55 points (its cards are worth 1 to 10, once
        each) and is scored on its own, so a hand scores between four times the
        worst and four times the best resource score over that range: 48 at
        best under every reading, and at worst -124 under ``closeness`` (every
        resource 43 points from 12; loose, no hand holds all 40 cards) or 0.
        """
        check_player_count(self, num_players)
        ranking = options_resolve(self, options)["ranking"]
        most = max(sum(PTS[c] for c in CARDS if RES[c] == r) for r in range(len(RESOURCES)))
        scores = [hand_score([p] * len(RESOURCES), ranking) for p in range(most + 1)]
        return min(scores), max(scores)

    def scores(self, state: State) -> list[int]:
        """Each hand's score out of 48 under the table's ``ranking`` option (I9)."""
        return [hand_score(totals(hand), state.ranking) for hand in state.hands]

    def result(self, state: State) -> Result:
        """The goal first, then the ``ranking`` score, then the most cards (I9, I10)."""
        scores = self.scores(state)
        counts = [len(h) for h in state.hands]
        goal = [int(totals(h) == [GOAL] * 4) for h in state.hands]
        return Result.from_scores(
            scores,
            order=[(g, s, c) for g, s, c in zip(goal, scores, counts, strict=True)],
            details={
                "end_reason": state.end_reason,
                "points": [totals(h) for h in state.hands],
                "cards": counts,
            },
        )

    # -- applying ------------------------------------------------------------------
    def _apply(self, state: State, event: Event, actor: Actor) -> State:
        kind = event["do"]
        if not event.keys() <= ALLOWED_FIELDS[kind]:
            extra = set(event) - ALLOWED_FIELDS[kind]
            raise IllegalEvent(
                MALFORMED_EVENT, f"A {kind!r} event has no field {sorted(map(repr, extra))}."
            )
        if state.phase != PHASE_OF[kind]:
            raise IllegalEvent(
                WRONG_PHASE,
                f"A {kind!r} event does not fit now: the game is in the {state.phase!r} phase.",
            )
        st = state.copy()
        # An if-chain, most frequent first: compiled, each is a direct native call.
        # The envelope lets only chance make a chance event and only a seat the others.
        if kind == "shuffle":
            self._do_shuffle(st, event, actor)
        elif kind == "random_discard":
            self._do_random_discard(st, event, actor)
        else:
            assert isinstance(actor, int)
            if kind == "decline":
                self._do_decline(st, event, actor)
            elif kind == "offer":
                self._do_offer(st, event, actor)
            elif kind == "counter":
                self._do_counter(st, event, actor)
            elif kind == "reject":
                self._do_reject(st, event, actor)
            elif kind == "pass_card":
                self._do_pass_card(st, event, actor)
            elif kind == "end_turn":
                self._do_end_turn(st, event, actor)
            elif kind == "accept":
                self._do_accept(st, event, actor)
            elif kind == "play_special":
                self._do_play_special(st, event, actor)
            elif kind == "discard":
                self._do_discard(st, event, actor)
            elif kind == "skip_trade":
                self._do_skip_trade(st, event, actor)
            else:
                raise KeyError(kind)
        return st

    def _do_shuffle(self, st: State, event: Event, actor: Actor) -> None:
        deck = event.get("deck")
        require(
            isinstance(deck, list) and all(isinstance(c, str) for c in deck),
            MALFORMED_EVENT,
            '"deck" must be a list of card ids.',
        )
        assert isinstance(deck, list)
        if not (len(deck) == len(CARDS) and set(deck) == CARD_SET):
            raise IllegalEvent(
                BAD_DECK, f"The deck must hold each of the {len(CARDS)} cards exactly once."
            )
        n = st.n
        dealt = n * HAND_SIZE
        hands: list[list[str]] = [[] for _ in range(n)]
        for i in range(dealt):  # I3: one card at a time, start player first
            hands[(st.start + i) % n].append(deck[i])
        st.deck, st.top = tuple(deck), dealt
        st.hands = tuple(tuple(h) for h in hands)
        st.held = tuple(frozenset(h) for h in hands)
        self._start_turn(st, st.start)

    def _do_offer(self, st: State, event: Event, actor: int) -> None:
        cards, points = read_one_resource(st, event, actor)
        require(
            points >= 2,
            OFFER_TOO_SMALL,
            "A deal offers two or more points of one resource.",
        )
        st.offer = cards
        st.deals_left -= 1
        st.counters = ()
        st.responder = (actor + 1) % st.n  # I5: counters go round from the left
        st.public = st.public | set(cards)
        st.phase = COUNTER

    def _do_skip_trade(self, st: State, event: Event, actor: int) -> None:
        st.phase = SPECIAL

    def _do_counter(self, st: State, event: Event, actor: int) -> None:
        cards, points = read_one_resource(st, event, actor)
        assert st.offer is not None
        offered = sum(PTS[c] for c in st.offer)
        low, high = counter_range(offered)
        if points < low:
            raise IllegalEvent(
                COUNTER_TOO_SMALL,
                f"A counter must be worth more than the {offered} points offered.",
            )
        if points > high:
            raise IllegalEvent(
                POTLATCH, f"Potlatching: a counter to {offered} points may be worth at most {high}."
            )
        st.counters = (*st.counters, (actor, cards))
        st.public = st.public | set(cards)
        self._next_responder(st)

    def _do_decline(self, st: State, event: Event, actor: int) -> None:
        st.counters = (*st.counters, (actor, None))
        self._next_responder(st)

    def _do_accept(self, st: State, event: Event, actor: int) -> None:
        seat = field_int(event, "seat", 0, st.n - 1)
        found = [cards for s, cards in st.counters if s == seat and cards]
        if not found:
            raise IllegalEvent(NO_SUCH_COUNTER, f"Seat {seat + 1} made no counter to accept.")
        got = found[0]
        assert st.offer is not None
        hands = list(st.hands)
        hands[actor] = without(hands[actor], st.offer) + got
        hands[seat] = without(hands[seat], got) + st.offer
        st.hands = tuple(hands)
        held = list(st.held)
        held[actor] = held[actor] | set(got)
        held[seat] = held[seat] | set(st.offer)
        st.held = tuple(held)
        st.last_deal = {"offer": sort_cards(st.offer), "accepted": seat, "counter": sort_cards(got)}
        st.offer, st.counters, st.responder = None, (), None
        if not self._check_goal(st):
            st.phase = SPECIAL  # I7: one completed deal ends the trading

    def _do_reject(self, st: State, event: Event, actor: int) -> None:
        self._deal_failed(st)

    def _do_play_special(self, st: State, event: Event, actor: int) -> None:
        card = field_str(event, "card")
        hand = st.hands[actor]
        if card not in hand:
            raise IllegalEvent(CARD_NOT_IN_HAND, f"{card!r} is not in your hand.")
        if card not in SPECIALS:
            raise IllegalEvent(NOT_A_SPECIAL, f"{card!r} is not a Special Event card.")
        effect, direction, count = SPECIALS[card]
        hand = without(hand, (card,))
        target = None
        if effect == RANDOM_DISCARD:
            target = field_int(event, "target", 0, st.n - 1)
            left = hand if target == actor else st.hands[target]
            if not left:
                raise IllegalEvent(
                    TARGET_HAS_NO_CARDS, f"Seat {target + 1} has no card to discard."
                )
        else:
            require(
                "target" not in event,
                MALFORMED_EVENT,
                "Only the queen of spades names a target player.",
            )
        st.hands = set_at(st.hands, actor, hand)
        st.discard = (*st.discard, card)
        st.played = card
        if effect == DRAW:
            if not self._draw(st, actor, 1):
                self._after_change(st)
        elif effect == RANDOM_DISCARD:
            st.target = target
            st.phase = RANDOM
        else:
            if effect == PASS:
                need = tuple(min(count, len(h)) for h in st.hands)
            else:  # DISCARD_CHOICE: everyone but the player
                need = tuple(
                    0 if s == actor else min(count, len(h)) for s, h in enumerate(st.hands)
                )
            st.choose_kind = "pass_card" if effect == PASS else "discard"
            st.direction = direction
            st.need = need
            st.pending = ((),) * st.n
            st.phase = CHOOSE
            if not any(need):
                self._resolve_choices(st)

    def _do_end_turn(self, st: State, event: Event, actor: int) -> None:
        self._start_turn(st, (st.active + 1) % st.n)

    def _do_pass_card(self, st: State, event: Event, actor: int) -> None:
        self._choose(st, event, actor)

    def _do_discard(self, st: State, event: Event, actor: int) -> None:
        self._choose(st, event, actor)

    def _do_random_discard(self, st: State, event: Event, actor: Actor) -> None:
        card = field_str(event, "card")
        target = st.target
        assert target is not None
        if card not in st.hands[target]:
            raise IllegalEvent(CARD_NOT_IN_HAND, f"{card!r} is not in seat {target + 1}'s hand.")
        st.hands = set_at(st.hands, target, without(st.hands[target], (card,)))
        st.discard = (*st.discard, card)
        st.target = None
        self._after_change(st)

    def _choose(self, st: State, event: Event, actor: int) -> None:
        card = field_str(event, "card")
        if event["do"] != st.choose_kind:
            raise IllegalEvent(
                WRONG_PHASE, f"This Special Event asks for {st.choose_kind!r} events."
            )
        if card not in st.hands[actor]:
            raise IllegalEvent(CARD_NOT_IN_HAND, f"{card!r} is not in your hand.")
        st.hands = set_at(st.hands, actor, without(st.hands[actor], (card,)))
        st.pending = set_at(st.pending, actor, (*st.pending[actor], card))
        st.need = set_at(st.need, actor, st.need[actor] - 1)
        if not any(st.need):
            self._resolve_choices(st)

    def _resolve_choices(self, st: State) -> None:
        """Everyone has chosen: the set-aside cards move all at once (I8)."""
        n = st.n
        if st.choose_kind == "pass_card":
            hands = list(st.hands)
            held = list(st.held)
            for s in range(n):
                to = (s + st.direction) % n
                hands[to] = hands[to] + st.pending[s]
                held[to] = held[to] | set(st.pending[s])
            st.hands, st.held = tuple(hands), tuple(held)
        else:
            st.discard = st.discard + tuple(c for p in st.pending for c in p)
        st.pending = ((),) * n
        st.choose_kind = None
        st.direction = 0
        self._after_change(st)

    def _after_change(self, st: State) -> None:
        """A Special Event is done: the game may be won, else the turn passes."""
        if not self._check_goal(st):
            self._start_turn(st, (st.active + 1) % st.n)

    def _next_responder(self, st: State) -> None:
        assert st.responder is not None
        nxt = (st.responder + 1) % st.n
        if nxt != st.active:
            st.responder = nxt
        elif any(cards for _, cards in st.counters):
            st.responder = None
            st.phase = ACCEPT
        else:
            self._deal_failed(st)

    def _deal_failed(self, st: State) -> None:
        assert st.offer is not None
        st.last_deal = {"offer": sort_cards(st.offer), "accepted": None, "counter": None}
        st.offer, st.counters, st.responder = None, (), None
        st.phase = TRADE if st.deals_left > 0 else SPECIAL

    def _draw(self, st: State, seat: int, count: int) -> bool:
        """Draw ``count`` cards; True if the game ended on an empty deck (I2)."""
        hand = st.hands[seat]
        drawn = []
        ended = False
        for _ in range(count):
            if st.top >= len(st.deck):
                ended = True
                break
            drawn.append(st.deck[st.top])
            st.top += 1
        if drawn:
            st.hands = set_at(st.hands, seat, hand + tuple(drawn))
            st.held = set_at(st.held, seat, st.held[seat] | set(drawn))
        if ended and not self._check_goal(st):  # the last card may complete the goal
            self._finish(st, "deck_exhausted")
        return ended

    def _check_goal(self, st: State) -> bool:
        for hand in st.hands:
            if len(hand) >= 8 and totals(hand) == GOAL_TOTALS:
                self._finish(st, "goal")
                return True
        return False

    def _finish(self, st: State, reason: str) -> None:
        st.phase = OVER
        st.end_reason = reason
        st.offer, st.counters, st.responder, st.target = None, (), None, None

    def _start_turn(self, st: State, seat: int) -> None:
        st.active = seat
        st.turn += 1
        st.deals_left = DEALS_PER_TURN
        st.offer, st.counters, st.responder, st.played = None, (), None, None
        st.need = (0,) * st.n
        if self._draw(st, seat, DRAWS_PER_TURN):
            return
        if not self._check_goal(st):
            st.phase = TRADE

    # -- legal events --------------------------------------------------------------
    def legal_events(self, state: State, seat: int) -> list[Event]:
        if seat not in self.to_move(state):
            return []
        phase = state.phase
        hand = state.hands[seat]
        if phase == TRADE:
            out: list[Event] = [
                {"by": seat, "do": "offer", "cards": list(cards)}
                for cards, pts in resource_sets(hand)
                if pts >= 2
            ]
            out.append({"by": seat, "do": "skip_trade"})
            return out
        if phase == COUNTER:
            assert state.offer is not None
            low, high = counter_range(sum(PTS[c] for c in state.offer))
            out = [
                {"by": seat, "do": "counter", "cards": list(cards)}
                for cards, pts in resource_sets(hand)
                if low <= pts <= high
            ]
            out.append({"by": seat, "do": "decline"})
            return out
        if phase == ACCEPT:
            out = [{"by": seat, "do": "accept", "seat": s} for s, c in state.counters if c]
            out.append({"by": seat, "do": "reject"})
            return out
        if phase == SPECIAL:
            out = []
            for card in sort_cards(c for c in hand if c in SPECIALS):
                if SPECIALS[card][0] != RANDOM_DISCARD:
                    out.append({"by": seat, "do": "play_special", "card": card})
                    continue
                for t in range(state.n):
                    if len(state.hands[t]) > (1 if t == seat else 0):
                        out.append({"by": seat, "do": "play_special", "card": card, "target": t})
            out.append({"by": seat, "do": "end_turn"})
            return out
        if phase == CHOOSE:
            kind = state.choose_kind
            return [{"by": seat, "do": kind, "card": c} for c in sort_cards(hand)]
        return []

    def sample_chance(self, state: State, rng: random.Random) -> Event:
        if state.phase == SHUFFLE:
            deck = list(CARDS)
            rng.shuffle(deck)
            return {"by": CHANCE, "do": "shuffle", "deck": deck}
        if state.phase == RANDOM:
            assert state.target is not None
            card = rng.choice(sort_cards(state.hands[state.target]))
            return {"by": CHANCE, "do": "random_discard", "card": card}
        raise IllegalEvent(WRONG_PHASE, "Nothing is left to chance now.")

    def greedy_event(self, state: State, seat: int, rng: random.Random) -> Event:
        return bot.greedy_event(self, state, seat, rng)

    # -- words ---------------------------------------------------------------------
    def card_catalog(self) -> dict[str, CardInfo]:
        return words.CATALOG

    def tell(
        self,
        event: Event,
        seat: int | None,
        before: dict[str, Any] | None,
        after: dict[str, Any] | None,
    ) -> str:
        return words.tell(event, seat, before, after)

    def tell_move(self, event: Event, seat: int, before: dict[str, Any]) -> str:
        return words.tell_move(event, seat, before)

    # -- what a seat sees (views.py) ------------------------------------------------
    def determinizer(self, history: SeatHistory) -> determinize.GiftEconomyDeterminizer:
        """See :mod:`games.gift_economy.determinize`."""
        return determinize.GiftEconomyDeterminizer(history)

    def secrets(self, state: State, seat: int) -> set[str]:
        """Deck cards, cards in other hands this seat never held nor saw laid out,
        and other seats' set-aside choices (unless once laid out in a deal)."""
        if state.phase == OVER:
            return set(state.deck[state.top :])  # I11: hands are shown to score
        out = set(state.deck[state.top :])
        if state.phase == SHUFFLE:
            return out
        known = state.held[seat] | state.public
        for s in range(state.n):
            if s != seat:
                out.update(c for c in state.hands[s] if c not in known)
                out.update(c for c in state.pending[s] if c not in state.public)
        return out

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(self, state, seat)

    def event_view(self, event: Mapping[str, Any], seat: int | None, before: Any = None) -> Event:
        return views.event_view(self, event, seat, before)


ENGINE: Final = GiftEconomyEngine()
