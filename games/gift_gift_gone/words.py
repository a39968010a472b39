"""Gift Gift Gone told in words: the card catalog, event sentences and move labels.

Everything here reads only views (``event_view`` and ``view`` dicts), never a state,
so a sentence cannot name a card the seat may not see. A card drawn from the deck is
named only to the drawer (its hand grows by it) and to everyone (``seat=None``); a
card picked in a trade only to the asker (who laid it out) and the picker.

The catalog holds every card id (``ggg-fruitcake-3``) and also every gift id
(``fruitcake``): events and views name gifts by gift id (``ask``, ``claim``,
``swap``, the claimed gifts, the trade), and a gift's name is public information,
so the catalog must know those ids for a page (and the conformance checks) to
know the name is something the seat saw.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.base import CardInfo, Event, and_list, ordinal, seat_ref
from games.gift_gift_gone.cards import COPIES, GIFT_OF, GIFTS, HAND_SIZE, NAME, VALUE, card_id
from games.voice import Voice, capital, final_scores, minus

JSON = Any
View = dict[str, JSON] | None

ICON: dict[str, str] = {
    "llama-planter": "🦙",
    "tube-socks": "🧦",
    "ugly-sweater": "🧶",
    "novelty-tie": "👔",
    "soap-on-a-rope": "🧼",
    "singing-fish": "🐟",
    "snow-globe": "🔮",
    "garden-gnome": "🍄",
    "lava-lamp": "💡",
    "foot-spa": "🛁",
    "karaoke-machine": "🎤",
    "bacon-candle": "🕯️",
    "robot-vacuum": "🤖",
    "espresso-machine": "☕",
    "tiki-bar": "🍹",
    "fruitcake": "🍰",
    "gold-toilet-seat": "🚽",
}
# The colour of a card's face, by its value: a player sorts a hand by colour.
COLOUR: dict[int, str] = {1: "green", 2: "blue", 3: "purple", 4: "orange", 5: "red"}


NUMBER = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _points(value: int) -> str:
    return f"{value} point" if abs(value) == 1 else f"{value} points"


def _build_catalog() -> dict[str, CardInfo]:
    catalog: dict[str, CardInfo] = {}
    for gift, name, value, _ in GIFTS:
        catalog[gift] = CardInfo(
            name=name,
            icon=ICON[gift],
            value=value,
            colour=COLOUR[value],
            text=(
                f"A gift of {COPIES} identical cards: claim three or more and each card "
                f"on the table scores {_points(value)}."
            ),
            kind="Gift",
        )
        for copy in range(1, COPIES + 1):
            catalog[card_id(gift, copy)] = CardInfo(
                name=name,
                icon=ICON[gift],
                value=value,
                colour=COLOUR[value],
                text=f"Collect three to claim the gift; {_points(value)} per card on the table.",
                kind="Gift card",
            )
    return catalog


CATALOG: dict[str, CardInfo] = _build_catalog()


# -- small helpers ---------------------------------------------------------------
def name(item: Any) -> str:
    """The name of a card id or gift id ("Fruitcake"); "a card" for anything else."""
    if not isinstance(item, str):
        return "a card"
    gift = GIFT_OF.get(item, item)
    return NAME.get(gift, "a card")


def valued(item: Any) -> str:
    """ "Fruitcake (5 points)"."""
    gift = GIFT_OF.get(item, item) if isinstance(item, str) else None
    if gift not in VALUE:
        return "a card"
    return f"{NAME[gift]} ({_points(VALUE[gift])})"


def gift_of(item: Any) -> str | None:
    if not isinstance(item, str):
        return None
    gift = GIFT_OF.get(item, item)
    return gift if gift in NAME else None


def cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"






def grouped(card_ids: list[str]) -> list[str]:
    """ "two Fruitcake cards", "Tube Socks"... in the order first seen."""
    counts = Counter(name(c) for c in card_ids)
    return [f"{NUMBER.get(k, str(k))} {n} cards" if k > 1 else n for n, k in counts.items()]


def _seat(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def hand_of(view: View, seat: int | None) -> list[str] | None:
    """The cards of ``seat``'s hand if the view shows them."""
    if not view or seat is None:
        return None
    for entry in view.get("hands") or []:
        if entry.get("seat") == seat and isinstance(entry.get("cards"), list):
            return list(entry["cards"])
    return None


