"""What a Gift Gift Gone position and its events show each seat.

A seat sees its own hand and the size of the others'; the claimed gifts, the discard
pile and the trade under way are public; the deck's order only ``seat=None`` sees.
The engine's ``view``/``event_view`` delegate here; nothing here changes a state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from games.base import CHANCE, Event
from games.gift_gift_gone.cards import HAND_SIZE, NAME, VALUE
from games.gift_gift_gone.state import (
    ACTIONS,
    ANSWER,
    MIX,
    OVER,
    PICK,
    State,
    cards_out,
    table_points,
)

if TYPE_CHECKING:
    from games.gift_gift_gone.rules import GiftGiftGoneEngine


def view(engine: GiftGiftGoneEngine, state: State, seat: int | None) -> dict[str, Any]:
    s = state
    hands = []
    for i, hand in enumerate(s.hands):
        entry: dict[str, Any] = {"seat": i, "count": len(hand)}
        if seat is None or seat == i:
            entry["cards"] = sorted(hand)
        hands.append(entry)
    data: dict[str, Any] = {
        "game": engine.slug,
        "phase": s.phase,
        "turn": s.turn,
        "to_move": engine.to_move(s),
        "target": s.target,
        "catalogue": [{"gift": g, "name": NAME[g], "value": VALUE[g]} for g in s.gifts],
        "deck_count": len(s.deck),
        "discard": list(s.discard),
        "hands": hands,
        "gifts": [
            {
                "gift": g,
                "name": NAME[g],
                "value": VALUE[g],
                "owner": s.owner[g],
                "cards": list(s.table[g]),
                "frozen": len(s.table[g]) >= 6,
            }
            for g in s.gifts
            if g in s.owner
        ],
        "points": [table_points(s, i) for i in range(s.n)],
        "scores": engine.scores(s),
        "draws": s.draws,
        "discards": s.discards,
        "asked": s.asked,
        "actions_done": [
            a for a, done in zip(ACTIONS, (s.drawn, s.claimed, s.traded), strict=True) if done
        ],
        "shuffle_due": s.shuffle_due,
        "cards_out": s.phase != OVER and cards_out(s),
        "quiet_turns": s.quiet,
        "winner": s.winner,
        "end": s.end,
    }
    if seat is None:
        data["deck"] = list(s.deck)
    if s.phase in (ANSWER, MIX, PICK):
        trade: dict[str, Any] = {"asker": s.turn, "gift": s.ask_gift, "partner": s.partner}
        if s.phase == PICK:
            trade["positions"] = len(s.order)
            if seat is None or seat == s.turn:
                trade["order"] = list(s.order)
        data["trade"] = trade
    return data

def event_view(
    engine: GiftGiftGoneEngine, event: Mapping[str, Any], seat: int | None, before: Any = None
) -> Event:
    """A deal shows a seat its own hand (the first discard is in every view).

    A reshuffle shows only the new deck's size; a mix (the asker's face-down
    hand order) is shown only to the asker, whom the event names because
    event_view is given no state. Seat events never name a hidden card, so
    they are public as they are.
    """
    if seat is None or event.get("by") != CHANCE:
        return dict(event)
    kind = event.get("do")
    shown: Event = {"by": CHANCE, "do": kind}
    cards = event.get("deck") if kind != "mix" else event.get("order")
    if not isinstance(cards, list):
        return {**shown, "hidden": True}
    if kind == "mix":
        asker = event.get("seat")
        if asker == seat:
            return dict(event)
        return {**shown, "seat": asker, "count": len(cards)}
    if kind == "deal":
        # Hands are dealt in blocks of six, so a seat's hand is known from the seat
        # number alone (event_view gets no state, hence no player count).
        hand = cards[HAND_SIZE * seat : HAND_SIZE * seat + HAND_SIZE]
        return {**shown, "hand": sorted(str(c) for c in hand)}
    return {**shown, "count": len(cards)}
