"""Derived data: rebuilt from records, never a second source of truth."""

from __future__ import annotations

from django.db import models

from replays.models import Player, Record


class PlayerResult(models.Model):
    """One seat's outcome in one record: the row every statistic aggregates.

    Unique per (record, seat), so ingesting a record twice changes nothing.
    """

    record = models.ForeignKey(Record, on_delete=models.CASCADE, related_name="player_results")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="results")
    game = models.CharField(max_length=32)
    num_players = models.PositiveSmallIntegerField()
    score = models.IntegerField()
    rank = models.PositiveSmallIntegerField()
    won = models.BooleanField()
    # The rules variant: a digest of the record's full options, so statistics can
    # be split by house rules (see replays.giftlog.options_key).
    variant = models.CharField(max_length=16, default="", db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["record", "seat"], name="player_result_unique_seat"),
        ]
        indexes = [models.Index(fields=["game", "player"])]


class GameSummary(models.Model):
    """Per-game snapshot for dashboards, recomputed from PlayerResult rows."""

    game = models.CharField(max_length=32, unique=True)
    games = models.PositiveIntegerField(default=0)
    players = models.JSONField(default=list)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "game summaries"
