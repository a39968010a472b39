"""The GiftTRAP table: the gift grid, the GIVE and GET tracks, each player's tokens.

Drawn from the engine's view only (see ``games/gift_trap/views.py``): a GIVE
token shows its gift to its giver, and to everyone once its receiver turns it
over; a player's GET tokens show where they lie to their owner, and to everyone
once turned over; before that the table sees only how many are placed.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from django.utils.safestring import SafeString

from games.gift_trap import words
from games.gift_trap.words import TOKEN_WORDS, move_words, pack_words
from replays.tables.kit import Html, Table, el, esc

TOKENS = ("great", "good", "ok", "no_way")
TOKEN_POINTS = {"great": "+3", "good": "+2", "ok": "+1", "no_way": "-4"}
PHASES = {
    "choose_pack": "Deal: the dealer chooses a pack",
    "deal": "Deal: the gifts go onto the grid",
    "give": "Give: everyone gives each other player one gift, face down",
    "get": "Get: everyone puts GREAT, GOOD, OK and NO WAY on the grid, face down",
    "reveal": "Reveal: one player at a time turns over their tokens",
    "over": "Game over",
}
MATCHES = {
    "great": "GREAT",
    "good": "GOOD",
    "ok": "OK",
    "no_way": "NO WAY",
    "no_match": "no match",
    "trapped": "GiftTRAPped",
}


def draw(table: Table) -> Html:
    view = table.view
    seats = _Seats(table, view)
    return table.table(
        _status(table, view),
        _grid(table, view),
        _tracks(table, view),
        _reveal(table, view),
        *(_player(table, view, p, seats) for p in range(len(view["players"]))),
    )


class _Seats:
    """What every player's place reads of the others, found once per table: each
    "from <giver>" escaped, each given GIVE token by (giver, receiver), each gift's name
    (an 8-player table draws 56 tokens, and looked each up in lists)."""

    def __init__(self, table: Table, view: Mapping[str, Any]) -> None:
        players = view["players"]
        self.froms = [esc(f"from {table.name(giver)}") for giver in range(len(players))]
        self.given: dict[tuple[int, Any], Mapping[str, Any]] = {}
        for giver, player in enumerate(players):
            for entry in player["gave"]:
                self.given.setdefault((giver, entry["to"]), entry)  # the first, as ``next``
        self.names: dict[Any, str] = {}
        for g in (*view["grid"], *(view.get("last_grid") or [])):
            self.names.setdefault(g["gift"], str(g["name"]))  # the first, as the grid reads


TARGET_READS_VIEW = False  # ``target`` reads the event only
# A seat's many moves said in one sentence in the list of moves (a giving's 63 a seat,
# the GET step's 36): ``replays.tables.table_summarizer``.
moves_summary = words.moves_summary


def target(event: dict[str, Any], view: dict[str, Any]) -> str | None:
    """Gifts are chosen on the grid; tokens in front of the player are turned over."""
    kind, by = event.get("do"), event.get("by")
    if kind == "choose_pack":
        return f"pack-{event.get('pack')}"
    if kind in ("give", "get", "gifttrap"):
        return f"gift-{event.get('gift')}"
    if kind == "reveal_gets":
        return f"gets-{by}"
    if kind in ("reveal", "get_more") and event.get("from") is not None:
        return f"token-{event.get('from')}-{by}"
    return None


# -- round, dealer and packs ------------------------------------------------------------
def _status(table: Table, view: Mapping[str, Any]) -> Html:
    phase = view["phase"]
    stats = [
        table.stat("Step", PHASES.get(phase, phase)),
        table.stat("Dealer", table.name(view["dealer"])),
    ]
    if view.get("pack"):
        stats.append(table.stat("Pack", pack_words(view["pack"]).removeprefix("the ")))
    piles = [
        table.back(
            pack,
            key=f"pack-{pack}",
            label=f"{pack_words(pack).removeprefix('the ')}: "
            f"{counts['unseen'] + counts['returned']} cards",
        )
        for pack, counts in view["packs"].items()
    ]
    traps = [
        f"Round {t['round']}: {table.name(t['seat'])} on gift {t['gift']}"
        for t in view.get("gifttraps", ())
    ]
    return table.zone(
        f"Round {view['round']}"
        + (f" (at most {view['max_rounds']})" if view.get("max_rounds") else " (no round limit)"),
        el("div", *stats, cls="stats"),
        _ending(table, view),
        table.row(*piles, cls="packs"),
        el("p", "GiftTRAPs played: " + "; ".join(traps) + ".", cls="gt-note") if traps else "",
        cls="gt-status",
    )


def _ending(table: Table, view: Mapping[str, Any]) -> Html | str:
    result = view.get("result")
    if not result:
        return ""
    details = result.get("details", {})
    gifted = [table.name(s) for s in details.get("gifted", [])]
    if gifted:
        text = f"Both markers in the Gifted Zone: {', '.join(gifted)}."
    else:
        text = f"Nobody reached the Gifted Zone in {details.get('rounds')} rounds."
    return el("p", text, cls="gt-note")


# -- the gift grid ----------------------------------------------------------------------------
def _grid(table: Table, view: Mapping[str, Any]) -> Html:
    grid, last = view["grid"], view.get("last_grid") or []
    if not grid and last:
        slots = [
            el("div", table.card(g["card"], note=f"Gift {g['gift']}: {g['name']}"), cls="gift-slot")
            for g in last
        ]
        return table.zone(
            "Last round's gifts (going back under their pack)", el("div", *slots, cls="gift-grid")
        )
    if not grid:
        waiting = "Waiting for the deal." if view["phase"] == "deal" else "No gifts dealt yet."
        return table.zone("Gift grid", el("p", waiting, cls="gt-note"))
    placed = _tokens_on_grid(table, view)
    slots = []
    for g in grid:
        gift = g["gift"]
        face = table.card(g["card"], key=f"gift-{gift}", note=f"Gift {gift}: {g['name']}")
        chips = "".join(placed.get(gift, ()))
        if g["trapped"]:  # f-strings: a grid has up to 16 gifts
            slots.append(
                f'<div class="gift-slot trapped">{face}<div class="gt-chips">'
                f'<span class="gt-chip trap">GiftTRAPped</span>{chips}</div></div>'
            )
        else:
            slots.append(f'<div class="gift-slot">{face}<div class="gt-chips">{chips}</div></div>')
    title = f"Gift grid: {pack_words(view['pack'])}" if view.get("pack") else "Gift grid"
    return table.zone(title, SafeString(f'<div class="gift-grid">{"".join(slots)}</div>'))


def _tokens_on_grid(table: Table, view: Mapping[str, Any]) -> dict[int, list[Html]]:
    """The GET tokens this viewer can read, gathered by the gift they lie on."""
    out: dict[int, list[Html]] = {}
    for player in view["players"]:
        tokens = player.get("get_tokens")
        if not isinstance(tokens, Mapping):
            continue
        down = not player.get("get_tokens_shown")
        for tok in TOKENS:
            gift = tokens.get(tok)
            if gift:
                text = f"{TOKEN_WORDS[tok]} · {table.name(player['seat'])}"
                if down:
                    chip = f'<span class="gt-chip get {tok} down">{esc(text + ", face down")}'
                else:
                    chip = f'<span class="gt-chip get {tok}">{esc(text)}'
                out.setdefault(gift, []).append(SafeString(chip + "</span>"))
    return out


# -- the two score tracks ---------------------------------------------------------------------
def _tracks(table: Table, view: Mapping[str, Any]) -> Html:
    length, zone_from = view["track_length"], view["gifted_zone_from"]
    players = view["players"]
    legend = ""
    for p in players:
        seat = p["seat"]
        words = f" {table.name(seat)}: GIVE {p['give_track']}, GET {p['get_track']}"
        legend += f'<span class="gt-legend-item">{_marker(table, seat)}{esc(words)}</span>'
    zone_words = (
        f"Shaded: the Gifted Zone, spaces {zone_from}-{length} ({length} is GIFTED)."
        if zone_from < length
        else f"Shaded: the Gifted Zone, space {length} (GIFTED)."
    )
    return table.zone(
        "GIVE and GET tracks",
        SafeString(f'<div class="gt-legend">{legend}</div>'),
        _track(table, "GIVE track 🎁 (for giving)", "give_track", length, zone_from, players),
        _track(table, "GET track 📦 (for getting)", "get_track", length, zone_from, players),
        el("p", zone_words, cls="gt-note"),
        cls="gt-tracks",
    )


def _track(
    table: Table, title: str, field: str, length: int, zone_from: int, players: list[Any]
) -> Html:
    """One track: its spaces drawn once per length (``_spaces``), the markers put in."""
    here: dict[int, str] = {}
    for p in players:
        space = p[field]
        here[space] = here.get(space, "") + _marker(table, p["seat"])
    cells = "".join(
        f"{before}{here.get(space, '')}{after}"
        for space, (before, after) in enumerate(_spaces(length, zone_from))
    )
    return SafeString(
        f'<div class="gt-track-wrap"><h5>{esc(title)}</h5><div class="gt-track">{cells}</div></div>'
    )


@cache
def _spaces(length: int, zone_from: int) -> tuple[tuple[str, str], ...]:
    """Each space of a track as the markup before and after its markers: the same for
    every step of every game with these rules, so drawn once (a track has ~30 spaces)."""
    spaces = []
    for space in range(length + 1):
        label = "GO" if space == 0 else str(space)
        classes = "gt-space" + (" gifted" if space >= zone_from else "")
        title = "GIFTED" if space == length else ("GO" if space == 0 else f"Space {space}")
        spaces.append(
            (
                f'<div class="{classes}" title="{title}"><span class="gt-space-no">{label}</span>'
                '<span class="gt-markers">',
                "</span></div>",
            )
        )
    return tuple(spaces)


def _marker(table: Table, seat: int) -> Html:
    mine = " mine" if seat == table.seat else ""
    return SafeString(
        f'<span class="gt-marker m{seat % 8}{mine}" title="{esc(table.name(seat))}">'
        f"{seat + 1}</span>"
    )


# -- reveal progress and scoring ------------------------------------------------------------
def _reveal(table: Table, view: Mapping[str, Any]) -> Html | str:
    log = view.get("round_log") or []
    phase = view["phase"]
    if phase != "reveal" and not log:
        return ""
    n = len(view["players"])
    order = [(view["dealer"] + i) % n for i in range(n)]
    steps = _reveal_steps(table, view, order) if phase == "reveal" else []
    title = (
        "Reveal"
        if phase == "reveal"
        else ("Last round's scoring" if phase != "over" else "Final round's scoring")
    )
    names = {g["gift"]: g["name"] for g in (*view["grid"], *(view.get("last_grid") or []))}
    lines = [_score_line(table, entry, names) for entry in log]
    return table.zone(
        title,
        el("ol", *steps, cls="gt-order") if phase == "reveal" else "",
        el("ul", *lines, cls="gt-log") if lines else el("p", "No gift scored yet.", cls="gt-note"),
        cls="gt-reveal",
    )


def _reveal_steps(table: Table, view: Mapping[str, Any], order: list[int]) -> list[Html]:
    revealer = view.get("revealer")
    n = len(order)
    at = order.index(revealer) if revealer in order else n
    steps = []
    for i, seat in enumerate(order):
        player = view["players"][seat]
        if i < at:
            state, cls = "done", "done"
        elif i == at:
            flipped = len(player["revealed_from"])
            gets = "GET tokens face up" if player.get("get_tokens_shown") else "GET tokens next"
            state, cls = f"revealing ({gets}, {flipped} of {n - 1} gifts turned over)", "now"
        else:
            state, cls = "waiting", "later"
        steps.append(SafeString(f'<li class="{cls}">{esc(f"{table.name(seat)}: {state}")}</li>'))
    return steps


def _score_line(table: Table, entry: Mapping[str, Any], names: Mapping[int, str]) -> Html:
    giver, receiver, gift = entry["giver"], entry["receiver"], entry["gift"]
    what = f"gift {gift} ({names[gift]})" if gift in names else f"gift {gift}"
    match = entry["match"]
    if match == "trapped":
        moves = "GiftTRAPped, so nobody moves."
    else:
        give = move_words(
            "GIVE", table.name(giver), match, entry["give_move"], entry.get("give_more")
        )
        get = move_words(
            "GET", table.name(receiver), match, entry["get_move"], entry.get("get_more")
        )
        moves = f"{MATCHES.get(match, match)}: {give}, {get}."
    return SafeString(
        f'<li class="{esc(f"gt-score {match}")}">'
        f"<b>{esc(f'{table.name(giver)} → {table.name(receiver)}')}</b>"
        f"{esc(f': {what}, {moves}')}</li>"
    )


# -- a player's place -----------------------------------------------------------------------------
_RECEIVED, _GETS, _EXPERT = (
    el("h5", words) for words in ("GIVE tokens received", "GET tokens", "Expert cards")
)


def _player(table: Table, view: Mapping[str, Any], seat: int, seats: _Seats) -> Html:
    player = view["players"][seat]
    roles = []
    if seat == view["dealer"]:
        roles.append("dealer")
    if seat == view.get("revealer"):
        roles.append("revealing")
    stats = [
        table.stat("GIVE", player["give_track"]),
        table.stat("GET", player["get_track"]),
        table.stat("Total", player["give_track"] + player["get_track"]),
    ]
    if roles:
        stats.append(table.stat("Now", ", ".join(roles)))
    parts: list[Html | str] = []
    if view["phase"] not in ("choose_pack", "deal"):  # between rounds the tokens are in the bags
        parts += [_RECEIVED, _received(view, seat, seats), _GETS, _gets(table, view, player)]
    if view.get("expert_cards"):
        parts += [_EXPERT, _expert(table, view, player)]
    return table.seat_panel(seat, *parts, stats=stats)


def _received(view: Mapping[str, Any], seat: int, seats: _Seats) -> Html:
    """The GIVE tokens in front of ``seat``, one per other player, in seat order.

    Written with f-strings (each value escaped once): an 8-player table draws 56 tokens.
    """
    players = view["players"]
    player = players[seat]
    received, revealed = player["received_from"], player["revealed_from"]
    get_more = player.get("get_more")
    tokens = []
    for giver in range(len(players)):
        if giver == seat:
            continue
        who = seats.froms[giver]
        if giver not in received:
            tokens.append(f'<div class="gt-token empty">{who}<small>not given yet</small></div>')
            continue
        entry = seats.given.get((giver, seat), {})
        turned = giver in revealed
        side = "up" if turned else "down"
        token = f'<div class="gt-token {side}" data-key="token-{giver}-{seat}">{who}'
        if "gift" in entry:
            gift = entry["gift"]
            name = seats.names.get(gift, "")
            token += f"<b>{esc(f'gift {gift}' + (f' · {name}' if name else ''))}</b>"
        else:
            token += "<small>secret gift</small>"
        token += "<small>turned over</small>" if turned else "<small>face down</small>"
        if entry.get("give_more"):
            token += '<small class="gt-more">with Give More: doubled</small>'
        if get_more == giver:
            token += '<small class="gt-more">Get More under it: doubled</small>'
        tokens.append(token + "</div>")
    return SafeString(f'<div class="gt-tokens">{"".join(tokens)}</div>')


def _gets(table: Table, view: Mapping[str, Any], player: Mapping[str, Any]) -> Html:
    """A player's GET tokens: f-strings, each value escaped once (one per seat per table)."""
    seat = player["seat"]
    tokens = player.get("get_tokens")
    chips = ""
    if isinstance(tokens, Mapping):
        down = not player.get("get_tokens_shown")
        for tok in TOKENS:
            gift = tokens.get(tok)
            where = f"gift {gift}" if gift else "not placed"
            words = esc(f"{TOKEN_WORDS[tok]} ({TOKEN_POINTS[tok]}): {where}")
            side = " down" if down and gift else ""
            chips += f'<span class="gt-chip get {tok}{side}">{words}</span>'
        placed = any(tokens.get(tok) for tok in TOKENS)
        note = ""
        if not down:
            note = "turned over"
        elif placed:
            note = "face down: only you know them" if seat == table.seat else "face down"
    else:
        count = player.get("get_tokens_placed", 0)
        chips = '<span class="gt-chip get down">placed</span>' * count
        chips += '<span class="gt-chip get empty">not placed</span>' * (4 - count)
        note = f"{count} of 4 placed, face down" if count else "none placed yet"
    noted = f'<small class="gt-note">{esc(note)}</small>' if note else ""
    return SafeString(
        f'<div class="gt-gets" data-key="{esc(f"gets-{seat}")}">'
        f'<div class="gt-chips">{chips}</div>{noted}</div>'
    )


