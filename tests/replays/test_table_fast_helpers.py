"""The fast drawing helpers give the bytes of the plain ``el`` code they replaced.

A step's first visit draws its table while the visitor waits, so the hot parts of the
kit and of the drawing modules write markup with f-strings (each value escaped once
with ``kit.esc``) and draw each card face once (``kit._card_face``). The references
below are the ``el`` compositions those helpers replaced, written with Django's own
escaping (``reference_el``); every table of many simulated steps, for every viewer
and with names full of markup, must come out the same byte for byte.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest

from games.base import CHANCE, CardInfo, and_list
from games.gift_economy.cards import GOAL, RES, RESOURCES, SPECIALS
from games.gift_economy.words import ICON
from games.gift_trap.words import TOKEN_WORDS, move_words, pack_words
from games.play import replay_states
from games.registry import all_engines, get_engine
from replays import tables
from replays.simulation import simulated_document
from replays.tables import generic, gift_economy, gift_trap, kit, secret_santa, table_html
from replays.tables.gift_trap import MATCHES, TOKEN_POINTS, TOKENS
from replays.tables.kit import Html, Table, points
from replays.timeline import step_move_words, step_moves
from tests.replays.test_step_first_visit import reference_el as el

HOSTILE = [
    '<b>Ana</b> & "Co"',
    "O'Neil <script>alert(1)</script>",
    "🎁 Dee > & <",
    "Fay &amp; &lt;",
    "Gus ' \" ` =",
    "Hal · → 🂠",
    "Ivy {{ x }} %s {}",
    "Jo\u200b\nnewline\ttab",
]


# -- the references: the code the fast helpers replaced, el by el -----------------------
def kit_card(
    self: Table,
    card: str,
    *,
    key: str | None = None,
    note: str = "",
    small: bool = False,
    down: bool = False,
) -> Html:
    """A card face: icon, name, value, colour word, effect text as a tooltip.

    ``down`` marks a card that lies face down on the table but that this viewer
    knows (drawn as a face with a "face down" ribbon); ``note`` adds a short line.
    """
    info = self.catalog[card]
    colour = info.get("colour")
    value = info.get("value")
    classes = ["card", f"colour-{colour}" if colour else "colour-none"]
    if small:
        classes.append("small")
    if down:
        classes.append("known-down")
    lines: list[Html | str] = [
        el("span", info.get("icon", ""), cls="icon", aria_hidden="true"),
        el("span", info["name"], cls="name"),
    ]
    if value is not None:
        lines.append(el("span", points(value), cls="value"))
    if colour:
        lines.append(el("span", colour, cls="colour"))
    if down:
        lines.append(el("span", "face down", cls="ribbon"))
    if note:
        lines.append(el("span", note, cls="note"))
    title = " · ".join(
        part
        for part in (
            info["name"],
            points(value) if value is not None else "",
            colour or "",
            info.get("text", ""),
        )
        if part
    )
    return el("div", *lines, cls=" ".join(classes), data_card=card, data_key=key, title=title)


def kit_back(
    self: Table, colour: str | None = None, *, key: str | None = None, label: str = ""
) -> Html:
    """A card back: shows only its colour (as a word too) and an optional label."""
    words = label or (f"{colour} back" if colour else "face down")
    return el(
        "div",
        el("span", "🎁", cls="icon", aria_hidden="true"),
        el("span", words, cls="back-label"),
        cls=f"card back colour-{colour or 'none'}",
        data_key=key,
        title=words,
    )


def kit_hidden(self: Table, count: int, *, label: str = "cards") -> Html:
    """A face-down pile of ``count`` cards nobody here may see."""
    return el(
        "div",
        el("span", "🂠", cls="icon", aria_hidden="true"),
        el("span", f"{count} {label}", cls="back-label"),
        cls="card back pile",
    )


def kit_row(self: Table, *cards: Html, cls: str = "") -> Html:
    """Cards side by side, wrapping on a narrow screen."""
    return el("div", *cards, cls=f"cards {cls}".strip())


def kit_zone(self: Table, title: str, *content: Html | str, cls: str = "") -> Html:
    """A labelled area of the table (a pile, a track, the Unexpected guest)."""
    return el("section", el("h4", title), *content, cls=f"zone {cls}".strip())


def kit_stat(self: Table, label: str, value: Any) -> Html:
    return el("span", el("b", label), " ", str(value), cls="stat")


def kit_seat_panel(
    self: Table, seat: int, *content: Html | str, stats: Sequence[Html] = ()
) -> Html:
    """One player's place at the table; marked when it is their turn."""
    turn = seat in self.waiting_for
    heading = el(
        "h3",
        self.name(seat),
        el("span", "to move", cls="turn-badge") if turn else "",
    )
    return el(
        "section",
        heading,
        el("div", *stats, cls="stats") if stats else "",
        *content,
        cls="seat" + (" active" if turn else "") + (" mine" if seat == self.seat else ""),
        data_seat=str(seat),
    )


