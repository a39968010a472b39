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


# Gift Gift Gone by default: its game can end with any scores within its bounds, ties
# for first included (Secret Santa's cannot: it goes on while the top is tied, and
# until someone has 25), so the rating tests can say any finishing order.
def table(
    names: Sequence[str],
    scores: Sequence[int],
    *,
    day: float,
    game: str = "gift_gift_gone",
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


def santa(names: Sequence[str], scores: Sequence[int], *, day: float) -> dict[str, Any]:
    """A Secret Santa table (a club league's game) whose ``scores`` say how far past 24
    each seat got: the game ends once one player alone has 25 or more."""
    return table(names, [24 + score for score in scores], day=day, game="secret_santa")


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
