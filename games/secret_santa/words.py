"""Secret Santa told in words: the card catalog, event sentences and move labels.

Everything here works from *views* (``event_view`` and ``view`` dicts), never
from a state, so a sentence can only say what its seat may know (see
``games.base``). The rules that decide what a seat knows live in the engine;
this module only reads what the views hold:

* a take names a position and the colour on its back (I6, I16); the card
  itself is named only to a seat whose view holds it (the taker, after the
  take; the player it was taken from, who held it; everyone, ``seat=None``);
* a gift to the Unexpected guest is laid face up, so it is named to all;
* a deal names a seat's own dealt hand and the guest's face-up row.

The engine's ``card_catalog``, ``tell`` and ``tell_move`` delegate here. Interpreted
(not compiled): sentences are not on the replay path.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from games.base import CardInfo, and_list, ordinal, seat_ref
from games.secret_santa.cards import (
    CHOC,
    COLOUR,
    COLOUR_NAMES,
    CUP,
    CUPS_TABLE,
    GENERIC,
    KIND,
    MATAMUG,
    TEA,
    TEAPOT,
)
from games.secret_santa.state import GUEST
from games.voice import Voice, capital, final_scores

GUEST_NAME = "the Unexpected guest"

# name, plural, icon, printed value, effect, group
_KINDS: dict[str, tuple[str, str, str, int | None, str, str]] = {
    GENERIC: ("Generic present", "Generic presents", "🎁", 2, "Worth 2 points.", "Presents"),
    MATAMUG: (
        "Matamug",
        "Matamugs",
        "🍺",
        2,
        "Worth 2 points, but its owner's Cups then score nothing.",
        "Presents",
    ),
    TEA: ("Tea bag", "Tea bags", "🌿", 1, "Worth 1 point, or 2 with the Tea pot.", "Tea"),
    TEAPOT: (
        "Tea pot",
        "Tea pots",
        "🫖",
        1,
        "Worth 1 point, and doubles its owner's Tea bags.",
        "Tea",
    ),
    CUP: (
        "Cup",
        "Cups",
        "☕",
        None,
        "All your Cups score together: "
        + ", ".join(str(p) for p in CUPS_TABLE[1:-1])
        + f" or {CUPS_TABLE[-1]} points for 1 to {len(CUPS_TABLE) - 1} Cups.",
        "Cups",
    ),
    CHOC: (
        "Choc & Cawa",
        "Choc & Cawas",
        "🍫",
        3,
        "Worth 3 points if its owner also has the Matamug, else nothing.",
        "Cups",
    ),
}

CATALOG: dict[str, CardInfo] = {
    card: CardInfo(
        name=_KINDS[kind][0],
        icon=_KINDS[kind][2],
        value=_KINDS[kind][3],
        colour=COLOUR_NAMES[COLOUR[card]],
        text=_KINDS[kind][4],
        kind=_KINDS[kind][5],
    )
    for card, kind in KIND.items()
}

#: Round-score categories (``score_breakdown`` keys) as a player says them.
CATEGORY_NAMES: dict[str, str] = {
    GENERIC: "Generic presents",
    CUP: "Cups",
    MATAMUG: "Matamug",
    CHOC: "Choc & Cawa",
    TEA: "Tea bags",
    TEAPOT: "Tea pot",
}


# -- small phrases -------------------------------------------------------------------




def points(value: int) -> str:
    return f"{value} point" if value == 1 else f"{value} points"


def card_phrase(card: str) -> str:
    """'Tea pot (1 point)', 'Cup': the name, with the printed value when it has one."""
    info = CATALOG[card]
    value = info.get("value")
    return info["name"] if value is None else f"{info['name']} ({points(value)})"


def cards_phrase(cards: Sequence[str]) -> str:
    """'Tea pot, 2 Generic presents and Cup': same cards counted, in first-seen order."""
    counts: dict[str, int] = {}
    for card in cards:
        kind = KIND[card]
        counts[kind] = counts.get(kind, 0) + 1
    parts = [
        _KINDS[kind][0] if count == 1 else f"{count} {_KINDS[kind][1]}"
        for kind, count in counts.items()
    ]
    return and_list(parts)




def _is_seat(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _cards(value: Any) -> list[str] | None:
    """A list of known card ids, or None when the value is anything else."""
    if isinstance(value, list) and all(isinstance(c, str) and c in CATALOG for c in value):
        return list(value)
    return None


def _player(view: Mapping[str, Any] | None, seat: Any) -> Mapping[str, Any]:
    if view is None or not _is_seat(seat):
        return {}
    players = view.get("players")
    if isinstance(players, list) and seat < len(players) and isinstance(players[seat], Mapping):
        return players[seat]
    return {}


def _guest(view: Mapping[str, Any] | None) -> Mapping[str, Any]:
    guest = view.get("guest") if view is not None else None
    return guest if isinstance(guest, Mapping) else {}


def _at(items: Any, index: int) -> Any:
    if isinstance(items, list) and 0 <= index < len(items):
        return items[index]
    return None


# -- what a take is about ------------------------------------------------------------


def _source(event: Mapping[str, Any]) -> tuple[Any, int] | None:
    """``(from, index)`` of a well-formed take, else None."""
    source, index = event.get("from"), event.get("index")
    if (source == GUEST or _is_seat(source)) and _is_seat(index):
        return source, index
    return None


def _back(before: Mapping[str, Any] | None, source: Any, index: int) -> str | None:
    """The colour on the back of the card at that position (public, I16)."""
    holder = _guest(before) if source == GUEST else _player(before, source)
    colour = _at(holder.get("face_down_backs" if source == GUEST else "hand_backs"), index)
    return colour if colour in COLOUR_NAMES else None


def _taken_card(
    by: int,
    source: Any,
    index: int,
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any] | None,
) -> str | None:
    """The card taken, if the views show it: in the holder's hand (or the guest's
    face-down row) before the take, or at the end of the taker's own pile after it."""
    holder = _guest(before) if source == GUEST else _player(before, source)
    card = _at(holder.get("face_down" if source == GUEST else "hand"), index)
    if isinstance(card, str) and card in CATALOG:
        return card
    if after is not None and after.get("you") == by:
        pile = _cards(_player(after, by).get("face_down"))
        if pile:
            return pile[-1]
    return None


