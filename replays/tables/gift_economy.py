"""Gift Economy's table: hands sorted into the four resources, the deal on the table.

Drawn from the engine's view only (``games.gift_economy.views.view``): a seat's
own hand shows as faces grouped by resource with its progress towards exactly
12 of each; other hands are a face-down pile with a count (the view holds no
more). The middle of the table holds the offer with every counter (potlatch
limit included), the last deal, the Special Event being resolved, the deck
and the face-up discard pile; at the end, the ranking.

Keys for live play: a card in the viewer's hand is keyed by its id (offers and
counters act on the highest card of their set, so a card's menu lists the sets
it tops); a counter on the table is keyed ``counter-<seat>`` for ``accept``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.safestring import SafeString

from games.base import ordinal
from games.gift_economy.cards import GOAL, ORDER, RES, RESOURCES, SPECIALS
from games.gift_economy.words import ICON, resource_phrase
from replays.tables.kit import Html, Table, el, esc


def draw(table: Table) -> Html:
    view = table.view
    players = [p for p in view.get("players") or [] if isinstance(p, Mapping)]
    mine = [p for p in players if p.get("seat") == table.seat]
    others = [p for p in players if p.get("seat") != table.seat]
    middle = [
        _deal(table),
        _last_deal(table),
        _special(table),
        _piles(table),
    ]
    zones = [zone for zone in middle if zone]
    middle_html = el("div", *zones, cls="ge-middle")
    ranking = _ranking(table)
    if ranking is not None:  # the turn line above already names the winner
        seats = [_seat(table, p) for p in players]
        return table.table(ranking, middle_html, el("div", *seats, cls="ge-places ge-open"))
    status = el("p", _status(table), cls="ge-status")
    if table.seat is None:
        # everyone's hands are open: the shared zones first, then every place
        seats = [_seat(table, p) for p in players]
        return table.table(status, middle_html, el("div", *seats, cls="ge-places ge-open"))
    # a player's table: the others across, the middle, one's own hand nearest
    across = el("div", *(_seat(table, p) for p in others), cls="ge-places ge-across")
    return table.table(status, across, middle_html, *(_seat(table, p) for p in mine))


TARGET_READS_VIEW = False  # ``target`` reads the event only


def target(event: dict[str, Any], view: dict[str, Any]) -> str | None:
    """The drawn element a legal move acts on (see the module docstring)."""
    kind = event.get("do")
    if kind in ("offer", "counter"):
        cards = [c for c in event.get("cards") or [] if c in ORDER]
        return max(cards, key=ORDER.__getitem__) if cards else None
    if kind in ("play_special", "pass_card", "discard"):
        card = event.get("card")
        return card if isinstance(card, str) else None
    if kind == "accept" and isinstance(event.get("seat"), int):
        return f"counter-{event['seat']}"
    return None


# -- the places ------------------------------------------------------------------------


def _seat(table: Table, entry: Mapping[str, Any]) -> Html:
    seat = int(entry.get("seat", 0))
    view = table.view
    over = view.get("phase") == "over"
    stats = []
    if view.get("active") == seat and not over and view.get("phase") != "shuffle":
        stats.append(el("span", "★ this turn", cls="stat ge-whose-turn"))
    stats.append(table.stat("Cards in hand", entry.get("cards", 0)))
    if isinstance(entry.get("score"), int):
        stats.append(table.stat("Score", f"{entry['score']} (48 is the best)"))
    choose = view.get("choose")
    asked = not (
        isinstance(choose, Mapping)
        and choose.get("kind") == "discard"
        and view.get("active") == seat
    )  # a queen's player discards nothing
    if "still_to_choose" in entry and asked:
        left = entry["still_to_choose"]
        stats.append(table.stat("Still to choose", left if left else "done"))
    content: list[Html] = []
    hand = entry.get("hand")
    keyed = seat == table.seat
    if isinstance(hand, list):
        content.append(_hand(table, hand, entry.get("points"), keyed))
    else:
        content.append(table.row(table.hidden(int(entry.get("cards", 0)), label="in hand")))
    aside = entry.get("set_aside")
    if isinstance(aside, list) and aside:
        content.append(
            el(
                "div",
                el("p", "Set aside, face down:", cls="ge-label"),
                table.row(*(table.card(c, down=True, small=True) for c in aside)),
                cls="ge-group",
            )
        )
    elif isinstance(aside, int) and aside:
        content.append(
            el(
                "div",
                el("p", "Set aside, face down:", cls="ge-label"),
                table.row(table.hidden(aside, label="set aside")),
                cls="ge-group",
            )
        )
    return table.seat_panel(seat, *content, stats=stats)


def _hand(table: Table, hand: Sequence[str], totals: Any, keyed: bool) -> Html:
    """The hand in four resource groups (with the points against 12) and the specials."""
    totals = totals if isinstance(totals, Mapping) else {}
    offered = _on_the_table(table.view)
    groups: list[Html] = []
    for r, res in enumerate(RESOURCES):
        cards = [c for c in hand if RES.get(c) == r]
        got = totals.get(res, 0)
        if got == GOAL:
            mark, cls = "✓ exactly 12", "ge-exact"
        elif got > GOAL:
            mark, cls = f"{got - GOAL} too many", "ge-over"
        else:
            mark, cls = f"{GOAL - got} to go", "ge-under"
        # f-strings, each value escaped once: six hands of four groups on every table
        label = (
            f'<p class="ge-label">{esc(f"{ICON[res]} {res.capitalize()}: ")}'
            f"<b>{esc(f'{got} / {GOAL}')}</b> "
            f'<span class="{esc(f"ge-mark {cls}")}">{esc(mark)}</span></p>'
        )
        row = table.row(
            *(
                table.card(c, key=c if keyed else None, note="on offer" if c in offered else "")
                for c in cards
            )
        )
        groups.append(
            SafeString(
                f'<div class="{esc(f"ge-group ge-{res}")}">{label}{row if cards else ""}</div>'
            )
        )
    specials = [c for c in hand if c in SPECIALS]
    if specials:
        groups.append(
            el(
                "div",
                el("p", "Special Event cards", cls="ge-label"),
                table.row(*(table.card(c, key=c if keyed else None) for c in specials)),
                cls="ge-group ge-specials",
            )
        )
    return el("div", *groups, cls="ge-hand")


def _on_the_table(view: Mapping[str, Any]) -> set[str]:
    """Cards laid out face up in the offer or a counter (they stay in their hands)."""
    out: set[str] = set()
    offer = view.get("offer")
    if isinstance(offer, Mapping):
        out.update(c for c in offer.get("cards") or [] if isinstance(c, str))
    for counter in view.get("counters") or []:
        if isinstance(counter, Mapping):
            out.update(c for c in counter.get("cards") or [] if isinstance(c, str))
    return out


# -- the middle of the table ---------------------------------------------------------------


def _deal(table: Table) -> Html | None:
    view = table.view
    offer = view.get("offer")
    if not isinstance(offer, Mapping):
        return None
    seat = int(offer.get("seat", 0))
    cards = [c for c in offer.get("cards") or [] if isinstance(c, str)]
    low, high = offer.get("counter_min", 0), offer.get("counter_max", 0)
    worth = f"exactly {low} points" if low == high else f"{low} to {high} points"
    lines: list[Html] = [
        el("p", f"{table.name(seat)} offers {resource_phrase(cards)}:", cls="ge-label"),
        table.row(*(table.card(c) for c in cards)),
        el(
            "p",
            f"A counter may be {worth} of any one resource; more than {high} is potlatching.",
            cls="ge-rule",
        ),
    ]
    answers = {c.get("seat"): c for c in view.get("counters") or [] if isinstance(c, Mapping)}
    n = len(view.get("players") or [])
    for step in range(1, n):
        other = (seat + step) % n
        lines.append(_answer(table, other, answers.get(other), view.get("responder")))
    return table.zone("The deal on the table", *lines, cls="ge-deal")


def _answer(table: Table, seat: int, answer: Mapping[str, Any] | None, responder: Any) -> Html:
    who = table.name(seat)
    if answer is None:
        text = f"{who}: answering now…" if responder == seat else f"{who}: waits to answer"
        return el("div", el("p", text, cls="ge-label"), cls="ge-counter")
    if answer.get("declined"):
        return el("div", el("p", f"{who}: declines", cls="ge-label"), cls="ge-counter")
    cards = [c for c in answer.get("cards") or [] if isinstance(c, str)]
    return el(
        "div",
        el("p", f"{who} counters with {resource_phrase(cards)}:", cls="ge-label"),
        table.row(*(table.card(c, small=True) for c in cards)),
        cls="ge-counter ge-made",
        data_key=f"counter-{seat}",
    )


def _last_deal(table: Table) -> Html | None:
    last = table.view.get("last_deal")
    if not isinstance(last, Mapping):
        return None
    offer = [c for c in last.get("offer") or [] if isinstance(c, str)]
    counter = [c for c in last.get("counter") or [] if isinstance(c, str)]
    taker = last.get("accepted")
    parts: list[Html] = [
        el("p", f"Offered: {resource_phrase(offer)}", cls="ge-label"),
        table.row(*(table.card(c, small=True) for c in offer)),
    ]
    if isinstance(taker, int) and counter:
        parts += [
            el(
                "p",
                f"Taken by {table.name(taker)} for {resource_phrase(counter)}:",
                cls="ge-label",
            ),
            table.row(*(table.card(c, small=True) for c in counter)),
        ]
    else:
        parts.append(el("p", "Nobody took it.", cls="ge-label"))
    return table.zone("The last deal", *parts, cls="ge-last")


def _special(table: Table) -> Html | None:
    view = table.view
    card = view.get("special_played")
    if not isinstance(card, str) or card not in SPECIALS:
        return None
    text = table.catalog[card].get("text", "")
    player = table.name(int(view.get("active", 0)))
    effect = f"{text[:1].lower()}{text[1:]}"
    if isinstance(view.get("target"), int):  # the queen of spades, aimed at a player
        effect = f"{table.name(view['target'])} discards a card picked at random."
    lines: list[Html] = [
        table.row(table.card(card)),
        el("p", f"{player} played it: {effect}", cls="ge-rule"),
    ]
    choose = view.get("choose")
    if isinstance(choose, Mapping):
        waiting = [
            table.name(int(p.get("seat", 0)))
            for p in view.get("players") or []
            if isinstance(p, Mapping) and p.get("still_to_choose")
        ]
        if waiting:
            lines.append(el("p", "Still choosing: " + ", ".join(waiting) + ".", cls="ge-label"))
    return table.zone("Special Event", *lines, cls="ge-special")


def _piles(table: Table) -> Html:
    view = table.view
    count = int(view.get("deck_count", 0))
    discard = [c for c in view.get("discard") or [] if isinstance(c, str)]
    deck = el(
        "div",
        el("p", "Deck", cls="ge-label"),
        table.row(table.hidden(count, label="to draw") if count else el("p", "empty")),
        cls="ge-pile",
    )
    if discard:
        newest = list(reversed(discard))
        faces = [table.card(newest[0]), *(table.card(c, small=True) for c in newest[1:])]
        pile_label = f"Discard pile, face up ({len(discard)}, newest first)"
        shown = table.row(*faces)
    else:
        pile_label, shown = "Discard pile", el("p", "empty")
    pile = el("div", el("p", pile_label, cls="ge-label"), shown, cls="ge-pile")
    parts: list[Html] = [el("div", deck, pile, cls="ge-piles")]
    order = [c for c in view.get("deck") or [] if isinstance(c, str)]
    if order:  # only the whole-table view holds the deck's order
        parts.append(
            el(
                "details",
                el("summary", f"The deck in draw order ({len(order)} cards)"),
                table.row(*(table.card(c, small=True) for c in order)),
                cls="ge-deck-order",
            )
        )
    return table.zone("Deck and discard pile", *parts, cls="ge-piles-zone")


# How each house rule ranks the hands when the deck runs out (option "ranking").
RANKING_WORDS = {
    "closeness": "Closest to 12 of each wins (ties: the most cards).",
    "closeness_floored": (
        "Closest to 12 of each wins, a resource scoring at least 0 (ties: the most cards)."
    ),
    "capped": "Most points wins, counting at most 12 of each resource (ties: the most cards).",
    "exact": "Most resources held at exactly 12 wins (ties: the most cards).",
    "goal_only": "Nobody reached 12 of each, so the most cards wins.",
}


def _ranking(table: Table) -> Html | None:
    result = table.view.get("result")
    if table.view.get("phase") != "over" or not isinstance(result, Mapping):
        return None
    scores = list(result.get("scores") or [])
    ranks = list(result.get("ranks") or [])
    found = result.get("details")
    details: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    pts = list(details.get("points") or [])
    cards = list(details.get("cards") or [])
    order = sorted(range(len(scores)), key=lambda s: (ranks[s] if s < len(ranks) else 99, s))
    rows: list[Html] = []
    for seat in order:
        rank = ranks[seat] if seat < len(ranks) else 0
        shared = sum(1 for r in ranks if r == rank) > 1
        totals = pts[seat] if seat < len(pts) else []
        spread = ", ".join(f"{res} {t}" for res, t in zip(RESOURCES, totals, strict=False))
        line = [
            el("b", f"{ordinal(rank)}{' (shared)' if shared else ''}"),
            f" {'🏆 ' if rank == 1 else ''}{table.name(seat)}: {scores[seat]} points",
        ]
        if spread:
            line.append(f" ({spread})")
        if seat < len(cards):
            line.append(f", {cards[seat]} cards")
        rows.append(el("li", *line))
    reason = details.get("end_reason") or table.view.get("end_reason")
    why = (
        "A player holds exactly 12 of each resource."
        if reason == "goal"
        else "The deck ran out. " + RANKING_WORDS.get(str(table.view.get("ranking")), "")
    )
    return table.zone("Final ranking", el("p", why, cls="ge-rule"), el("ol", *rows), cls="ge-rank")


# -- the status line ------------------------------------------------------------------------


def _status(table: Table) -> str:
    view = table.view
    phase = view.get("phase")
    active = view.get("active")
    who = table.name(active) if isinstance(active, int) else "The player"
    turn = view.get("turn")
    head = f"Turn {turn}: " if isinstance(turn, int) and turn else ""
    if phase == "shuffle":
        return "The cards are about to be shuffled; 6 each are dealt."
    if phase == "trade":
        more = "one more deal" if view.get("deals_left") == 1 else "a deal"
        return f"{head}{who} may offer {more} (2 or more points of one resource), or skip."
    if phase == "counter":
        responder = view.get("responder")
        name = table.name(responder) if isinstance(responder, int) else "the next player"
        return f"{head}counters go round; {name} answers now."
    if phase == "accept":
        return f"{head}{who} takes one counter or turns them all down."
    if phase == "special":
        return f"{head}{who} may play one Special Event card, then the turn ends."
    if phase == "choose":
        choose = view.get("choose") or {}
        if choose.get("kind") == "pass_card":
            side = "right" if choose.get("direction") == -1 else "left"
            return f"{head}everyone sets cards aside to pass to the {side}; they move at once."
        return f"{head}every other player sets one card aside to discard; they go face up at once."
    if phase == "random_discard":
        return f"{head}a card is picked at random to discard."
    if phase == "over":
        return "Game over."
    return head or "…"
