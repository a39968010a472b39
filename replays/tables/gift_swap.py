"""Gift Swap's table: each player's row of gifts, the set-aside cards, what happens now.

Drawn from the viewer's view only. A card is drawn as a face when the view
shows its id (face up, or face down but known to the viewer, with a "face
down" ribbon) and as a plain back otherwise: every gift has the same back, so
a back says only its position. Every row slot carries a ``data-key``
(``row-<seat>-<index>``, ``aside-<index>``) so a move can point at it.
"""

from __future__ import annotations

from typing import Any

from games.base import card_ids_in
from games.gift_swap.words import EFFECT_TEXT, and_list, ordinal
from replays.tables.kit import Html, Table, el, points

ASIDE = "aside"


def row_key(seat: int, index: int) -> str:
    return f"row-{seat}-{index}"


def aside_key(index: int) -> str:
    return f"aside-{index}"


# -- drawing -------------------------------------------------------------------------------


def draw(table: Table) -> Html:
    view = table.view
    rows = view.get("rows") or []
    drawn: set[str] = set()
    parts: list[Html] = [_now(table)]
    parts += [_seat(table, seat, row, drawn) for seat, row in enumerate(rows)]
    parts.append(_set_aside(table, drawn))
    # Every card the view holds is on a row or set aside; anything else (never
    # expected) is still drawn, so a page never silently drops a card it may show.
    extra = sorted(card_ids_in(view, table.catalog) - drawn)
    if extra:
        parts.append(table.zone("Other cards", table.row(*(table.card(c) for c in extra))))
    return table.table(*parts)


def _slot(
    table: Table,
    slot: Any,
    index: int,
    key: str,
    drawn: set[str],
    mark: str = "",
    *,
    own: bool = False,
) -> Html:
    card = slot.get("card") if isinstance(slot, dict) else None
    up = bool(slot.get("up")) if isinstance(slot, dict) else False
    where = ordinal(index)
    if isinstance(card, str) and card in table.catalog:
        drawn.add(card)
        note = f"{where} · face up" if up else where
        if mark:
            note += f" · {mark}"
        return table.card(card, key=key, note=note, down=not up)
    if not mark and own:
        # The only card of your own row you do not know is one just received,
        # not yet looked at (Keep) or turned up (Open).
        mark = "just received"
    label = f"{where} · face down" + (f" · {mark}" if mark else "")
    return table.back(None, key=key, label=label)


def _seat(table: Table, seat: int, row: Any, drawn: set[str]) -> Html:
    view = table.view
    slots = row if isinstance(row, list) else []
    marks = _marks(view, seat)
    cards = [
        _slot(
            table,
            slot,
            i,
            row_key(seat, i),
            drawn,
            marks.get(_card_of(slot), ""),
            own=seat == view.get("you"),
        )
        for i, slot in enumerate(slots)
    ]
    content: list[Html | str] = [
        table.row(*cards) if cards else el("p", "No cards yet.", cls="empty")
    ]
    breakdown = _breakdown(table, seat)
    if breakdown:
        content.append(breakdown)
    return table.seat_panel(seat, *content, stats=_stats(table, seat))


def _card_of(slot: Any) -> str | None:
    card = slot.get("card") if isinstance(slot, dict) else None
    return card if isinstance(card, str) else None


def _marks(view: dict[str, Any], seat: int) -> dict[str | None, str]:
    """Short notes on the cards of ``seat``'s row that a pending task is about."""
    marks: dict[str | None, str] = {}
    for task in view.get("queue") or []:
        if not isinstance(task, dict) or task.get("seat") != seat or task.get("card") is None:
            continue
        if task.get("task") == "place":
            marks.setdefault(task["card"], "to be placed")
        elif task.get("task") == "effect":
            marks.setdefault(task["card"], f"{task.get('effect')} pending")
    return marks


