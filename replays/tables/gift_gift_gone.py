"""Gift Gift Gone's table: hands, claimed gifts, the deck and the discard pile, a trade.

Drawn from the engine's view only (see ``games/gift_gift_gone/views.py``): the viewer's
hand as faces, other hands as backs; each player's claimed gifts in front of them,
grouped per gift with their points (a six-card gift is frozen); the deck as a pile
(its faces only when everyone may see, in a folded list); the whole discard pile,
top card first; the trade in progress with the asker's face-down cards; and the
gifts of this game with their points and owners (the view's gift list).

Keys for live play: a hand card is keyed by its card id while drawing and
discarding (each card is a discard) and by its gift otherwise (claim or add, or hand
one over in a trade); a claimed gift by ``table-<gift>`` (swap for it); a gift in the
list by ``gift-<gift>`` (ask for it); the piles by ``deck`` and ``discard``; the
laid-out trade cards by ``pick-<position>``.
"""

from __future__ import annotations

from typing import Any

from games.base import ordinal
from replays.tables.kit import Html, Table, el, points

DRAWING = ("draw", "discard")




def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _gift_of(table: Table, card: str) -> str:
    """The gift id of a card (``fruitcake`` for a Fruitcake), by name from the view's list."""
    name = table.card_name(card)
    for entry in table.view.get("catalogue") or []:
        if entry.get("name") == name and isinstance(entry.get("gift"), str):
            return str(entry["gift"])
    return card


def _gift_name(table: Table, gift: Any) -> str:
    return table.card_name(gift) if isinstance(gift, str) else "a gift"


def _who(table: Table, seat: Any) -> str:
    """ "You" for the viewer, the player's name otherwise (in a sentence about the table)."""
    if isinstance(seat, int) and seat == table.seat:
        return "you"
    return table.players[seat] if isinstance(seat, int) and 0 <= seat < len(table.players) else "?"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _whose(table: Table, seat: Any) -> str:
    who = _who(table, seat)
    return "your" if who == "you" else f"{who}'s"


def _hand_key(table: Table, card: str) -> str:
    if table.view.get("phase") in DRAWING:
        return card
    return f"hand-{_gift_of(table, card)}"


# -- the shared zones ------------------------------------------------------------
def _status(table: Table) -> Html:
    view = table.view
    target = view.get("target", 0)
    lines: list[Html | str] = [
        el("p", f"First to {points(target)} on the table wins.", cls="ggg-goal")
    ]
    turn = view.get("turn")
    phase = view.get("phase")
    if phase in DRAWING and isinstance(turn, int):
        drawn, dropped = view.get("draws", 0), view.get("discards", 0)
        lines.append(
            el(
                "p",
                f"{_cap(_who(table, turn))} {'have' if turn == table.seat else 'has'} drawn "
                f"{_cards(drawn)} and discarded "
                f"{dropped} of them this turn (draw one or two, then discard as many).",
            )
        )
    if view.get("cards_out"):
        quiet = view.get("quiet_turns", 0)
        lines.append(
            el(
                "p",
                "The cards have run out: nobody draws from the deck any more. The game "
                f"ends after a full round with no claim or swap ({quiet} of "
                f"{len(view.get('hands') or [])} turns so far).",
            )
        )
    if view.get("shuffle_due"):
        lines.append(el("p", "The deck is empty: the discard pile is about to be reshuffled."))
    if phase == "over":
        winner = view.get("winner")
        if isinstance(winner, int):
            lines.append(
                el("p", f"{table.name(winner)} reached the target and wins.", cls="ggg-end")
            )
        else:
            lines.append(
                el(
                    "p",
                    "The cards ran out and a full round passed with no claim or swap: "
                    "final scores are points on the table minus cards left in hand.",
                    cls="ggg-end",
                )
            )
    return table.zone("Goal", *lines, cls="ggg-status")


