"""Gift Economy's bot: a one-step greedy player (the engine's ``greedy_event``).

It judges every legal event by the closeness score (48 = exactly 12 of each
resource) of its own hand afterwards: it trades only when the swap helps,
offers its surplus, plays Kings and aims the queen of spades at the seat with
the most cards, and sets aside the cards whose loss hurts least. It steers
by closeness under every ``ranking`` option: all of them put the goal first,
and playing the same way under each lets a game be ranked by all of them
(``bench/gift_economy_ranking.py``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from games.base import Event
from games.gift_economy.cards import GOAL, PTS, RES, SPECIALS, closeness, totals
from games.gift_economy.state import State

if TYPE_CHECKING:
    from games.gift_economy.rules import GiftEconomyEngine


def _score_without(hand: tuple[str, ...], out: Any, got: Any = ()) -> int:
    return closeness(totals([c for c in hand if c not in out] + list(got)))


def greedy_event(engine: GiftEconomyEngine, state: State, seat: int, rng: random.Random) -> Event:
    """Best event by a one-step look-ahead on the seat's own hand; random tie-break."""
    legal = engine.legal_events(state, seat)
    hand = state.hands[seat]
    now = closeness(totals(hand))
    phase = state.phase

    def best(value: Any) -> Event:
        return max(legal, key=lambda e: (value(e), rng.random()))

    if phase == "trade":
        pts = totals(hand)

        def offer_value(e: Event) -> float:
            if e["do"] != "offer":
                return 0.0
            r, given = RES[e["cards"][0]], sum(PTS[c] for c in e["cards"])
            after = list(pts)
            after[r] -= given
            wanted = max(GOAL - p for p in after)
            # a counter returns a little more than offered, hopefully where we lack most
            return closeness(after) + min(wanted, given + 1) - now - 0.5

        return best(offer_value)
    if phase == "counter":
        offer = state.offer

        def counter_value(e: Event) -> float:
            if e["do"] != "counter":
                return 0.0
            return _score_without(hand, set(e["cards"]), offer) - now

        return best(counter_value)
    if phase == "accept":
        counters = {s: c for s, c in state.counters if c}
        assert state.offer is not None  # an offer is on the table until it is settled
        offered = set(state.offer)

        def accept_value(e: Event) -> float:
            if e["do"] != "accept":
                return 0.0
            return _score_without(hand, offered, counters[e["seat"]]) - now

        return best(accept_value)
    if phase == "special":
        deck_left = len(state.deck) - state.top

        def special_value(e: Event) -> float:
            if e["do"] != "play_special":
                return 0.0
            effect = SPECIALS[e["card"]][0]
            if effect == "draw":
                return 1.0 if deck_left else -1.0
            if effect == "random_discard":
                return 0.5 if e["target"] != seat else -1.0
            return -0.5

        event = best(special_value)
        if event.get("do") == "play_special" and SPECIALS[event["card"]][0] == "random_discard":
            # aim at the rival with the most cards (the tie-break)
            rivals = [e for e in legal if e.get("card") == event["card"] and e["target"] != seat]
            event = max(rivals, key=lambda e: (len(state.hands[e["target"]]), rng.random()))
        return event
    # choose: give away the card whose loss hurts least; keep Special Event cards
    return best(
        lambda e: (
            _score_without(hand, {e["card"]}),
            -PTS[e["card"]] - 20 * (e["card"] in SPECIALS),
        )
    )