def claimed(view: View, gift: str | None) -> dict[str, Any] | None:
    """The view's entry for a claimed gift (owner, cards, frozen), if it is claimed."""
    if not view or gift is None:
        return None
    for entry in view.get("gifts") or []:
        if entry.get("gift") == gift:
            return dict(entry)
    return None


def trade_of(view: View) -> dict[str, Any]:
    trade = view.get("trade") if view else None
    return dict(trade) if isinstance(trade, dict) else {}


def new_cards(before: View, after: View, seat: int | None) -> list[str]:
    """Cards that came into ``seat``'s hand between two views that show it."""
    old, new = hand_of(before, seat), hand_of(after, seat)
    if old is None or new is None:
        return []
    return list((Counter(new) - Counter(old)).elements())


def _points_of(view: View, seat: int) -> int | None:
    if not view:
        return None
    values = view.get("points")
    if isinstance(values, list) and 0 <= seat < len(values):
        return int(values[seat])
    return None


def ending(v: Voice, before: View, after: View) -> str:
    """The clause for the moment the game ends ("" if it did not end with this event):
    why it ended, who won, and every seat's final score as it was counted."""
    if not after or after.get("phase") != "over":
        return ""
    if before and before.get("phase") == "over":
        return ""
    points, scores = after.get("points"), after.get("scores")
    winner = _seat(after.get("winner"))
    if winner is not None:
        reached = _points_of(after, winner)
        target = after.get("target")
        goal = f" (the target is {target})" if isinstance(target, int) else ""
        total = f" to {_points(reached)} on the table{goal}" if reached is not None else ""
        wins = v.does(winner, "wins")
        head = f", and the game ends: that takes {v.who(winner)}{total}, so {wins}"
    else:
        head = (
            ", and the game ends: a full round has passed with no claim or swap since the "
            "cards ran out"
        )
        if isinstance(scores, list) and scores:
            best = max(scores)
            top = [seat for seat, score in enumerate(scores) if score == best]
            verb = v.many(top, "wins", "share the win")
            head += f", so {verb} with the best score"
    if not isinstance(points, list) or not isinstance(scores, list) or len(points) != len(scores):
        return head
    how = [f"{p} {minus(p - s)}" for p, s in zip(points, scores, strict=True)]
    rule = "points on the table minus the cards left in hand"
    return f"{head}; {final_scores(v, scores, how, rule=rule)}"


def _hand_count(view: View, seat: int) -> int | None:
    for entry in (view or {}).get("hands") or []:
        if entry.get("seat") == seat and isinstance(entry.get("count"), int):
            return int(entry["count"])
    return None


def _gift_size(view: View, gift: str | None) -> int:
    entry = claimed(view, gift)
    return len(entry["cards"]) if entry else 0


def turn_over(v: Voice, event: Event, before: View, after: View) -> str:
    """The clause for a turn that ends with this event: the refill to six, whose turn is next.

    A turn ends by itself after its actions (one, or one of each with the default house
    rule) and by a pass; either way the hand is refilled from the deck. The cards drawn are
    named only where the view shows the hand (the drawer's own view, everyone's).
    """
    if not before or not after or after.get("phase") == "over":
        return ""
    ended, nxt = _seat(before.get("turn")), _seat(after.get("turn"))
    if ended is None or nxt is None or ended == nxt:
        return ""
    kind = event.get("do")
    removed = 0
    if kind == "discard":
        removed = 1
    elif kind in ("claim", "swap"):
        gift = gift_of(event.get("gift"))
        removed = _gift_size(after, gift) - _gift_size(before, gift)
    elif kind == "pick":
        removed = 1
    old, new = _hand_count(before, ended), _hand_count(after, ended)
    refill = new - (old - removed) if old is not None and new is not None else 0
    text = "" if kind == "pass" else f"; that ends {v.whose(ended)} turn"
    if refill > 0:
        got = new_cards(before, after, ended)
        drawn = and_list(valued(c) for c in got) if len(got) == refill else cards(refill)
        joint = " and" if kind == "pass" else ", and"
        hand = f"{v.their(ended)} hand to {NUMBER.get(HAND_SIZE, str(HAND_SIZE))}"
        if kind == "pass":
            text += f"{joint} {v.verb(ended, 'draws')} {drawn} to refill {hand}"
        else:
            text += f"{joint} {v.does(ended, 'draws')} {drawn} to refill {hand}"
    return text


