"""Gift Swap told in words: the card catalog, event sentences and move labels.

Everything here reads only views (``event_view`` and ``view`` dicts), never a
state, so a sentence cannot name a card the seat may not see: a face-down card
is named only when the seat's view shows its id (its own dealt cards, cards it
kept, cards once face up). Positions are always public and always told, as
ordinals counted from the left ("the 2nd card of {p1}'s row").
"""

from __future__ import annotations

from typing import Any

from games.base import CardInfo, Event, and_list, seat_ref
from games.base import ordinal as base_ordinal
from games.gift_swap.cards import CARDS, GREEN, NEON, POLAROID, RED, REGIFT, REWRAP, TRADE
from games.gift_swap.state import ASIDE
from games.voice import Voice, capital, final_scores, points, signed

JSON = Any
View = dict[str, JSON] | None


EFFECT_TEXT = {
    REGIFT: "Regift: when turned face up, you may swap it for any face-down card "
    "(set-aside cards too; your own row's only if the table allows it), then Keep or "
    "Open the card you get",
    REWRAP: "Rewrap: when turned face up, you may turn any one face-up card face down",
    TRADE: "Trade: when turned face up, you may swap it for any face-up card outside "
    "your row (the card you get has no effect)",
}
PROP_ICONS = {
    "gs-p-polaroid": "📷",
    "gs-p-neonball": "🔮",
    "gs-p-chicken": "🐔",
    "gs-p-hat": "🥳",
    "gs-p-horn": "📯",
    "gs-p-confetti": "🎉",
}
PROP_TEXT = "A Party Prop: 1, 2, 3 or 4 Party Props score 0, 3, 6 or 12 points"


def _info(card_id: str) -> CardInfo:
    card = CARDS[card_id]
    if card.color == GREEN:
        if card.scoring == POLAROID:
            text = f"{PROP_TEXT}; at scoring it turns one of your Quirky Gifts into a Nice Gift."
        elif card.scoring == NEON:
            text = f"{PROP_TEXT}; at scoring it turns one of your Nice Gifts into a Quirky Gift."
        elif card.quirky:
            text = f"{PROP_TEXT}, and it also counts as a Quirky Gift (no icons)."
        else:
            text = f"{PROP_TEXT}."
        kind = "Party Prop and Quirky Gift" if card.quirky else "Party Prop"
        return CardInfo(
            name=card.name,
            icon=PROP_ICONS[card_id],
            value=None,
            colour="green",
            text=text,
            kind=kind,
        )
    icons = "icon" if card.icons == 1 else "icons"
    if card.color == RED:
        worth = f"{card.icons} red gift-box {icons}, +1 point each"
        points = card.icons
    else:
        worth = (
            f"{card.icons} blue gift-box {icons}, -1 point each (+1 for the King of Quirky Gifts)"
        )
        points = -card.icons
    effect = EFFECT_TEXT[card.effect or ""]
    return CardInfo(
        name=card.name,
        icon="🎁" if card.color == RED else "🎀",
        value=points,
        colour="red" if card.color == RED else "blue",
        text=f"{effect}; {worth}.",
        kind="Nice Gift" if card.color == RED else "Quirky Gift",
    )


CATALOG: dict[str, CardInfo] = {card_id: _info(card_id) for card_id in CARDS}


# -- small helpers ------------------------------------------------------------------


def ordinal(index: int) -> str:
    """0 -> '1st', 1 -> '2nd', 2 -> '3rd', 3 -> '4th' (positions from the left)."""
    return base_ordinal(index + 1)




def card_name(card: Any) -> str | None:
    """The card's name, or None for an id the seat does not see (or no id at all)."""
    return CATALOG[card]["name"] if isinstance(card, str) and card in CATALOG else None


def with_effect(card: Any) -> str | None:
    """'Nice Gift 3 (trade)': the name and the immediate effect, if it has one."""
    name = card_name(card)
    if name is None:
        return None
    effect = CARDS[card].effect
    return f"{name} ({effect})" if effect else name


