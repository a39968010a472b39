"""Clubs, their members, leagues, seasons, the records entered in a season, and an audit log.

``clubs`` sits between ``replays`` and ``analytics``: it reads records and
players, and ``replays`` never imports it.
"""

from __future__ import annotations

import hashlib
from datetime import datetime

from django.conf import settings
from django.db import models

from replays.models import Record


class Club(models.Model):
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=64, unique=True)
    description = models.TextField(blank=True)
    # Analyse every game entered in one of the club's league seasons (analytics queues
    # it after the entry): off by default, as analysis costs a worker's minute a game.
    analyse_league_games = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A user in a club. Their player in the club's games is the Player linked to their user."""

    class Role(models.TextChoices):
        OWNER = "owner"
        ADMIN = "admin"
        MEMBER = "member"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"

    @property
    def is_admin(self) -> bool:
        return self.role in {self.Role.OWNER, self.Role.ADMIN}


class Invitation(models.Model):
    """A join link. Only the SHA-256 of its key is stored; ``prefix`` tells links apart."""

    PREFIX_LENGTH = 8

    class Status(models.TextChoices):
        """Where a link stands: only a pending one lets someone new join."""

        PENDING = "pending"
        USED = "used"  # as many people joined as ``max_uses`` allows
        REVOKED = "revoked"
        EXPIRED = "expired"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    key_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=PREFIX_LENGTH)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    role = models.CharField(
        max_length=8, choices=Membership.Role.choices, default=Membership.Role.MEMBER
    )
    expires_at = models.DateTimeField(null=True, blank=True)
    max_uses = models.PositiveIntegerField(null=True, blank=True)
    uses = models.PositiveIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.club} invitation {self.prefix}…"

    @staticmethod
    def hash_of(key: str) -> str:
        """What is stored of a link's key: its SHA-256, in hex."""
        return hashlib.sha256(key.encode()).hexdigest()

    def status_at(self, now: datetime) -> Invitation.Status:
        """Revoked first (an admin's act), then used up, then expired; else pending."""
        if self.revoked_at is not None:
            return self.Status.REVOKED
        if self.max_uses is not None and self.uses >= self.max_uses:
            return self.Status.USED
        if self.expires_at is not None and self.expires_at <= now:
            return self.Status.EXPIRED
        return self.Status.PENDING


class League(models.Model):
    """A competition of one game under one rules variant (the full ``options``)."""

    class TieRule(models.TextChoices):
        SHARE_BEST = "share_best"  # tied players all get the points of the best place they share
        SPLIT = "split"  # tied players share the points of the places they cover, averaged

    TIE_BREAKS = ("wins", "average_score", "head_to_head")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=64)
    game = models.CharField(max_length=32)
    options = models.JSONField(default=dict)
    points_per_place = models.JSONField(default=list)
    tie_rule = models.CharField(max_length=16, choices=TieRule.choices, default=TieRule.SHARE_BEST)
    min_games = models.PositiveIntegerField(default=0)
    tie_breaks = models.JSONField(default=list)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="league_slug_unique_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.club} / {self.name}"


class Season(models.Model):
    """A stretch of a league: games played from ``starts_on`` to ``ends_on``, both inclusive."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=100)
    starts_on = models.DateField()
    ends_on = models.DateField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "-starts_on", "id"]

    def __str__(self) -> str:
        return f"{self.league} / {self.name}"


class SeasonEntry(models.Model):
    """A record counted in a season. A voided entry stays visible, with who voided it and why."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    record = models.ForeignKey(Record, on_delete=models.PROTECT, related_name="season_entries")
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    guests = models.JSONField(default=list, blank=True)  # seat numbers of non-members
    created_at = models.DateTimeField(auto_now_add=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    void_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["season", "created_at", "id"]
        verbose_name_plural = "season entries"
        constraints = [
            models.UniqueConstraint(fields=["season", "record"], name="entry_unique_per_season"),
        ]

    def __str__(self) -> str:
        return f"{self.season}: record {self.record_id}"


class ClubRecord(models.Model):
    """A game the club vouches for outside its seasons: an event's confirmed table.

    Anyone may name a club in an upload's ``meta``, so that counts for nothing; this
    row is made only by a flow the club controls (an event result confirmed by a second
    player or the organiser). It counts the record in the club's ratings and shows it
    among the club's games, like a season entry without a season.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="club_records")
    record = models.ForeignKey(Record, on_delete=models.PROTECT, related_name="club_records")
    # Where it comes from, in words for the club's list: "Friday Gift Night, round 1, table 2".
    source = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "record"], name="club_record_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.club}: record {self.record_id} ({self.source})"


class AuditLog(models.Model):
    """Who changed what in a club's books, from what to what, and why."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=32)
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="audit_log"
    )
    target_type = models.CharField(max_length=32)
    target_id = models.BigIntegerField()
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.action} {self.target_type} {self.target_id}"
