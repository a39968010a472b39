"""What a seat of Gift Economy may see: ``view`` and ``event_view`` (I4, I11).

The engine's ``view``/``event_view`` methods delegate here; the engine is passed in
(for its slug, ``to_move``, ``result`` and, to see what a deal or a choice does, its
own ``_apply``), so this module never imports ``rules.py`` at run time.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from games.base import CHANCE, Actor, Event, IllegalEvent
from games.gift_economy.cards import (
    HAND_SIZE,
    PTS,
    RES,
    RESOURCES,
    counter_range,
    hand_score,
    sort_cards,
    totals,
)
from games.gift_economy.state import CHOOSE, OVER, RANDOM, SHUFFLE, State

if TYPE_CHECKING:
    from games.gift_economy.rules import GiftEconomyEngine


def view(engine: GiftEconomyEngine, state: State, seat: int | None) -> dict[str, Any]:
    over = state.phase == OVER
    everything = seat is None or over
    players = []
    for s in range(state.n):
        mine = everything or s == seat
        hand = state.hands[s]
        entry: dict[str, Any] = {"seat": s, "cards": len(hand)}
        if mine:
            entry["hand"] = sort_cards(hand)
            entry["points"] = dict(zip(RESOURCES, totals(hand), strict=True))
            entry["score"] = hand_score(totals(hand), state.ranking)
        if state.phase == CHOOSE:
            entry["still_to_choose"] = state.need[s]
            entry["set_aside"] = sort_cards(state.pending[s]) if mine else len(state.pending[s])
        players.append(entry)
    data: dict[str, Any] = {
        "game": engine.slug,
        "phase": state.phase,
        "turn": state.turn,
        "active": state.active,
        "start_player": state.start,
        "ranking": state.ranking,
        "to_move": engine.to_move(state),
        "deck_count": len(state.deck) - state.top,
        "discard": list(state.discard),
        "deals_left": state.deals_left,
        "players": players,
        "last_deal": copy.deepcopy(state.last_deal),  # never the state's own dict
    }
    if seat is None:
        data["deck"] = list(state.deck[state.top :])
    if state.offer is not None:
        pts = sum(PTS[c] for c in state.offer)
        low, high = counter_range(pts)
        data["offer"] = {
            "seat": state.active,
            "cards": list(state.offer),
            "resource": RESOURCES[RES[state.offer[0]]],
            "points": pts,
            "counter_min": low,
            "counter_max": high,
        }
        data["counters"] = [
            {"seat": s, "declined": True}
            if cards is None
            else {"seat": s, "cards": list(cards), "points": sum(PTS[c] for c in cards)}
            for s, cards in state.counters
        ]
        data["responder"] = state.responder
    if state.played is not None:
        data["special_played"] = state.played
    if state.phase == CHOOSE:
        data["choose"] = {"kind": state.choose_kind, "direction": state.direction}
    if state.phase == RANDOM:
        data["target"] = state.target
    if over:
        data["end_reason"] = state.end_reason
        data["result"] = engine.result(state).to_json()
    return data


def event_view(
    engine: GiftEconomyEngine, event: Mapping[str, Any], seat: int | None, before: Any = None
) -> Event:
    """What a seat learns from an event (I4, I11).

    * ``shuffle``: with ``before`` (the state it was applied to), the
      engine's own dealing gives the seat its 6 ``dealt`` cards and, for the
      start player, the 2 cards ``drawn`` to begin its turn; other seats'
      cards and the deck order stay hidden. Without ``before`` (or with a
      shuffle that could not have been applied) it is hidden entirely.
    * ``pass_card``/``discard`` by another seat: hidden, except the choice
      that completes the set when everything set aside goes face up at that
      moment (a queen's discards; or a pass that ends the game, when all
      hands are shown). Needs ``before``; without it the choice stays hidden.
    * ``pass_card`` that completes the passes: with ``before``, also the cards the
      seat receives (``received``), which it sees arrive from its neighbour.
    * Everything else is public.
    """
    if seat is None:
        return dict(event)
    kind = event.get("do")
    if kind == "shuffle":
        return _shuffle_view(engine, event, seat, before)
    shown: Event
    if kind in ("pass_card", "discard") and event.get("by") != seat:
        if _reveals_choices(engine, event, before):
            shown = dict(event)
        else:
            shown = {"by": event.get("by"), "do": kind, "hidden": True}
    else:
        shown = dict(event)
    if kind == "pass_card":
        received = _received(event, seat, before)
        if received is not None:
            shown["received"] = received
    return shown


def _received(event: Mapping[str, Any], seat: int, before: Any) -> list[str] | None:
    """The cards passed to ``seat`` when this choice completes the passes, else None.

    They land in the seat's hand together with its next turn's draw, and the seat knows
    which came from its neighbour: the words tell the two apart with this.
    """
    by = event.get("by")
    if (
        not isinstance(before, State)
        or before.phase != CHOOSE
        or before.choose_kind != "pass_card"
        or not isinstance(by, int)
        or isinstance(by, bool)
        or not 0 <= by < before.n
        or not 0 <= seat < before.n
        or before.need[by] != 1
        or sum(before.need) != 1
    ):
        return None
    giver = (seat - before.direction) % before.n
    cards = list(before.pending[giver])
    if giver == by:
        card = event.get("card")
        if not isinstance(card, str) or card not in before.hands[by]:
            return None
        cards.append(card)
    return sort_cards(cards)


def _applied(
    engine: GiftEconomyEngine, event: Mapping[str, Any], before: Any, actor: Actor
) -> State | None:
    """``before`` after ``event`` by the engine's own rules, or None if it does not fit."""
    if not isinstance(before, State):
        return None
    try:
        return engine._apply(before, dict(event), actor)
    except (IllegalEvent, KeyError, TypeError, ValueError):
        return None


def _shuffle_view(
    engine: GiftEconomyEngine, event: Mapping[str, Any], seat: int, before: Any
) -> Event:
    hidden: Event = {"by": CHANCE, "do": "shuffle", "hidden": True}
    if (
        event.get("by") != CHANCE
        or not isinstance(before, State)
        or before.phase != SHUFFLE
        or not isinstance(seat, int)
        or not 0 <= seat < before.n
    ):
        return hidden
    after = _applied(engine, event, before, CHANCE)
    if after is None:
        return hidden
    hand = after.hands[seat]
    shown: Event = {"by": CHANCE, "do": "shuffle", "dealt": sort_cards(hand[:HAND_SIZE])}
    if hand[HAND_SIZE:]:  # the start player's first turn draws (I2)
        shown["drawn"] = sort_cards(hand[HAND_SIZE:])
    return shown


def _reveals_choices(engine: GiftEconomyEngine, event: Mapping[str, Any], before: Any) -> bool:
    """Does this set-aside choice complete the set, with every card face up at once?"""
    by = event.get("by")
    if (
        not isinstance(before, State)
        or before.phase != CHOOSE
        or before.choose_kind != event.get("do")
        or not isinstance(by, int)
        or isinstance(by, bool)
        or not 0 <= by < before.n
        or before.need[by] != 1
        or sum(before.need) != 1
    ):
        return False
    after = _applied(engine, event, before, by)
    if after is None:
        return False
    # a queen's discards go face up together (I4, I8); passes stay with their
    # receivers unless the game ends right there and all hands are shown (I11)
    return event.get("do") == "discard" or after.phase == OVER
