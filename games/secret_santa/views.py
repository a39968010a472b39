"""What a seat may see of a Secret Santa position and of an event.

The engine's ``view`` and ``event_view`` delegate here; nothing here changes a
state. The numbers in comments (``I12``...) refer to ``docs/rules/secret_santa.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from games.base import CHANCE, Event
from games.secret_santa.cards import CARD_SET, CARDS, COLOUR, COLOUR_NAMES, HAND_SIZE
from games.secret_santa.state import (
    GIVE_PHASE,
    OVER_PHASE,
    TAKE_PHASE,
    TARGET,
    State,
    deal_cards,
    revealed,
)

if TYPE_CHECKING:
    from games.secret_santa.rules import SecretSantaEngine


def view(engine: SecretSantaEngine, state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know (``None``: everything); the engine's ``view``."""
    shown = revealed(state)
    everything = seat is None
    players = []
    for s in range(state.n):
        info: dict[str, Any] = {
            "seat": s,
            "hand_size": len(state.hands[s]),
            "face_down_count": len(state.piles[s]),
            "total": state.totals[s],
            # I16: card backs show the colour, for everybody to see.
            "hand_backs": _backs(state.hands[s]),
            "face_down_backs": _backs(state.piles[s]),
        }
        if everything or s == seat:
            info["hand"] = list(state.hands[s])
        if everything or s == seat or shown:
            info["face_down"] = list(state.piles[s])
        elif seat is not None:
            # Cards this seat once held that seat s has taken from it.
            info["face_down_known"] = [c for c in state.piles[s] if c in state.known[seat]]
        players.append(info)
    guest: dict[str, Any] = {
        "face_up": list(state.guest_up),
        "face_down_count": len(state.guest_down),
        "face_down_backs": _backs(state.guest_down),
    }
    if everything:
        guest["face_down"] = list(state.guest_down)
    data: dict[str, Any] = {
        "game": engine.slug,
        "you": seat,
        "phase": state.phase,
        "round": state.round,
        "first_player": state.first,
        "active": state.active if state.phase == TAKE_PHASE else None,
        "giver": state.giver if state.phase == GIVE_PHASE else None,
        "to_move": engine.to_move(state),
        "players": players,
        "guest": guest,
        "totals": list(state.totals),
        "round_scores": [list(r) for r in state.round_scores],
        "last_round": ([dict(b) for b in state.last_breakdown] if state.last_breakdown else None),
        "target": TARGET,
    }
    if state.box and everything:
        data["box"] = list(state.box)
    if state.phase == OVER_PHASE:
        data["winners"] = engine.result(state).winners
    return data


def event_view(
    engine: SecretSantaEngine, event: Mapping[str, Any], seat: int | None, before: Any = None
) -> Event:
    """A deal shows a seat its own dealt hand and the guest's face-up cards.

    With ``before`` (the state the deal was applied to) the engine's own
    dealing (I2-I4) gives the seat's hand, in position order, and the
    guest's face-up row, which every seat sees anyway. Other seats' hands,
    the guest's face-down cards and the deck order stay hidden. Without
    ``before`` (or with a deal that could not have been applied) a deal is
    hidden entirely. Takes and gives name no hidden card: public as they are.
    """
    if seat is None or event.get("by") != CHANCE:
        return dict(event)
    hidden: Event = {"by": CHANCE, "do": event.get("do"), "hidden": True}
    deck = event.get("deck")
    if (
        event.get("do") != "deal"
        or not isinstance(before, State)
        or before.n not in HAND_SIZE
        or not 0 <= seat < before.n
        or not isinstance(deck, list)
        or len(deck) != len(CARDS)
        or not all(isinstance(c, str) for c in deck)
        or set(deck) != CARD_SET
    ):
        return hidden
    hands, up, _down = deal_cards(deck, before.n, before.first, before.options["deal_fallback"])
    return {"by": CHANCE, "do": "deal", "hand": list(hands[seat]), "guest_face_up": list(up)}


def _backs(cards: Sequence[str]) -> list[str]:
    """The colour on each card's back, public to every seat (I16)."""
    return [COLOUR_NAMES[COLOUR[c]] for c in cards]
