"""GiftTRAP told in words: the card catalog, event sentences and move labels.

Everything here reads only event views and seat views (see ``games.base``), so
a sentence never says more than its seat may know: a face-down GIVE token is
"a gift" to everyone but its giver, a GET token "a token placed face down"
until its owner turns the four over.

A gift card is double-sided, so its catalog name holds both gifts ("Rubber
duck / Bubble wrap"); sentences name the gift that lies face up on the grid,
with its grid number ("gift 2 (Kazoo)"), as players do at the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from math import prod
from typing import Any

from games.base import CardInfo, Event, or_list, seat_ref
from games.base import and_list as _and
from games.gift_trap.cards import (
    CARD_PACK,
    NO_MATCH_VALUE,
    PACK_CARDS,
    PACKS,
    SIDES,
    TOKEN_VALUE,
    TOKENS,
    gift_name,
)
from games.voice import Voice, capital, final_scores, signed

TOKEN_WORDS: dict[str, str] = {"great": "GREAT", "good": "GOOD", "ok": "OK", "no_way": "NO WAY"}
PACK_ICONS: dict[str, str] = {"yellow": "🎈", "red": "🎀", "blue": "💎", "black": "👑"}


def pack_words(pack: str) -> str:
    """'the red pack ($$)'."""
    price = PACKS[pack][1] if pack in PACKS else ""
    return f"the {pack} pack ({price})" if price else f"the {pack} pack"


def _catalog() -> dict[str, CardInfo]:
    out: dict[str, CardInfo] = {}
    for pack, ids in PACK_CARDS.items():
        price = PACKS[pack][1]
        for card in ids:
            a, b = gift_name(card, "a"), gift_name(card, "b")
            out[card] = {
                "name": f"{a} / {b}",
                "icon": PACK_ICONS[pack],
                "value": None,
                "colour": pack,
                "text": f"A {pack} gift card ({price}): {a} on one side, {b} on the other.",
                "kind": f"{pack.capitalize()} pack ({price})",
            }
    return out


CATALOG: dict[str, CardInfo] = _catalog()


# -- small helpers ---------------------------------------------------------------------


def _seat(value: Any) -> str:
    return seat_ref(value) if isinstance(value, int) and not isinstance(value, bool) else "a player"


def gift_words(gift: Any, *views: Mapping[str, Any] | None) -> str:
    """'gift 3 (Hammock)' when a view shows the grid, else 'gift 3'."""
    for view in views:
        if view:
            name = _name_of(gift, _grid_names(view))
            if name is not None:
                return _gift_shown(gift, name)
    return f"gift {gift}"


def _name_of(gift: Any, names: Mapping[Any, str]) -> str | None:
    try:
        return names.get(gift)
    except TypeError:  # not a gift number: named by its value alone
        return None


def _gift_shown(gift: Any, name: str | None) -> str:
    return f"gift {gift} ({name})" if name is not None else f"gift {gift}"


# The last view's gift names: a table's legal moves are labelled from one view each
# (``Engine.labels``), 63 gifts given per seat in an 8-player giving, and looking each
# gift up in the grid again was the largest part of labelling them. The view is kept
# with its names, so an identity check cannot match a new view at a recycled address;
# views are built for each call and never changed after.
_LAST_GRID: tuple[Mapping[str, Any] | None, dict[Any, str]] = (None, {})


def _grid_names(view: Mapping[str, Any]) -> dict[Any, str]:
    """Each gift on the view's grid (then its last grid) by number: its name."""
    global _LAST_GRID
    last, names = _LAST_GRID
    if last is view:
        return names
    names = {}
    for entry in (*view.get("grid", ()), *view.get("last_grid", ())):
        gift = entry.get("gift")
        if gift not in names:
            names[gift] = entry["name"]
    _LAST_GRID = (view, names)
    return names


def _player(view: Mapping[str, Any] | None, seat: Any) -> Mapping[str, Any]:
    if not view or not isinstance(seat, int):
        return {}
    players = view.get("players", ())
    return players[seat] if 0 <= seat < len(players) else {}


