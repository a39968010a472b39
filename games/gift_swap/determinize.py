"""Gift Swap states one seat cannot tell from the real one (determinization).

A seat never forgets a card it has seen (``State.known``), and its view names every
such card wherever it lies, so the view now holds every card identity the seat
knows: the cards it does not see are dealt into the face-down slots it cannot read.
Two things more are kept:

* rows are in ascending order once arranged (Party Props anywhere), so a hidden
  card goes only between the known values around it, and the hidden cards of one
  stretch of a row are laid out ascending;
* a swap or a Regift waiting on Keep/Open (and then on placing) moves cards the
  seat may not see: which slots they are in is told by that event in the history,
  and the others' choices not yet revealed are drawn at random.

What an earlier placing told about a hidden card's value (it went between a 2 and a
4) is not carried once those cards have moved on; only the current order counts.
"""

from __future__ import annotations

import random
from typing import Any

from games.base import SeatHistory
from games.determinize import deal_hidden
from games.gift_swap.cards import ALL_IDS, REGIFT, VALUE
from games.gift_swap.state import ASIDE, KEEP, OPEN, State, Task

# A slot: (row, index), the row a seat number or "aside".
Slot = tuple[int | str, int]
# A hidden zone: (row, first index, end index, low value, high value, laid out ascending).
Zone = tuple[Any, ...]


class GiftSwapDeterminizer:
    """One seat's knowledge of a Gift Swap position, read from its history."""

    def __init__(self, history: SeatHistory) -> None:
        view = history.view
        self.history = history
        self.view = view
        self.seat = history.seat
        self.n = history.num_players
        rows: list[list[str | None]] = [[s["card"] for s in row] for row in view["rows"]]
        aside: list[str | None] = [s["card"] for s in view["set_aside"]]
        self.rows, self.aside = rows, aside
        self.up = frozenset(
            s["card"] for row in (*view["rows"], view["set_aside"]) for s in row if s["up"]
        )
        seen = {c for row in (*rows, aside) for c in row if c is not None}
        self.known = frozenset(seen)
        self.unseen = [c for c in ALL_IDS if c not in seen] if view["phase"] != "deal" else []
        # Hidden cards a pending task moves: their slots, from the event that made it.
        self.moved = _moved_slots(history) if view["queue"] else {}
        pending: set[Slot] = set()
        for task in view["queue"]:
            if task["task"] == "choose":
                pending.update(self.moved.values())
            elif task["task"] == "place":
                if task["card"] is None:
                    pending.add(next(s for s in self.moved.values() if s[0] == task["seat"]))
                else:
                    pending.add((task["seat"], rows[task["seat"]].index(task["card"])))
        zones: dict[Zone, int] = {}
        self.zone_slots: dict[Zone, list[Slot]] = {}
        for seat, row in enumerate(rows):
            ordered = view["arranged"][seat]
            for zone, slots in _zones(seat, row, ordered, pending):
                zones[zone] = len(slots)
                self.zone_slots[zone] = slots
        hidden_aside: list[Slot] = [(ASIDE, i) for i, c in enumerate(aside) if c is None]
        if hidden_aside:
            zone = (ASIDE, 0, len(aside), 0, 99, False)
            zones[zone] = len(hidden_aside)
            self.zone_slots[zone] = hidden_aside
        self.zones = zones
        self.free: list[str] = []
        self.placed: dict[str, frozenset[Zone]] = {}
        for card in self.unseen:
            value = VALUE[card]
            allowed = frozenset(z for z in zones if value is None or z[3] <= value <= z[4])
            if len(allowed) == len(zones):
                self.free.append(card)
            else:
                self.placed[card] = allowed

    def sample(self, rng: random.Random) -> State:
        view = self.view
        rows = [list(r) for r in self.rows]
        aside = list(self.aside)
        dealt = deal_hidden(self.zones, self.free, self.placed, rng)
        for zone, cards in dealt.items():
            slots = self.zone_slots[zone]
            if zone[5]:  # a stretch of an ordered row
                cards = _ascending(cards, rng)
            for (row, index), card in zip(slots, cards, strict=True):
                if row == ASIDE:
                    aside[index] = card
                else:
                    assert isinstance(row, int)
                    rows[row][index] = card
        full_rows = tuple(tuple(_full(r)) for r in rows)
        full_aside = tuple(_full(aside))

        def card_at(slot: Slot) -> str:
            row, index = slot
            return full_aside[index] if row == ASIDE else full_rows[int(row)][index]

        new = State()
        new.n = self.n
        new.start = view["start_player"]
        new.phase = view["phase"]
        new.deck = ALL_IDS if view["phase"] == "deal" else ()
        new.rows = full_rows
        new.aside = full_aside
        new.up = self.up
        known = [self.up | frozenset(row) for row in full_rows]
        known[self.seat] = self.known
        new.known = tuple(known)
        new.arranged = tuple(view["arranged"])
        new.turn = view["turns_played"]
        new.active = view["active"]
        new.special = tuple(view["special_condition_left"])
        new.flipped_any = view["flipped_any"]
        new.queue = tuple(
            _task(task, self.seat, self.moved, card_at, rng) for task in view["queue"]
        )
        new.last_choices = tuple((c["seat"], c["choice"]) for c in view["last_choices"])
        new.final = tuple(view["result"]["scores"]) if "result" in view else None
        new.regift_own_row = self.history.options["regift_own_row"]
        return new


