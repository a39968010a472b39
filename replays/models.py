"""Stored game records, their players, and the outbox that announces them."""

from __future__ import annotations

from django.db import models


class Player(models.Model):
    """A person or program, known by the name used in giftlog ``players``."""

    name = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Record(models.Model):
    """One complete, validated game in the giftlog/1 format.

    ``events`` is the source of truth; ``result`` is what the engine computed
    from it when the record was stored (a cache that the engine can rebuild).
    ``digest`` is the identity of the game: two uploads of the same game are the
    same record.
    """

    game = models.CharField(max_length=32, db_index=True)
    digest = models.CharField(max_length=64, unique=True)
    options = models.JSONField(default=dict)
    meta = models.JSONField(default=dict)
    events = models.JSONField(default=list)
    result = models.JSONField(default=dict)
    num_events = models.PositiveIntegerField()
    players = models.ManyToManyField(Player, through="Seat", related_name="records")
    played_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["game", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.game} #{self.pk}"


class Seat(models.Model):
    """Who sat where: ``players`` of a giftlog, in seat order."""

    record = models.ForeignKey(Record, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    seat = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["record", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["record", "seat"], name="seat_unique_per_record"),
        ]


class Announcement(models.Model):
    """Transactional outbox: written with the record, dispatched to Celery after commit.

    A row with ``dispatched_at`` unset is still owed to analytics; the periodic
    sweep sends it again, and analytics tasks are idempotent, so a duplicate
    delivery changes nothing.
    """

    TOPIC_RECORD_STORED = "record.stored"

    topic = models.CharField(max_length=32, default=TOPIC_RECORD_STORED)
    record = models.ForeignKey(Record, on_delete=models.CASCADE, related_name="announcements")
    created_at = models.DateTimeField(auto_now_add=True)
    dispatched_at = models.DateTimeField(null=True, blank=True, db_index=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["id"]
