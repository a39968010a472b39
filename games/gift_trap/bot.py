"""The GiftTRAP greedy bot: the engine's ``greedy_event`` delegates here.

Interpreted, not compiled: it is not on the replay path. It reads the state and
asks the engine (received as a parameter) for the legal events; nothing here
changes a state.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from games.base import Event
from games.gift_trap.cards import TOKENS, gift_name
from games.gift_trap.state import State, owes, trap_ok

if TYPE_CHECKING:
    from games.gift_trap.rules import GiftTrapEngine


def appeal(card: str, side: str) -> int:
    """A fixed, made-up 'taste' the greedy bot assumes everybody shares."""
    return sum(map(ord, gift_name(card, side))) % 97


def greedy_event(
    engine: GiftTrapEngine, state: State, seat: int, rng: random.Random
) -> Event:
    """Assume everyone shares one taste (``appeal``): give and want the best gifts.

    It GiftTRAPs a gift it gave when the receiver has just shown NO WAY on it.
    """
    s = state
    legal = engine.legal_events(s, seat)
    if s.phase == "choose_pack":
        return rng.choice(legal)
    ranked = sorted(
        range(1, len(s.grid) + 1),
        key=lambda g: (-appeal(*s.grid[g - 1]), g),
    )
    if trap_ok(s, seat) and s.phase == "reveal":
        r = s.revealer
        gift = s.gives[seat][r]
        if (
            r != seat and s.gets_shown[r] and not s.shown[r][seat]
            and s.gets[r][3] == gift and gift not in s.trapped
        ):
            return {"by": seat, "do": "gifttrap", "gift": gift}
    if s.phase == "give" and owes(s, seat):
        row = s.gives[seat]
        to = next(r for r in range(s.n) if r != seat and not row[r])
        gift = next(g for g in ranked if g not in row)
        event: Event = {"by": seat, "do": "give", "to": to, "gift": gift}
        if s.expert:
            event["more"] = s.give_more[seat] < 0
        return event
    if s.phase == "get" and owes(s, seat):
        row = s.gets[seat]
        for i, tok in enumerate(TOKENS):
            if not row[i]:
                pick = ranked[-1] if tok == "no_way" else ranked[i]
                if pick in row:  # tokens laid in another order (by a person, or a sample)
                    pick = next(g for g in ranked if g not in row)
                return {"by": seat, "do": "get", "token": tok, "gift": pick}
        return {"by": seat, "do": "get_more", "from": None}
    if s.phase == "reveal" and seat == s.revealer:
        return next(e for e in legal if e["do"] != "gifttrap")
    # Only a GiftTRAP is left to do: block the gift least likely to matter.
    traps = [e for e in legal if e["do"] == "gifttrap"]
    return max(traps, key=lambda e: ranked.index(e["gift"]))
