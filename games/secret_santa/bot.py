"""Secret Santa's greedy bot: the engine's ``greedy_event`` delegates here.

Interpreted (not compiled): bots are not on the replay path. The numbers in
comments (``I16``...) refer to ``docs/rules/secret_santa.md``.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import TYPE_CHECKING

from games.base import Event
from games.secret_santa.cards import CARDS, COLOUR, COLOUR_NAMES, round_score
from games.secret_santa.state import GIVE_PHASE, GUEST, State

if TYPE_CHECKING:
    from games.secret_santa.rules import SecretSantaEngine

# A pile's score, remembered: the bot weighs every unseen card against the same few
# piles, and analysis playouts (games/analysis.py) call it hundreds of thousands of
# times a game. Same answers as ``round_score``; a pile is a short tuple of card ids.
_pile_score = lru_cache(maxsize=1 << 16)(round_score)


def greedy_event(engine: SecretSantaEngine, state: State, seat: int, rng: random.Random) -> Event:
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
    legal = engine.legal_events(state, seat)
    pile = state.piles[seat]

    def gain(cards: tuple[str, ...], card: str) -> int:
        return _pile_score((*cards, card)) - _pile_score(cards)

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