def _stats(table: Table, seat: int) -> list[Html]:
    view = table.view
    stats: list[Html] = []
    result = view.get("result")
    scores = view.get("scores") or []
    if isinstance(result, dict):
        final = result.get("scores") or []
        if seat < len(final):
            stats.append(table.stat("Final score", points(final[seat])))
        if seat in (result.get("winners") or []):
            stats.append(table.stat("🏆", "winner"))
    elif seat < len(scores) and view.get("phase") not in ("deal", "arrange"):
        stats.append(table.stat("Face-up cards score", points(scores[seat])))
    if seat == view.get("you") and "my_known_score" in view and not isinstance(result, dict):
        stats.append(table.stat("Cards you know score", points(view["my_known_score"])))
    phase = view.get("phase")
    if phase == "arrange":
        arranged = view.get("arranged") or []
        done = seat < len(arranged) and arranged[seat]
        stats.append(table.stat("Row", "arranged" if done else "arranging"))
    if phase in ("turn", "special") and view.get("active") == seat:
        stats.append(table.stat("Gift token", "🎁 active player"))
    if seat == view.get("start_player"):
        stats.append(table.stat("Start player", "yes"))
    choice = _choice_marker(view, seat)
    if choice:
        stats.append(table.stat("Keep or Open", choice))
    return stats


def _choice_task(view: dict[str, Any]) -> dict[str, Any] | None:
    queue = view.get("queue") or []
    if queue and isinstance(queue[0], dict) and queue[0].get("task") == "choose":
        return queue[0]
    return None


def _choice_marker(view: dict[str, Any], seat: int) -> str:
    """'has chosen' / 'choosing' for a pending secret choice; the choice only to its maker."""
    task = _choice_task(view)
    if task is None or seat not in (task.get("seats") or []):
        return ""
    if seat not in (task.get("chosen") or []):
        return "choosing"
    if seat == view.get("you") and view.get("you") is not None and "my_choice" in task:
        return f"has chosen ({task['my_choice'].capitalize()}, secret)"
    choices = task.get("choices")
    if isinstance(choices, dict) and str(seat) in choices:
        return f"has chosen ({str(choices[str(seat)]).capitalize()}, secret)"
    return "has chosen"


def _set_aside(table: Table, drawn: set[str]) -> Html:
    view = table.view
    aside = view.get("set_aside") or []
    deck = view.get("deck_count", 0)
    parts: list[Html] = []
    if deck:
        parts.append(table.hidden(deck, label="cards to deal"))
    parts += [_slot(table, slot, i, aside_key(i), drawn) for i, slot in enumerate(aside)]
    if not parts:
        return table.zone("Set aside", el("p", "No cards set aside.", cls="empty"))
    title = "The deck" if deck else "Set-aside cards (never scored)"
    return table.zone(title, table.row(*parts))


# -- what happens now -------------------------------------------------------------------


def _now(table: Table) -> Html:
    view = table.view
    lines: list[str] = []
    turns = view.get("turns_played", 0)
    phase = view.get("phase")
    if phase in ("turn", "special"):
        played = "1 turn" if turns == 1 else f"{turns} turns"
        lines.append(f"Round {view.get('round', 1)} ({played} played so far).")
    queue = [t for t in view.get("queue") or [] if isinstance(t, dict)]
    if phase == "deal":
        lines.append("The cards are about to be shuffled and dealt.")
    elif phase == "arrange":
        waiting = [table.name(s) for s in view.get("to_move") or [] if isinstance(s, int)]
        lines.append(
            "Everyone arranges their row face down, lowest value on the left "
            f"(Party Props anywhere); waiting for {and_list(waiting)}."
        )
    elif phase == "over":
        lines.append("Game over: every card is turned face up and scored.")
    elif queue:
        lines.append(_task_sentence(table, queue[0]))
        later = [_task_short(table, t) for t in queue[1:]]
        if later:
            lines.append("Then: " + "; ".join(later) + ".")
    elif phase == "special":
        left = [table.name(s) for s in view.get("special_condition_left") or []]
        lines.append(
            "Special condition: nobody has opened a gift in two rounds, so each player "
            f"flips one of their face-down cards; {and_list(left)} still to flip."
        )
    elif isinstance(view.get("active"), int):
        lines.append(
            f"{table.name(view['active'])} swaps one of their face-down cards "
            "with a face-down card of an opponent."
        )
    last = _last_choices(table)
    if last and phase != "over":
        lines.append(last)
    if view.get("flipped_any") is False and phase == "turn":
        lines.append("No gift has been opened yet.")
    return table.zone("Now", *(el("p", line) for line in lines), cls="gift-swap-now")


def _task_sentence(table: Table, task: dict[str, Any]) -> str:
    kind = task.get("task")
    if kind == "choose":
        seats = [s for s in task.get("seats") or [] if isinstance(s, int)]
        chosen = set(task.get("chosen") or [])
        names = and_list([table.name(s) for s in seats])
        done = [table.name(s) for s in seats if s in chosen]
        text = (
            f"{names} each choose in secret: Keep (look at the new card) or Open (turn it up)"
            if len(seats) > 1
            else f"{names} chooses: Keep (look at the new card) or Open (turn it up)"
        )
        if done:
            text += f"; {and_list(done)} {'has' if len(done) == 1 else 'have'} chosen"
        return text + "."
    return _task_short(table, task, full=True) + "."


