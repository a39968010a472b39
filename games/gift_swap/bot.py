"""Gift Swap's greedy bot: the engine's ``greedy_event`` delegates here.

Reads the state (the bot plays the seat it is given, with what that seat knows)
and never changes it. Interpreted, not compiled: it is not on the replay path.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from games.base import Event
from games.gift_swap.cards import BLUE, CARDS, GREEN, RED, REWRAP
from games.gift_swap.state import ASIDE, OPEN, State

if TYPE_CHECKING:
    from games.gift_swap.rules import GiftSwapEngine


def worth(card: str | None) -> float:
    """What the bot thinks a card adds to a row (an unknown card: nothing)."""
    if card is None:
        return 0.0
    c = CARDS[card]
    if c.color == RED:
        return c.icons
    if c.color == BLUE:
        return -c.icons
    return 2.5 if c.color == GREEN and not c.quirky else 1.5


def greedy_event(engine: GiftSwapEngine, state: State, seat: int, rng: random.Random) -> Event:
    """Give away the worst own card, take the best known one, always Open
    (it ends the game sooner when ahead and fires effects), and use an
    effect only when it trades up."""
    legal = engine.legal_events(state, seat)
    step = engine.step(state)
    known = state.known[seat] | state.up

    def seen(row: int | str, index: int) -> str | None:
        cards = state.aside if row == ASIDE else state.rows[row]  # type: ignore[index]
        return cards[index] if cards[index] in known else None

    if step == "swap":

        def gain(e: Event) -> float:
            give = state.rows[seat][e["card"]]
            take = seen(e["with_seat"], e["with_card"])
            return worth(take) - worth(give) + rng.random() * 0.1

        return max(legal, key=gain)
    if step == "choose":
        return {"by": seat, "do": "choose", "choice": OPEN}
    if step == "effect":
        own = worth(state.queue[0][2])
        best, best_gain = legal[0], 0.0
        for e in legal[1:]:
            if e["do"] == REWRAP or e["row"] == seat:
                continue  # a Regift within your own row changes no score
            g = worth(seen(e["row"], e["card"])) - own
            if g > best_gain:
                best, best_gain = e, g
        return best
    return rng.choice(legal)
