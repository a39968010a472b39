"""How a GiftTRAP position and its events look to each seat.

Kept apart from the rules: nothing here changes a state. The engine's ``view``
and ``event_view`` are one-line delegations to these functions, which receive the
engine (for its slug, ``to_move``, ``scores`` and ``result``) as a parameter.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from games.base import Event
from games.gift_trap.cards import CARD_PACK, TOKENS, gift_name
from games.gift_trap.state import State

if TYPE_CHECKING:
    from games.gift_trap.rules import GiftTrapEngine


def view(engine: GiftTrapEngine, state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know: its own choices, and others' only once turned over.

    Who gave to whom and how many GET tokens are down is public (the tokens lie
    on the table face down); gift numbers, GET choices and expert cards are not.
    """
    s = state
    everything = seat is None
    grid = [
        {
            "gift": i + 1, "card": card, "side": side, "name": gift_name(card, side),
            "pack": CARD_PACK[card], "trapped": i + 1 in s.trapped,
        }
        for i, (card, side) in enumerate(s.grid)
    ]
    # Between rounds the cards are back under their pack, but the last round's
    # scoring (``round_log``) is still on view and names gifts by grid number.
    last_grid = [
        {"gift": i + 1, "card": card, "side": side, "name": gift_name(card, side),
         "pack": CARD_PACK[card]}
        for i, (card, side) in enumerate(s.last_grid)
    ]
    players = []
    for p in range(s.n):
        mine = everything or p == seat
        given = []
        for r in range(s.n):
            gift = s.gives[p][r]
            if r == p or not gift:
                continue
            entry: dict[str, Any] = {"to": r}
            if mine or s.shown[r][p]:
                entry["gift"] = gift
                if s.expert:
                    entry["give_more"] = s.give_more[p] == r
            given.append(entry)
        player: dict[str, Any] = {
            "seat": p,
            "give_track": s.give_pos[p],
            "get_track": s.get_pos[p],
            "gave": given,
            "received_from": [g for g in range(s.n) if g != p and s.gives[g][p]],
            "revealed_from": [g for g in range(s.n) if g != p and s.shown[p][g]],
            "get_tokens_shown": s.gets_shown[p],
        }
        if mine or s.gets_shown[p]:
            player["get_tokens"] = {tok: (s.gets[p][i] or None) for i, tok in enumerate(TOKENS)}
        else:
            player["get_tokens_placed"] = sum(1 for g in s.gets[p] if g)
        if s.expert:
            if mine or s.gets_shown[p]:
                choice = s.get_more[p]
                player["get_more"] = "undecided" if choice is None else (
                    None if choice < 0 else choice
                )
            else:
                player["get_more_decided"] = s.get_more[p] is not None
            player["gifttrap_played"] = s.trap_used[p]
        players.append(player)
    out: dict[str, Any] = {
        "game": engine.slug,
        "seat": seat,
        "phase": s.phase,
        "round": s.round,
        "max_rounds": s.max_rounds,
        "dealer": s.dealer,
        "pack": s.pack,
        "packs": {
            p: {"unseen": len(s.unseen[p]), "returned": len(s.queue[p])} for p in s.packs
        },
        "track_length": s.track,
        "gifted_zone_from": s.zone_from,
        "expert_cards": s.expert,
        "grid": grid,
        "last_grid": last_grid,
        "players": players,
        "revealer": s.revealer if s.phase == "reveal" else None,
        "to_move": engine.to_move(s),
        "scores": engine.scores(s),
        "round_log": [dict(x) for x in s.log],
        "gifttraps": [
            {"round": r, "seat": p, "gift": g, "during": ph} for r, p, g, ph in s.trap_log
        ],
    }
    if s.phase == "over":
        out["result"] = engine.result(s).to_json()
    return out


def grid_names(state: State) -> dict[Any, str]:
    """Each gift on the grid (then the last round's grid) by number: its name, as every
    seat's view names it (the grid lies face up: no view hides a name). Labelling a
    giving reads these and nothing else of a view."""
    names: dict[Any, str] = {}
    for i, (card, side) in enumerate(state.grid):
        names[i + 1] = gift_name(card, side)
    for i, (card, side) in enumerate(state.last_grid):
        if i + 1 not in names:
            names[i + 1] = gift_name(card, side)
    return names


def event_view(
    engine: GiftTrapEngine, event: Mapping[str, Any], seat: int | None, before: Any = None
) -> Event:
    """Deals are public; a give, a GET token or a Get More choice only to its maker."""
    kind = event.get("do")
    if kind == "deal" or seat is None or event.get("by") == seat:
        return dict(event)
    if kind == "give":
        return {"by": event.get("by"), "do": "give", "to": event.get("to"), "hidden": True}
    if kind in ("get", "get_more"):
        return {"by": event.get("by"), "do": kind, "hidden": True}
    return dict(event)
