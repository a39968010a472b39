"""Analytics' answers to replays' signals: rows kept per player follow a player merge."""

from __future__ import annotations

from typing import Any

from analytics.models import PlayerResult
from replays.signals import players_merged


def _player_results_move(sender: Any, keep: Any, merged_ids: list[int], **kwargs: Any) -> None:
    """Inside the merge's transaction: the merged players' results become ``keep``'s."""
    PlayerResult.objects.filter(player_id__in=merged_ids).update(player=keep)


def connect() -> None:
    players_merged.connect(_player_results_move, dispatch_uid="analytics.player_results_move")
