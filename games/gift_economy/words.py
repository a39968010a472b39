"""Gift Economy in words: the card catalog, events told, moves named.

Everything here works on *views* (``event_view`` and ``view`` dicts), never on
the engine's state, so a sentence cannot say more than its seat may see (see
``games.base``). Seats are written as ``{p0}``, ``{p1}``... placeholders.

Turn draws and a King's draw carry no event of their own (the shuffle fixed the
deck order): they are told with the event that caused them, from the change
between the views before and after (a seat sees only its own new cards).

A little over 500 lines: the catalog, the sentences and the labels share one set of
phrase helpers, and the engine shape has no second module of words to split them into.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.base import CHANCE, CardInfo, seat_ref
from games.base import and_list as base_and_list
from games.gift_economy.cards import (
    CARDS,
    DISCARD_CHOICE,
    DRAW,
    GOAL,
    GOAL_ONLY,
    LEFT,
    PASS,
    PTS,
    RES,
    RESOURCES,
    SPECIALS,
    SUIT_OF,
)
from games.voice import Voice, capital, final_scores

View = Mapping[str, Any]
Ev = Mapping[str, Any]
Maybe = View | None  # a view, or None when the caller has no state

ICON: dict[str, str] = {"food": "🍞", "tools": "🔨", "medicine": "💊", "luxuries": "💎"}
COLOUR: dict[str, str] = {"food": "green", "tools": "blue", "medicine": "red", "luxuries": "purple"}
#: The rulebook's names for the three families of Special Event cards.
FAMILY: dict[str, tuple[str, str]] = {
    "jack": ("Geocaching", "🧭"),
    "queen": ("Natural disaster", "🌪️"),
    "king": ("Transnational investors", "💰"),
}
SPECIAL_COLOUR = "orange"


def _special_text(card: str) -> str:
    effect, direction, count = SPECIALS[card]
    if effect == PASS:
        side = "left" if direction == LEFT else "right"
        return f"Every player passes {count} cards to the {side}."
    if effect == DISCARD_CHOICE:
        return "Every other player discards one card of their choice."
    if effect == DRAW:
        return "Draw an extra card."
    return "A player of your choice discards a card at random."


def _build_catalog() -> dict[str, CardInfo]:
    catalog: dict[str, CardInfo] = {}
    for card in CARDS:
        if RES[card] >= 0:
            res = RESOURCES[RES[card]]
            pts = PTS[card]
            catalog[card] = {
                "name": f"{res.capitalize()} {pts}",
                "icon": ICON[res],
                "value": pts,
                "colour": COLOUR[res],
                "text": f"{_points(pts)} of {res} ({SUIT_OF[res]}).",
                "kind": res.capitalize(),
            }
        else:
            _, rank, suit = card.split("-")
            family, icon = FAMILY[rank]
            catalog[card] = {
                "name": f"{rank.capitalize()} of {suit}",
                "icon": icon,
                "value": None,
                "colour": SPECIAL_COLOUR,
                "text": _special_text(card),
                "kind": f"Special Event: {family}",
            }
    return catalog


def _points(value: int) -> str:
    return f"{value} point" if value == 1 else f"{value} points"


CATALOG: dict[str, CardInfo] = _build_catalog()


# -- small phrases -----------------------------------------------------------------


def name(card: Any) -> str:
    """The card's catalog name ("Food 7", "Queen of spades"), or "a card"."""
    info = CATALOG.get(card) if isinstance(card, str) else None
    return info["name"] if info else "a card"


def and_list(items: Iterable[str]) -> str:
    words = list(items)
    return base_and_list(words) if words else "nothing"


def card_list(cards: Iterable[Any]) -> str:
    return and_list(name(c) for c in cards)


def count_cards(count: int) -> str:
    return "a card" if count == 1 else f"{count} cards"


def _cards_field(value: Any) -> list[str]:
    return [c for c in value if isinstance(c, str)] if isinstance(value, list) else []


def resource_phrase(cards: list[str]) -> str:
    """ "7 points of food" for a one-resource set (empty string if it is not one)."""
    known = [c for c in cards if c in CATALOG and RES[c] >= 0]
    if not known or len(known) != len(cards) or len({RES[c] for c in known}) != 1:
        return ""
    return f"{_points(sum(PTS[c] for c in known))} of {RESOURCES[RES[known[0]]]}"


