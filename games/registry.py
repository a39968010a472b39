"""The registry of engines, keyed by slug.

Each engine module exposes a module-level ``ENGINE`` instance; this registry
imports the modules listed below. Adding a game is one line here plus its
module: nothing outside ``games/`` needs code for a new game.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module

from games.base import Engine

ENGINE_MODULES: tuple[str, ...] = (
    "games.secret_santa",
    "games.gift_economy",
    "games.gift_trap",
    "games.gift_gift_gone",
    "games.gift_swap",
)


class UnknownGame(LookupError):
    def __init__(self, slug: object) -> None:
        super().__init__(f"Unknown game {slug!r}; known games: {', '.join(engine_slugs())}.")
        self.slug = slug


@cache
def _engines() -> dict[str, Engine]:
    engines: dict[str, Engine] = {}
    for module_name in ENGINE_MODULES:
        engine = import_module(module_name).ENGINE
        engines[engine.slug] = engine
    return engines


def get_engine(slug: str) -> Engine:
    """The engine for ``slug``; raises :class:`UnknownGame` if there is none."""
    try:
        return _engines()[slug]
    except (KeyError, TypeError):
        raise UnknownGame(slug) from None


def engine_slugs() -> list[str]:
    return list(_engines())


def all_engines() -> list[Engine]:
    return list(_engines().values())
