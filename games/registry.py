"""The registry of engines, keyed by slug.

Each engine module exposes a module-level ``ENGINE`` instance; this registry
imports the modules listed below. Adding a game is one line here plus its
module: nothing outside ``games/`` needs code for a new game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from importlib import import_module
from typing import Any, Protocol, cast

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


class ResultRules(Protocol):
    """A game's ``results`` module: what its rules say of final scores alone.

    ``result_check`` raises :class:`games.base.ImpossibleResult` for scores (with
    their competition ranks, 1 = best) that no game by these rules ends with;
    ``plausible_scores`` is the range a score of a real game lies in, short of
    the rules' hard bounds (``Engine.score_bounds``): a score outside it is
    possible but unusual, often a typing error.
    """

    def result_check(
        self, scores: Sequence[int], ranks: Sequence[int], options: Mapping[str, Any]
    ) -> None: ...

    def plausible_scores(self, num_players: int, options: Mapping[str, Any]) -> tuple[int, int]: ...


@cache
def _result_rules() -> dict[str, ResultRules]:
    rules: dict[str, ResultRules] = {}
    for module_name in ENGINE_MODULES:
        slug = import_module(module_name).ENGINE.slug
        rules[slug] = cast(ResultRules, import_module(f"{module_name}.results"))
    return rules


def result_rules(slug: str) -> ResultRules:
    """The ``results`` module of the game ``slug``; raises :class:`UnknownGame` if none."""
    try:
        return _result_rules()[slug]
    except (KeyError, TypeError):
        raise UnknownGame(slug) from None


def engine_slugs() -> list[str]:
    return list(_engines())


def all_engines() -> list[Engine]:
    return list(_engines().values())
