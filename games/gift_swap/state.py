"""Gift Swap's position: the ``State`` class, the reason codes and the event fields.

A turn is a small queue of tasks so that every decision is its own event:
the active player's ``swap`` opens a ``choose`` task (both seats pick Keep or
Open in secret, any order), which resolves into ``place`` tasks (where a
received card goes is public) and then ``effect`` tasks (active player
first). Effects can push new tasks to the front (a Regift asks Keep/Open
again). The turn ends when the queue empties. See docs/rules/gift_swap.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from games.base import MALFORMED_EVENT, IllegalEvent
from games.gift_swap.cards import REGIFT, REWRAP, TRADE

ASIDE: Final = "aside"
KEEP: Final = "keep"
OPEN: Final = "open"
EFFECT_EVENTS: Final = ("decline", REGIFT, REWRAP, TRADE)

# Reason codes of this game.
BAD_DEAL: Final = "bad_deal"
WRONG_STEP: Final = "wrong_step"
NOT_YOUR_CARDS: Final = "not_your_cards"
NOT_ASCENDING: Final = "not_ascending"
CARD_FACE_UP: Final = "card_face_up"
CARD_FACE_DOWN: Final = "card_face_down"
NOT_AN_OPPONENT: Final = "not_an_opponent"
OWN_ROW: Final = "own_row"
WRONG_EFFECT: Final = "wrong_effect"

FIELDS: Final[dict[str, frozenset[str]]] = {
    "deal": frozenset({"order"}),
    "arrange": frozenset({"order"}),
    "swap": frozenset({"card", "with_seat", "with_card"}),
    "choose": frozenset({"choice"}),
    "place": frozenset({"pos"}),
    "decline": frozenset(),
    REGIFT: frozenset({"row", "card"}),
    REWRAP: frozenset({"row", "card"}),
    TRADE: frozenset({"row", "card"}),
    "flip": frozenset({"card"}),
}

# Tasks: ("choose", ((seat, card), ...), ((seat, choice), ...), ((seat, card), ...))
#        ("place", seat, card)      ("effect", seat, card)
Task = tuple[Any, ...]


class State:
    """One position. Never changed once ``_apply`` returns it: ``copy`` then set fields.

    Every field holds an immutable value, so the shallow copy is a safe one. A plain
    class with a field-by-field ``copy`` rather than a NamedTuple rebuilt per event:
    mypyc compiles it to a struct (see ``bin/compile_engines.py``), where a copy is a few
    native stores.
    """

    __slots__ = (
        "active",
        "arranged",
        "aside",
        "deck",
        "final",
        "flipped_any",
        "known",
        "last_choices",
        "n",
        "phase",
        "queue",
        "regift_own_row",
        "rows",
        "special",
        "start",
        "turn",
        "up",
    )

    n: int
    start: int
    phase: str  # deal, arrange, turn, special, over
    deck: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    aside: tuple[str, ...]
    up: frozenset[str]
    known: tuple[frozenset[str], ...]  # per seat: card ids it has seen
    arranged: tuple[bool, ...]
    turn: int  # normal turns completed
    active: int
    special: tuple[int, ...]  # seats still to flip under the special condition
    flipped_any: bool
    queue: tuple[Task, ...]
    last_choices: tuple[tuple[int, str], ...]
    final: tuple[int, ...] | None
    regift_own_row: bool  # option: a regift may take a face-down card of your own row

    def copy(self) -> State:
        """A shallow copy, spelled out field by field: it runs for every event."""
        new = State()
        new.n = self.n
        new.start = self.start
        new.phase = self.phase
        new.deck = self.deck
        new.rows = self.rows
        new.aside = self.aside
        new.up = self.up
        new.known = self.known
        new.arranged = self.arranged
        new.turn = self.turn
        new.active = self.active
        new.special = self.special
        new.flipped_any = self.flipped_any
        new.queue = self.queue
        new.last_choices = self.last_choices
        new.final = self.final
        new.regift_own_row = self.regift_own_row
        return new

    def _values(self) -> tuple[Any, ...]:
        return (
            self.n,
            self.start,
            self.phase,
            self.deck,
            self.rows,
            self.aside,
            self.up,
            self.known,
            self.arranged,
            self.turn,
            self.active,
            self.special,
            self.flipped_any,
            self.queue,
            self.last_choices,
            self.final,
            self.regift_own_row,
        )

    def __eq__(self, other: object) -> bool:
        """Equal positions are equal states (as they were when ``State`` was a NamedTuple)."""
        if not isinstance(other, State):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def _replace(self, **changes: Any) -> State:
        """A copy with some fields changed (as ``NamedTuple._replace``; tests use it)."""
        new = self.copy()
        for name, value in changes.items():
            setattr(new, name, value)
        return new


#: Every field an event of each type may have.
ALLOWED_FIELDS: Final[dict[str, frozenset[str]]] = {
    kind: frozenset({"by", "do"}) | fields for kind, fields in FIELDS.items()
}


def check_fields(event: Mapping[str, Any]) -> None:
    """Refuse an event holding a field its type does not have."""
    if event.keys() <= ALLOWED_FIELDS[event["do"]]:
        return
    # Field names as ``object``: a caller's mapping may hold non-string keys, and
    # compiled code checks a ``str`` variable's type.
    names_given: Iterable[object] = event
    extra = set(names_given) - {"by", "do"} - FIELDS[event["do"]]
    if extra:
        names = ", ".join(sorted(str(name) for name in extra))
        raise IllegalEvent(MALFORMED_EVENT, f"Unexpected field(s): {names}.")
