"""A simple Gift Gift Gone strategy for the "greedy" bot.

It claims and adds whenever it may (points only count on the table), takes the
swap that gains it the most points, keeps pairs and cards of its own gifts,
and never helps a trade along unless the card is useless to both sides.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import TYPE_CHECKING

from games.base import Event
from games.gift_gift_gone.cards import GIFT_OF, VALUE
from games.gift_gift_gone.state import State

if TYPE_CHECKING:
    from games.gift_gift_gone.rules import GiftGiftGoneEngine


def _worth(s: State, seat: int, counts: dict[str, int], gift: str) -> float:
    """How much the seat wants to keep a card of ``gift`` (higher = keep)."""
    owner = s.owner.get(gift)
    if owner == seat:
        return 100 + VALUE[gift]
    if owner is not None:
        return 0.5 * VALUE[gift] / 5
    return counts[gift] * 10 + VALUE[gift]


def _swap_gain(s: State, seat: int, event: Event, counts: dict[str, int]) -> int:
    gift, give = event["gift"], event["give"]
    gained = VALUE[gift] * (len(s.table[gift]) + counts[gift])
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


def greedy_event(
    engine: GiftGiftGoneEngine, state: State, seat: int, rng: random.Random
) -> Event:
    """The greedy bot's event for ``seat`` (the engine's ``greedy_event`` delegates here)."""
    s = state
    legal = engine.legal_events(s, seat)
    if len(legal) == 1:
        return legal[0]
    by_kind: dict[str, list[Event]] = {}
    for event in legal:
        by_kind.setdefault(event["do"], []).append(event)
    hand = s.hands[seat]
    # A defaultdict, not a Counter: the same counts (0 for a gift not held) without the
    # Counter's checks, which cost as much as the rest of the bot in analysis playouts.
    counts: defaultdict[str, int] = defaultdict(int)
    for card in hand:
        counts[GIFT_OF[card]] += 1
    if "answer" in by_kind:
        assert s.ask_gift is not None
        owner = s.owner.get(s.ask_gift)
        useless = owner is not None and owner not in (seat, s.turn)
        return {"by": seat, "do": "answer", "yes": bool(useless and counts[s.ask_gift])}
    if "pick" in by_kind:
        return rng.choice(by_kind["pick"])
    if "claim" in by_kind:
        return max(by_kind["claim"], key=lambda e: VALUE[e["gift"]] * counts[e["gift"]])
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
                pairs = [e for e in by_kind["ask"] if counts[e["gift"]] == 2]
                if pairs:
                    return rng.choice(pairs)
            return draws["deck"]
    if "discard" in by_kind:
        return min(
            by_kind["discard"],
            key=lambda e: (_worth(s, seat, counts, GIFT_OF[e["card"]]), e["card"]),
        )
    return rng.choice(legal)