def _task_short(table: Table, task: dict[str, Any], *, full: bool = False) -> str:
    seat = task.get("seat")
    who = table.name(seat) if isinstance(seat, int) else "A player"
    card = task.get("card")
    name = table.card_name(card) if isinstance(card, str) else None
    kind = task.get("task")
    if kind == "choose":
        seats = [table.name(s) for s in task.get("seats") or [] if isinstance(s, int)]
        return f"{and_list(seats)} choose Keep or Open"
    if kind == "place":
        what = name or "the card they received"
        where = " in ascending order" if full else ""
        return f"{who} places {what} in their row{where}"
    effect = str(task.get("effect") or "")
    text = f"{who} may use the {effect} effect of {name or 'their card'}"
    if full and effect in EFFECT_TEXT:
        text += f" ({EFFECT_TEXT[effect].split(': ', 1)[1]})"
    return text


def _last_choices(table: Table) -> str:
    last = [c for c in table.view.get("last_choices") or [] if isinstance(c, dict)]
    if not last:
        return ""
    said = [
        f"{table.name(c['seat'])} {'kept' if c.get('choice') == 'keep' else 'opened'}"
        for c in last
        if isinstance(c.get("seat"), int)
    ]
    return f"Last Keep or Open: {and_list(said)}."


# -- the final breakdown -------------------------------------------------------------------


def _breakdown(table: Table, seat: int) -> Html | None:
    result = table.view.get("result")
    details = result.get("details") if isinstance(result, dict) else None
    rows = details.get("breakdown") if isinstance(details, dict) else None
    if not isinstance(rows, list) or seat >= len(rows) or not isinstance(rows[seat], dict):
        return None
    b = rows[seat]
    lines: list[str] = []
    if b.get("polaroid_converts"):
        lines.append(f"Polaroid turns {table.card_name(b['polaroid_converts'])} into a Nice Gift.")
    if b.get("neon_ball_converts"):
        lines.append(
            f"Neon Ball turns {table.card_name(b['neon_ball_converts'])} into a Quirky Gift."
        )
    props = b.get("party_props", 0)
    lines.append(
        f"{props} Party Prop{'' if props == 1 else 's'}: {points(b.get('party_prop_points', 0))}."
    )
    lines.append(
        f"Nice Gifts ({_names(table, b.get('nice_cards'))}): {points(b.get('nice_points', 0))}."
    )
    king = " (King of Quirky Gifts: they count plus)" if b.get("king_of_quirky_gifts") else ""
    lines.append(
        f"Quirky Gifts ({_names(table, b.get('quirky_cards'))}): "
        f"{points(b.get('quirky_points', 0))}{king}."
    )
    lines.append(f"Total: {points(b.get('total', 0))}.")
    return el(
        "div",
        el("h4", "Final scoring"),
        el("ul", *(el("li", line) for line in lines)),
        cls="breakdown",
    )


def _names(table: Table, cards: Any) -> str:
    if not isinstance(cards, list) or not cards:
        return "none"
    return and_list([table.card_name(c) for c in cards])


# -- moves ------------------------------------------------------------------------------------


def target(event: dict[str, Any], view: dict[str, Any]) -> str | None:
    """The slot a move points at: the opponent's card to swap for, the card to place or
    flip, the effect's target. Keep/Open, declining and arranging have no single card."""
    kind = event.get("do")
    if kind == "swap":
        return row_key(event["with_seat"], event["with_card"])
    if kind == "flip":
        return row_key(event["by"], event["card"])
    if kind in ("regift", "rewrap", "trade"):
        if event.get("row") == ASIDE:
            return aside_key(event["card"])
        return row_key(event["row"], event["card"])
    if kind == "place":
        queue = view.get("queue") or []
        card = queue[0].get("card") if queue and isinstance(queue[0], dict) else None
        rows = view.get("rows") or []
        seat = event.get("by")
        if card is None or not isinstance(seat, int) or seat >= len(rows):
            return None
        for index, slot in enumerate(rows[seat]):
            if isinstance(slot, dict) and slot.get("card") == card:
                return row_key(seat, index)
    return None