def kit_table(self: Table, *content: Html | str) -> Html:
    """The outermost element of every drawn table."""
    return el("div", *content, cls=f"table table-{self.game}", data_game=self.game)


def gift_trap_tokens_on_grid(table: Table, view: Mapping[str, Any]) -> dict[int, list[Html]]:
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
                out.setdefault(gift, []).append(
                    el(
                        "span",
                        text + (", face down" if down else ""),
                        cls=f"gt-chip get {tok}" + (" down" if down else ""),
                    )
                )
    return out


def gift_trap_tracks(table: Table, view: Mapping[str, Any]) -> Html:
    length, zone_from = view["track_length"], view["gifted_zone_from"]
    players = view["players"]
    legend = el(
        "div",
        *(
            el(
                "span",
                gift_trap_marker(table, p["seat"]),
                f" {table.name(p['seat'])}: GIVE {p['give_track']}, GET {p['get_track']}",
                cls="gt-legend-item",
            )
            for p in players
        ),
        cls="gt-legend",
    )
    zone_words = (
        f"Shaded: the Gifted Zone, spaces {zone_from}-{length} ({length} is GIFTED)."
        if zone_from < length
        else f"Shaded: the Gifted Zone, space {length} (GIFTED)."
    )
    return table.zone(
        "GIVE and GET tracks",
        legend,
        gift_trap_track(
            table, "GIVE track 🎁 (for giving)", "give_track", length, zone_from, players
        ),
        gift_trap_track(
            table, "GET track 📦 (for getting)", "get_track", length, zone_from, players
        ),
        el("p", zone_words, cls="gt-note"),
        cls="gt-tracks",
    )


def gift_trap_track(
    table: Table, title: str, field: str, length: int, zone_from: int, players: list[Any]
) -> Html:
    cells = []
    for space in range(length + 1):
        here = [gift_trap_marker(table, p["seat"]) for p in players if p[field] == space]
        label = "GO" if space == 0 else str(space)
        classes = "gt-space" + (" gifted" if space >= zone_from else "")
        cells.append(
            el(
                "div",
                el("span", label, cls="gt-space-no"),
                el("span", *here, cls="gt-markers"),
                cls=classes,
                title="GIFTED" if space == length else ("GO" if space == 0 else f"Space {space}"),
            )
        )
    return el("div", el("h5", title), el("div", *cells, cls="gt-track"), cls="gt-track-wrap")


def gift_trap_marker(table: Table, seat: int) -> Html:
    mine = " mine" if seat == table.seat else ""
    return el("span", str(seat + 1), cls=f"gt-marker m{seat % 8}{mine}", title=table.name(seat))


def gift_trap_reveal_steps(table: Table, view: Mapping[str, Any], order: list[int]) -> list[Html]:
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
        steps.append(el("li", f"{table.name(seat)}: {state}", cls=cls))
    return steps


def gift_trap_score_line(table: Table, entry: Mapping[str, Any], names: Mapping[int, str]) -> Html:
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
    return el(
        "li",
        el("b", f"{table.name(giver)} → {table.name(receiver)}"),
        f": {what}, {moves}",
        cls=f"gt-score {match}",
    )


