"""The table of a game without a drawing module: its cards, grouped as the view groups them.

Crude but honest: every card in the view is drawn where the view puts it, and a
player's entry becomes their place at the table. A game's own module replaces it.
"""

from __future__ import annotations

from typing import Any

from replays.tables.kit import Html, Table


def _cards_in(table: Table, value: Any) -> list[str]:
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str) and item in table.catalog:
            found.append(item)
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return found


def draw(table: Table) -> Html:
    parts: list[Html] = []
    players = table.view.get("players")
    if isinstance(players, list):
        for seat, entry in enumerate(players):
            cards = _cards_in(table, entry)
            parts.append(table.seat_panel(seat, table.row(*(table.card(c) for c in cards))))
    for key, value in table.view.items():
        if key == "players":
            continue
        cards = _cards_in(table, value)
        if cards:
            title = key.replace("_", " ").capitalize()
            parts.append(table.zone(title, table.row(*(table.card(c) for c in cards))))
    return table.table(*parts)


TARGET_READS_VIEW = False  # ``target`` reads the event only


def target(event: dict[str, Any], view: dict[str, Any]) -> str | None:
    return None