def _where(
    by: int, source: Any, index: int, colour: str | None, *, v: Voice | None = None
) -> str:
    """'Ben's 3rd card in hand (blue back)', 'the Unexpected guest's 1st face-down card'.

    ``v`` words the seats for a viewer; without it (a move label) the mover is "you".
    """
    place = ordinal(index + 1)
    if source == GUEST:
        text = f"{GUEST_NAME}'s {place} face-down card"
    elif source == by:
        own = v.their(by) if v is not None else "your"
        text = f"{own} own {place} card in hand"
    else:
        whose = v.whose(source) if v is not None else f"{seat_ref(source)}'s"
        text = f"{whose} {place} card in hand"
    return f"{text} ({colour} back)" if colour else text


def _owner(v: Voice, by: int, source: Any) -> str:
    if source == GUEST:
        return f"{GUEST_NAME}'s face-down"
    if source == by:
        return f"{v.their(by)} own"
    return v.whose(source)


# -- what follows an event -------------------------------------------------------------


def _aftermath(
    v: Voice, before: Mapping[str, Any] | None, after: Mapping[str, Any] | None
) -> str:
    """'; {p2} must now give the guest a card' or '; that ends round 2 (...)', or ''."""
    if before is None or after is None:
        return ""
    phase = after.get("phase")
    if phase == "give" and _is_seat(after.get("giver")):
        return f"; {v.does(after['giver'], 'must')} now give the guest a card, face up"
    if before.get("phase") not in ("take", "give") or phase not in ("deal", "over"):
        return ""
    rounds = after.get("round_scores")
    rounds = rounds if isinstance(rounds, list) else []
    last = rounds[-1] if rounds else None
    if not isinstance(last, list) or not all(isinstance(s, int) for s in last):
        return "; that ends the round"
    scored = ", ".join(f"{v.who(s)} {points(score)}" for s, score in enumerate(last))
    round_no = before.get("round")
    text = f"; that ends round {round_no} ({scored})" if _is_seat(round_no) else ""
    text = text or f"; that ends the round ({scored})"
    winners = after.get("winners")
    totals = after.get("totals")
    if phase == "over" and isinstance(winners, list) and winners and isinstance(totals, list):
        seats = [w for w in winners if _is_seat(w)]
        best = max(totals)
        verb = v.many(seats, "wins", "share the win")
        text += f", and {verb} the game with {points(best)}"
        per_seat = [
            [r[s] for r in rounds if isinstance(r, list) and s < len(r)] for s in range(len(totals))
        ]
        added_up = len(rounds) > 1 and all(
            sum(parts) == total for parts, total in zip(per_seat, totals, strict=True)
        )
        notes = [" + ".join(map(str, parts)) for parts in per_seat] if added_up else []
        rule = "every round's score added up" if added_up else ""
        text += f"; {final_scores(v, totals, notes, rule=rule)}"
    return text


