"""Game names and house-rule words, as every page says them.

Pages of every app name a game ("Gift Swap", never ``gift_swap``) and tell a record's
house rules in words; both read only the engines' registry, so they live on the ground
floor where replays, clubs and analytics all reach them.
"""

from __future__ import annotations

import re
from typing import Any

from core.errors import BadRequest
from games.base import Engine, InvalidSetup, options_resolve
from games.registry import UnknownGame, all_engines, get_engine


def game_name(slug: str) -> str:
    try:
        return get_engine(slug).name
    except UnknownGame:
        return slug.replace("_", " ").title()


def variant_words(game: str, options: dict[str, Any]) -> str:
    """'max rounds: 15; deal fallback: first player': options unlike today's defaults."""
    try:
        declared = get_engine(game).options
    except UnknownGame:
        return ""
    parts = []
    for option in declared:
        value = options.get(option.name, option.default)
        if value != option.default:
            parts.append(f"{option.name.replace('_', ' ')}: {_value_words(value)}")
    return "; ".join(parts)


def _value_words(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(map(_value_words, value))
    return str(value).replace("_", " ")


def game_slug_find(text: str) -> str | None:
    """The slug of the game called ``text``: its slug or its name, in any case or spacing.

    People write "Gift Swap", "gift swap" or "GiftTRAP"; programs write ``gift_swap``.
    """
    key = _name_key(text)
    for engine in all_engines():
        if key in (_name_key(engine.slug), _name_key(engine.name)):
            return engine.slug
    return None


def _name_key(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.casefold())


def game_rules_resolve(game: Any, options: Any) -> tuple[Engine, dict[str, Any]]:
    """A game and its house rules as a league or an event keeps them.

    The options in full, defaults filled in (``options_resolve``: the same spelling
    for the same rules), and playable at the game's largest table: rules no table
    could play (a Gifted Zone longer than the track) are refused once, here, not at
    every record entered later. Refusals are the API's 400s (``unknown_game``,
    ``invalid_setup`` with the option's field and the engine's reason).
    """
    try:
        engine = get_engine(game)
    except UnknownGame as exc:
        raise BadRequest("unknown_game", f"There is no game {game!r}.", field="game") from exc
    try:
        resolved = options_resolve(engine, options)
        engine.setup(engine.max_players, resolved)
    except InvalidSetup as exc:
        raise BadRequest(
            "invalid_setup", exc.message, **{"field": "options", **exc.detail, "reason": exc.code}
        ) from exc
    return engine, resolved
