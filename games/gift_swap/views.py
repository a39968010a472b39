"""How a Gift Swap position and its events look to each seat.

Kept apart from the rules: nothing here changes a state. The engine's ``view``
and ``event_view`` methods delegate to :func:`view` and :func:`event_view`,
which receive the engine for the rules they need (whose move, scores, a deal).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from games.base import CHANCE, Event, IllegalEvent
from games.gift_swap.cards import CARDS, score_cards
from games.gift_swap.state import State, Task

if TYPE_CHECKING:
    from games.gift_swap.rules import GiftSwapEngine


def _sees(state: State, seat: int | None, card: str) -> bool:
    return seat is None or card in state.up or card in state.known[seat]


def _slot(state: State, seat: int | None, card: str) -> dict[str, Any]:
    return {"card": card if _sees(state, seat, card) else None, "up": card in state.up}


def _task_view(state: State, seat: int | None, task: Task) -> dict[str, Any]:
    if task[0] == "choose":
        data: dict[str, Any] = {
            "task": "choose",
            "seats": [s for s, _ in task[1]],
            "chosen": [s for s, _ in task[2]],
        }
        picks = dict(task[2])
        if seat is None:
            data["choices"] = {str(s): c for s, c in task[2]}
        elif seat in picks:
            data["my_choice"] = picks[seat]
        return data
    card = task[2]
    data = {"task": task[0], "seat": task[1]}
    data["card"] = card if _sees(state, seat, card) else None
    if task[0] == "effect":
        data["effect"] = CARDS[card].effect
    return data


def view(engine: GiftSwapEngine, state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know of ``state`` (``None``: everything)."""
    data: dict[str, Any] = {
        "game": engine.slug,
        "phase": state.phase,
        "step": engine.step(state),
        "players": state.n,
        "start_player": state.start,
        "round": state.turn // state.n + 1,
        "turns_played": state.turn,
        "active": state.active,
        "to_move": list(engine.to_move(state)),
        "deck_count": len(state.deck),
        "rows": [[_slot(state, seat, c) for c in row] for row in state.rows],
        "set_aside": [_slot(state, seat, c) for c in state.aside],
        "arranged": list(state.arranged),
        "queue": [_task_view(state, seat, t) for t in state.queue],
        "last_choices": [{"seat": s, "choice": c} for s, c in state.last_choices],
        "flipped_any": state.flipped_any,
        "special_condition_left": list(state.special),
        "scores": engine.scores(state),
    }
    if seat is not None:
        data["you"] = seat
        mine = [c for c in state.rows[seat] if c in state.known[seat] or c in state.up]
        data["my_known_score"] = score_cards(mine)[0]
    if state.final is not None:
        data["result"] = engine.result(state).to_json()
    return data


def event_view(
    engine: GiftSwapEngine, event: Mapping[str, Any], seat: int | None, before: Any = None
) -> Event:
    """What ``seat`` learns from ``event``; ``before`` is the state it was applied to.

    * ``deal``: with ``before``, the seat's own dealt cards (``hand``, in
      dealt order), computed by applying the deal to ``before`` with the
      engine's own dealing; never another seat's cards nor the set-aside
      order. Without ``before`` (or with a deal ``before`` refuses): hidden.
    * ``choose``: its maker sees it. Others see it only when, per
      ``before``, it is the last missing choice of its task, since all of
      the task's choices are then revealed together (``last_choices``);
      the first of two simultaneous choices shows only that it was made.
      The event names no card, so it never shows a kept card.
    * ``arrange``: only its maker sees the order; the row is arranged
      secretly in hand (interpretations 8 and 10), so others learn only
      that it was done, with or without ``before``.
    * every other event names only positions, which are public.
    """
    if seat is None:
        return dict(event)
    kind, by = event.get("do"), event.get("by")
    if by == CHANCE:
        hidden: Event = {"by": CHANCE, "do": kind, "hidden": True}
        if kind != "deal" or not isinstance(before, State) or before.phase != "deal":
            return hidden
        if not 0 <= seat < before.n:
            return hidden
        try:
            dealt = engine._deal(before, dict(event))
        except IllegalEvent:
            return hidden
        return {"by": CHANCE, "do": "deal", "hand": list(dealt.rows[seat])}
    if by == seat:
        return dict(event)
    if kind == "choose":
        if _completes_choice(before, by):
            return {"by": by, "do": "choose", "choice": event.get("choice")}
        return {"by": by, "do": kind, "hidden": True}
    if kind == "arrange":
        return {"by": by, "do": kind, "hidden": True}
    return dict(event)


def _completes_choice(before: Any, by: Any) -> bool:
    """Whether a choice by ``by`` applied to ``before`` is its task's last one."""
    if not isinstance(before, State) or not before.queue or before.queue[0][0] != "choose":
        return False
    _, received, picks, _ = before.queue[0]
    waiting = [s for s, _ in received if s not in {p for p, _ in picks}]
    return waiting == [by]