def _zones(
    seat: int, row: list[str | None], ordered: bool, pending: set[Slot]
) -> list[tuple[Zone, list[Slot]]]:
    """The hidden stretches of one row, each with the values its cards may have.

    An arranged row is ascending apart from a card a task is about to place again: its
    hidden cards lie between the known values around them. A row not yet arranged is in
    dealt order: one stretch, any value. A slot a pending task moves is a zone of its own.
    """
    out: list[tuple[Zone, list[Slot]]] = []
    for index in range(len(row)):
        if row[index] is None and (seat, index) in pending:
            out.append(((seat, -1 - index, -1 - index, 0, 99, False), [(seat, index)]))
    if not ordered:
        slots: list[Slot] = [
            (seat, i) for i, c in enumerate(row) if c is None and (seat, i) not in pending
        ]
        return [*out, ((seat, 0, len(row), 0, 99, False), slots)] if slots else out
    low, start = 0, 0
    current: list[Slot] = []
    settled = [(i, c) for i, c in enumerate(row) if (seat, i) not in pending]
    for i, card in settled:
        if card is None:
            if not current:
                start = i
            current.append((seat, i))
            continue
        value = VALUE[card]
        if value is None:
            continue
        if current:
            out.append(((seat, start, i, low, value, True), current))
            current = []
        low = max(low, value)
    if current:
        out.append(((seat, start, len(row), low, 99, True), current))
    return out


def _ascending(cards: list[str], rng: random.Random) -> list[str]:
    """Hidden cards of one stretch in a legal order: values ascending, Party Props anywhere."""
    valued = sorted((c for c in cards if VALUE[c] is not None), key=lambda c: (VALUE[c], c))
    out: list[str] = list(valued)
    # Equal values in either order, Party Props at random places among them.
    for k in range(len(out) - 1):
        if VALUE[out[k]] == VALUE[out[k + 1]] and rng.random() < 0.5:
            out[k], out[k + 1] = out[k + 1], out[k]
    for prop in (c for c in cards if VALUE[c] is None):
        out.insert(rng.randrange(len(out) + 1), prop)
    return out


def _moved_slots(history: SeatHistory) -> dict[tuple[int, int], Slot]:
    """Slots of the cards the last swap or Regift moved, by (task kind index, entry).

    Keys: ``(0, k)`` the k-th received card of the choose task, ``(1, k)`` the k-th
    extra card (placed after the choice). Only hidden cards need them; a card the
    seat sees is named in its task.
    """
    for k in range(len(history.events) - 1, -1, -1):
        event = history.events[k]
        kind = event.get("do")
        if kind == "swap":
            by, other = event["by"], event["with_seat"]
            return {(0, 0): (by, event["card"]), (0, 1): (other, event["with_card"])}
        if kind == REGIFT:
            by, row, index = event["by"], event["row"], event["card"]
            if row == by:
                return {(0, 0): (by, index)}
            before = history.views[k]
            own = before["queue"][0]["card"]  # the Regift card: face up, so named
            at = [slot["card"] for slot in before["rows"][by]].index(own)
            out: dict[tuple[int, int], Slot] = {(0, 0): (by, at)}
            if row != ASIDE:
                out[(1, 0)] = (row, index)
            return out
    return {}


def _task(
    task: dict[str, Any],
    me: int,
    moved: dict[tuple[int, int], Slot],
    card_at: Any,
    rng: random.Random,
) -> Task:
    """One task of the queue from its view, hidden cards read from the sampled slots."""
    kind = task["task"]
    if kind == "choose":
        received = tuple((seat, card_at(moved[(0, k)])) for k, seat in enumerate(task["seats"]))
        picks = tuple(
            (seat, task["my_choice"] if seat == me else rng.choice((KEEP, OPEN)))
            for seat in task["chosen"]
        )
        extra = tuple((slot[0], card_at(slot)) for key, slot in moved.items() if key[0] == 1)
        return ("choose", received, picks, extra)
    card = task["card"]
    if card is None:
        slot = next(s for s in moved.values() if s[0] == task["seat"])
        card = card_at(slot)
    return (kind, task["seat"], card)


def _full(cards: list[str | None]) -> list[str]:
    assert all(c is not None for c in cards)
    return [c for c in cards if c is not None]
