"""Result-only records for rating tests, and ratings computed directly with openskill."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from openskill.models import PlackettLuce

from replays.services import record_submit

START = dt.datetime(2026, 1, 1, 19, 30, tzinfo=dt.UTC)


def when(day: float) -> str:
    return (START + dt.timedelta(days=day)).isoformat()


def table(
    names: Sequence[str],
    scores: Sequence[int],
    *,
    day: float,
    game: str = "secret_santa",
    ranks: Sequence[int] | None = None,
    simulated: bool = False,
) -> dict[str, Any]:
    result: dict[str, Any] = {"scores": list(scores)}
    if ranks is not None:
        result["ranks"] = list(ranks)
    meta: dict[str, Any] = {"played_at": when(day)}
    if simulated:
        meta["simulated"] = True
    return {
        "format": "giftlog/1",
        "game": game,
        "options": {},
        "players": list(names),
        "meta": meta,
        "result": result,
    }


def store(document: dict[str, Any], user: Any = None):
    record, _created = record_submit(document=document, submitted_by=user)
    return record


def competition_ranks(scores: Sequence[int]) -> list[int]:
    return [1 + sum(other > score for other in scores) for score in scores]


def openskill_ratings(
    games: Iterable[tuple[Sequence[str], Sequence[int]]],
) -> dict[str, tuple[float, float]]:
    """(players, ranks) games applied in the order given, with openskill alone: (mu, sigma)."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    for names, ranks in games:
        teams = [[ratings.get(name) or model.rating()] for name in names]
        rated = model.rate(teams, ranks=list(ranks))
        for name, team in zip(names, rated, strict=True):
            ratings[name] = team[0]
    return {name: (r.mu, r.sigma) for name, r in ratings.items()}
