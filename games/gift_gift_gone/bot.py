"""A simple Gift Gift Gone strategy for the "greedy" bot.

It claims and adds whenever it may (points only count on the table), takes the
swap that gains it the most points, keeps pairs and cards of its own gifts,
and never helps a trade along unless the card is useless to both sides.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from games.base import Event
from games.gift_gift_gone.cards import GIFT_OF, VALUE
from games.gift_gift_gone.state import (
    ANSWER,
    DISCARD,
    DRAW,
    TURN,
    State,
    forced_claims,
    may_end_turn,
)

if TYPE_CHECKING:
    from games.gift_gift_gone.rules import GiftGiftGoneEngine


def _worth(s: State, seat: int, counts: dict[str, int], gift: str) -> float:
    """How much the seat wants to keep a card of ``gift`` (higher = keep)."""
    owner = s.owner.get(gift)
    if owner == seat:
        return 100 + VALUE[gift]
    if owner is not None:
        return 0.5 * VALUE[gift] / 5
    return counts.get(gift, 0) * 10 + VALUE[gift]


def _swap_gain(s: State, seat: int, event: Event, counts: dict[str, int]) -> int:
    gift, give = event["gift"], event["give"]
    gained = VALUE[gift] * (len(s.table[gift]) + counts.get(gift, 0))
    return gained - VALUE[give] * len(s.table[give])


def _swap_target(s: State, seat: int, gift: str) -> bool:
    """Another player owns ``gift``, it is not frozen, and one card of it would let the
    seat swap one of its own smaller-valued gifts for it."""
    owner = s.owner.get(gift)
    if owner is None or owner == seat or len(s.table[gift]) >= 6:
        return False
    size = len(s.table[gift])
    return any(
        o == seat
        and size <= len(s.table[g]) < (7 if s.give_frozen else 6)
        and VALUE[g] * len(s.table[g]) < VALUE[gift] * size
        for g, o in s.owner.items()
    )


def _counts(hand: tuple[str, ...]) -> dict[str, int]:
    """Cards of each gift in ``hand``; read with ``get`` (0 for a gift not held). A plain
    dict, not a Counter nor a defaultdict: their misses run interpreted code, which cost
    as much as the rest of the bot in analysis playouts."""
    counts: dict[str, int] = {}
    for card in hand:
        gift = GIFT_OF[card]
        counts[gift] = counts.get(gift, 0) + 1
    return counts


def greedy_event(
    engine: GiftGiftGoneEngine, state: State, seat: int, rng: random.Random
) -> Event:
    """The greedy bot's event for ``seat`` (the engine's ``greedy_event`` delegates here).

    Analysis playouts call it for every seat event (a few million times per game), so
    the usual phases are decided without listing every legal event first: ``_quick``
    builds only the event it returns. It makes the same choice as ``_from_legal``, the
    strategy stated over the legal events, with the same draws from ``rng``
    (tests/games/test_bots.py plays both side by side); whatever ``_quick`` leaves
    (``None``) is decided by ``_from_legal``.
    """
    if engine.may_act(state, seat):
        event = _quick(state, seat, rng)
        if event is not None:
            return event
    return _from_legal(engine, state, seat, rng)


def _discard(s: State, seat: int, counts: dict[str, int]) -> Event:
    """The card least worth keeping (ties to the smallest id, as ``min`` over the sorted
    legal discards gives)."""
    best = ""
    best_worth = 0.0
    for card in s.hands[seat]:
        worth = _worth(s, seat, counts, GIFT_OF[card])
        if not best or worth < best_worth or (worth == best_worth and card < best):
            best, best_worth = card, worth
    return {"by": seat, "do": "discard", "card": best}


def _quick(s: State, seat: int, rng: random.Random) -> Event | None:
    """``_from_legal``'s choice, built alone, in the phases that make most of a game;
    ``None`` where it is left to ``_from_legal`` (a pick, a turn with one legal event,
    and a turn whose choice is random among all legal events). Only a branch that
    returns draws from ``rng``, so ``_from_legal`` after ``None`` draws as it would."""
    phase = s.phase
    hand = s.hands[seat]
    if phase == DISCARD or (phase == DRAW and (s.draws >= 2 or not (s.deck or s.discard))):
        # Only discards are legal.
        return _discard(s, seat, _counts(hand))
    if phase == DRAW:
        # Draws and discards: the bot draws again, the discard pile's top card if it is
        # worth keeping or the deck is empty, else from the deck (no ask mid-draw).
        if s.discard and (
            not s.deck or _worth(s, seat, _counts(hand), GIFT_OF[s.discard[-1]]) >= 20
        ):
            return {"by": seat, "do": "draw", "from": "discard"}
        return {"by": seat, "do": "draw", "from": "deck"}
    if phase == ANSWER:
        gift = s.ask_gift
        assert gift is not None
        owner = s.owner.get(gift)
        useless = owner is not None and owner != seat and owner != s.turn
        held = any(GIFT_OF[c] == gift for c in hand)
        return {"by": seat, "do": "answer", "yes": useless and held}
    if phase != TURN:
        return None
    counts = _counts(hand)
    forced = forced_claims(s, seat)
    if forced:
        gift = max(forced, key=lambda g: VALUE[g] * counts.get(g, 0))
        return {"by": seat, "do": "claim", "gift": gift}
    # The legal events of a turn, as counts and lists of gifts (legal_events's order).
    claims: list[str] = []
    swaps: list[tuple[str, str]] = []
    if not s.claimed:
        claims = [g for g in s.gifts if counts.get(g, 0) and s.owner.get(g) == seat]
        mine = [
            g for g, o in s.owner.items() if o == seat and (s.give_frozen or len(s.table[g]) < 6)
        ]
        for gift, victim in s.owner.items():
            size = len(s.table[gift])
            if victim == seat or size >= 6 or not counts.get(gift, 0):
                continue
            swaps.extend((gift, give) for give in mine if len(s.table[give]) >= size)
    deck = not s.drawn and bool(s.deck)
    discard = not s.drawn and bool(s.discard)
    asks = [] if s.asked else [g for g in s.gifts if counts.get(g, 0) < len(hand)]
    may_pass = may_end_turn(s)
    if len(claims) + len(swaps) + int(deck) + int(discard) + len(asks) + int(may_pass) == 1:
        return None  # the one legal event, taken without a draw from ``rng``
    if claims:
        gift = max(claims, key=lambda g: VALUE[g] * counts.get(g, 0))
        return {"by": seat, "do": "claim", "gift": gift}
    best: tuple[str, str] | None = None
    best_gain = 0
    for gift, give in swaps:
        gain = VALUE[gift] * (len(s.table[gift]) + counts.get(gift, 0)) - VALUE[give] * len(
            s.table[give]
        )
        if gain > best_gain:
            best, best_gain = (gift, give), gain
    if best is not None:
        return {"by": seat, "do": "swap", "gift": best[0], "give": best[1]}
    if may_pass and not deck:
        if discard and _worth(s, seat, counts, GIFT_OF[s.discard[-1]]) >= 20:
            return {"by": seat, "do": "draw", "from": "discard"}
        wanted = [g for g in asks if not s.claimed and _swap_target(s, seat, g)]
        if wanted:
            return {"by": seat, "do": "ask", "gift": rng.choice(wanted)}
        return {"by": seat, "do": "pass"}
    if discard and (not deck or _worth(s, seat, counts, GIFT_OF[s.discard[-1]]) >= 20):
        return {"by": seat, "do": "draw", "from": "discard"}
    if deck:
        if asks and rng.random() < 0.1:
            pairs = [g for g in asks if counts.get(g, 0) == 2]
            if pairs:
                return {"by": seat, "do": "ask", "gift": rng.choice(pairs)}
        return {"by": seat, "do": "draw", "from": "deck"}
    return None  # a random legal event


def _from_legal(
    engine: GiftGiftGoneEngine, state: State, seat: int, rng: random.Random
) -> Event:
    """The strategy stated over the legal events (see the module docstring)."""
    s = state
    legal = engine.legal_events(s, seat)
    if len(legal) == 1:
        return legal[0]
    by_kind: dict[str, list[Event]] = {}
    for event in legal:
        by_kind.setdefault(event["do"], []).append(event)
    counts = _counts(s.hands[seat])
    if "answer" in by_kind:
        assert s.ask_gift is not None
        owner = s.owner.get(s.ask_gift)
        useless = owner is not None and owner not in (seat, s.turn)
        return {"by": seat, "do": "answer", "yes": bool(useless and counts.get(s.ask_gift, 0))}
    if "pick" in by_kind:
        return rng.choice(by_kind["pick"])
    if "claim" in by_kind:
        return max(by_kind["claim"], key=lambda e: VALUE[e["gift"]] * counts.get(e["gift"], 0))
    swaps = [(e, _swap_gain(s, seat, e, counts)) for e in by_kind.get("swap", [])]
    swaps = [pair for pair in swaps if pair[1] > 0]
    if swaps:
        return max(swaps, key=lambda pair: pair[1])[0]
    draws = {e["from"]: e for e in by_kind.get("draw", [])}
    if "pass" in by_kind and "deck" not in draws:
        # The cards ran out, or this turn's draw is done (a turn of one of each): take the
        # last discard only if it is worth keeping; else ask for a card that would make a
        # profitable swap possible (while a swap is still possible this turn); else pass.
        if "discard" in draws and _worth(s, seat, counts, GIFT_OF[s.discard[-1]]) >= 20:
            return draws["discard"]
        wanted = [
            e for e in by_kind.get("ask", []) if not s.claimed and _swap_target(s, seat, e["gift"])
        ]
        if wanted:
            return rng.choice(wanted)
        return by_kind["pass"][0]
    if draws:
        if "discard" in draws:
            top = GIFT_OF[s.discard[-1]]
            if _worth(s, seat, counts, top) >= 20 or "deck" not in draws:
                return draws["discard"]
        if "deck" in draws:
            if "ask" in by_kind and rng.random() < 0.1:
                pairs = [e for e in by_kind["ask"] if counts.get(e["gift"], 0) == 2]
                if pairs:
                    return rng.choice(pairs)
            return draws["deck"]
    if "discard" in by_kind:
        return min(
            by_kind["discard"],
            key=lambda e: (_worth(s, seat, counts, GIFT_OF[e["card"]]), e["card"]),
        )
    return rng.choice(legal)
