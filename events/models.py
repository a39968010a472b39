"""Events: game nights and tournaments of a club (or open to anyone), played in rounds.

An event is one game under one rules variant (``options`` in full, as a league's).
Players enter (``Entry``), check in, and are seated round by round at tables
(``Table`` with its ``TableSeat`` rows; a ``Bye`` when the numbers do not fit the
game). A table's result is proposed by one person and confirmed by another
(``TableResult``); once confirmed it is stored as an ordinary record, which is how
the game reaches the club's records, ratings and, if chosen, a league season.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from clubs.models import Club, Season
from replays.models import Player, Record


def link_key_new() -> str:
    """The secret in an event's public address: 32 URL-safe characters, unguessable."""
    return secrets.token_urlsafe(24)


class Event(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss"  # from round 2, players with similar points sit together
        ROUND_ROBIN = "round_robin"  # meet as many different players as possible
        RANDOM = "random"  # random tables, balanced (seats, repeat meetings)

    class Status(models.TextChoices):
        DRAFT = "draft"  # being prepared: entries may be added, nothing is public yet
        OPEN = "open"  # entries and check-in
        RUNNING = "running"  # a round has been seated
        FINISHED = "finished"

    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.CASCADE, related_name="events"
    )
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=64)
    game = models.CharField(max_length=32)
    options = models.JSONField(default=dict)
    format = models.CharField(max_length=16, choices=Format.choices, default=Format.SWISS)
    rounds = models.PositiveIntegerField(default=3)
    final_top_table = models.BooleanField(default=False)
    # Table sizes allowed at this event, within the game's player counts (null: the game's).
    min_table = models.PositiveIntegerField(null=True, blank=True)
    max_table = models.PositiveIntegerField(null=True, blank=True)
    # Points for 1st, 2nd, ... place at a table; empty: a table of n gives n-1 down to 0.
    points_per_place = models.JSONField(default=list, blank=True)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True)
    location = models.CharField(max_length=200, blank=True)
    link_key = models.CharField(max_length=64, unique=True, default=link_key_new)
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="events"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at", "id"]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player in an event. Seated from ``arrived_round`` on, until ``dropped_after``."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="event_entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="event_entries",
    )
    checked_in = models.BooleanField(default=False)
    arrived_round = models.PositiveIntegerField(default=1)
    dropped_after = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "id"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="entry_unique_per_event"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.event}"

    def plays_in(self, round_number: int) -> bool:
        """Seated in that round: checked in, arrived by then, not dropped before."""
        return (
            self.checked_in
            and self.arrived_round <= round_number
            and (self.dropped_after is None or round_number <= self.dropped_after)
        )


class Round(models.Model):
    class Status(models.TextChoices):
        SEATED = "seated"
        FINISHED = "finished"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.SEATED)
    seed = models.BigIntegerField()
    objective = models.JSONField(default=dict, blank=True)  # the seating's parts, by name
    seated_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_unique_per_event"),
        ]

    def __str__(self) -> str:
        return f"{self.event} round {self.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField()  # from 1, as printed on the slip
    reason = models.TextField(blank=True)  # why these players sit together, in words
    record = models.ForeignKey(
        Record, null=True, blank=True, on_delete=models.PROTECT, related_name="event_tables"
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_unique_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"


class TableSeat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveIntegerField()  # from 0, the record's seat
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seats")

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="seat_unique_per_table"),
        ]


class Bye(models.Model):
    """An entry not seated in a round because the numbers did not fit the game."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="byes")
    reason = models.TextField(blank=True)  # why this player sits out, in words

    class Meta:
        ordering = ["round", "id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="bye_unique_per_round"),
        ]


class TableResult(models.Model):
    """A table's result waiting for (or having had) a second person's confirmation.

    ``document`` is the giftlog stored once confirmed: a result-only document
    built from the scores typed in, or a full move log uploaded instead. It was
    checked like any upload when submitted; ``result`` is what that check computed.
    """

    class Kind(models.TextChoices):
        RESULT = "result"
        LOG = "log"

    class Status(models.TextChoices):
        PENDING = "pending"
        CONFIRMED = "confirmed"

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="result")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.RESULT)
    document = models.JSONField()
    result = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_at = models.DateTimeField(auto_now=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.table}: {self.status}"