def set_phrase(cards: list[str]) -> str:
    """ "Food 2 and Food 5 (7 points of food)"."""
    what = resource_phrase(cards)
    return f"{card_list(cards)} ({what})" if what else card_list(cards)


def counter_rule(low: int, high: int) -> str:
    if low == high:
        return f"a counter must be worth exactly {_points(low)} of one resource"
    return f"a counter must be worth {low} to {high} points of one resource"


def _seat(value: Any, views: Iterable[View | None] = ()) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        for view in views:
            if view is not None and value >= len(view.get("players", [])):
                return None
        return value
    return None


def _player(view: View | None, seat: int | None) -> Mapping[str, Any] | None:
    if view is None or seat is None:
        return None
    players = view.get("players")
    if isinstance(players, list) and 0 <= seat < len(players):
        entry = players[seat]
        return entry if isinstance(entry, Mapping) else None
    return None


def _hand(view: View | None, seat: int | None) -> list[str] | None:
    entry = _player(view, seat)
    if entry is None or "hand" not in entry:
        return None
    return _cards_field(entry["hand"])


def _count(view: View | None, seat: int | None) -> int:
    entry = _player(view, seat)
    value = entry.get("cards") if entry is not None else None
    return value if isinstance(value, int) else 0


def _new_cards(before: View | None, after: View | None, seat: int | None) -> list[str] | None:
    """Cards in ``seat``'s hand after that were not there before, if both are visible."""
    old, new = _hand(before, seat), _hand(after, seat)
    if old is None or new is None:
        return None
    return [c for c in new if c not in old]


def _goes(cards: list[str]) -> str:
    return card_list(cards) + (" goes" if len(cards) == 1 else " go")


def _counter_cards(view: Maybe, seat: int) -> list[str]:
    """The cards ``seat`` laid out as a counter to the offer on the table, if any."""
    for counter in (view.get("counters") or []) if view is not None else []:
        if isinstance(counter, Mapping) and counter.get("seat") == seat:
            return _cards_field(counter.get("cards"))
    return []


def direction_word(direction: Any) -> str:
    return "left" if direction == LEFT else "right"


# -- events told ---------------------------------------------------------------------


def tell(event: Ev, seat: int | None, before: Maybe, after: Maybe) -> str:
    """One sentence for an event view, as ``seat`` may know it ("you" for the seat)."""
    v = Voice(seat)
    kind = event.get("do")
    teller = _TELLERS.get(kind) if isinstance(kind, str) else None
    if teller is not None:
        main = teller(event, v, before, after)
    else:
        does = _DOES.get(kind) if isinstance(kind, str) else None
        by = _by_seat(event, before)
        main = v.does(by, does).replace("{their}", v.their(by)) if does else "Something happens"
    extra = _aftermath(event, v, before, after)
    return capital(main + "".join(f"; {clause}" for clause in extra) + ".")


def _by_seat(event: Mapping[str, Any], *views: View | None) -> int | None:
    return _seat(event.get("by"), views)


def _tell_shuffle(event: Ev, v: Voice, before: Maybe, after: Maybe) -> str:
    dealt = _cards_field(event.get("dealt"))
    drawn = _cards_field(event.get("drawn"))
    if dealt:
        text = f"The cards are shuffled and dealt, 6 each; you get {card_list(dealt)}"
        if drawn:
            text += f", and you start by drawing {card_list(drawn)}"
        start = _seat(after.get("active"), [after]) if after is not None else None
        if not drawn and start is not None:
            text += f"; {v.does(start, 'starts')} and {v.verb(start, 'draws')} 2 cards"
        return text
    start = _seat(after.get("active"), [after]) if after is not None else None
    if start is not None and not event.get("hidden"):
        return (
            f"The cards are shuffled and dealt, 6 each; {v.does(start, 'starts')} and "
            f"{v.verb(start, 'draws')} 2 cards"
        )
    return "The cards are shuffled and dealt"


def _tell_offer(event: Ev, v: Voice, before: Maybe, after: Maybe) -> str:
    cards = _cards_field(event.get("cards"))
    text = f"{v.does(_by_seat(event, before), 'offers')} {set_phrase(cards)}"
    offer = after.get("offer") if after is not None else None
    if isinstance(offer, Mapping):
        text += f"; {counter_rule(offer.get('counter_min', 0), offer.get('counter_max', 0))}"
    return text


