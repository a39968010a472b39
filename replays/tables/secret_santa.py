"""Secret Santa's table: hands held backs out, face-down gifts, the Unexpected guest.

Drawn from the engine's view only (``games.secret_santa.views.view``):

* each player's hand: faces for the viewer's own hand (and for everyone's when
  the view shows all), otherwise one back per card in its colour (backs are
  public, I16), numbered as the take labels count them ("3rd card in hand");
* each player's face-down gifts: the viewer's own as faces marked "face down",
  the cards the viewer knows in another pile likewise, the others as coloured
  backs; after a round's reveal the piles are drawn face up;
* the Unexpected guest: its face-up row and its face-down cards (backs);
* the round, the target, the running totals, and the last round's scoring.

Keys for live play: ``hand-<seat>-<position>`` for a card in a hand (taken by
position, or given by the viewer), ``guest-<position>`` for the guest's
face-down cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.safestring import SafeString

from games.secret_santa.words import CATEGORY_NAMES, ordinal
from replays.tables.kit import Html, Table, el, esc, points

REVEALED_PHASES = ("deal", "over")


def hand_key(seat: int, index: int) -> str:
    return f"hand-{seat}-{index}"


def guest_key(index: int) -> str:
    return f"guest-{index}"


def _cards(table: Table, value: Any) -> list[str]:
    if not isinstance(value, list):
        return []
    return [c for c in value if isinstance(c, str) and c in table.catalog]


def _colours(value: Any) -> list[str | None]:
    return [c if isinstance(c, str) else None for c in value] if isinstance(value, list) else []


def _group(title: str, content: Html) -> Html:
    """A captioned row of cards inside a seat or zone (an f-string: ~20 a table)."""
    return SafeString(
        f'<div class="ss-group"><div class="ss-caption">{esc(title)}</div>{esc(content)}</div>'
    )


def _none(text: str) -> Html:
    return el("p", text, cls="ss-empty")


# -- one player's place ---------------------------------------------------------------


def _hand(table: Table, seat: int, player: Mapping[str, Any]) -> Html:
    cards = _cards(table, player.get("hand"))
    backs = _colours(player.get("hand_backs"))
    if "hand" in player:
        drawn = [
            table.card(card, key=hand_key(seat, i), note=f"{ordinal(i + 1)} in hand")
            for i, card in enumerate(cards)
        ]
    else:
        drawn = [
            table.back(
                colour,
                key=hand_key(seat, i),
                label=f"{ordinal(i + 1)} · {colour} back" if colour else ordinal(i + 1),
            )
            for i, colour in enumerate(backs)
        ]
    size = len(drawn)
    title = f"Hand ({size} card{'' if size == 1 else 's'})"
    return _group(title, table.row(*drawn) if drawn else _none("No cards in hand."))


def _pile(table: Table, player: Mapping[str, Any], revealed: bool) -> Html:
    backs = _colours(player.get("face_down_backs"))
    drawn: list[Html]
    if "face_down" in player:
        drawn = [
            table.card(c, small=True, down=not revealed) for c in _cards(table, player["face_down"])
        ]
    else:
        # Cards this viewer once held lie somewhere in this pile: the view lists
        # them, not their places, so each goes on a back of its colour.
        known = _cards(table, player.get("face_down_known"))
        drawn = []
        for colour in backs:
            match = next((c for c in known if table.catalog[c].get("colour") == colour), None)
            if match is not None:
                known.remove(match)
                drawn.append(table.card(match, small=True, down=True))
            else:
                drawn.append(table.back(colour))
        drawn.extend(table.card(c, small=True, down=True) for c in known)
    if not drawn:
        return _group("Gifts taken", _none("None yet."))
    title = "Gifts taken, revealed" if revealed else "Gifts taken, face down"
    return _group(title, table.row(*drawn))


def _seat(table: Table, seat: int, player: Mapping[str, Any]) -> Html:
    view = table.view
    revealed = view.get("phase") in REVEALED_PHASES
    stats = [table.stat("Total", points(int(player.get("total", 0))))]
    if view.get("first_player") == seat and view.get("phase") != "over":
        stats.append(table.stat("First player", "this round"))
    if view.get("active") == seat:
        stats.append(table.stat("Now", "takes a card"))
    if view.get("giver") == seat:
        stats.append(table.stat("Now", "gives the guest a card"))
    if seat in (view.get("winners") or []):
        stats.append(table.stat("Winner", "🏆"))
    return table.seat_panel(
        seat, _hand(table, seat, player), _pile(table, player, revealed), stats=stats
    )


# -- shared zones -----------------------------------------------------------------------


def _status(table: Table) -> Html:
    view = table.view
    target = view.get("target", 25)
    phase = view.get("phase")
    words = {
        "deal": "the cards are about to be dealt",
        "take": "players take gifts in turn",
        "give": "a gift for the guest is due",
        "over": "the game is over",
    }.get(str(phase), "")
    stats = [
        table.stat("Round", view.get("round", 1)),
        table.stat("Target", f"{points(int(target))}, most points wins"),
    ]
    if words:
        stats.append(table.stat("Now", words))
    return el("div", *stats, cls="stats ss-status")


def _guest(table: Table) -> Html:
    guest = table.view.get("guest")
    guest = guest if isinstance(guest, Mapping) else {}
    face_up = [table.card(c) for c in _cards(table, guest.get("face_up"))]
    if "face_down" in guest:
        face_down = [
            table.card(c, key=guest_key(i), down=True)
            for i, c in enumerate(_cards(table, guest["face_down"]))
        ]
    else:
        face_down = [
            table.back(
                colour,
                key=guest_key(i),
                label=f"{ordinal(i + 1)} · {colour} back" if colour else ordinal(i + 1),
            )
            for i, colour in enumerate(_colours(guest.get("face_down_backs")))
        ]
    return table.zone(
        "The Unexpected guest",
        _group("Face up (cannot be taken)", table.row(*face_up) if face_up else _none("None.")),
        _group("Face down", table.row(*face_down) if face_down else _none("None left.")),
        cls="ss-guest",
    )


def _scores(table: Table) -> Html | None:
    view = table.view
    rounds = [r for r in view.get("round_scores") or [] if isinstance(r, list)]
    if not rounds:
        return None
    n = len(table.players)
    lines: list[Html] = []
    for number, scores in enumerate(rounds, start=1):
        parts = ", ".join(f"{table.name(s)} {score}" for s, score in enumerate(scores) if s < n)
        lines.append(el("li", el("b", f"Round {number}: "), parts))
    totals = view.get("totals") or []
    parts = ", ".join(f"{table.name(s)} {total}" for s, total in enumerate(totals) if s < n)
    lines.append(el("li", el("b", "Total: "), parts))
    last = _last_round(table, view.get("last_round"), len(rounds))
    return table.zone("Scores", el("ul", *lines, cls="ss-scores"), *last)


def _last_round(table: Table, breakdown: Any, number: int) -> Sequence[Html]:
    """Round k's scoring, player by player and category by category."""
    if not isinstance(breakdown, list) or not breakdown:
        return []
    lines: list[Html] = []
    for seat, parts in enumerate(breakdown):
        if not isinstance(parts, Mapping) or seat >= len(table.players):
            continue
        scored = [
            f"{label} {parts[key]}"
            for key, label in CATEGORY_NAMES.items()
            if isinstance(parts.get(key), int) and parts[key]
        ]
        total = parts.get("total", 0)
        detail = " + ".join(scored) if scored else "nothing"
        lines.append(el("li", el("b", f"{table.name(seat)}: "), f"{detail} = {points(total)}"))
    return [
        el("h5", f"Round {number} scoring", cls="ss-subtitle"),
        el("ul", *lines, cls="ss-scores"),
    ]