def _round_end(v: Voice, before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> str:
    if not before or not after:
        return ""
    if after.get("phase") == "over":
        return _game_over(v, before, after)
    if after.get("round") != before.get("round"):
        return f"; that ends round {before.get('round')}"
    return ""


def _game_over(v: Voice, before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """How the game ended, who won and why, and every seat's GIVE and GET track."""
    result = after.get("result")
    details = result.get("details") if isinstance(result, Mapping) else None
    if not isinstance(result, Mapping) or not isinstance(details, Mapping):
        return "; that ends the game"
    winners = [w for w in result.get("winners") or [] if isinstance(w, int)]
    scores = list(result.get("scores") or [])
    gifted = [p for p in details.get("gifted") or [] if isinstance(p, int)]
    zone = details.get("zone_from")
    text = f"; that ends round {before.get('round')} and the game"
    win = v.many(winners, "wins", "share the win")
    if gifted:
        zone_words = f" (from space {zone})" if isinstance(zone, int) else ""
        text += f": {v.many(gifted, 'has', 'have')} both markers in the Gifted Zone{zone_words}"
        if set(winners) == set(gifted):
            text += f", so {win}"
        else:
            text += f", and of them {win} with the most points"
    else:
        text += f": the last round is played, nobody reached the Gifted Zone, and {win}"
        text += " with the most points"
    give, get = details.get("give_track"), details.get("get_track")
    notes: list[str] = []
    if isinstance(give, list) and isinstance(get, list) and len(give) == len(get) == len(scores):
        notes = [f"GIVE {a} + GET {b}" for a, b in zip(give, get, strict=True)]
    return f"{text}; {final_scores(v, scores, notes, rule='the GIVE track plus the GET track')}"


# -- events that happened ----------------------------------------------------------------
def tell(
    event: Event,
    seat: int | None,
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any] | None,
) -> str:
    """One sentence for an event view, from the views around it (see module docstring)."""
    return capital(_tell(event, Voice(seat), before, after))


def _tell(
    event: Event, v: Voice, before: Mapping[str, Any] | None, after: Mapping[str, Any] | None
) -> str:
    kind = event.get("do")
    by = event.get("by")
    if kind == "choose_pack":
        pack = str(event.get("pack"))
        when = f" for round {before['round']}" if before else ""
        return f"{v.does(by, 'chooses')} {pack_words(pack)}{when}."
    if kind == "deal":
        return _tell_deal(event, v, before)
    if kind == "give":
        return _tell_give(event, v, before)
    if kind == "get":
        if event.get("hidden"):
            placed = _player(after, by).get("get_tokens_placed")
            count = f" ({placed} of 4 placed)" if isinstance(placed, int) else ""
            return f"{v.does(by, 'places')} a GET token face down{count}."
        token = TOKEN_WORDS.get(str(event.get("token")), "a GET")
        return f"{v.does(by, 'puts')} the {token} token on {gift_words(event.get('gift'), before)}."
    if kind == "get_more":
        if event.get("hidden"):
            return f"{v.does(by, 'makes')} a secret choice with the Get More card."
        giver = event.get("from")
        if giver is None:
            return f"{v.does(by, 'keeps')} the Get More card in hand this round."
        return f"{v.does(by, 'slides')} the Get More card under {v.whose(giver)} GIVE token."
    if kind == "reveal_gets":
        return _tell_reveal_gets(v, by, before, after)
    if kind == "reveal":
        return _tell_reveal(event, v, before, after)
    if kind == "gifttrap":
        gift = gift_words(event.get("gift"), before, after)
        return (
            f"{v.does(by, 'shouts')} GiftTRAP and {v.verb(by, 'blocks')} {gift} "
            "for the rest of the round."
        )
    return f"{v.does(by, 'makes')} a move."


def _tell_deal(event: Event, v: Voice, before: Mapping[str, Any] | None) -> str:
    cards, sides = event.get("cards"), event.get("sides")
    if not isinstance(cards, list) or not isinstance(sides, list) or len(cards) != len(sides):
        return "The gifts are dealt onto the grid."
    faces = [
        f"{i} {gift_name(card, side)}"
        for i, (card, side) in enumerate(zip(cards, sides, strict=True), start=1)
        if card in CARD_PACK and side in SIDES
    ]
    pack = before.get("pack") if before else None
    if pack is None and cards and cards[0] in CARD_PACK:
        pack = CARD_PACK[cards[0]]
    what = f"{len(cards)} {pack} gifts" if pack else f"{len(cards)} gifts"
    dealer = v.does(before["dealer"], "deals") if before else "The dealer deals"
    return f"{dealer} {what} onto the grid: {_and(faces)}."


def _tell_give(event: Event, v: Voice, before: Mapping[str, Any] | None) -> str:
    by, to = event.get("by"), v.who(event.get("to"))
    if event.get("hidden") or "gift" not in event:
        return f"{v.does(by, 'gives')} {to} a GIVE token, face down."
    more = ", with the Give More card" if event.get("more") else ""
    return f"{v.does(by, 'gives')} {to} {gift_words(event.get('gift'), before)}, face down{more}."


def _tell_reveal_gets(
    v: Voice, by: Any, before: Mapping[str, Any] | None, after: Mapping[str, Any] | None
) -> str:
    player = _player(after, by)
    tokens = player.get("get_tokens")
    if not isinstance(tokens, Mapping):
        return f"{v.does(by, 'turns')} over the four GET tokens."
    parts = [
        f"{TOKEN_WORDS[tok]} on {gift_words(tokens[tok], before, after)}"
        for tok in TOKENS
        if tokens.get(tok)
    ]
    more = ""
    if "get_more" in player:
        choice = player["get_more"]
        if isinstance(choice, int) and not isinstance(choice, bool):
            more = f", with Get More under {v.whose(choice)} GIVE token"
        elif choice is None:
            more = ", keeping Get More in hand"
    return f"{v.does(by, 'turns')} over {v.their(by)} GET tokens: {_and(parts)}{more}."


MATCH_WORDS: dict[str, str] = {
    "great": "a GREAT match",
    "good": "a GOOD match",
    "ok": "an OK match",
    "no_way": "a NO WAY",
    "no_match": "no match",
}


def _tell_reveal(
    event: Event, v: Voice, before: Mapping[str, Any] | None, after: Mapping[str, Any] | None
) -> str:
    by, giver = event.get("by"), event.get("from")
    entry: Mapping[str, Any] = {}
    if after:
        for item in reversed(after.get("round_log", ())):
            if item.get("receiver") == by and item.get("giver") == giver:
                entry = item
                break
    if not entry:
        return f"{v.does(by, 'turns')} over the GIVE token from {v.who(giver)}."
    gift = gift_words(entry.get("gift"), before, after)
    head = f"{v.does(by, 'turns')} over {gift} from {v.who(giver)}"
    end = _round_end(v, before, after)
    match = entry.get("match")
    if match == "trapped":
        return f"{head}, but it is GiftTRAPped so nobody moves{end}."
    give = move_sentence(v, "GIVE", giver, match, entry.get("give_move"), entry.get("give_more"))
    get = move_sentence(v, "GET", by, match, entry.get("get_move"), entry.get("get_more"))
    return f"{head}, {MATCH_WORDS.get(str(match), 'scored')}: {give}, and {get}{end}."


def _wanted(match: Any, doubled: Any) -> int:
    return TOKEN_VALUE.get(str(match), NO_MATCH_VALUE) * (2 if doubled else 1)


def move_sentence(v: Voice, track: str, seat: Any, match: Any, moved: Any, doubled: Any) -> str:
    """ "{p1} moves 6 up the GIVE track (doubled by Give More)", "your GET marker stays at GO".

    ``match`` and ``moved`` are a ``round_log`` entry's fields. A marker cannot go below GO
    (the start) nor past the end of its track, so it may move less than the match says.
    """
    wanted = _wanted(match, doubled)
    moved = moved if isinstance(moved, int) else wanted
    more = f" (doubled by {track.capitalize()} More)" if doubled else ""
    if moved == 0 and wanted != 0:
        where = "at the end of the track" if wanted > 0 else "at GO, the start"
        return f"{v.whose(seat)} {track} marker stays {where}{more}"
    way = "up" if moved > 0 else "back down"
    text = f"{v.does(seat, 'moves')} {abs(moved)} {way} the {track} track"
    if moved != wanted:
        text += ", to the end of the track" if wanted > 0 else ", back to GO, the start"
        text += f" ({abs(wanted)} called for)"
    return text + more


def move_words(track: str, who: str, match: Any, moved: Any, doubled: Any) -> str:
    """'GIVE +6 for Ben (Give More)': one track's move in short, for the drawn table.

    A marker held at the end of its track or at GO says so in words.
    """
    wanted = _wanted(match, doubled)
    moved = moved if isinstance(moved, int) else wanted
    text = f"{track} {signed(moved)} for {who}"
    notes = [f"{track.capitalize()} More"] if doubled else []
    if moved != wanted:
        if wanted > 0:
            notes.append("already at the end of the track" if moved == 0 else "reaches the end")
        else:
            notes.append("already at GO, the start" if moved == 0 else "stops at GO, the start")
    return text + (f" ({', '.join(notes)})" if notes else "")


# -- moves not yet made ---------------------------------------------------------------------
def move_labels(events: list[Event], seat: int, view: Mapping[str, Any]) -> list[str]:
    """``tell_move`` of each of a seat's legal moves, all from its one view."""
    return labels_named(events, _grid_names(view) if view else {})


def labels_named(events: Sequence[Mapping[str, Any]], names: Mapping[Any, str]) -> list[str]:
    """``tell_move`` of each of a seat's own moves, from the grid's names (``names``:
    ``views.grid_names``, the names ``_grid_names`` reads from any seat's view).

    Why: a move's label reads nothing of its view but the gifts' names. Everyone's table
    in an 8-player giving lists 63 moves for each of eight seats, and in the GET step 4
    tokens on each gift for each seat; building each seat's view for the names, and
    labelling one call at a time, was the largest part of a step's first visit. A
    give's label is built once per (gift, name, receiver, Give More) in the process
    (``_give_told``).
    """
    return [_move_told(event, names) for event in events]


def _give_told(event: Mapping[str, Any], names: Mapping[Any, str]) -> str:
    gift, to, more = event.get("gift"), event.get("to"), bool(event.get("more"))
    name = _name_of(gift, names)
    try:
        return _give_remembered(gift, name, to, more)
    except TypeError:  # a value that cannot be a key: told without the memo
        return _give_words(gift, name, to, more)


def _gift_named(gift: Any, names: Mapping[Any, str]) -> str:
    """'gift 3 (Hammock)', as ``gift_words`` says it from a view with those names."""
    return _gift_shown(gift, _name_of(gift, names))


def _give_words(gift: Any, name: str | None, to: Any, more: bool) -> str:
    shown = _gift_shown(gift, name)
    return f"Give {shown} to {_seat(to)}{' with Give More' if more else ''}."


# Typed: gift 1, True and 1.0 are equal keys, and each is said as it is ("gift True").
_give_remembered = lru_cache(maxsize=4096, typed=True)(_give_words)


# A seat with at least this many moves may have them summed up in one sentence.
SUMMED_FROM = 10


def moves_summary(events: Sequence[Mapping[str, Any]]) -> str | None:
    """One sentence for a seat's legal moves when each kind of them is every pairing of a
    few choices, else None (each move is then listed with its label).

    Why: in a giving each player may give any of the gifts on the grid to any other
    player (63 moves each at 8 players, 504 in everyone's table), and in the GET step put
    any of four tokens on any gift (36 each). Listed move by move, that was a list nobody
    reads and the largest part of drawing such a step; "Give gift 1, 2, ... or 9 to Ben,
    Cy, ... or Hal" says the same. Only full pairings are summed up: if one were missing,
    the sentence would say a move the seat does not have.
    """
    if len(events) < SUMMED_FROM:
        return None
    # Written for speed, a loop of plain reads per move: everyone's table in an 8-player
    # giving sums up 504 moves while a step's first visitor waits.
    kinds: dict[str, list[tuple[Any, ...]]] = {}
    for event in events:
        kind = event.get("do")
        if kind == "give":
            more = event.get("more", False)
            values: tuple[Any, ...] = (event.get("gift"), event.get("to"), more)
            size = 5 if "more" in event else 4
        elif kind == "get":
            values, size = (event.get("token"), event.get("gift")), 4
        elif kind == "gifttrap":
            values, size = (event.get("gift"),), 3
        else:
            return None  # a move no sentence here says: listed as it is
        if len(event) != size or "by" not in event:
            return None  # a move saying more than its choices
        kinds.setdefault(kind, []).append(values)
    parts = []
    for kind, pairings in kinds.items():
        choices = [set(column) for column in zip(*pairings, strict=True)]
        types = _TYPES[kind]
        if not all(type(c) is t for column, t in zip(choices, types, strict=True) for c in column):
            return None
        if len(set(pairings)) != len(pairings) or len(pairings) != prod(map(len, choices)):
            return None
        part = _summed(kind, choices)
        if part is None:
            return None
        parts.append(part)
    return capital("; or ".join(parts)) + "."


def _summed(kind: str, choices: list[set[Any]]) -> str | None:
    """The words for every pairing of ``choices`` of a move of ``kind``."""
    if kind == "give":
        gifts, receivers, more = choices
        with_more = {frozenset({False}): "", frozenset({True}): " with Give More"}.get(
            frozenset(more), ", with or without Give More"
        )
        receiving = or_list([_seat(to) for to in sorted(receivers)])
        return f"give gift {_or_numbers(gifts)} to {receiving}{with_more}"
    if kind == "gifttrap":
        return f"play GiftTRAP on gift {_or_numbers(choices[0])}"
    tokens, gifts = choices
    if not tokens <= TOKEN_WORDS.keys():
        return None
    words = [words for token, words in TOKEN_WORDS.items() if token in tokens]
    return f"put {or_list(words)} on gift {_or_numbers(gifts)}"


def _or_numbers(numbers: set[Any]) -> str:
    return or_list([str(number) for number in sorted(numbers)])


# The type of each choice a move of each kind pairs (a give's gift, receiver and Give More;
# a GET token's token and gift; the GiftTRAP card's gift).
_TYPES: dict[str, tuple[type, ...]] = {
    "give": (int, int, bool),
    "get": (str, int),
    "gifttrap": (int,),
}


def tell_move(event: Event, seat: int, before: Mapping[str, Any]) -> str:
    """The imperative label of a legal move of ``seat``, from its view before it."""
    return _move_told(event, _grid_names(before) if before else {})


def _move_told(event: Mapping[str, Any], names: Mapping[Any, str]) -> str:
    """``tell_move`` from the gifts' names: all a move's label reads of its view."""
    kind = event.get("do")
    if kind == "choose_pack":
        return f"Deal from {pack_words(str(event.get('pack')))}."
    if kind == "give":
        return _give_told(event, names)
    if kind == "get":
        token = TOKEN_WORDS.get(str(event.get("token")), "a GET token")
        return f"Put {token} on {_gift_named(event.get('gift'), names)}."
    if kind == "get_more":
        giver = event.get("from")
        if giver is None:
            return "Keep Get More in hand this round."
        return f"Put Get More under {_seat(giver)}'s GIVE token."
    if kind == "reveal_gets":
        return "Turn over your GET tokens."
    if kind == "reveal":
        return f"Turn over the GIVE token from {_seat(event.get('from'))}."
    if kind == "gifttrap":
        return f"Play GiftTRAP on {_gift_named(event.get('gift'), names)}."
    return "Make this move."