def _piles(table: Table) -> Html:
    view = table.view
    count = int(view.get("deck_count") or 0)
    deck_parts: list[Html | str] = [
        table.row(table.back(key="deck", label=f"{_cards(count)} left") if count else ""),
    ]
    if not count:
        deck_parts.append(el("p", "Empty.", cls="ggg-empty"))
    order = view.get("deck")
    if isinstance(order, list) and order:
        deck_parts.append(
            el(
                "details",
                el("summary", f"The deck in order, top first ({_cards(len(order))})"),
                table.row(*(table.card(c, small=True) for c in order)),
            )
        )
    pile = [c for c in view.get("discard") or [] if isinstance(c, str)]
    discard_parts: list[Html | str] = []
    if pile:
        discard_parts.append(
            table.row(table.card(pile[-1], key="discard", note="on top")),
        )
        below = list(reversed(pile[:-1]))
        if below:
            discard_parts.append(
                el(
                    "details",
                    el("summary", f"{_cards(len(below))} below, newest first"),
                    table.row(*(table.card(c, small=True) for c in below)),
                )
            )
    else:
        discard_parts.append(el("p", "Empty.", cls="ggg-empty"))
    return el(
        "div",
        table.zone("Deck", *deck_parts, cls="ggg-deck"),
        table.zone(f"Discard pile ({_cards(len(pile))})", *discard_parts, cls="ggg-discard"),
        cls="ggg-piles",
    )


def _trade(table: Table) -> Html | str:
    trade = table.view.get("trade")
    if not isinstance(trade, dict):
        return ""
    asker, partner, gift = trade.get("asker"), trade.get("partner"), trade.get("gift")
    phase = table.view.get("phase")
    asker_word, partner_word = _who(table, asker), _who(table, partner)
    verb = "ask" if asker_word == "you" else "asks"
    asked = f"{_cap(asker_word)} {verb} for one {_gift_name(table, gift)} card"
    parts: list[Html | str] = []
    if phase == "answer":
        answers = "answer" if partner_word == "you" else "answers"
        parts.append(el("p", f"{asked}; {partner_word} {answers} yes or no."))
    elif phase == "mix":
        shuffles = "shuffle" if asker_word == "you" else "shuffles"
        parts.append(
            el(
                "p",
                f"{asked}; {partner_word} said yes and handed one over. "
                f"{_cap(asker_word)} {shuffles} the other cards to lay them out "
                "face down.",
            )
        )
    else:
        positions = int(trade.get("positions") or 0)
        pick = "pick" if partner_word == "you" else "picks"
        parts.append(
            el(
                "p",
                f"{asked}; {partner_word} said yes and now {pick} one of "
                f"{_whose(table, asker)} {_cards(positions)}, laid face down:",
            )
        )
        order = trade.get("order")
        shown: list[Html] = []
        for p in range(positions):
            key, label = f"pick-{p}", f"{ordinal(p + 1)} card"
            if isinstance(order, list) and p < len(order):
                shown.append(table.card(order[p], key=key, note=label, down=True))
            else:
                shown.append(table.back(key=key, label=label))
        parts.append(table.row(*shown))
    return table.zone("Trade", *parts, cls="ggg-trade")


def _gift_list(table: Table) -> Html:
    owners = {
        entry.get("gift"): entry
        for entry in table.view.get("gifts") or []
        if isinstance(entry, dict)
    }
    chips: list[Html] = []
    for entry in table.view.get("catalogue") or []:
        gift = entry.get("gift")
        if not isinstance(gift, str):
            continue
        claim = owners.get(gift)
        if claim is None:
            note = "not claimed"
        else:
            held = len(claim.get("cards") or [])
            note = f"{table.name(claim.get('owner', -1))}, {_cards(held)}"
            if claim.get("frozen"):
                note += ", frozen"
        chips.append(table.card(gift, key=f"gift-{gift}", small=True, note=note))
    return table.zone(
        "Gifts in this game (six cards each)", table.row(*chips, cls="ggg-list"), cls="ggg-gifts"
    )