def draw(table: Table) -> Html:
    view = table.view
    parts: list[Html] = [_status(table), _guest(table)]
    players = view.get("players")
    if isinstance(players, list):
        seats = [
            _seat(table, seat, player)
            for seat, player in enumerate(players)
            if isinstance(player, Mapping)
        ]
        parts.append(el("div", *seats, cls="ss-seats"))
    scores = _scores(table)
    if scores is not None:
        parts.append(scores)
    box = _cards(table, view.get("box"))
    if box:
        parts.append(
            table.zone(
                "In the box, before the deal",
                table.row(*(table.card(c, small=True) for c in box)),
            )
        )
    return table.table(*parts)


def target(event: dict[str, Any], view: dict[str, Any]) -> str | None:
    """The hand position or guest card a take picks; the hand card a gift hands over."""
    index = event.get("index")
    source = event.get("from")
    if event.get("do") == "take" and isinstance(index, int):
        if source == "guest":
            return guest_key(index)
        if isinstance(source, int):
            return hand_key(source, index)
        return None
    if event.get("do") == "give":
        by = event.get("by")
        players = view.get("players") or []
        if not isinstance(by, int) or not 0 <= by < len(players):
            return None
        hand = players[by].get("hand") or []
        card = event.get("card")
        if card in hand:
            return hand_key(by, hand.index(card))
    return None