def gift_trap_gift_name(view: Mapping[str, Any], gift: int) -> str:
    for g in (*view["grid"], *(view.get("last_grid") or [])):
        if g["gift"] == gift:
            return str(g["name"])
    return ""


def gift_trap_received(table: Table, view: Mapping[str, Any], seat: int, *_: Any) -> Html:
    """The GIVE tokens in front of ``seat``, one per other player, in seat order."""
    players = view["players"]
    player = players[seat]
    tokens = []
    for giver in range(len(players)):
        if giver == seat:
            continue
        who = table.name(giver)
        if giver not in player["received_from"]:
            waiting = el("small", "not given yet")
            tokens.append(el("div", f"from {who}", waiting, cls="gt-token empty"))
            continue
        entry = next((e for e in players[giver]["gave"] if e["to"] == seat), {})
        turned = giver in player["revealed_from"]
        lines: list[Html | str] = [f"from {who}"]
        if "gift" in entry:
            name = gift_trap_gift_name(view, entry["gift"])
            lines.append(el("b", f"gift {entry['gift']}" + (f" · {name}" if name else "")))
        else:
            lines.append(el("small", "secret gift"))
        lines.append(el("small", "turned over" if turned else "face down"))
        if entry.get("give_more"):
            lines.append(el("small", "with Give More: doubled", cls="gt-more"))
        if player.get("get_more") == giver:
            lines.append(el("small", "Get More under it: doubled", cls="gt-more"))
        tokens.append(
            el(
                "div",
                *lines,
                cls="gt-token" + (" up" if turned else " down"),
                data_key=f"token-{giver}-{seat}",
            )
        )
    return el("div", *tokens, cls="gt-tokens")


def gift_trap_gets(table: Table, view: Mapping[str, Any], player: Mapping[str, Any]) -> Html:
    seat = player["seat"]
    tokens = player.get("get_tokens")
    chips = []
    if isinstance(tokens, Mapping):
        down = not player.get("get_tokens_shown")
        for tok in TOKENS:
            gift = tokens.get(tok)
            where = f"gift {gift}" if gift else "not placed"
            chips.append(
                el(
                    "span",
                    f"{TOKEN_WORDS[tok]} ({TOKEN_POINTS[tok]}): {where}",
                    cls=f"gt-chip get {tok}" + (" down" if down and gift else ""),
                )
            )
        placed = any(tokens.get(tok) for tok in TOKENS)
        note = ""
        if not down:
            note = "turned over"
        elif placed:
            note = "face down: only you know them" if seat == table.seat else "face down"
    else:
        count = player.get("get_tokens_placed", 0)
        chips = [el("span", "placed", cls="gt-chip get down") for _ in range(count)]
        chips += [el("span", "not placed", cls="gt-chip get empty") for _ in range(4 - count)]
        note = f"{count} of 4 placed, face down" if count else "none placed yet"
    return el(
        "div",
        el("div", *chips, cls="gt-chips"),
        el("small", note, cls="gt-note") if note else "",
        cls="gt-gets",
        data_key=f"gets-{seat}",
    )


def gift_economy_hand(table: Table, hand: Sequence[str], totals: Any, keyed: bool) -> Html:
    """The hand in four resource groups (with the points against 12) and the specials."""
    totals = totals if isinstance(totals, Mapping) else {}
    offered = gift_economy._on_the_table(table.view)
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
        label = el(
            "p",
            f"{ICON[res]} {res.capitalize()}: ",
            el("b", f"{got} / {GOAL}"),
            " ",
            el("span", mark, cls=f"ge-mark {cls}"),
            cls="ge-label",
        )
        row = table.row(
            *(
                table.card(c, key=c if keyed else None, note="on offer" if c in offered else "")
                for c in cards
            )
        )
        groups.append(el("div", label, row if cards else "", cls=f"ge-group ge-{res}"))
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


def secret_santa_group(title: str, content: Html) -> Html:
    """A captioned row of cards inside a seat or zone."""
    return el("div", el("div", title, cls="ss-caption"), content, cls="ss-group")