# -- a player's place --------------------------------------------------------------
def _claimed(table: Table, seat: int) -> list[Html]:
    groups: list[Html] = []
    for entry in table.view.get("gifts") or []:
        if not isinstance(entry, dict) or entry.get("owner") != seat:
            continue
        gift = entry.get("gift")
        held = [c for c in entry.get("cards") or [] if isinstance(c, str)]
        worth = int(entry.get("value") or 0) * len(held)
        frozen = bool(entry.get("frozen"))
        title: list[Html | str] = [
            el("b", _gift_name(table, gift)),
            f" {_cards(len(held))}, {points(worth)}",
        ]
        if frozen:
            title.append(el("span", "frozen: all six", cls="ggg-frozen"))
        groups.append(
            el(
                "div",
                el("div", *title, cls="ggg-gift-title"),
                table.row(*(table.card(c, key=f"table-{gift}", small=True) for c in held)),
                cls="ggg-gift" + (" frozen" if frozen else ""),
            )
        )
    return groups


def _hand(table: Table, entry: dict[str, Any]) -> Html:
    seat = entry.get("seat")
    hand = entry.get("cards")
    if isinstance(hand, list):
        mine = seat == table.seat
        faces = [table.card(c, key=_hand_key(table, c) if mine else None) for c in hand]
        return el("div", el("h4", "Hand"), table.row(*faces), cls="ggg-hand")
    count = int(entry.get("count") or 0)
    backs = [table.back() for _ in range(count)]
    return el("div", table.row(*backs, cls="ggg-backs"), cls="ggg-hand")


def _seat(table: Table, entry: dict[str, Any]) -> Html:
    view = table.view
    seat = int(entry.get("seat", 0))
    scored = view.get("points") or []
    on_table = scored[seat] if seat < len(scored) else 0
    stats = [
        table.stat("On the table", f"{on_table} of {view.get('target', 0)} points"),
        table.stat("In hand", _cards(int(entry.get("count") or 0))),
    ]
    if view.get("phase") == "over":
        final = view.get("scores") or []
        if seat < len(final):
            stats.append(table.stat("Cards left in hand", points(final[seat] - on_table)))
            stats.append(table.stat("Final score", points(final[seat])))
    claimed = _claimed(table, seat)
    gifts = (
        el("div", el("h4", "Claimed gifts"), *claimed, cls="ggg-claimed")
        if claimed
        else el("p", "No gift claimed yet.", cls="ggg-empty")
    )
    return table.seat_panel(seat, _hand(table, entry), gifts, stats=stats)


def draw(table: Table) -> Html:
    hands = [e for e in table.view.get("hands") or [] if isinstance(e, dict)]
    n = len(hands)
    start = table.seat if table.seat is not None and 0 <= table.seat < n else 0
    # The viewer's own place first, then the others in turn order (to the left).
    order = [hands[(start + k) % n] for k in range(n)]
    return table.table(
        _status(table),
        _piles(table),
        _trade(table),
        el("div", *(_seat(table, e) for e in order), cls="ggg-seats"),
        _gift_list(table),
    )


def target(event: dict[str, Any], view: dict[str, Any]) -> str | None:
    kind = event.get("do")
    gift = event.get("gift")
    if kind == "draw":
        return "deck" if event.get("from") == "deck" else "discard"
    if kind == "discard":
        card = event.get("card")
        return card if isinstance(card, str) else None
    if kind == "claim":
        return f"hand-{gift}"
    if kind == "swap":
        return f"table-{gift}"
    if kind == "ask":
        return f"gift-{gift}"
    if kind == "answer" and event.get("yes") is True:
        trade = view.get("trade") or {}
        return f"hand-{trade.get('gift')}"
    if kind == "pick":
        return f"pick-{event.get('position')}"
    return None
