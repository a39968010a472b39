"""Reads for dashboards."""

from __future__ import annotations

from django.db.models import Count

from analytics.models import GameSummary, PlayerResult
from replays.models import Record


def game_summary_get(*, game: str) -> GameSummary | None:
    return GameSummary.objects.filter(game=game).first()


def game_final_scores(*, game: str) -> list[tuple[int, int]]:
    """(number of players, final score) for every seat of every record of the game."""
    return list(
        PlayerResult.objects.filter(game=game).order_by("id").values_list("num_players", "score")
    )


def game_record_counts() -> dict[str, int]:
    rows = Record.objects.values("game").annotate(n=Count("id")).order_by()
    return {row["game"]: row["n"] for row in rows}
