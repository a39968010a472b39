"""Stored game records, their players, and the outbox that announces them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Coalesce


class Player(models.Model):
    """A person or program, known by the name used in giftlog ``players`` (its handle).

    ``display_name`` is how pages greet them ("Ana Lima"); ``user`` links the
    player to the account of the person, when they have one. ``kind`` says who
    plays under the name (docs/analytics.md, "People, guests and bots").
    """

    class Kind(models.TextChoices):
        # Someone who plays: with an account or not (a club's uploads name people too).
        PERSON = "person", "person"
        # A program: the service's bots in live play, the simulator's and the demo
        # data's players. A game with a bot seat is bot play (``Record.simulated``).
        BOT = "bot", "bot"
        # A person without an account, entered by name as a guest at a club's table.
        # Rated (their seat is real play) and shown in their club's ratings, but left off
        # the site's public leaderboards: they never chose to be listed there.
        GUEST = "guest", "guest"

    name = models.CharField(max_length=64, unique=True)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.PERSON, db_index=True)
    display_name = models.CharField(max_length=100, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
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

    class Kind(models.TextChoices):
        LOG = "log", "full log"  # every event: replayable step by step
        RESULT = "result", "result only"  # a game played at a real table: final scores only

    game = models.CharField(max_length=32, db_index=True)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.LOG)
    digest = models.CharField(max_length=64, unique=True)
    options = models.JSONField(default=dict)
    meta = models.JSONField(default=dict)
    events = models.JSONField(default=list)
    result = models.JSONField(default=dict)
    num_events = models.PositiveIntegerField()
    players = models.ManyToManyField(Player, through="Seat", related_name="records")
    played_at = models.DateTimeField(null=True, blank=True)
    # Bot play (``meta.simulated``; every game with a bot seat, live games against the
    # service's bots, simulations and the demo data): statistics show it apart from real
    # play; ratings, leaderboards and standings never count it; lists mark it.
    simulated = models.BooleanField(default=False, db_index=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="submitted_records",
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    # What the log says about its game (``games.facts``: length, lead changes, cards
    # held...), computed in the replay that validated it and stored with it, so
    # analytics never replays a log again. None: stored before facts were kept
    # (analytics then computes them once).
    replay_facts = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["game", "-created_at"]),
            # The order ratings apply a game's records in (analytics.ratings): read in
            # one pass along this index, with no sort and no scan of the whole game.
            models.Index(
                "game", Coalesce("played_at", "created_at"), "id", name="record_rating_order"
            ),
            # A game's latest records of real play (a dashboard's "Recent records"): read
            # along this index without stepping over bot play, however much the balance
            # lab stored since the last real game.
            models.Index(
                fields=["game", "-created_at", "-id"],
                condition=models.Q(simulated=False),
                name="record_recent_real",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.pk}"


class Seat(models.Model):
    """Who sat where: ``players`` of a giftlog, in seat order.

    ``won`` copies "this seat is in ``record.result["winners"]``" at store time,
    so "games Ana won" is a plain join on every database (JSON array membership
    is not portable between SQLite and PostgreSQL).
    """

    record = models.ForeignKey(Record, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    won = models.BooleanField(default=False)

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
    TOPIC_RECORDS_STORED = "records.stored"  # a bulk import's batch: ``record_ids``

    topic = models.CharField(max_length=32, default=TOPIC_RECORD_STORED)
    record = models.ForeignKey(
        Record, null=True, blank=True, on_delete=models.CASCADE, related_name="announcements"
    )
    # The records of one bulk-import batch, announced as one message (topic records.stored).
    record_ids = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    dispatched_at = models.DateTimeField(null=True, blank=True, db_index=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["id"]


class LiveGame(models.Model):
    """A game played one validated event at a time through the API.

    Each seat holds a secret token (only its SHA-256 is stored); while the game
    is live, a seat sees only its own view. Chance events are drawn by the
    server from ``seed`` and stored explicitly, like any other event. When the
    game ends it becomes an ordinary :class:`Record`.
    """

    class Status(models.TextChoices):
        LIVE = "live"
        FINISHED = "finished"

    game = models.CharField(max_length=32)
    options = models.JSONField(default=dict)
    players = models.JSONField(default=list)
    meta = models.JSONField(default=dict)
    seed = models.BigIntegerField()
    token_hashes = models.JSONField(default=list)
    bots = models.JSONField(default=dict, blank=True)  # {"seat": bot name}: played by us
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.LIVE)
    record = models.ForeignKey(Record, null=True, blank=True, on_delete=models.SET_NULL)
    # The signed-in user who opened the game: its record's submitter when it ends.
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="opened_live_games",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]


class LiveEvent(models.Model):
    """Event number ``step`` of a live game; the unique step makes a lost race a conflict."""

    live_game = models.ForeignKey(LiveGame, on_delete=models.CASCADE, related_name="live_events")
    step = models.PositiveIntegerField()
    event = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["live_game", "step"]
        constraints = [
            models.UniqueConstraint(fields=["live_game", "step"], name="live_event_unique_step"),
        ]


class ImportJob(models.Model):
    """A large import run in the background, chunk by chunk, on the ``imports`` queue.

    The uploaded lines are kept in :class:`ImportChunk` rows; workers claim
    chunks with ``SELECT ... FOR UPDATE SKIP LOCKED`` and store a chunk's
    records and its "done" mark in one transaction, so several workers never
    import a chunk twice and a worker that dies leaves its chunk to another.
    """

    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="import_jobs",
    )
    lines = models.PositiveIntegerField(default=0)
    chunks = models.PositiveIntegerField(default=0)
    chunks_done = models.PositiveIntegerField(default=0)
    stored = models.PositiveIntegerField(default=0)
    present = models.PositiveIntegerField(default=0)
    refused = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When the broker last took the job's tasks (unset: never; the sweep sends them),
    # when a worker last finished a chunk, and the last failure to send them.
    dispatched_at = models.DateTimeField(null=True, blank=True)
    progressed_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["finished_at", "created_at"])]

    @property
    def done(self) -> bool:
        return self.chunks_done >= self.chunks


class ImportChunk(models.Model):
    """Up to a batch of NDJSON lines of an :class:`ImportJob`, imported in one transaction."""

    job = models.ForeignKey(ImportJob, on_delete=models.CASCADE, related_name="chunk_rows")
    index = models.PositiveIntegerField()
    line_numbers = models.JSONField(default=list)  # the upload's line number of each line
    text = models.TextField()  # the lines, as uploaded (NDJSON)
    done = models.BooleanField(default=False)
    stored = models.PositiveIntegerField(default=0)
    present = models.PositiveIntegerField(default=0)
    refusals = models.JSONField(default=list, blank=True)  # [{"line", "error"}]
    record_ids = models.JSONField(default=list, blank=True)  # stored by this chunk

    class Meta:
        ordering = ["job", "index"]
        constraints = [
            models.UniqueConstraint(fields=["job", "index"], name="import_chunk_unique_index"),
        ]
        indexes = [models.Index(fields=["job", "done"])]


class StoredSnapshots(models.Model):
    """A long record's replay states every ``every`` events, kept in the database too.

    Why: the cache holds them for a day and loses them on a restart or an eviction; the
    first visitor after that replayed the whole log again (hundreds of ms in a long
    game). One row per record and build (``replays.replay_store``): ``data`` is every
    snapshot, compressed together. A pickled state depends on the engines' code
    (``version``, ``state_cache.VERSION``) and on the build that pickled it (``build``:
    a compiled state pickles differently from a pure one); a row of another version,
    another ``every`` or another ``digest`` is never read.
    """

    # No constraint in the database: a copy written by a visitor while the record is being
    # deleted must neither fail that visit nor refuse the deletion (the ORM's cascade
    # deletes the rows; an id is never reused, so a row left by that race is never read).
    record = models.ForeignKey(
        Record, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )
    build = models.CharField(max_length=8)
    version = models.CharField(max_length=16)
    digest = models.CharField(max_length=64)
    every = models.PositiveSmallIntegerField()
    data = models.BinaryField()
    stored_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["record", "build"], name="stored_snapshots_unique"),
        ]


class StoredTimeline(models.Model):
    """A long record's timeline for one viewer, as the API's JSON bytes, compressed.

    ``viewer`` is the seat, or ``EVERYONE``: a seat's timeline tells that seat's hidden
    cards, so it is only ever read back for the same seat (``replays.replay_store``).
    ``players`` is a fingerprint of the names it was told with (a rename or a merge
    makes it absent), ``version`` the words' code (``state_cache.WORDS_VERSION``).
    """

    EVERYONE = -1

    record = models.ForeignKey(  # no constraint in the database: as ``StoredSnapshots``
        Record, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )
    viewer = models.SmallIntegerField()
    version = models.CharField(max_length=16)
    digest = models.CharField(max_length=64)
    players = models.CharField(max_length=32)
    body = models.BinaryField()
    stored_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["record", "viewer"], name="stored_timeline_unique"),
        ]