def _tell_counter(event: Ev, v: Voice, before: Maybe, after: Maybe) -> str:
    cards = _cards_field(event.get("cards"))
    return f"{v.does(_by_seat(event, before), 'counters')} with {set_phrase(cards)}"


def _tell_accept(event: Ev, v: Voice, before: Maybe, after: Maybe) -> str:
    by = _by_seat(event, before)
    other = _seat(event.get("seat"), [before] if before is not None else [])
    if other is None:
        return f"{v.does(by, 'accepts')} a counter"
    offer = before.get("offer") if before is not None else None
    got = _counter_cards(before, other)
    if isinstance(offer, Mapping) and got:
        return (
            f"{v.does(by, 'accepts')} {v.whose(other)} counter: "
            f"{_goes(_cards_field(offer.get('cards')))} to {v.who(other)} and "
            f"{card_list(got)} to {v.who(by)}"
        )
    return f"{v.does(by, 'accepts')} {v.whose(other)} counter and they swap the cards"


def _tell_special(event: Ev, v: Voice, before: Maybe, after: Maybe) -> str:
    by = _by_seat(event, before)
    card = event.get("card")
    if not isinstance(card, str) or card not in SPECIALS:
        return f"{v.does(by, 'plays')} a Special Event card"
    effect, direction, count = SPECIALS[card]
    text = f"{v.does(by, 'plays')} the {name(card)}"
    if effect == PASS:
        return text + f": every player passes {count} cards to the {direction_word(direction)}"
    if effect == DISCARD_CHOICE:
        return text + ": every other player discards one card of their choice"
    if effect == DRAW:
        drawn = _new_cards(before, after, by)
        if before is not None and before.get("deck_count") == 0:
            return text + " to draw an extra card, but the deck is empty"
        if drawn:
            return text + f" and {v.verb(by, 'draws')} {card_list(drawn)}"
        return text + f" and {v.verb(by, 'draws')} an extra card"
    target = _seat(event.get("target"), [before] if before is not None else [])
    if target is None:
        return text + ": a player must discard a card at random"
    return text + f": {v.does(target, 'must')} discard a card at random"


def _tell_choice(event: Ev, v: Voice, before: Maybe, after: Maybe) -> str:
    by = _by_seat(event, before)
    purpose = "to pass" if event.get("do") == "pass_card" else "to discard"
    card = event.get("card")
    if event.get("hidden") or not isinstance(card, str):
        return f"{v.does(by, 'sets')} aside a card {purpose}"
    if event.get("do") == "pass_card" and before is not None:
        choose = before.get("choose")
        n = len(before.get("players") or [])
        if isinstance(choose, Mapping) and by is not None and n:
            step = LEFT if choose.get("direction") == LEFT else -1
            to = v.who((by + step) % n)
            return f"{v.does(by, 'sets')} aside {name(card)} to pass to {to}"
    return f"{v.does(by, 'sets')} aside {name(card)} {purpose}"


def _tell_random(event: Ev, v: Voice, before: Maybe, after: Maybe) -> str:
    target = _seat(before.get("target"), [before]) if before is not None else None
    card = event.get("card")
    if event.get("hidden") or not isinstance(card, str):
        return "A card is discarded at random"
    if target is None:
        return f"{name(card)} is discarded at random"
    return f"{v.does(target, 'discards')} {name(card)}, picked at random"


#: The events told by who makes them and what they do, nothing more.
_DOES: dict[str, str] = {
    "skip_trade": "makes no more offers this turn",
    "decline": "declines to counter",
    "reject": "turns down every counter",
    "end_turn": "ends {their} turn",
}
_TELLERS = {
    "shuffle": _tell_shuffle,
    "offer": _tell_offer,
    "counter": _tell_counter,
    "accept": _tell_accept,
    "play_special": _tell_special,
    "pass_card": _tell_choice,
    "discard": _tell_choice,
    "random_discard": _tell_random,
}