def _expert(table: Table, view: Mapping[str, Any], player: Mapping[str, Any]) -> Html:
    seat = player["seat"]
    mine = table.seat is None or seat == table.seat
    more_with = [e["to"] for e in player["gave"] if e.get("give_more")]
    if more_with:
        give_more = f"with the gift to {table.name(more_with[0])}"
    elif (
        mine or view["phase"] in ("choose_pack", "deal") or all("gift" in e for e in player["gave"])
    ):
        give_more = "in hand"  # every token it gave is known, and none carried the card
    else:
        give_more = "secret until its token is turned over"
    if "get_more" in player:
        choice = player["get_more"]
        if choice == "undecided":
            get_more = "not decided yet"
        elif choice is None:
            get_more = "kept in hand this round"
        else:
            get_more = f"under {table.name(choice)}'s GIVE token"
    else:
        get_more = "decided (secret)" if player.get("get_more_decided") else "not decided yet"
    traps = [t for t in view.get("gifttraps", ()) if t["seat"] == seat]
    if traps:
        trap = f"played on gift {traps[-1]['gift']} in round {traps[-1]['round']}"
    else:
        trap = "in hand" if not player.get("gifttrap_played") else "played"
    # f-strings, as ``el`` writes them: three chips on each of eight places.
    return SafeString(
        '<div class="gt-chips">'
        f'<span class="gt-chip expert"><b>Give More</b>{esc(f": {give_more}")}</span>'
        f'<span class="gt-chip expert"><b>Get More</b>{esc(f": {get_more}")}</span>'
        f'<span class="gt-chip expert"><b>GiftTRAP</b>{esc(f": {trap}")}</span></div>'
    )