# -- events told ---------------------------------------------------------------
def tell(event: Event, seat: int | None, before: View, after: View) -> str:
    kind = event.get("do")
    teller = _TELLERS.get(kind if isinstance(kind, str) else "")
    if teller is None:
        return "Something happens at the table."
    return capital(teller(event, Voice(seat), before, after))


def _tell_deal(event: Event, v: Voice, before: View, after: View) -> str:
    first = ""
    pile = after.get("discard") if after else None
    if isinstance(pile, list) and pile:
        first = f"; {name(pile[0])} is turned up to start the discard pile"
    hand = event.get("hand")
    if v.viewer is not None and isinstance(hand, list) and hand:
        return f"The cards are shuffled and dealt; you get {and_list(grouped(hand))}{first}."
    return f"The cards are shuffled and dealt, six to each player{first}."


def _tell_reshuffle(event: Event, v: Voice, before: View, after: View) -> str:
    count = event.get("count")
    if not isinstance(count, int):
        deck = event.get("deck")
        count = len(deck) if isinstance(deck, list) else None
    size = f" of {cards(count)}" if isinstance(count, int) else ""
    return (
        f"The deck has run out: all of the discard pile but its top card is "
        f"shuffled into a new deck{size}{turn_over(v, event, before, after)}"
        f"{ending(v, before, after)}."
    )


def _tell_mix(event: Event, v: Voice, before: View, after: View) -> str:
    asker = _seat(event.get("seat"))
    order = event.get("order")
    count = event.get("count")
    if isinstance(order, list):
        count = len(order)
    partner = _seat(trade_of(before).get("partner"))
    laid = (
        f"{v.their(asker)} other {cards(count)}"
        if isinstance(count, int)
        else f"{v.their(asker)} other cards"
    )
    pick = f"for {v.who(partner)} to pick one" if partner is not None else "to be picked from"
    return (
        f"{v.does(asker, 'shuffles')} {laid} and {v.verb(asker, 'lays')} them face down {pick}."
    )


def _tell_draw(event: Event, v: Voice, before: View, after: View) -> str:
    by = _seat(event.get("by"))
    second = bool(before and before.get("draws") == 1)
    if event.get("from") == "discard":
        pile = before.get("discard") if before else None
        card = pile[-1] if isinstance(pile, list) and pile else None
        what = valued(card) if card else "the top card"
        verb = "also takes" if second else "takes"
        return f"{v.does(by, verb)} {what} from the discard pile."
    card = None
    if v.viewer is None and before and isinstance(before.get("deck"), list) and before["deck"]:
        card = before["deck"][0]
    elif v.mine(by):
        got = new_cards(before, after, by)
        card = got[0] if len(got) == 1 else None
    if card:
        verb = "also draws" if second else "draws"
        return f"{v.does(by, verb)} {valued(card)} from the deck."
    return f"{v.does(by, 'draws')} {'a second card' if second else 'a card'} from the deck."


def _tell_discard(event: Event, v: Voice, before: View, after: View) -> str:
    by = _seat(event.get("by"))
    return (
        f"{v.does(by, 'discards')} {valued(event.get('card'))}"
        f"{turn_over(v, event, before, after)}{ending(v, before, after)}."
    )


