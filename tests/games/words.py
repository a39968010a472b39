"""Checks on events told in words (``describe``) and moves named (``label``).

Used by the conformance suite for every engine: no sentence is empty, none
falls back to JSON or card ids, none names a card the seat could not see
in the views around the event, and none calls the seat whose view it is by
its name (it is "you").
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

__all__ = ["card_ids_in", "check_labels", "check_sentence", "check_words"]

from games.base import SEAT_PLACEHOLDER, Engine, card_ids_in, seat_ref

JSONISH = re.compile(r'[{}\[\]"]|\bNone\b|\bTrue\b|\bFalse\b|\bby\b:|\bdo\b:')


def _word(text: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])" + re.escape(text) + r"(?![\w-])")


def names_in(text: str, names: Iterable[str]) -> set[str]:
    """Card names mentioned in ``text``; a longer name hides the shorter ones inside it."""
    found: set[str] = set()
    for name in sorted(set(names), key=len, reverse=True):
        pattern = _word(name)
        if pattern.search(text):
            found.add(name)
            text = pattern.sub(" ", text)
    return found


def check_sentence(
    engine: Engine, text: str, n: int, seat: int | None, visible: Iterable[Any], what: str
) -> None:
    catalog = engine.card_catalog()
    assert isinstance(text, str), f"{what}: not a string"
    assert text.strip(), f"{what}: empty"
    bare = SEAT_PLACEHOLDER.sub("Name", text)
    assert not JSONISH.search(bare), f"{what}: looks like JSON or code: {text!r}"
    for placeholder in SEAT_PLACEHOLDER.finditer(text):
        assert 0 <= int(placeholder.group(1)) < n, f"{what}: no seat {placeholder.group(0)}"
    ids = [card for card in catalog if _word(card).search(bare)]
    assert not ids, f"{what}: shows card ids {ids}: {text!r}"
    if seat is None:
        return
    # A seat's own view speaks to it: "you", never its name in the third person.
    assert seat_ref(seat) not in text, f"{what}: seat {seat} is not called 'you': {text!r}"
    seen_ids: set[str] = set()
    for value in visible:
        seen_ids |= card_ids_in(value, catalog)
    seen_names = {catalog[card]["name"] for card in seen_ids}
    all_names = {info["name"] for info in catalog.values()}
    leaked = names_in(bare, all_names) - seen_names
    assert not leaked, f"{what}: seat {seat} is told of {sorted(leaked)} it cannot see: {text!r}"


def check_words(
    engine: Engine, before: Any, event: dict, after: Any, n: int, step: int
) -> None:
    """The event at ``step`` told to everyone and to each seat; each seat's moves named."""
    for seat in [None, *range(n)]:
        text = engine.describe(event, seat, before=before, after=after)
        visible = [
            engine.event_view(event, seat, before=before),
            engine.view(before, seat),
            engine.view(after, seat),
        ]
        check_sentence(engine, text, n, seat, visible, f"step {step} told to seat {seat}")
        # The same event told without the states around it must be safe too.
        bare = engine.describe(event, seat)
        check_sentence(
            engine, bare, n, seat, [engine.event_view(event, seat)], f"step {step} (no state)"
        )
    json.dumps(engine.card_catalog())


def check_labels(engine: Engine, state: Any, n: int, step: int) -> None:
    """Every legal move of every seat to move has a label from that seat's view."""
    for seat in range(n):
        if seat not in engine.to_move(state):
            continue
        seen = engine.view(state, seat)
        labels = set()
        for event in engine.legal_events(state, seat):
            text = engine.label(event, seat, state)
            visible = [seen, engine.event_view(event, seat, before=state)]
            check_sentence(engine, text, n, seat, visible, f"step {step} move {event}")
            labels.add(text)
        moves = engine.legal_events(state, seat)
        assert engine.labels(moves, seat, state) == [
            engine.label(event, seat, state) for event in moves
        ], f"step {step}: labels() of seat {seat}'s moves differ from their label()"
        assert len(labels) == len(moves), (
            f"step {step}: seat {seat}'s {len(moves)} moves have only {len(labels)} labels; "
            "two different moves must read differently"
        )
