"""Reads for dashboards."""

from __future__ import annotations

from typing import Any

from django.db.models import Avg, Count, Min, Q, QuerySet

from analytics.models import GameSummary, PlayerResult
from replays.models import Record


def game_summary_get(*, game: str) -> GameSummary | None:
    return GameSummary.objects.filter(game=game).first()


def game_final_scores(*, game: str, variant: str | None = None) -> list[tuple[int, int]]:
    """(number of players, final score) for every seat of every record of the game."""
    rows = PlayerResult.objects.filter(game=game)
    if variant is not None:
        rows = rows.filter(variant=variant)
    return list(rows.order_by("id").values_list("num_players", "score"))


def game_variants(*, game: str) -> list[dict[str, Any]]:
    """The rules variants a game's records were played under, most played first.

    Each: its key, how many records, and the options of one of its records (the
    options are the same for every record of a variant).
    """
    rows = (
        PlayerResult.objects.filter(game=game, seat=0)
        .values("variant")
        .annotate(records=Count("id"), sample=Min("record_id"))
        .order_by("-records", "variant")
    )
    samples = dict(
        Record.objects.filter(pk__in=[row["sample"] for row in rows]).values_list("pk", "options")
    )
    return [
        {
            "key": row["variant"],
            "records": row["records"],
            "options": samples.get(row["sample"], {}),
        }
        for row in rows
    ]


def variant_record_ids(*, variant: str) -> QuerySet[PlayerResult]:
    """The ids of the records played under one rules variant (a subquery, not a list)."""
    return PlayerResult.objects.filter(variant=variant, seat=0).values("record")


def variant_players(*, game: str, variant: str) -> list[dict[str, Any]]:
    """The players table of one variant: games, wins, average score (one GROUP BY)."""
    rows = (
        PlayerResult.objects.filter(game=game, variant=variant)
        .values("player__name")
        .annotate(games=Count("id"), wins=Count("id", filter=Q(won=True)), average=Avg("score"))
        .order_by("-wins", "-average", "player__name")
    )
    return [
        {
            "player": row["player__name"],
            "games": row["games"],
            "wins": row["wins"],
            "average_score": round(float(row["average"]), 2),
        }
        for row in rows
    ]


def game_record_counts() -> dict[str, int]:
    rows = Record.objects.values("game").annotate(n=Count("id")).order_by()
    return {row["game"]: row["n"] for row in rows}