def _tell_claim(event: Event, v: Voice, before: View, after: View) -> str:
    by = _seat(event.get("by"))
    gift = gift_of(event.get("gift"))
    if gift is None:
        return f"{v.does(by, 'places')} a gift on the table."
    rest = f"{turn_over(v, event, before, after)}{ending(v, before, after)}"
    old, new = claimed(before, gift), claimed(after, gift)
    if before is None or new is None:
        return f"{v.does(by, 'places')} {v.their(by)} {NAME[gift]} cards on the table{rest}."
    had = len(old["cards"]) if old else 0
    size = len(new["cards"])
    worth = _points(VALUE[gift] * size)
    frozen = ", now frozen with all six" if new.get("frozen") else ""
    if had == 0:
        text = f"{v.does(by, 'claims')} {NAME[gift]} with {cards(size)} ({worth}){frozen}"
    else:
        added = size - had
        text = (
            f"{v.does(by, 'adds')} {cards(added)} to {v.their(by)} {NAME[gift]} "
            f"({cards(size)}, {worth}){frozen}"
        )
    return f"{text}{rest}."


def _tell_swap(event: Event, v: Voice, before: View, after: View) -> str:
    """Two claimed gifts change hands: told as what each player ends up with."""
    by = _seat(event.get("by"))
    gift, give = gift_of(event.get("gift"), ), gift_of(event.get("give"))
    rest = f"{turn_over(v, event, before, after)}{ending(v, before, after)}"
    if gift is None or give is None:
        return f"{v.does(by, 'swaps')} gifts with another player{rest}."
    wanted, offered = claimed(before, gift), claimed(before, give)
    if wanted is None or offered is None:
        return (
            f"{v.does(by, 'swaps')} {v.their(by)} {NAME[give]} for another player's "
            f"{NAME[gift]}{rest}."
        )
    victim = _seat(wanted.get("owner"))
    size = len(wanted["cards"])
    got = claimed(after, gift)
    total = len(got["cards"]) if got is not None else size
    added = total - size
    given = len(offered["cards"])
    text = (
        f"{v.does(by, 'takes')} {v.whose(victim) if victim is not None else 'their'} "
        f"{NAME[gift]} ({cards(size)}) in a swap"
    )
    if added > 0:
        text += (
            f", adding {cards(added)} of it from {v.their(by)} hand "
            f"(now {cards(total)}, {_points(VALUE[gift] * total)})"
        )
    getter = v.does(victim, "gets") if victim is not None else "the other player gets"
    text += (
        f"; {getter} {v.whose(by)} {NAME[give]} "
        f"({cards(given)}, {_points(VALUE[give] * given)}) in return"
    )
    return f"{text}{rest}."


def _tell_ask(event: Event, v: Voice, before: View, after: View) -> str:
    by = _seat(event.get("by"))
    gift = gift_of(event.get("gift"))
    what = f"one {NAME[gift]} card" if gift else "a card"
    others = [seat for seat in range(len((before or {}).get("hands") or [])) if seat != by]
    asked = v.who(others[0]) if len(others) == 1 else "the other players"  # two at the table
    return f"{v.does(by, 'asks')} {asked} for {what}, offering a blind card in return."


def _tell_answer(event: Event, v: Voice, before: View, after: View) -> str:
    by = _seat(event.get("by"))
    trade = trade_of(before)
    asker, gift = _seat(trade.get("asker")), gift_of(trade.get("gift"))
    to = v.who(asker) if asker is not None else "the asker"
    what = f"one {NAME[gift]} card" if gift else "the card asked for"
    rest = f"{turn_over(v, event, before, after)}{ending(v, before, after)}"
    if event.get("yes") is True:
        return f"{v.does(by, 'says')} yes and {v.verb(by, 'hands')} {to} {what}."
    if after and not after.get("trade") and after.get("asked"):
        return f"{v.does(by, 'says')} no, so nobody trades with {to} this turn{rest}."
    if asker is not None:
        return f"{v.does(by, 'says')} no to {v.whose(asker)} ask for {what}."
    return f"{v.does(by, 'says')} no."


