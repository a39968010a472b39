"""Derived data: rebuilt from records, never a second source of truth."""

from __future__ import annotations

from django.conf import settings
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


class IngestQuarantine(models.Model):
    """A record whose ingest failed: kept aside with the error, retried later with backoff.

    Why: one record that cannot be ingested (a value its columns cannot hold, a bug
    in one game's facts) must not stop the records behind it. The sweep and the
    rebuild go on past it; it is retried at ``next_retry_at``, each failure
    doubling the wait up to a bound (``analytics.services.ingest_retry_delay``);
    a successful ingest deletes the row. Operators see the rows in the Django
    admin and with ``manage.py analytics_quarantine``. Derived like the rest of
    analytics: a rebuild finds the same records again.
    """

    record = models.OneToOneField(
        Record, primary_key=True, on_delete=models.CASCADE, related_name="ingest_quarantine"
    )
    error = models.TextField()
    attempts = models.PositiveIntegerField(default=1)
    first_failed_at = models.DateTimeField()
    last_failed_at = models.DateTimeField()
    next_retry_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = "quarantined record"
        ordering = ["record_id"]

    def __str__(self) -> str:
        return f"record {self.record_id}"


class GameSummary(models.Model):
    """Per-game snapshot for dashboards, kept up to date from PlayerResult rows.

    ``tallies`` ({player id: [name, games, wins, total score]}) is what an ingest adds
    its records' deltas to (analytics.summaries); ``players`` is the table drawn from
    it. None: kept before tallies were, recomputed in full at its next refresh.
    """

    game = models.CharField(max_length=32, unique=True)
    games = models.PositiveIntegerField(default=0)
    players = models.JSONField(default=list)
    tallies = models.JSONField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "game summaries"


# Ratings


class RatingScope(models.Model):
    """One pool of ratings: a game over everything, a game within a club, or a league season.

    The row is also the lock: every write to a scope's ratings first takes
    ``select_for_update`` on it, so two workers never interleave their updates.
    ``last_at``/``last_record_id`` is the order key of the last record applied;
    a record that sorts before it is late and makes the scope recompute from it.
    """

    class Kind(models.TextChoices):
        GAME = "game"
        CLUB = "club"
        SEASON = "season"

    key = models.CharField(max_length=64, unique=True)  # "game:gift_swap", "club:3:gift_swap"
    kind = models.CharField(max_length=8, choices=Kind.choices)
    game = models.CharField(max_length=32)
    club = models.ForeignKey(
        "clubs.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    season = models.ForeignKey(
        "clubs.Season", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    last_at = models.DateTimeField(null=True, blank=True)
    last_record_id = models.BigIntegerField(null=True, blank=True)
    recomputes = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return self.key


class RatingApplication(models.Model):
    """Record ``record`` is counted in ``scope``: at most once (the unique pair).

    ``fingerprint`` digests what was applied (players, ranks, scores): a
    corrected result differs and is applied again from its point on.
    """

    # No database checks of the scope and record (Django's delete still cascades): see
    # RatingHistory. No index of its own on the scope: the two below begin with it.
    scope = models.ForeignKey(
        RatingScope,
        on_delete=models.CASCADE,
        related_name="applications",
        db_constraint=False,
        db_index=False,
    )
    record = models.ForeignKey(
        Record, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    order_at = models.DateTimeField()
    fingerprint = models.CharField(max_length=16)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "record"], name="rating_application_unique"),
        ]
        indexes = [models.Index(fields=["scope", "order_at", "record"])]


class RatingHistory(models.Model):
    """A player's rating and running totals in a scope right after one record.

    The rows are what a recompute restarts from (the state just before a late
    record) and what the rating charts draw.

    A full recompute writes a row per seat of every record of the scope (320,000
    for 100,000 records), so the database does not check each row's scope, record
    and player: those checks, run at commit, were half of a recompute's time. The
    rows are written only by ``analytics.ratings``, from the scope it holds locked
    and the records and players it has just read in the same transaction; deleting
    a scope, record or player through Django still deletes their rows
    (``on_delete``), as Django does for every relation.
    """

    # No index of its own on the scope or the player: the two below begin with each (a
    # foreign key's own index was a third and fourth paid per row). The record's own
    # index stays: deleting a record deletes its rows by it.
    scope = models.ForeignKey(
        RatingScope,
        on_delete=models.CASCADE,
        related_name="history",
        db_constraint=False,
        db_index=False,
    )
    record = models.ForeignKey(
        Record, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )
    order_at = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    rank = models.PositiveSmallIntegerField()
    score = models.IntegerField()
    games = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    score_total = models.BigIntegerField()

    class Meta:
        verbose_name_plural = "rating history"
        # Two indexes (besides the record's and the primary key), each serving several
        # reads, because a full recompute writes every row of a scope and pays for each
        # index per row: (scope, order_at, record, player) is the scope in order (a
        # recompute's "from this point on", a season's chart) and makes a row unique per
        # record and player (a record has one order_at in a scope); (player, scope,
        # order_at, record) is a player's rows (their chart, their state just before a
        # late record).
        constraints = [
            models.UniqueConstraint(
                fields=["scope", "order_at", "record", "player"], name="rating_history_in_order"
            ),
        ]
        indexes = [
            models.Index(
                fields=["player", "scope", "order_at", "record"], name="rating_history_player"
            ),
        ]