# -- sentences -------------------------------------------------------------------------


def tell(
    event: Mapping[str, Any],
    seat: int | None,
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any] | None,
) -> str:
    """One sentence for an event view (see ``BaseEngine.tell``), "you" for ``seat``."""
    v = Voice(seat)
    kind = event.get("do")
    if kind == "deal":
        return _tell_deal(event, v, before, after)
    by = event.get("by")
    if not _is_seat(by):
        return "Something happens at the table."
    if kind == "take":
        return capital(_tell_take(event, by, v, before, after))
    if kind == "give":
        card = event.get("card")
        what = card_phrase(card) if isinstance(card, str) and card in CATALOG else "a card"
        return capital(
            f"{v.does(by, 'gives')} {what} to {GUEST_NAME}, face up{_aftermath(v, before, after)}."
        )
    return capital(f"{v.does(by, 'makes')} a move.")


def _tell_deal(
    event: Mapping[str, Any],
    v: Voice,
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any] | None,
) -> str:
    opening = "The cards are shuffled and dealt"
    round_no = before.get("round") if before is not None else None
    if _is_seat(round_no):
        opening += f" for round {round_no}"
    parts = []
    hand = _cards(event.get("hand"))
    if hand:
        parts.append(f"you get {cards_phrase(hand)}")
    face_up = _cards(event.get("guest_face_up"))
    if face_up is None:
        face_up = _cards(_guest(after).get("face_up"))
    if face_up:
        parts.append(f"{GUEST_NAME} shows {cards_phrase(face_up)} face up")
    first = before.get("first_player") if before is not None else None
    if _is_seat(first):
        parts.append(f"{v.does(first, 'plays')} first")
    return opening + (": " + "; ".join(parts) if parts else "") + "."


def _tell_take(
    event: Mapping[str, Any],
    by: int,
    v: Voice,
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any] | None,
) -> str:
    where = _source(event)
    if where is None:
        return f"{v.does(by, 'takes')} a card."
    source, index = where
    card = _taken_card(by, source, index, before, after)
    rest = _aftermath(v, before, after)
    if card is not None:
        return f"{v.does(by, 'takes')} {_owner(v, by, source)} {card_phrase(card)}{rest}."
    colour = _back(before, source, index)
    return f"{v.does(by, 'takes')} {_where(by, source, index, colour, v=v)}{rest}."


# -- move labels ----------------------------------------------------------------------


def tell_move(event: Mapping[str, Any], seat: int, before: Mapping[str, Any]) -> str:
    """A button's label for a legal move; distinct moves read differently."""
    kind = event.get("do")
    if kind == "take":
        where = _source(event)
        if where is None:
            return "Take a card."
        source, index = where
        colour = _back(before, source, index)
        if source == seat:
            card = _at(_cards(_player(before, seat).get("hand")), index)
            place = ordinal(index + 1)
            if card is not None:
                return f"Take your own {place} card: {card_phrase(card)}."
            return f"Take your own {place} card."
        return f"Take {_where(seat, source, index, colour)}."
    if kind == "give":
        card = event.get("card")
        if not isinstance(card, str) or card not in CATALOG:
            return f"Give a card to {GUEST_NAME}."
        hand = _cards(_player(before, seat).get("hand")) or []
        if card not in hand:
            return f"Give {card_phrase(card)} to the guest."
        place = ordinal(hand.index(card) + 1)
        return f"Give your {place} card, {card_phrase(card)}, to the guest."
    return "Make this move."
