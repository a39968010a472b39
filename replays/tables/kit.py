"""The drawing kit: what a game's drawing module builds a table with.

A drawing module (``replays/tables/<slug>.py``) turns one view of one step into
HTML. It gets a :class:`Table`: the engine's ``view`` for the viewer (never the
raw state, so a page cannot draw what the seat may not see), the card catalog,
the player names and whose turn it is. It builds HTML with the kit's helpers,
which escape everything (as ``format_html`` does, and write what is beyond ASCII as
character references: ``ascii_html``), so a drawing module writes markup
by string concatenation only in a hot loop, in a small helper that escapes every value
with :func:`esc` and says why in its docstring (a step's first visit draws the table
while the visitor waits; an 8-player table has ~700 elements). Each such helper has a
reference built with :func:`el` in ``tests/replays/test_table_fast_helpers.py``, which
compares their bytes on many drawn states with hostile names.

Every card face a module draws carries ``data-card="<id>"``; every element a
move can act on carries ``data-key="<key>"``, and the module's ``target(event,
view)`` gives the key a legal event acts on, so live play can make cards
clickable without knowing the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape as escape_html
from typing import Any

from django.utils.safestring import SafeString

from games.base import CardInfo

Html = SafeString


def _safe(value: Any) -> str:
    """``value`` as HTML: a safe fragment as it is, anything else escaped.

    Django's ``conditional_escape`` (``escape`` is ``html.escape`` of ``str(value)``),
    what is beyond ASCII then written as character references (``ascii_html``), without
    its lazy-string wrappers: a long game's table holds thousands of elements, and the
    wrappers were most of drawing it. Plain strings (most of a table's text and classes)
    are escaped through ``_escaped``.
    """
    kind = type(value)
    if kind is SafeString:
        return value
    if kind is str:
        return _escaped(value)
    html = getattr(value, "__html__", None)
    return html() if html is not None else ascii_html(escape_html(str(value)))


# Escaped plain strings, remembered: a table repeats the same classes, labels and names
# hundreds of times (an 8-player GiftTRAP table has ~650 elements). Bounded, in two
# generations: when the young one is full it becomes the old one (the one before is
# dropped), and a string found only in the old one is made young again. So a full memo
# keeps what every table says (its classes, its labels) and drops what one record's
# tables said (its names, its score lines: ~65 new strings a first visit of everyone's
# GiftTRAP table). Emptied whole when full, as it was, it left the next visits to escape
# everything again: 1.7-2.7 ms against ~1 ms, once every ~125 first visits.
_ESCAPED: dict[str, str] = {}
_ESCAPED_OLD: dict[str, str] = {}
_ESCAPED_MAX = 8192


def _escaped(text: str) -> str:
    global _ESCAPED, _ESCAPED_OLD
    found = _ESCAPED.get(text)
    if found is None:
        found = _ESCAPED_OLD.get(text)
        if found is None:
            found = ascii_html(escape_html(text))
        if len(_ESCAPED) >= _ESCAPED_MAX:
            _ESCAPED_OLD, _ESCAPED = _ESCAPED, {}
        _ESCAPED[text] = found
    return found


def ascii_html(html: str) -> str:
    """``html`` with every character beyond ASCII written as a numeric character
    reference (``🎁`` as ``&#127873;``): the same text to a browser, in an attribute or
    between tags.

    A drawn table is kept ASCII because Python stores a string at the width of its widest
    character: one emoji (a GiftTRAP gift's pack icon, a card back, a name) made every
    string holding it four bytes a character, and a table is built by joining its parts
    level by level, so an 8-player GiftTRAP table (~40,000 characters) was copied about
    five times at 160 KB each, and encoded to UTF-8 character by character rather than
    copied. Escaped strings are remembered (``_escaped``), so each is converted once.
    """
    return html if html.isascii() else html.encode("ascii", "xmlcharrefreplace").decode("ascii")


# Attribute names as written in HTML: ``data_key`` is ``data-key``, ``for_`` is ``for``.
# Python identifiers hold nothing ``html.escape`` changes, so the name needs no escaping.
_NAMES: dict[str, str] = {}


def _attribute(name: str) -> str:
    found = _NAMES.get(name)
    if found is None:
        found = _NAMES[name] = name.rstrip("_").replace("_", "-")
    return found


def join(parts: Iterable[Html | str], sep: str = "") -> Html:
    """Concatenate already-safe fragments (plain strings are escaped)."""
    return SafeString(sep.join([_safe(part) for part in parts]))


def esc(value: Any) -> str:
    """``value`` as HTML text or attribute value, exactly as :func:`el` writes it: a safe
    fragment as it is, anything else escaped (plain strings through a bounded memo).

    For the fast helpers that write markup with f-strings: escape each value once.
    """
    if type(value) is str:
        found = _ESCAPED.get(value)
        return found if found is not None else _escaped(value)
    return _safe(value)


def attribute(name: str, value: Any) -> str:
    """`` name="value"`` as :func:`el` writes an attribute: nothing for ``None`` or
    ``False``, an empty value for ``True``, else the value escaped."""
    if value is None or value is False:
        return ""
    return f' {name}=""' if value is True else f' {name}="{esc(value)}"'


def el(tag: str, *children: Html | str, cls: str = "", **attrs: Any) -> Html:
    """``<tag class=... attr=...>children</tag>``; ``data_key`` becomes ``data-key``.

    Attributes whose value is ``None`` or ``False`` are left out. Written for speed
    (a table calls it hundreds of times; a step's first visit draws one): the same
    bytes as ``format_html`` with ``conditional_escape`` of every part
    (``tests/replays/test_step_first_visit.py`` compares them).
    """
    head = f'<{tag} class="{esc(cls)}"' if cls else f"<{tag}"
    if attrs:
        for name, value in attrs.items():
            if value is None or value is False:
                continue
            head += f' {_attribute(name)}="{"" if value is True else esc(value)}"'
    if not children:
        return SafeString(f"{head}></{tag}>")
    return SafeString(f"{head}>{inner(children)}</{tag}>")


def inner(children: Sequence[Html | str]) -> str:
    """``children`` as :func:`el` writes them inside a tag: safe fragments as they are,
    anything else escaped."""
    if len(children) == 1:
        child = children[0]
        return child if type(child) is SafeString else esc(child)
    return "".join([child if type(child) is SafeString else esc(child) for child in children])


def points(value: int) -> str:
    """'1 point', '3 points', '-2 points'."""
    return f"{value} point" if abs(value) == 1 else f"{value} points"


# Card faces, drawn once: a game's cards are a fixed set (its catalog, a module
# constant), and a table draws the same faces step after step. Keyed by the card, its
# catalog entry (kept in the value, so its ``id`` is never another entry's) and the
# side; bounded like ``_ESCAPED``.
_FACES: dict[tuple[str, int, bool, bool], tuple[Mapping[str, Any], str, str]] = {}
_FACES_MAX = 4096


def _card_face(card: str, info: Mapping[str, Any], small: bool, down: bool) -> tuple[str, str]:
    """The face of ``card`` as ``(head, tail)``: ``head`` is the opening tag up to its
    ``data-card``, ``tail`` the ``title`` and the face's lines; :meth:`Table.card` puts the
    ``data-key`` between them and the note after (the same bytes as one ``el`` call)."""
    memo = (card, id(info), small, down)
    found = _FACES.get(memo)
    if found is not None and found[0] is info:
        return found[1], found[2]
    name, icon, value = info["name"], info.get("icon", ""), info.get("value")
    colour, text = info.get("colour"), info.get("text", "")
    classes = ["card", f"colour-{colour}" if colour else "colour-none"]
    if small:
        classes.append("small")
    if down:
        classes.append("known-down")
    lines: list[Html | str] = [
        el("span", icon, cls="icon", aria_hidden="true"),
        el("span", name, cls="name"),
    ]
    if value is not None:
        lines.append(el("span", points(value), cls="value"))
    if colour:
        lines.append(el("span", colour, cls="colour"))
    if down:
        lines.append(el("span", "face down", cls="ribbon"))
    title = " · ".join(
        part
        for part in (name, points(value) if value is not None else "", colour or "", text)
        if part
    )
    head = f'<div class="{esc(" ".join(classes))}" data-card="{esc(card)}"'
    tail = f' title="{esc(title)}">' + "".join(lines)
    if len(_FACES) >= _FACES_MAX:
        _FACES.clear()
    _FACES[memo] = (info, head, tail)
    return head, tail


@dataclass
class Table:
    """One step of one game, as one viewer may see it."""

    game: str
    view: dict[str, Any]
    seat: int | None
    players: Sequence[str]
    catalog: Mapping[str, CardInfo]
    to_move: Sequence[Any] = ()
    waiting_for: Sequence[Any] = ()
    scores: Sequence[int] | None = None
    is_over: bool = False
    result: Mapping[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    # -- names -----------------------------------------------------------------
    def name(self, seat: int) -> str:
        """The player's name, with "(you)" for the viewer's own seat."""
        name = self.players[seat] if 0 <= seat < len(self.players) else f"Seat {seat + 1}"
        return f"{name} (you)" if seat == self.seat else name

    def card_name(self, card: str) -> str:
        info = self.catalog.get(card)
        return info["name"] if info else "a card"

    # -- cards -------------------------------------------------------------------
    def card(
        self,
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
        found = _FACES.get((card, id(info), small, down))  # _card_face inlined: ~100 a table
        if found is not None and found[0] is info:
            head, tail = found[1], found[2]
        else:
            head, tail = _card_face(card, info, small, down)
        keyed = "" if key is None else attribute("data-key", key)
        noted = f'<span class="note">{esc(note)}</span>' if note else ""
        return SafeString(f"{head}{keyed}{tail}{noted}</div>")

    def back(self, colour: str | None = None, *, key: str | None = None, label: str = "") -> Html:
        """A card back: shows only its colour (as a word too) and an optional label."""
        words = esc(label or (f"{colour} back" if colour else "face down"))
        classes = esc(f"card back colour-{colour or 'none'}")
        return SafeString(
            f'<div class="{classes}"{attribute("data-key", key)} title="{words}">'
            f'<span class="icon" aria-hidden="true">&#127873;</span>'
            f'<span class="back-label">{words}</span></div>'
        )

    def hidden(self, count: int, *, label: str = "cards") -> Html:
        """A face-down pile of ``count`` cards nobody here may see."""
        return SafeString(
            '<div class="card back pile"><span class="icon" aria-hidden="true">&#127136;</span>'
            f'<span class="back-label">{esc(f"{count} {label}")}</span></div>'
        )

    def row(self, *cards: Html, cls: str = "") -> Html:
        """Cards side by side, wrapping on a narrow screen."""
        return SafeString(f'<div class="{esc(f"cards {cls}".strip())}">{inner(cards)}</div>')

    # -- layout ------------------------------------------------------------------
    def zone(self, title: str, *content: Html | str, cls: str = "") -> Html:
        """A labelled area of the table (a pile, a track, the Unexpected guest)."""
        return SafeString(
            f'<section class="{esc(f"zone {cls}".strip())}"><h4>{esc(title)}</h4>'
            f"{inner(content)}</section>"
        )

    def stat(self, label: str, value: Any) -> Html:
        """``<span class="stat"><b>label</b> value</span>``: f-string, a table has dozens."""
        return SafeString(f'<span class="stat"><b>{esc(label)}</b> {esc(str(value))}</span>')

    def seat_panel(self, seat: int, *content: Html | str, stats: Sequence[Html] = ()) -> Html:
        """One player's place at the table; marked when it is their turn."""
        turn = seat in self.waiting_for
        badge = '<span class="turn-badge">to move</span>' if turn else ""
        shown = f'<div class="stats">{inner(stats)}</div>' if stats else ""
        cls = "seat" + (" active" if turn else "") + (" mine" if seat == self.seat else "")
        return SafeString(
            f'<section class="{cls}" data-seat="{esc(str(seat))}">'
            f"<h3>{esc(self.name(seat))}{badge}</h3>{shown}{inner(content)}</section>"
        )

    def table(self, *content: Html | str) -> Html:
        """The outermost element of every drawn table."""
        game = esc(self.game)
        return SafeString(
            f'<div class="{esc(f"table table-{self.game}")}" data-game="{game}">'
            f"{inner(content)}</div>"
        )