def _aftermath(
    event: Mapping[str, Any], v: Voice, before: View | None, after: View | None
) -> list[str]:
    """What else the event set going: a failed deal, choices resolved, a new turn, the end."""
    if before is None or after is None or event.get("do") == "shuffle":
        return []
    kind = event.get("do")
    over = after.get("phase") == "over"
    clauses: list[str] = []
    active = _seat(before.get("active"), [before])
    if before.get("phase") == "counter" and after.get("phase") == "accept" and active is not None:
        clauses.append(f"{v.does(active, 'may')} now accept one counter")
    failed = before.get("offer") and not after.get("offer")
    if kind in ("decline", "reject") and failed and not over:
        if after.get("phase") == "trade" and active is not None:
            clauses.append(f"no deal, so {v.does(active, 'may')} offer one more deal")
        else:
            clauses.append("no deal this turn")
    chose = kind in ("pass_card", "discard") and before.get("phase") == "choose"
    received = _cards_field(event.get("received"))
    if chose and after.get("phase") != "choose":
        clauses.append(_resolved(kind, v, before, after, received))
    if after.get("turn") != before.get("turn"):
        drew = _new_turn(event, v, before, after, received)
        if drew:
            clauses.append(drew)
    if over:
        clauses.append(_game_over(v, before, after))
    return clauses


def _resolved(kind: Any, v: Voice, before: View, after: View, received: list[str]) -> str:
    if kind == "discard":
        old = _cards_field(before.get("discard"))
        new = _cards_field(after.get("discard"))[len(old) :]
        return f"the chosen cards go face up on the discard pile: {card_list(new)}"
    choose = before.get("choose")
    direction = choose.get("direction") if isinstance(choose, Mapping) else None
    side = direction_word(direction)
    text = f"all set-aside cards move to the {side} at once"
    seat = v.viewer
    if seat is None:
        return text
    n = len(before.get("players") or [])
    step = LEFT if direction == LEFT else -1
    giver = v.who((seat - step) % n) if n else "a neighbour"
    got = received or (_new_cards(before, after, seat) or [])
    if received or (got and not _starts(v, before, after)):
        text += f", and you get {card_list(got)} from {giver}"
    return text


def _starts(v: Voice, before: View, after: View) -> bool:
    """Does the viewer's own turn begin with this event (its draw lands with the passes)?"""
    return after.get("turn") != before.get("turn") and v.mine(after.get("active"))


def _drawn_count(event: Mapping[str, Any], before: View, after: View) -> int:
    """Cards the new active player drew: the deck's shrinking, less a King's draw."""
    old, new = before.get("deck_count"), after.get("deck_count")
    if not isinstance(old, int) or not isinstance(new, int):
        return 0
    drawn = old - new
    card = event.get("card")
    king = isinstance(card, str) and card in SPECIALS and SPECIALS[card][0] == DRAW
    if event.get("do") == "play_special" and king and old > 0:
        drawn -= 1
    return max(drawn, 0)


def _new_turn(event: Ev, v: Voice, before: View, after: View, received: list[str]) -> str:
    """The next player's turn and its draw ("" if the game ended before any draw).

    The drawer's own view names the cards drawn: its new cards less those passed to it
    with the same event (``received``, from the event view).
    """
    active = _seat(after.get("active"), [after])
    count = _drawn_count(event, before, after)
    if after.get("phase") == "over" and not count:
        return ""
    if active is None:
        return "the next turn begins"
    text = f"{v.does(active, 'begins')} {v.their(active)} turn"
    draws = v.verb(active, "draws")
    if v.viewer is None and isinstance(before.get("deck"), list):
        deck = _cards_field(before.get("deck"))
        skip = (before.get("deck_count") or 0) - (after.get("deck_count") or 0) - count
        drawn = deck[skip : skip + count]
        return text + (f" and {draws} {card_list(drawn)}" if drawn else "")
    if v.mine(active):
        drawn = list(_new_cards(before, after, active) or [])
        for card in received:
            if card in drawn:
                drawn.remove(card)
        if drawn and len(drawn) == count:
            return text + f" and {draws} {card_list(drawn)}"
    return text + (f" and {draws} {count_cards(count)}" if count else "")


#: How each ``ranking`` option scores a hand, in words (12 points of each resource is the goal).
RANKING_WORDS: dict[str, str] = {
    "closeness": "each resource scores 12 less its distance from 12 points",
    "closeness_floored": "each resource scores 12 less its distance from 12 points, at least 0",
    "capped": "each resource scores its points up to 12",
    "exact": "each resource held at exactly 12 points scores 12",
    GOAL_ONLY: "48 for exactly 12 points of each resource, else 0",
}