def gift_trap_grid(table: Table, view: Mapping[str, Any]) -> Html:
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
    placed = gift_trap_tokens_on_grid(table, view)
    slots = []
    for g in grid:
        gift = g["gift"]
        chips = [el("span", "GiftTRAPped", cls="gt-chip trap")] if g["trapped"] else []
        chips += placed.get(gift, [])
        slots.append(
            el(
                "div",
                table.card(g["card"], key=f"gift-{gift}", note=f"Gift {gift}: {g['name']}"),
                el("div", *chips, cls="gt-chips"),
                cls="gift-slot" + (" trapped" if g["trapped"] else ""),
            )
        )
    title = f"Gift grid: {pack_words(view['pack'])}" if view.get("pack") else "Gift grid"
    return table.zone(title, el("div", *slots, cls="gift-grid"))


def gift_trap_player(table: Table, view: Mapping[str, Any], seat: int, *_: Any) -> Html:
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
        parts += [
            el("h5", "GIVE tokens received"),
            gift_trap_received(table, view, seat),
            el("h5", "GET tokens"),
            gift_trap_gets(table, view, player),
        ]
    if view.get("expert_cards"):
        parts += [el("h5", "Expert cards"), gift_trap_expert(table, view, player)]
    return table.seat_panel(seat, *parts, stats=stats)


def gift_trap_expert(table: Table, view: Mapping[str, Any], player: Mapping[str, Any]) -> Html:
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
    cards = [
        ("Give More", give_more),
        ("Get More", get_more),
        ("GiftTRAP", trap),
    ]
    return el(
        "div",
        *(el("span", el("b", name), f": {text}", cls="gt-chip expert") for name, text in cards),
        cls="gt-chips",
    )


def moves_list(table: Table, moves: list[tuple[int, str]], count: int | None = None) -> Html:
    seats = list(dict.fromkeys(seat for seat, _ in moves))
    who = "you" if seats == [table.seat] else and_list([table.name(s) for s in seats])
    number = len(moves) if count is None else count
    count = f"{number} move" + ("s" if number != 1 else "")
    items = []
    for seat, label in moves:
        prefix = f"{table.name(seat)}: " if len(seats) > 1 else ""
        items.append(el("li", prefix + label))
    return el(
        "details",
        el("summary", f"What {who} may do ({count})"),
        el("ul", *items),
        cls="moves-list",
    )


REFERENCES: list[tuple[Any, str, Any]] = [
    *(
        (Table, name, globals()[f"kit_{name}"])
        for name in ("card", "back", "hidden", "row", "zone", "stat", "seat_panel", "table")
    ),
    *(
        (gift_trap, name, globals()[f"gift_trap{name}"])
        for name in (
            "_grid",
            "_player",
            "_tokens_on_grid",
            "_tracks",
            "_track",
            "_marker",
            "_reveal_steps",
            "_score_line",
            "_received",
            "_gets",
        )
    ),
    (tables, "_moves_list", moves_list),
    (gift_economy, "_hand", gift_economy_hand),
    (secret_santa, "_group", secret_santa_group),
]


def steps_drawn(game: str, players: int, seed: int, options: dict | None = None) -> Iterator[str]:
    """Every viewer's table (with the moves list) at sampled steps of one simulated game."""
    engine = get_engine(game)
    document = simulated_document(
        game, num_players=players, rng=random.Random(seed), simulated=False, options=options
    )
    names = HOSTILE[:players] if seed % 2 else document["players"]
    states = list(replay_states(engine, players, document["options"], document["events"]))
    rng = random.Random(seed)
    for step in sorted({0, len(states) - 1, *rng.sample(range(len(states)), min(14, len(states)))}):
        state = states[step]
        for seat in [None, *range(players)]:
            movers = [m for m in engine.to_move(state) if m != CHANCE and seat in (None, m)]
            moves = step_move_words(engine, state, movers, names)
            yield table_html(engine, state, seat=seat, players=names, moves=moves)
            view = engine.view(state, seat)
            table = Table(game, view, seat, names, engine.card_catalog(), waiting_for=movers)
            yield str(generic.draw(table))