class PlayerRating(models.Model):
    """A player's current rating in a scope: the leaderboard row (a copy of their last history)."""

    scope = models.ForeignKey(RatingScope, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    games = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    score_total = models.BigIntegerField()
    last_played_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "player"], name="player_rating_unique"),
        ]
        indexes = [models.Index(fields=["scope", "-ordinal"])]


# Statistics


class RecordFacts(models.Model):
    """What one record says about its game (games.facts), as analytics counted it.

    ``applied`` is the contribution this record has added to the statistics
    snapshots (their scopes and counters): applying a record again compares with it,
    so a record is counted once however often it is ingested, and a corrected result
    moves its contribution instead of adding a second one.
    """

    record = models.OneToOneField(
        Record, primary_key=True, on_delete=models.CASCADE, related_name="facts"
    )
    game = models.CharField(max_length=32)
    simulated = models.BooleanField(default=False)
    num_players = models.PositiveSmallIntegerField()
    variant = models.CharField(max_length=16, default="")
    club = models.CharField(max_length=64, blank=True, default="")
    month = models.CharField(max_length=7)  # "2026-11": played_at, else when stored
    scores = models.JSONField(default=list)
    winners = models.JSONField(default=list)
    length = models.PositiveIntegerField(null=True)  # events; None for result-only records
    rounds = models.PositiveIntegerField(null=True)
    decisiveness = models.FloatField(null=True)
    lead_changes = models.PositiveIntegerField(null=True)
    event_counts = models.JSONField(default=dict)
    cards_held = models.JSONField(default=list)  # per seat: card names held at some point
    cards_ended = models.JSONField(default=list)  # per seat: card names in front at the end
    applied = models.JSONField(null=True, blank=True)
    # What this record adds to its game's summary (analytics.summaries), so a
    # correction or a record made bot play takes out exactly what it added.
    summary_applied = models.JSONField(null=True, blank=True)
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["game", "variant"])]
        verbose_name_plural = "record facts"


class StatisticsSnapshot(models.Model):
    """Additive counters of one scope, so adding a record is adding its contribution.

    Scope: game x real/simulated x table size x rules variant x club x month. The
    rows with ``club == month == "*"`` hold every club and month together, so an
    unfiltered dashboard reads one row per (table size, variant, real/simulated).
    """

    ALL = "*"

    game = models.CharField(max_length=32)
    simulated = models.BooleanField()
    num_players = models.PositiveSmallIntegerField()
    variant = models.CharField(max_length=16)
    club = models.CharField(max_length=64)
    month = models.CharField(max_length=7)
    records = models.IntegerField(default=0)
    counters = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "simulated", "num_players", "variant", "club", "month"],
                name="statistics_snapshot_unique_scope",
            )
        ]
        indexes = [models.Index(fields=["game", "club", "month"])]


class SimulationJob(models.Model):
    """A balance-lab run: N bot games of one game, stored as simulated records in batches."""

    class State(models.TextChoices):
        QUEUED = "queued", "waiting for a worker"
        RUNNING = "running", "running"
        DONE = "done", "finished"
        FAILED = "failed", "stopped"

    game = models.CharField(max_length=32)
    num_players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    bots = models.CharField(max_length=16, default="mixed")
    total = models.PositiveIntegerField()
    done = models.PositiveIntegerField(default=0)
    seed = models.BigIntegerField()
    state = models.CharField(max_length=16, choices=State.choices, default=State.QUEUED)
    errors = models.JSONField(default=list, blank=True)  # [{"code", "message", "detail"}]
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]


# Analysis of games (docs/analysis.md, "Jobs and storage")


class RecordAnalysis(models.Model):
    """One analysis of one stored record: every decision valued from its mover's view.

    Versioned: ``version`` names the analysis code and the rules it ran on
    (``analytics.record_analysis.analysis_version``), ``analysis_settings`` the playouts, bots
    and seed (``games.analysis.Settings``); the same three give the same result, so a row is
    unique per (record, version, settings). A deploy that changes the rules or the
    analysis makes a new version: old rows stay readable, marked not current.
    ``result`` is ``GameAnalysis.to_json()`` once done; ``done``/``total`` count the
    players' moves gone through so far, saved as the job goes, for the page that polls it.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "waiting for a worker"
        RUNNING = "running", "running"
        DONE = "done", "finished"
        FAILED = "failed", "stopped"
        UNAVAILABLE = "unavailable", "cannot be analysed"

    record = models.ForeignKey(Record, on_delete=models.CASCADE, related_name="analyses")
    version = models.CharField(max_length=64)
    analysis_settings = models.JSONField(default=dict)  # Settings.to_json()
    settings_hash = models.CharField(max_length=16)
    seed = models.BigIntegerField(default=0)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    error = models.JSONField(null=True, blank=True)  # {"code", "message", "detail"}
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "record analyses"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["record", "version", "settings_hash"], name="record_analysis_unique"
            ),
        ]
        indexes = [models.Index(fields=["status", "version"], name="record_analysis_status")]

    def __str__(self) -> str:
        return f"analysis of record {self.record_id} ({self.status})"


class SkillFigure(models.Model):
    """How often the better-deciding player wins, per game, table size and real/bot play.

    Derived from the done analyses of the current version (``games.analysis.skill_share``)
    by the task ``analytics.skill_figures_refresh``; the game dashboard draws it.
    """

    game = models.CharField(max_length=32)
    num_players = models.PositiveSmallIntegerField()
    simulated = models.BooleanField()
    version = models.CharField(max_length=64)
    games = models.PositiveIntegerField(default=0)
    figure = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "num_players", "simulated"], name="skill_figure_unique_scope"
            ),
        ]