def _game_over(v: Voice, before: View, after: View) -> str:
    result = after.get("result")
    reason = after.get("end_reason")
    winners: list[int] = []
    scores: list[Any] = []
    if isinstance(result, Mapping):
        winners = [w for w in result.get("winners") or [] if isinstance(w, int)]
        scores = list(result.get("scores") or [])
    entries = [e if isinstance(e, Mapping) else {} for e in after.get("players") or []]
    if reason == "goal":
        done = [
            s
            for s, entry in enumerate(entries)
            if isinstance(entry.get("points"), Mapping)
            and all(v == GOAL for v in entry["points"].values())
        ]
        held = v.many(done, "holds", "hold") if done else "a player holds"
        lead = f"{held} exactly 12 points of each resource, so the game ends"
    else:
        lead = "the deck is empty, so the game ends"
    if not winners:
        return lead
    best = scores[winners[0]] if winners[0] < len(scores) else None
    count = entries[winners[0]].get("cards") if winners[0] < len(entries) else None
    held = f"{count} cards" if isinstance(count, int) else "cards"
    # Did the most-cards tie-break decide it (another seat scored the same)?
    on_cards = isinstance(best, int) and any(
        score == best and seat not in winners for seat, score in enumerate(scores)
    )
    win = v.many(winners, "wins", "share the win")
    if reason == "goal":
        how = " by reaching the goal"
    elif after.get("ranking") == GOAL_ONLY:
        how = f" with the most cards ({held})" if len(winners) == 1 else f" with {held} each"
    elif isinstance(best, int):
        how = f" with {_points(best)}"
        if len(winners) > 1:
            how += f" and {held} each"
        elif on_cards:
            how += f" and the most cards ({held})"
    else:
        how = ""
    text = f"{lead} and {win}{how}"
    if len(scores) != len(entries) or not scores:
        return text
    notes = []
    for entry in entries:
        held_points = entry.get("points")
        if isinstance(held_points, Mapping):
            notes.append(", ".join(f"{res} {pts}" for res, pts in held_points.items()))
        else:
            notes.append("")
    rule = RANKING_WORDS.get(str(after.get("ranking")), "")
    rule = f"{rule}; 48 is the best" if rule else ""
    return f"{text}; {final_scores(v, scores, notes, rule=rule)}"


# -- moves named -----------------------------------------------------------------------


def tell_move(event: Mapping[str, Any], seat: int, before: View) -> str:
    """The imperative label of a legal event, from the seat's own view before it."""
    kind = event.get("do")
    if kind == "offer":
        return f"Offer {set_phrase(_cards_field(event.get('cards')))}."
    if kind == "skip_trade":
        return "Make no offer; go on to Special Events."
    if kind == "counter":
        return f"Counter with {set_phrase(_cards_field(event.get('cards')))}."
    if kind == "decline":
        return "Decline: make no counter."
    if kind == "accept":
        other = _seat(event.get("seat"), [before])
        if other is None:
            return "Accept a counter."
        got = _counter_cards(before, other)
        if got:
            return f"Accept {seat_ref(other)}'s {set_phrase(got)}."
        return f"Accept {seat_ref(other)}'s counter."
    if kind == "reject":
        return "Turn down every counter."
    if kind == "play_special":
        card = event.get("card")
        if not isinstance(card, str) or card not in SPECIALS:
            return "Play a Special Event card."
        info = CATALOG[card]
        if "target" in event:
            target = _seat(event.get("target"), [before])
            if target == seat:
                return f"Play the {info['name']} on yourself: discard a card at random."
            whom = seat_ref(target) if target is not None else "a player"
            return f"Play the {info['name']} on {whom}: {whom} discards a card at random."
        return f"Play the {info['name']}: {info['text'][0].lower()}{info['text'][1:]}"
    if kind == "end_turn":
        return "End your turn."
    if kind == "pass_card":
        choose = before.get("choose")
        n = len(before.get("players") or [])
        if isinstance(choose, Mapping) and n:
            step = LEFT if choose.get("direction") == LEFT else -1
            return f"Pass {name(event.get('card'))} to {seat_ref((seat + step) % n)}."
        return f"Pass {name(event.get('card'))}."
    if kind == "discard":
        return f"Discard {name(event.get('card'))}."
    if event.get("by") == CHANCE:
        return "Let chance decide."
    return "Make this move."