GAMES = [
    *((engine.slug, engine.max_players, seed, None) for engine in all_engines() for seed in (1, 2)),
    ("gift_trap", 5, 3, {"expert_cards": True, "max_rounds": 3}),
    ("gift_economy", 3, 3, None),
    ("gift_gift_gone", 4, 3, None),
]


@pytest.mark.parametrize(("game", "players", "seed", "options"), GAMES)
def test_fast_helpers_draw_the_bytes_of_the_el_code(monkeypatch, game, players, seed, options):
    fast = list(steps_drawn(game, players, seed, options))
    for owner, name, reference in REFERENCES:
        monkeypatch.setattr(owner, name, reference)
    monkeypatch.setattr(kit, "el", el)  # the faces' memo is filled with Django's escaping too
    monkeypatch.setattr(kit, "_FACES", {})
    slow = list(steps_drawn(game, players, seed, options))
    assert len(fast) == len(slow) > 50
    for ours, theirs in zip(fast, slow, strict=True):
        assert ours == theirs
    if seed % 2:
        assert any("&lt;b&gt;Ana&lt;/b&gt; &amp; &quot;Co&quot;" in table for table in fast)


HOSTILE_CATALOG: dict[str, CardInfo] = {
    "a<1>": {"name": '<i>"Toy"</i>', "icon": "🎁&", "value": -2, "colour": "red", "text": "x&y"},
    "b'2": {"name": "O'Box", "icon": "", "value": None},
    "c3": {"name": "One", "icon": "1", "value": 1, "colour": None, "text": ""},
    "d4": {"name": "Gift", "icon": "<", "value": 0, "colour": 'a"b', "text": "<b>bold</b>"},
}


def faces(table: Table) -> list[str]:
    return [
        table.card(card, key=key, note=note, small=small, down=down)
        for card in HOSTILE_CATALOG
        for key in (None, "", "gift-<1>&'\"")
        for note in ("", "on <top> & 'more'")
        for small in (False, True)
        for down in (False, True)
    ]


def test_card_faces_drawn_once_are_the_faces_el_draws(monkeypatch):
    monkeypatch.setattr(kit, "_FACES", {})
    table = Table("x", {}, None, ["Ana"], HOSTILE_CATALOG)
    first, remembered = faces(table), faces(table)
    assert len(kit._FACES) == len(HOSTILE_CATALOG) * 4  # one per card, size and side
    monkeypatch.setattr(Table, "card", kit_card)
    assert first == remembered == faces(table)


def test_a_changed_catalog_entry_is_a_new_face(monkeypatch):
    monkeypatch.setattr(kit, "_FACES_MAX", 2)
    monkeypatch.setattr(kit, "_FACES", {})
    before = Table("x", {}, None, [], HOSTILE_CATALOG).card("c3")
    renamed = {"c3": {**HOSTILE_CATALOG["c3"], "name": "Two <2>"}}
    after = Table("x", {}, None, [], renamed).card("c3")
    assert ">One<" in before
    assert "Two &lt;2&gt;" in after
    assert "One" not in after
    for card in HOSTILE_CATALOG:
        Table("x", {}, None, [], HOSTILE_CATALOG).card(card)
        assert len(kit._FACES) <= 2  # bounded


@pytest.mark.parametrize(("game", "players", "seed", "options"), GAMES)
def test_the_tables_move_words_are_the_step_apis_labels(game, players, seed, options):
    """What a drawn table lists (``step_move_words``) is each move's seat and label as the
    step API gives them (``step_moves``), in the same order, for everyone and each seat."""
    engine = get_engine(game)
    document = simulated_document(
        game, num_players=players, rng=random.Random(seed), simulated=False, options=options
    )
    states = list(replay_states(engine, players, document["options"], document["events"]))
    listed = 0
    for state in states[:: max(1, len(states) // 40)]:
        for seat in [None, *range(players)]:
            movers = [m for m in engine.to_move(state) if m != CHANCE and seat in (None, m)]
            words = step_move_words(engine, state, movers, HOSTILE[:players])
            moves = step_moves(engine, state, movers, HOSTILE[:players], targets=False)
            assert words == [(move["seat"], move["label"]) for move in moves]
            listed += len(words)
    assert listed > 100