def _tell_pick(event: Event, v: Voice, before: View, after: View) -> str:
    by = _seat(event.get("by"))
    position = event.get("position")
    nth = ordinal(position + 1) if isinstance(position, int) else "one"
    trade = trade_of(before)
    asker = _seat(trade.get("asker"))
    whose = v.whose(asker) if asker is not None else "the asker's"
    card = None
    order = trade.get("order")
    if isinstance(order, list) and isinstance(position, int) and 0 <= position < len(order):
        card = order[position]
    elif v.mine(by):
        got = new_cards(before, after, by)
        card = got[0] if len(got) == 1 else None
    text = f"{v.does(by, 'picks')} the {nth} of {whose} face-down cards"
    if card:
        text += f": {valued(card)}"
    return f"{text}{turn_over(v, event, before, after)}{ending(v, before, after)}."


def _tell_pass(event: Event, v: Voice, before: View, after: View) -> str:
    by = _seat(event.get("by"))
    rest = f"{turn_over(v, event, before, after)}{ending(v, before, after)}"
    if before and before.get("actions_done"):
        return f"{v.does(by, 'ends')} {v.their(by)} turn{rest}."
    return f"{v.does(by, 'passes')}{rest}."


_TELLERS = {
    "deal": _tell_deal,
    "reshuffle": _tell_reshuffle,
    "mix": _tell_mix,
    "draw": _tell_draw,
    "discard": _tell_discard,
    "claim": _tell_claim,
    "swap": _tell_swap,
    "ask": _tell_ask,
    "answer": _tell_answer,
    "pick": _tell_pick,
    "pass": _tell_pass,
}


# -- moves named -----------------------------------------------------------------
def tell_move(event: Event, seat: int, before: dict[str, JSON]) -> str:
    kind = event.get("do")
    gift = gift_of(event.get("gift"))
    if kind == "draw":
        if event.get("from") == "discard":
            pile = before.get("discard") or []
            top = valued(pile[-1]) if pile else "the top card"
            return f"Take {top} from the discard pile."
        second = before.get("draws") == 1
        return "Draw a second card from the deck." if second else "Draw a card from the deck."
    if kind == "discard":
        card = event.get("card")
        hand = hand_of(before, seat) or []
        same = sorted(c for c in hand if gift_of(c) == gift_of(card))
        if len(same) > 1 and card in same:
            return f"Discard your {ordinal(same.index(card) + 1)} {valued(card)}."
        return f"Discard {valued(card)}."
    if kind == "claim" and gift:
        hand = hand_of(before, seat) or []
        mine = sum(1 for c in hand if gift_of(c) == gift)
        old = claimed(before, gift)
        had = len(old["cards"]) if old else 0
        total = _points(VALUE[gift] * (had + mine))
        if had:
            return (
                f"Add {cards(mine)} to your {NAME[gift]} on the table "
                f"({cards(had + mine)}, {total})."
            )
        return f"Claim {NAME[gift]}: lay your {cards(mine)} on the table ({total})."
    if kind == "swap":
        give = gift_of(event.get("give"))
        wanted, offered = claimed(before, gift), claimed(before, give)
        if gift is None or give is None or wanted is None or offered is None:
            return "Swap gifts."
        victim = _seat(wanted.get("owner"))
        whose = f"{seat_ref(victim)}'s" if victim is not None else "another player's"
        return (
            f"Swap your {NAME[give]} ({cards(len(offered['cards']))}) "
            f"for {whose} {NAME[gift]} ({cards(len(wanted['cards']))})."
        )
    if kind == "ask" and gift:
        return f"Ask the others for one {NAME[gift]} card."
    if kind == "answer":
        trade = trade_of(before)
        asker, wanted_gift = _seat(trade.get("asker")), gift_of(trade.get("gift"))
        to = seat_ref(asker) if asker is not None else "the asker"
        what = f"one of your {NAME[wanted_gift]} cards" if wanted_gift else "the card"
        if event.get("yes") is True:
            return f"Say yes: give {to} {what} and pick one of their cards blind."
        return "Say no."
    if kind == "pick":
        position = event.get("position")
        asker = _seat(trade_of(before).get("asker"))
        whose = f"{seat_ref(asker)}'s" if asker is not None else "the"
        if isinstance(position, int):
            return f"Pick {whose} {ordinal(position + 1)} face-down card."
        return "Pick a face-down card."
    if kind == "pass":
        if before.get("actions_done"):
            return "End your turn."
        return "Pass: let your turn go."
    return "Make this move."