def _seat(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _index(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _slot_card(view: View, row: Any, index: Any) -> str | None:
    """The id a view shows at a row position ('aside' for the set-aside cards), or None."""
    if view is None or not isinstance(index, int):
        return None
    cards = view.get("set_aside") if row == ASIDE else None
    if row != ASIDE:
        rows = view.get("rows")
        seat = _seat(row)
        if not isinstance(rows, list) or seat is None or not 0 <= seat < len(rows):
            return None
        cards = rows[seat]
    if not isinstance(cards, list) or not 0 <= index < len(cards):
        return None
    slot = cards[index]
    card = slot.get("card") if isinstance(slot, dict) else None
    return card if card_name(card) else None


def _task(view: View) -> dict[str, JSON]:
    """The first pending task of a view ({} when none or no view)."""
    queue = view.get("queue") if view else None
    if isinstance(queue, list) and queue and isinstance(queue[0], dict):
        return queue[0]
    return {}


def _placed_card(view: View, seat: Any) -> str | None:
    """The card ``seat`` is to place next in ``view`` (as the view shows it)."""
    queue = view.get("queue") if view else None
    for task in queue if isinstance(queue, list) else []:
        if isinstance(task, dict) and task.get("task") == "place" and task.get("seat") == seat:
            card = task.get("card")
            return card if card_name(card) else None
    return None


def _where(row: Any, index: int, by: Any, *, mine: str = "their", v: Voice | None = None) -> str:
    """'{p1}'s 2nd card', 'your 2nd card', 'their 2nd card', 'the 2nd set-aside card'."""
    if row == ASIDE:
        return f"the {ordinal(index)} set-aside card"
    seat = _seat(row)
    if seat == by:
        return f"{mine} {ordinal(index)} card"
    if seat is None:
        return f"another player's {ordinal(index)} card"
    whose = v.whose(seat) if v is not None else f"{seat_ref(seat)}'s"
    return f"{whose} {ordinal(index)} card"


def _named(place: str, card: str | None) -> str:
    """'their 2nd card' or 'their 2nd card (Party Hat)'."""
    name = card_name(card)
    return f"{place} ({name})" if name else place


# -- what happened --------------------------------------------------------------------


def tell(event: Event, seat: int | None, before: View, after: View) -> str:
    """One sentence for an event view, from the views around it (see the module doc)."""
    kind = event.get("do")
    v = Voice(seat)
    teller = _TELLERS.get(str(kind))
    by = _seat(event.get("by"))
    text = teller(event, v, before, after) if teller else f"{v.does(by, 'makes')} a move"
    return capital(text + _aftermath(v, before, after) + ".")


def _tell_deal(event: Event, v: Voice, before: View, after: View) -> str:
    hand = event.get("hand")
    if isinstance(hand, list) and hand:
        names = [card_name(c) or "a card" for c in hand]
        return f"The cards are shuffled and dealt; you get {and_list(names)}"
    if after is not None and not event.get("hidden"):
        rows = after.get("rows")
        aside = after.get("set_aside")
        if isinstance(rows, list) and rows and isinstance(aside, list):
            each = len(rows[0]) if isinstance(rows[0], list) else 0
            return (
                f"The cards are shuffled and dealt: {each} to each player, "
                f"{len(aside)} set aside face down"
            )
    return "The cards are shuffled and dealt"


def _tell_arrange(event: Event, v: Voice, before: View, after: View) -> str:
    by = _seat(event.get("by"))
    order = event.get("order")
    row = f"{v.does(by, 'arranges')} {v.their(by)} row face down"
    if isinstance(order, list) and order:
        names = [card_name(c) or "a card" for c in order]
        return f"{row}, left to right: {and_list(names)}"
    return row


def _tell_swap(event: Event, v: Voice, before: View, after: View) -> str:
    by, other = event.get("by"), event.get("with_seat")
    i, j = _index(event.get("card")), _index(event.get("with_card"))
    mine = _named(f"{v.their(by)} {ordinal(i)} card", _slot_card(before, by, i))
    theirs = _named(_where(other, j, by, v=v), _slot_card(before, other, j))
    return f"{v.does(by, 'swaps')} {mine} with {theirs}, face down"


def _tell_choose(event: Event, v: Voice, before: View, after: View) -> str:
    by = event.get("by")
    choice = event.get("choice")
    if event.get("hidden") or choice not in ("keep", "open"):
        return f"{v.does(by, 'makes')} a secret choice, Keep or Open"
    task = _task(before)
    seats = task.get("seats") if task.get("task") == "choose" else None
    chosen = task.get("chosen")
    chosen = chosen if isinstance(chosen, list) else []
    waiting = [s for s in seats if s not in chosen] if isinstance(seats, list) else None
    if waiting is not None and waiting != [by]:
        return f"{v.does(by, 'secretly chooses')} to {choice}"
    new_card = f"{v.their(by)} new card"
    if after is None:
        return f"{v.does(by, 'chooses')} to {choice} {new_card}"
    text = _outcome(v, by, choice, _placed_card(after, by), new_card, present=True)
    revealed = after.get("last_choices")
    for entry in revealed if isinstance(revealed, list) else []:
        if not isinstance(entry, dict) or entry.get("seat") == by:
            continue
        other = _seat(entry.get("seat"))
        if other is None or entry.get("choice") not in ("keep", "open"):
            continue
        card = _placed_card(after, other)
        text += "; " + _outcome(
            v, other, str(entry["choice"]), card, "yours" if v.mine(other) else "theirs",
            present=False,
        )
    return text


def _outcome(
    v: Voice, seat: Any, choice: str, card: str | None, what: str, *, present: bool
) -> str:
    """'{p1} keeps their new card (Nice Gift 6)', 'you had chosen to open yours: Quirky Gift 2'."""
    if present:
        verb = v.does(seat, "keeps" if choice == "keep" else "opens")
    else:
        verb = f"{v.who(seat)} had chosen to {choice}"
    if choice == "keep":
        name = card_name(card)
        return f"{verb} {what} ({name})" if name else f"{verb} {what} face down"
    shown = with_effect(card)
    return f"{verb} {what}: {shown}" if shown else f"{verb} {what} face up"


def _tell_place(event: Event, v: Voice, before: View, after: View) -> str:
    by = event.get("by")
    pos = _index(event.get("pos"))
    task = _task(before)
    name = card_name(task.get("card")) if task.get("task") == "place" else None
    what = name or ("the card you received" if v.mine(by) else "the card they received")
    return f"{v.does(by, 'places')} {what} as the {ordinal(pos)} card of {v.their(by)} row"


def _effect_card(before: View) -> str | None:
    task = _task(before)
    return card_name(task.get("card")) if task.get("task") == "effect" else None


def _tell_decline(event: Event, v: Voice, before: View, after: View) -> str:
    by = event.get("by")
    task = _task(before)
    name = _effect_card(before)
    effect = task.get("effect") if task.get("effect") in (REGIFT, REWRAP, TRADE) else None
    if name and effect:
        return f"{v.does(by, 'does')} not use the {effect} effect of {name}"
    return f"{v.does(by, 'does')} not use the card's effect"


def _tell_regift(event: Event, v: Voice, before: View, after: View) -> str:
    row, index, by = event.get("row"), _index(event.get("card")), event.get("by")
    own_row = "your own" if v.mine(by) else "their own"
    target = _named(_where(row, index, by, mine=own_row, v=v), _slot_card(before, row, index))
    own = _effect_card(before)
    if own:
        return f"{v.does(by, 'regifts')} {own}, swapping it for {target}"
    return f"{v.does(by, 'regifts')} {v.their(by)} card, swapping it for {target}"


def _tell_rewrap(event: Event, v: Voice, before: View, after: View) -> str:
    row, index, by = event.get("row"), _index(event.get("card")), event.get("by")
    card = card_name(_slot_card(before, row, index))
    place = _where(row, index, by, mine=v.their(by), v=v)
    own = _effect_card(before)
    using = f" with {own}" if own else ""
    if card:
        return f"{v.does(by, 'rewraps')}{using}: {place} ({card}) is turned face down"
    return f"{v.does(by, 'rewraps')}{using}: {place} is turned face down"


def _tell_trade(event: Event, v: Voice, before: View, after: View) -> str:
    row, index, by = event.get("row"), _index(event.get("card")), event.get("by")
    target = _named(_where(row, index, by, mine=v.their(by), v=v), _slot_card(before, row, index))
    own = _effect_card(before) or f"{v.their(by)} card"
    return f"{v.does(by, 'trades')} {own} for {target}, both face up"


def _tell_flip(event: Event, v: Voice, before: View, after: View) -> str:
    by = event.get("by")
    index = _index(event.get("card"))
    shown = with_effect(_slot_card(after, by, index))
    flips = f"{v.does(by, 'flips')} {v.their(by)} {ordinal(index)} card face up"
    return f"{flips}: {shown}" if shown else flips


_TELLERS = {
    "deal": _tell_deal,
    "arrange": _tell_arrange,
    "swap": _tell_swap,
    "choose": _tell_choose,
    "place": _tell_place,
    "decline": _tell_decline,
    REGIFT: _tell_regift,
    REWRAP: _tell_rewrap,
    TRADE: _tell_trade,
    "flip": _tell_flip,
}


def _aftermath(v: Voice, before: View, after: View) -> str:
    """What the event set off: the special condition, or the end of the game and its scores."""
    if before is None or after is None or before.get("phase") == after.get("phase"):
        return ""
    if after.get("phase") == "special":
        return "; nobody has opened a gift in two rounds, so each player now flips one card"
    if after.get("phase") != "over":
        return ""
    result = after.get("result")
    winners = result.get("winners") if isinstance(result, dict) else None
    scores = result.get("scores") if isinstance(result, dict) else None
    if not isinstance(winners, list) or not winners or not isinstance(scores, list):
        return "; a row is all face up, so the game ends"
    seats = [w for w in winners if _seat(w) is not None]
    best = scores[winners[0]]
    text = (
        f"; a row is all face up, so the game ends and "
        f"{v.many(seats, 'wins', 'share the win')} with {points(best)}"
    )
    breakdown = result.get("details", {}).get("breakdown") if isinstance(result, dict) else None
    notes = [_score_note(b) for b in breakdown] if isinstance(breakdown, list) else []
    return f"{text}; {final_scores(v, scores, notes)}"


def _score_note(part: Any) -> str:
    """ "Party Props 6, Nice Gifts +3, Quirky Gifts -1" for one row's score breakdown.

    Quirky Gifts score minus their icons, or plus for the King of Quirky Gifts (three or
    more of them), which the note then says.
    """
    if not isinstance(part, dict):
        return ""
    props, nice, quirky = (
        part.get("party_prop_points"),
        part.get("nice_points"),
        part.get("quirky_points"),
    )
    if not isinstance(props, int) or not isinstance(nice, int) or not isinstance(quirky, int):
        return ""
    note = f"Party Props {props}, Nice Gifts {signed(nice)}, Quirky Gifts {signed(quirky)}"
    if part.get("king_of_quirky_gifts"):
        note += " as King of Quirky Gifts"
    return note


# -- what a seat may do --------------------------------------------------------------


def tell_move(event: Event, seat: int, before: dict[str, JSON]) -> str:
    """The label of a legal move of ``seat``, from its view before the move."""
    kind = event.get("do")
    if kind == "arrange":
        order = event.get("order")
        names = [card_name(c) or "a card" for c in order] if isinstance(order, list) else []
        return f"Arrange your row as {and_list(names)}, left to right."
    if kind == "swap":
        i, j = _index(event.get("card")), _index(event.get("with_card"))
        other = event.get("with_seat")
        mine = _named(f"your {ordinal(i)} card", _slot_card(before, seat, i))
        theirs = _named(_where(other, j, seat), _slot_card(before, other, j))
        return f"Swap {mine} for {theirs}."
    if kind == "choose":
        if event.get("choice") == "keep":
            return "Keep it (look at it secretly)."
        return "Open it (turn it face up)."
    if kind == "place":
        return _place_label(_index(event.get("pos")), seat, before)
    if kind == "flip":
        index = _index(event.get("card"))
        return f"Flip {_named(f'your {ordinal(index)} card', _slot_card(before, seat, index))}."
    if kind == "decline":
        effect = _task(before).get("effect")
        return f"Do not use the {effect} effect." if isinstance(effect, str) else "Skip it."
    row, index = event.get("row"), _index(event.get("card"))
    target = _named(_where(row, index, seat, mine="your"), _slot_card(before, row, index))
    if kind == REGIFT:
        return f"Regift: swap it for {target}."
    if kind == REWRAP:
        return f"Rewrap: turn {target} face down."
    if kind == TRADE:
        return f"Trade: swap it for {target}."
    return "Make this move."


def _place_label(pos: int, seat: int, before: dict[str, JSON]) -> str:
    card = _placed_card(before, seat)
    rows = before.get("rows")
    row = rows[seat] if isinstance(rows, list) and 0 <= seat < len(rows) else []
    slots = [s.get("card") if isinstance(s, dict) else None for s in row]
    if card in slots:
        slots.remove(card)
    else:
        return f"Place it {ordinal(pos)} in your row."

    def neighbour(index: int) -> str:
        return card_name(slots[index]) or "a face-down card"

    if not slots:
        return f"Place it {ordinal(pos)} in your row."
    if pos == 0:
        return f"Place it {ordinal(pos)}, left of {neighbour(0)}."
    if pos >= len(slots):
        return f"Place it {ordinal(pos)}, right of {neighbour(len(slots) - 1)}."
    return f"Place it {ordinal(pos)}, between {neighbour(pos - 1)} and {neighbour(pos)}."
