"""Secret Santa (Matagot): blind gift-taking with an "Unexpected guest". The rules.

Rules, card ids and every interpretation are in ``docs/rules/secret_santa.md``;
the numbers in comments (``I3``...) refer to that list. The engine's views, bot
and sentences are in ``views``, ``bot`` and ``words``, which it delegates to.
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
    Result,
    SeatHistory,
    check_player_count,
    options_resolve,
    require,
)
from games.secret_santa import bot, determinize, views, words
from games.secret_santa.cards import CARD_SET, CARDS, score_breakdown
from games.secret_santa.options import OPTIONS
from games.secret_santa.state import (
    BAD_DECK,
    CARD_NOT_IN_HAND,
    DEAL_KEYS,
    DEAL_PHASE,
    EMPTY_HAND,
    GIVE_KEYS,
    GIVE_PHASE,
    GUEST,
    MUST_TAKE_OWN,
    NO_GUEST_CARD,
    NO_SUCH_POSITION,
    OVER_PHASE,
    OWN_CARD_NOT_ALLOWED,
    TAKE_KEYS,
    TAKE_PHASE,
    TARGET,
    WRONG_PHASE,
    State,
    deal_cards,
    revealed,
)


def _replace_at(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``items`` with ``items[index]`` replaced: through a list, the fastest way both
    interpreted and compiled (a tuple display with two starred slices builds more)."""
    changed = list(items)
    changed[index] = value
    return tuple(changed)


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
    def setup(self, num_players: int, options: Mapping[str, Any] | None = None) -> State:
        check_player_count(self, num_players)
        return State.start(num_players, options_resolve(self, options))

    def num_players(self, state: State) -> int:
        return state.n

    def to_move(self, state: State) -> list[Actor]:
        if state.phase == DEAL_PHASE:
            return [CHANCE]
        if state.phase == TAKE_PHASE:
            return [state.active]
        if state.phase == GIVE_PHASE:
            assert state.giver is not None
            return [state.giver]
        return []

    def may_act(self, state: State, actor: Actor) -> bool:
        phase = state.phase
        if phase == TAKE_PHASE:
            return actor == state.active
        if phase == GIVE_PHASE:
            return actor == state.giver
        return phase == DEAL_PHASE and actor == CHANCE

    def is_over(self, state: State) -> bool:
        return state.phase == OVER_PHASE

    # -- events --------------------------------------------------------------------
    def _apply(self, state: State, event: Event, actor: Actor) -> State:
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
    def _phase_message(state: State) -> str:
        if state.phase == GIVE_PHASE and state.giver is not None:
            return f"Seat {state.giver + 1} must first give a card to the Unexpected guest."
        return f"Seat {state.active + 1} must take a card now; nobody gives a gift."

    @staticmethod
    def _check_keys(event: Event, keys: frozenset[str]) -> None:
        if event.keys() != keys:
            expected = ", ".join(sorted(keys))
            raise IllegalEvent(MALFORMED_EVENT, f"This event has exactly the fields: {expected}.")

    def _deal(self, state: State, event: Event) -> State:
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

    def _take(self, state: State, event: Event, actor: int) -> State:
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
                MALFORMED_EVENT,
                f'"from" must be a seat index, 0 (seat 1) to {n - 1} (seat {n}), or "guest".',
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
                raise IllegalEvent(EMPTY_HAND, f"Seat {source + 1} has no cards in hand.")
            if not 0 <= index < len(hand):
                raise IllegalEvent(
                    NO_SUCH_POSITION,
                    f"Seat {source + 1} holds {len(hand)} cards (positions from 0).",
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

    def _give(self, state: State, event: Event, actor: int) -> State:
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
    def _only_me(state: State, seat: int) -> bool:
        """True when ``seat`` is the only player with cards in hand (must take its own)."""
        hands = state.hands
        mine = len(hands[seat])
        return mine > 0 and sum(map(len, hands)) == mine

    @staticmethod
    def _next_with_cards(state: State, seat: int) -> int:
        """The next seat clockwise from ``seat`` still holding cards (I8)."""
        for k in range(1, state.n):
            other = (seat + k) % state.n
            if state.hands[other]:
                return other
        raise AssertionError("a guest take always leaves another player with cards")

    def _advance(self, state: State) -> State:
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
    def legal_events(self, state: State, seat: int) -> list[Event]:
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

    def sample_chance(self, state: State, rng: random.Random) -> Event:
        deck = list(CARDS)
        rng.shuffle(deck)
        return {"by": CHANCE, "do": "deal", "deck": deck}

    # -- information -------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(self, state, seat)

    def event_view(self, event: Mapping[str, Any], seat: int | None, before: Any = None) -> Event:
        """A deal shows a seat its own dealt hand and the guest's face-up cards (see views)."""
        return views.event_view(self, event, seat, before)

    def determinizer(self, history: SeatHistory) -> determinize.SecretSantaDeterminizer:
        """See :mod:`games.secret_santa.determinize`."""
        return determinize.SecretSantaDeterminizer(history)

    def secrets(self, state: State, seat: int) -> set[str]:
        hidden = set(state.guest_down)
        if not revealed(state):
            for s in range(state.n):
                if s != seat:
                    hidden.update(state.hands[s])
                    hidden.update(state.piles[s])
        return hidden - state.known[seat]

    def card_multiset(self, state: State) -> Counter[str]:
        counts: Counter[str] = Counter(state.box)
        for hand in state.hands:
            counts.update(hand)
        for pile in state.piles:
            counts.update(pile)
        counts.update(state.guest_up)
        counts.update(state.guest_down)
        return counts

    # -- scoring -------------------------------------------------------------------
    def scores(self, state: State) -> list[int]:
        return list(state.totals)

    def result(self, state: State) -> Result:
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

    # -- words (words.py) ---------------------------------------------------------------
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

    # -- bot (bot.py) ---------------------------------------------------------------------
    def greedy_event(self, state: State, seat: int, rng: random.Random) -> Event:
        """The greedy bot (see bot.py): uses only what ``seat`` knows."""
        return bot.greedy_event(self, state, seat, rng)


ENGINE: Final = SecretSantaEngine()
