"""Ratings with openskill's Plackett-Luce model, per game, per club and per league season.

A scope's ratings are a pure function of the set of records that count in it,
applied one by one in order of ``(played_at or created_at, record id)``. The
stored state (:class:`~analytics.models.RatingHistory` after each record and
:class:`~analytics.models.PlayerRating` now) is a cache of that function:

- a record whose key sorts after the scope's last applied record is *appended*
  (one Plackett-Luce update, ``analytics.rating_model.plackett_luce``, one row
  per seat);
- one that sorts before it (late), whose result changed (a correction), or that
  no longer counts (a void, a simulated record) makes the scope *recompute from
  its point*: the history from that key on is thrown away, each player's state
  is restored from their last history row before it, and every record that
  counts in the scope from that key on is applied again.

Which records count: the game scope takes every record of the game that is not
simulated (``Record.simulated``); a club scope (club, game) the records with a
not voided entry in any season of the club's leagues; a season scope those with
a not voided entry in that season. Clubs announce an entry, a void or an
un-void through the record outbox (``replays.models.Announcement``, task
``analytics.record_ingest``), so ``clubs`` never imports ``analytics``.

A recompute, from a point or from nothing, reads the scope in one ordered query,
rates in memory and writes in batches (docs/analytics.md, "How a recompute runs").

Several workers at once: every write to a scope happens under
``select_for_update`` on its :class:`~analytics.models.RatingScope` row, scopes
are locked in key order (no deadlock between two records), and the unique
(scope, record) application makes a second delivery a no-op.
"""

from __future__ import annotations

import contextvars
import hashlib
import logging
import struct
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson
from django.contrib.postgres.expressions import ArraySubquery
from django.db import OperationalError, connection, transaction
from django.db.backends.utils import CursorDebugWrapper
from django.db.models import Func, JSONField, OuterRef, Q, QuerySet, TextField
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Cast

from analytics.models import PlayerRating, RatingApplication, RatingHistory, RatingScope
from analytics.rating_model import MODEL, plackett_luce
from analytics.rating_scopes import (
    ScopeSpec,
    all_scope_specs,
    record_scope_specs,
    records_scope_specs,
    scope_get_locked,
    scope_records,
)
from replays.models import Record, Seat

logger = logging.getLogger(__name__)
CHUNK = 2000  # rows per bulk_create batch (not PostgreSQL, which copies)
READ_CHUNK = 10_000  # rows the read query fetches at a time (not PostgreSQL, which streams)
STREAM_CHUNK = 2000  # records PostgreSQL's read sends at a time
WRITE_BATCH = 20_000  # records applied between two writes of their applications
Key = tuple[datetime, int]  # (order_at, record id)


# Set while ``analytics_rebuild`` re-ingests every record: it recomputes every
# scope once at the end instead of once per late record.
_deferred: contextvars.ContextVar[bool] = contextvars.ContextVar("ratings_deferred", default=False)


@contextmanager
def ratings_deferred() -> Iterator[None]:
    """Inside this block :func:`ratings_apply` does nothing; run :func:`ratings_rebuild` after."""
    token = _deferred.set(True)
    try:
        yield
    finally:
        _deferred.reset(token)


@dataclass(slots=True)
class PlayerState:
    """A player's rating in one scope; a recompute updates one object per player in place."""

    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    score_total: int = 0
    last_at: datetime | None = None

    @property
    def ordinal(self) -> float:
        """The leaderboard number: mu - 3 sigma (a rating we are about 99.7% sure is exceeded)."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Outcome:
    """What a record tells a rating: who sat where, their ranks (1 = best, ties shared), scores."""

    record_id: int
    order_at: datetime
    players: tuple[int, ...]
    ranks: tuple[int, ...]
    scores: tuple[int, ...]
    winners: frozenset[int]

    @property
    def key(self) -> Key:
        return (self.order_at, self.record_id)

    @property
    def rateable(self) -> bool:
        """Two or more distinct players: a game of one, or against oneself, says nothing."""
        return len(self.players) >= 2 and len(set(self.players)) == len(self.players)

    @property
    def fingerprint(self) -> str:
        """Players, ranks and scores hashed: a stored application whose result changed differs.

        The bytes are ``json.dumps([...], separators=(",", ":"))``'s for these integer lists.
        """
        text = orjson.dumps([self.players, self.ranks, self.scores])
        return hashlib.sha256(text).hexdigest()[:16]


def outcome_of(
    *, record_id: int, order_at: datetime, result: dict[str, Any], seats: Iterable[tuple[int, int]]
) -> Outcome:
    """``seats`` are (seat, player id) pairs; ``result`` is the record's stored result."""
    players = tuple(player for _, player in sorted(seats))
    n = len(players)
    ranks = tuple(int(r) for r in (result.get("ranks") or [1] * n)[:n])
    scores = tuple(int(s) for s in (result.get("scores") or [0] * n)[:n])
    return Outcome(
        record_id, order_at, players, ranks, scores, frozenset(result.get("winners", []))
    )


# --- applying ---------------------------------------------------------------------------


def ratings_apply(*, record: Record) -> dict[str, str]:
    """Bring every scope ``record`` touches up to date with it; returns {scope key: what happened}.

    Idempotent: a second call for an unchanged record changes nothing ("unchanged").
    Call it inside or outside a transaction; each scope is locked until the
    caller's transaction ends.
    """
    if _deferred.get():
        return {}
    seats = list(Seat.objects.filter(record=record).values_list("seat", "player_id"))
    outcome = outcome_of(
        record_id=record.pk,
        order_at=record.played_at or record.created_at,
        result=record.result,
        seats=seats,
    )
    wanted = record_scope_specs(record=record) if outcome.rateable else {}
    applied = {
        key: ScopeSpec(key, kind, game, club_id, season_id)
        for key, kind, game, club_id, season_id in RatingApplication.objects.filter(
            record_id=record.pk
        ).values_list(
            "scope__key", "scope__kind", "scope__game", "scope__club_id", "scope__season_id"
        )
    }
    done: dict[str, str] = {}
    for key in sorted(set(wanted) | set(applied)):  # one lock order for every worker
        with transaction.atomic():
            scope = scope_get_locked(wanted.get(key) or applied[key])
            done[key] = _scope_reconcile(scope, outcome, wanted=key in wanted)
    return done


def ratings_apply_records(*, records: list[Record]) -> None:
    """:func:`ratings_apply` for each of ``records`` in the order given, in a few queries.

    Equal in effect to calling it once per record in that order (a late record, a
    corrected result, a record that no longer counts included), for a batch ingest:
    the batch's seats, scopes and applications are read once; each scope it touches
    is locked (in key order, as :func:`ratings_apply` locks) and brought up to date
    once: its new records in order appended in memory from one read of their
    players' ratings and written together, or, if one of them is late, changed or
    removed, recomputed once from the earliest point any of them needs (a recompute
    from a point gives what applying one by one would, since a scope's ratings
    depend only on the records counted in it).
    """
    if _deferred.get() or not records:
        return
    ids = [r.pk for r in records]
    seated: dict[int, list[tuple[int, int]]] = {pk: [] for pk in ids}
    for record_id, seat, player in Seat.objects.filter(record_id__in=ids).values_list(
        "record_id", "seat", "player_id"
    ):
        seated[record_id].append((seat, player))
    outcomes = [
        outcome_of(
            record_id=r.pk,
            order_at=r.played_at or r.created_at,
            result=r.result,
            seats=seated[r.pk],
        )
        for r in records
    ]
    wanted = records_scope_specs(
        records=[r for r, o in zip(records, outcomes, strict=True) if o.rateable]
    )
    applied: dict[int, set[str]] = {pk: set() for pk in ids}
    specs: dict[str, ScopeSpec] = {}
    for record_id, key, kind, game, club_id, season_id in RatingApplication.objects.filter(
        record_id__in=ids
    ).values_list(
        "record_id", "scope__key", "scope__kind", "scope__game", "scope__club_id",
        "scope__season_id",
    ):  # fmt: skip
        applied[record_id].add(key)
        specs.setdefault(key, ScopeSpec(key, kind, game, club_id, season_id))
    per_scope: dict[str, list[tuple[Outcome, bool]]] = {}
    for outcome in outcomes:
        counted = wanted.get(outcome.record_id, {})
        specs.update(counted)  # what the record says now, over what its application said
        for key in sorted(set(counted) | applied[outcome.record_id]):
            per_scope.setdefault(key, []).append((outcome, key in counted))
    for key in sorted(per_scope):  # one lock order for every worker
        with transaction.atomic():
            _scope_reconcile_many(scope_get_locked(specs[key]), per_scope[key])


def _scope_reconcile_many(scope: RatingScope, items: list[tuple[Outcome, bool]]) -> None:
    """:func:`_scope_reconcile` for each (outcome, wanted) in turn, written once.

    Decides as the record-by-record path would, against the applications as they
    stand after the items before (kept here in memory): the new records that come
    after the scope's last one, while no item needed a recompute, are appended; any
    other change makes one recompute from the earliest key involved (including those
    appends', which it then applies too).
    """
    stored = {
        record_id: (at, fingerprint)
        for record_id, at, fingerprint in RatingApplication.objects.filter(
            scope=scope, record_id__in=[o.record_id for o, _ in items]
        ).values_list("record_id", "order_at", "fingerprint")
    }
    last = _scope_last(scope)
    appends: list[Outcome] = []
    start: Key | None = None
    for outcome, wanted in items:
        application = stored.get(outcome.record_id)
        now = (outcome.order_at, outcome.fingerprint)
        if application is None and not wanted:
            continue
        if application is not None and wanted and application == now:
            continue
        if application is None and start is None and (last is None or outcome.key > last):
            appends.append(outcome)
            last = outcome.key
        else:
            point = outcome.key
            if application is not None:
                point = min(point, (application[0], outcome.record_id))
            start = point if start is None else min(start, point)
        if wanted:
            stored[outcome.record_id] = now
        else:
            del stored[outcome.record_id]
    if start is not None:
        if appends:
            start = min(start, appends[0].key)
        scope_recompute(scope=scope, start=start)
    elif appends:
        _append(scope, appends)


def _scope_reconcile(scope: RatingScope, outcome: Outcome, *, wanted: bool) -> str:
    application = RatingApplication.objects.filter(scope=scope, record_id=outcome.record_id).first()
    if application is None and not wanted:
        return "not counted"
    if (
        application is not None
        and wanted
        and application.fingerprint == outcome.fingerprint
        and application.order_at == outcome.order_at
    ):
        return "unchanged"
    last = _scope_last(scope)
    if application is None and (last is None or outcome.key > last):
        _append(scope, [outcome])
        return "appended"
    start = outcome.key
    if application is not None:
        start = min(start, (application.order_at, outcome.record_id))
    scope_recompute(scope=scope, start=start)
    return "recomputed" if wanted else "removed"


def _scope_last(scope: RatingScope) -> Key | None:
    if scope.last_at is None or scope.last_record_id is None:
        return None
    return (scope.last_at, scope.last_record_id)


def _states_of(scope: RatingScope, players: Iterable[int]) -> dict[int, PlayerState]:
    rows = PlayerRating.objects.filter(scope=scope, player_id__in=list(players)).values_list(
        "player_id", "mu", "sigma", "games", "wins", "score_total", "last_played_at"
    )  # tuples, not models: a batch's scopes read thousands of rows
    return {player: PlayerState(*state) for player, *state in rows}


def _fresh() -> PlayerState:
    return PlayerState(MODEL.mu, MODEL.sigma)


HISTORY_COLUMNS = (
    "record_id", "player_id", "order_at", "mu", "sigma", "ordinal", "rank", "score", "games",
    "wins", "score_total",
)  # fmt: skip
HistoryRow = tuple[int, int, datetime, float, float, float, int, int, int, int, int]


def _step(outcome: Outcome, states: dict[int, PlayerState], rows: list[HistoryRow]) -> None:
    """Apply one outcome to the in-memory states (each player's object updated in place);
    appends the history rows it makes (HISTORY_COLUMNS) to ``rows``."""
    players, ranks, scores = outcome.players, outcome.ranks, outcome.scores
    before = []
    for player in players:
        state = states.get(player)
        if state is None:
            state = states[player] = _fresh()
        before.append(state)
    rated = plackett_luce([s.mu for s in before], [s.sigma for s in before], ranks)
    record_id, at, winners = outcome.record_id, outcome.order_at, outcome.winners
    for seat, (mu, sigma) in enumerate(rated):
        state = before[seat]
        state.mu, state.sigma, state.last_at = mu, sigma, at
        state.games += 1
        if seat in winners:
            state.wins += 1
        state.score_total += scores[seat]
        rows.append(
            (
                record_id, players[seat], at, mu, sigma, mu - 3 * sigma, ranks[seat],
                scores[seat], state.games, state.wins, state.score_total,
            )
        )  # fmt: skip


def _rows_insert(model: type, scope: RatingScope, columns: tuple[str, ...], rows: list) -> None:
    """Insert many rows of a scope: PostgreSQL's COPY (bulk_create's SQL building is most of
    a full recompute's time otherwise), ``bulk_create`` elsewhere."""
    if not rows:
        return
    if connection.vendor == "postgresql":
        table = model._meta.db_table
        names = ", ".join(["scope_id", *columns])
        with (
            connection.cursor() as cursor,
            cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy,
        ):
            for row in rows:
                copy.write_row((scope.pk, *row))
        return
    model.objects.bulk_create(
        [model(scope=scope, **dict(zip(columns, row, strict=True))) for row in rows],
        batch_size=CHUNK,
    )


APPLICATION_COLUMNS = ("record_id", "order_at", "fingerprint")


RATING_COLUMNS = (
    "player_id", "mu", "sigma", "ordinal", "games", "wins", "score_total", "last_played_at",
)  # fmt: skip


def _ratings_save(
    scope: RatingScope, states: dict[int, PlayerState | None], *, fresh: bool = False
) -> None:
    """Store the players' current ratings (``None``: no rated game left, drop the row).

    ``fresh``: the scope has no rating rows (a recompute from nothing), so a plain insert.
    """
    if fresh:
        _rows_insert(
            PlayerRating,
            scope,
            RATING_COLUMNS,
            [
                (p, s.mu, s.sigma, s.ordinal, s.games, s.wins, s.score_total, s.last_at)
                for p, s in states.items()
                if s is not None
            ],
        )
        return
    gone = [p for p, s in states.items() if s is None]
    if gone:
        PlayerRating.objects.filter(scope=scope, player_id__in=gone).delete()
    if connection.vendor == "postgresql":
        _ratings_upsert(scope, [(p, s) for p, s in states.items() if s is not None])
        return
    rows = [
        PlayerRating(
            scope=scope,
            player_id=p,
            mu=s.mu,
            sigma=s.sigma,
            ordinal=s.ordinal,
            games=s.games,
            wins=s.wins,
            score_total=s.score_total,
            last_played_at=s.last_at,
        )
        for p, s in states.items()
        if s is not None
    ]
    PlayerRating.objects.bulk_create(
        rows,
        batch_size=CHUNK,
        update_conflicts=True,
        unique_fields=["scope", "player"],
        update_fields=["mu", "sigma", "ordinal", "games", "wins", "score_total", "last_played_at"],
    )


# One statement for a scope's changed ratings on PostgreSQL: ``bulk_create``'s conflict
# update built its SQL value by value, half of a batch ingest's ratings time.
_UPSERT = """
INSERT INTO {table} (scope_id, {columns})
SELECT %s, * FROM unnest(
    %s::bigint[], %s::float8[], %s::float8[], %s::float8[], %s::int[], %s::int[], %s::bigint[],
    %s::timestamptz[]
)
ON CONFLICT (scope_id, player_id) DO UPDATE SET {updates}
"""


def _ratings_upsert(scope: RatingScope, states: list[tuple[int, PlayerState]]) -> None:
    if not states:
        return
    columns = list(zip(*((p, s.mu, s.sigma, s.ordinal, s.games, s.wins, s.score_total, s.last_at)
                         for p, s in states), strict=True))  # fmt: skip
    sql = _UPSERT.format(
        table=PlayerRating._meta.db_table,
        columns=", ".join(RATING_COLUMNS),
        updates=", ".join(f"{c} = EXCLUDED.{c}" for c in RATING_COLUMNS[1:]),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [scope.pk, *(list(column) for column in columns)])


def _append(scope: RatingScope, outcomes: list[Outcome]) -> None:
    """Apply ``outcomes``, new records after the scope's last one, in order."""
    states = _states_of(scope, {p for o in outcomes for p in o.players})
    rows: list[HistoryRow] = []
    for outcome in outcomes:
        _step(outcome, states, rows)
    _rows_insert(RatingHistory, scope, HISTORY_COLUMNS, rows)
    _rows_insert(
        RatingApplication,
        scope,
        APPLICATION_COLUMNS,
        [(o.record_id, o.order_at, o.fingerprint) for o in outcomes],
    )
    _ratings_save(scope, {p: states[p] for o in outcomes for p in o.players})
    scope.last_at, scope.last_record_id = outcomes[-1].key
    scope.save(update_fields=["last_at", "last_record_id", "updated_at"])


def _from(start: Key) -> Q:
    at, record_id = start
    return Q(order_at__gt=at) | Q(order_at=at, record_id__gte=record_id)


def _outcomes(records: QuerySet[Record]) -> Iterator[Outcome]:
    """The records' outcomes in order: one query, streamed.

    In order of the scope's key ``(order_at, id)``, which the index
    ``record_rating_order`` on (game, ``COALESCE(played_at, created_at)``, id)
    serves for a game scope without a sort. Which records count is
    :func:`analytics.rating_scopes.scope_records`' business alone: this adds the seats.

    On PostgreSQL the server streams the rows in chunks while they are parsed here
    (Django's cursor, fetching all and parsing each column in Python, was a third of
    a full recompute), one row per record with its players in seat order (an array)
    and only the result's ranks, scores and winners (text for orjson). Elsewhere a
    row is a seat.
    """
    if connection.vendor == "postgresql":
        yield from _outcomes_streamed(records)
        return
    records = records.annotate(result_text=Cast("result", TextField()))
    current: int | None = None
    order_at: datetime | None = None
    result = ""
    players: list[int] = []
    for record_id, at, text, player in (
        records.values_list("id", "order_at", "result_text", "seats__player_id")
        .order_by("order_at", "id", "seats__seat")
        .iterator(chunk_size=READ_CHUNK)
    ):
        if record_id != current:
            if current is not None:
                yield _outcome(current, order_at, result, players)
            current, order_at, result, players = record_id, at, text, []
        if player is not None:
            players.append(player)
    if current is not None:
        yield _outcome(current, order_at, result, players)


def _outcomes_streamed(records: QuerySet[Record]) -> Iterator[Outcome]:
    """:func:`_outcomes` on PostgreSQL: one row per record, streamed in chunks."""
    seats = Seat.objects.filter(record=OuterRef("pk")).order_by("seat").values("player_id")
    rows = records.annotate(
        # In the session's time zone (UTC): Python's own parser is 5x faster than a
        # datetime column's.
        at_text=Cast("order_at", TextField()),
        outcome_text=Cast(
            Func(
                KeyTransform("ranks", "result"),
                KeyTransform("scores", "result"),
                KeyTransform("winners", "result"),
                function="jsonb_build_array",
                output_field=JSONField(),
            ),
            TextField(),
        ),
        seated=ArraySubquery(seats),  # a list of ints, made by psycopg's C loader
    ).values_list("id", "at_text", "outcome_text", "seated")
    sql, params = rows.query.sql_with_params()
    with connection.cursor() as cursor:
        # Without PostgreSQL's JIT for this query: once the tables have statistics a
        # large scope's read costs enough for it to compile the query with inlining and
        # optimisation, which took longer than running it (2.7 s of 3.0 s at 100,000
        # records on a loaded machine; 1.4-2.2 s without). Local to the transaction, and
        # put back after.
        cursor.execute("SELECT current_setting('jit'), set_config('jit', 'off', true)")
        (jit, _) = cursor.fetchone()
        # Fetched in chunks while the server runs the query on (libpq's chunked rows:
        # one message and one wait per chunk, where a COPY sends and waits per row), on
        # psycopg's own cursor, which Django's does not wrap: logged as Django logs a
        # query when it logs them (DEBUG, tests counting queries).
        logged = (
            cursor.debug_sql(sql, params)
            if isinstance(cursor, CursorDebugWrapper)
            else nullcontext()
        )
        with logged:
            for record_id, at, text, seated in cursor.cursor.stream(sql, params, size=STREAM_CHUNK):
                stored = orjson.loads(text)
                yield _outcome_of(
                    record_id,
                    datetime.fromisoformat(at),
                    stored[0],
                    stored[1],
                    stored[2],
                    seated or [],
                )
        cursor.execute("SELECT set_config('jit', %s, true)", [jit])


def _outcome(record_id: int, order_at: Any, result: str, players: list[int]) -> Outcome:
    """An :class:`Outcome` from a row of :func:`_outcomes` (``players`` in seat order)."""
    stored = orjson.loads(result) if result else {}
    return _outcome_of(
        record_id,
        order_at,
        stored.get("ranks"),
        stored.get("scores"),
        stored.get("winners"),
        players,
    )


def _outcome_of(
    record_id: int, order_at: Any, ranks: Any, scores: Any, winners: Any, players: list[int]
) -> Outcome:
    """An :class:`Outcome` from a result's ranks, scores and winners (each may be missing)."""
    n = len(players)
    return Outcome(
        record_id,
        order_at,
        tuple(players),
        tuple(int(r) for r in (ranks or [1] * n)[:n]),
        tuple(int(s) for s in (scores or [0] * n)[:n]),
        frozenset(winners or ()),
    )


def _batch_apply(scope: RatingScope, batch: list[Outcome], states: dict[int, PlayerState]) -> None:
    """Apply ``batch`` (rateable outcomes, in order) to ``states``; write its history and
    applications. On PostgreSQL the history is copied as it is computed, so the server
    stores one part while the next is rated."""
    if connection.vendor != "postgresql":
        rows: list[HistoryRow] = []
        for outcome in batch:
            _step(outcome, states, rows)
        _rows_insert(RatingHistory, scope, HISTORY_COLUMNS, rows)
        _rows_insert(
            RatingApplication,
            scope,
            APPLICATION_COLUMNS,
            [(o.record_id, o.order_at, o.fingerprint) for o in batch],
        )
        return
    history, application = bytearray(COPY_SIGNATURE), bytearray(COPY_SIGNATURE)
    scope_id = scope.pk
    with connection.cursor() as cursor:
        with _copy(cursor, RatingHistory, HISTORY_COLUMNS) as copy:
            seated: list[HistoryRow] = []
            for outcome in batch:
                _step(outcome, states, seated)
                at = (outcome.order_at - PG_EPOCH) // MICROSECOND
                application += APPLICATION_ROW.pack(
                    4, 8, scope_id, 8, outcome.record_id, 8, at, 16, outcome.fingerprint.encode()
                )
                for r in seated:
                    history += HISTORY_ROW.pack(
                        12, 8, scope_id, 8, r[0], 8, r[1], 8, at, 8, r[3], 8, r[4], 8, r[5],
                        2, r[6], 4, r[7], 4, r[8], 4, r[9], 8, r[10],
                    )  # fmt: skip
                seated.clear()
                if len(history) >= COPY_BYTES:
                    copy.write(history)
                    history = bytearray()
            copy.write(history + COPY_TRAILER)
        with _copy(cursor, RatingApplication, APPLICATION_COLUMNS) as copy:
            copy.write(application + COPY_TRAILER)


def _copy(cursor: Any, model: type, columns: tuple[str, ...]) -> Any:
    """PostgreSQL's ``COPY table (scope_id, columns...) FROM STDIN`` in its binary format, on
    ``cursor``: the caller writes the signature, the rows and the trailer."""
    names = ", ".join(["scope_id", *columns])
    return cursor.cursor.copy(f"COPY {model._meta.db_table} ({names}) FROM STDIN (FORMAT BINARY)")


# PostgreSQL's binary COPY (its documentation, "COPY", "Binary Format"): a signature, flags
# and header extension (none), then per row the number of fields and each field's length
# and value in network order (a timestamp is microseconds since 2000-01-01 UTC), then -1.
COPY_SIGNATURE = b"PGCOPY\n\xff\r\n\x00" + bytes(8)
COPY_TRAILER = b"\xff\xff"
COPY_BYTES = 1 << 20  # history bytes sent at a time, so the server stores while we rate
PG_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)
MICROSECOND = timedelta(microseconds=1)
# scope, record, player, order_at (bigint x4); mu, sigma, ordinal; rank (smallint); score,
# games, wins (integer); score_total (bigint): HISTORY_COLUMNS' columns and types.
HISTORY_ROW = struct.Struct("!h" + "iq" * 4 + "id" * 3 + "ih" + "ii" * 3 + "iq")
# scope, record, order_at; the 16 characters of the fingerprint: APPLICATION_COLUMNS'.
APPLICATION_ROW = struct.Struct("!h" + "iq" * 3 + "i16s")


def scope_recompute(*, scope: RatingScope, start: Key | None = None) -> int:
    """Recompute ``scope`` from ``start`` (None: from nothing); the caller holds its lock.

    Returns how many records were applied. From a point, only the records whose
    ratings can change are applied again (:func:`_recompute_from`).
    """
    if start is not None:
        applied = _recompute_from(scope, start)
    else:
        # Read whole before the first write: on PostgreSQL the read is a stream, which
        # holds the connection until its last row.
        outcomes = [o for o in _outcomes(scope_records(scope)) if o.rateable]
        RatingHistory.objects.filter(scope=scope).delete()
        RatingApplication.objects.filter(scope=scope).delete()
        PlayerRating.objects.filter(scope=scope).delete()
        states: dict[int, PlayerState] = {}
        with _indexes_rebuilt_after(
            scope,
            {
                RatingHistory: sum(len(o.players) for o in outcomes),
                RatingApplication: len(outcomes),
            },
        ):
            for offset in range(0, len(outcomes), WRITE_BATCH):  # written a batch at a time
                _batch_apply(scope, outcomes[offset : offset + WRITE_BATCH], states)
        _ratings_save(scope, dict(states), fresh=True)
        applied = len(outcomes)
    previous = (
        RatingApplication.objects.filter(scope=scope)
        .order_by("-order_at", "-record_id")
        .values_list("order_at", "record_id")
        .first()
    )
    scope.last_at, scope.last_record_id = previous if previous else (None, None)
    scope.recomputes += 1
    scope.save(update_fields=["last_at", "last_record_id", "recomputes", "updated_at"])
    return applied


@contextmanager
def _indexes_rebuilt_after(scope: RatingScope, rows: dict[type, int]) -> Iterator[None]:
    """On PostgreSQL, while a recompute from nothing writes ``rows[model]`` rows of ``scope``
    into each table, the table goes without its secondary indexes, rebuilt after.

    A row copied into an indexed table is also inserted into each index, one descent
    per row (a player's index in no useful order): at 100,000 records the history's
    indexes cost three times its rows. Building an index sorts the whole table once,
    so it is cheaper only where this scope's new rows are most of the table: done for
    a table whose other scopes hold fewer rows than this one writes. Dropping an index
    takes the table's exclusive lock until the transaction ends (other writers and
    the pages that read the table wait for this scope's commit, seconds at 100,000
    records), so it is taken without waiting (``NOWAIT``): a table anyone is using
    now keeps its indexes and this recompute pays for them row by row. The drops and
    builds are in the caller's transaction, so a failure puts the indexes back with
    the rows. The primary key stays (a row's id is drawn as it is written).
    """
    if connection.vendor != "postgresql":
        yield
        return
    rebuilt: list[str] = []
    with connection.cursor() as cursor:
        for model, count in rows.items():
            table = model._meta.db_table
            cursor.execute(
                f"SELECT count(*) FROM (SELECT 1 FROM {table} WHERE scope_id <> %s LIMIT %s) t",
                [scope.pk, count],
            )
            (others,) = cursor.fetchone()
            if count == 0 or others >= count:
                continue
            try:
                with transaction.atomic():  # a savepoint: a refused lock undoes only itself
                    cursor.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE NOWAIT")
            except OperationalError:
                logger.info("ratings: %s in use, its indexes stay during the recompute", table)
                continue
            rebuilt.extend(_indexes_drop(cursor, table))
    yield
    with connection.cursor() as cursor:
        for statement in rebuilt:
            cursor.execute(statement)


def _indexes_drop(cursor: Any, table: str) -> list[str]:
    """Drop ``table``'s indexes and unique constraints but its primary key; returns the
    statements that make them again (PostgreSQL's own definitions of them)."""
    cursor.execute(
        """
        SELECT c.conname, pg_get_constraintdef(c.oid), i.indexrelid::regclass::text,
            pg_get_indexdef(i.indexrelid)
        FROM pg_index i
        LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid AND c.conrelid = i.indrelid
        WHERE i.indrelid = %s::regclass AND NOT i.indisprimary
        ORDER BY i.indexrelid
        """,
        [table],
    )
    again = []
    for constraint, constraint_def, index, index_def in cursor.fetchall():
        if constraint is not None:
            cursor.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{constraint}"')
            again.append(f'ALTER TABLE {table} ADD CONSTRAINT "{constraint}" {constraint_def}')
        else:
            cursor.execute(f"DROP INDEX {index}")
            again.append(index_def)
    return again


def _recompute_from(scope: RatingScope, start: Key) -> int:
    """Bring the scope's records from ``start`` on up to date; returns how many were applied.

    A record's ratings depend only on its players' states before it, so only the
    records downstream of a change are applied again: the changed ones (counted but
    not applied, applied with another key or result, applied but no longer counted:
    a late record, a correction, a void, records ingested out of order) and, in
    order, every later record that seats a player of one already redone (or of a
    removed one). Each such player resumes from their last history row before the
    first record of theirs that is redone; the other records keep their rows.
    """
    records = scope_records(scope).filter(
        Q(order_at__gt=start[0]) | Q(order_at=start[0], id__gte=start[1])
    )
    outcomes = [o for o in _outcomes(records) if o.rateable]
    counted = {o.record_id: o for o in outcomes}
    stored = {
        record_id: (at, fingerprint)
        for record_id, at, fingerprint in RatingApplication.objects.filter(scope=scope)
        .filter(_from(start))
        .values_list("record_id", "order_at", "fingerprint")
    }
    stale = {
        record_id
        for record_id, (at, fingerprint) in stored.items()
        if (o := counted.get(record_id)) is None or (o.order_at, o.fingerprint) != (at, fingerprint)
    }
    # Each player whose ratings change, from which key on (the first record of theirs
    # redone or removed).
    since: dict[int, Key] = {}
    if stale:
        for player, at, record_id in (
            RatingHistory.objects.filter(scope=scope, record_id__in=stale)
            .filter(_from(start))
            .values_list("player_id", "order_at", "record_id")
        ):
            since[player] = min(since.get(player, (at, record_id)), (at, record_id))
    redo: list[Outcome] = []
    for outcome in outcomes:
        key = outcome.key
        if (
            outcome.record_id not in stored
            or outcome.record_id in stale
            or any(p in since and since[p] < key for p in outcome.players)
        ):
            redo.append(outcome)
            for p in outcome.players:
                if p not in since or key < since[p]:
                    since[p] = key
    gone = stale | {o.record_id for o in redo if o.record_id in stored}
    if gone:
        RatingHistory.objects.filter(scope=scope, record_id__in=gone).filter(_from(start)).delete()
        RatingApplication.objects.filter(scope=scope, record_id__in=gone).delete()
    states = _restore_each(scope, since)
    for offset in range(0, len(redo), WRITE_BATCH):
        _batch_apply(scope, redo[offset : offset + WRITE_BATCH], states)
    _ratings_save(scope, {p: states.get(p) for p in since})
    return len(redo)


def _restore_each(scope: RatingScope, since: dict[int, Key]) -> dict[int, PlayerState]:
    """Each player's state just before their key: their last history row before it."""
    if not since:
        return {}
    if connection.vendor == "postgresql":  # one query, one index descent per player
        players = list(since)
        with connection.cursor() as cursor:
            cursor.execute(
                f"""
                SELECT t.player_id, h.mu, h.sigma, h.games, h.wins, h.score_total, h.order_at
                FROM unnest(%s::bigint[], %s::timestamptz[], %s::bigint[])
                    AS t(player_id, at, record_id)
                CROSS JOIN LATERAL (
                    SELECT mu, sigma, games, wins, score_total, order_at
                    FROM {RatingHistory._meta.db_table} h
                    WHERE h.player_id = t.player_id AND h.scope_id = %s
                        AND (h.order_at, h.record_id) < (t.at, t.record_id)
                    ORDER BY h.order_at DESC, h.record_id DESC
                    LIMIT 1
                ) h
                """,
                [
                    players,
                    [since[p][0] for p in players],
                    [since[p][1] for p in players],
                    scope.pk,
                ],
            )
            return {row[0]: PlayerState(*row[1:]) for row in cursor.fetchall()}
    states = {}
    for player, key in since.items():
        row = (
            RatingHistory.objects.filter(scope=scope, player_id=player)
            .exclude(_from(key))
            .order_by("-order_at", "-record_id")
            .first()
        )
        if row is not None:
            states[player] = PlayerState(
                row.mu, row.sigma, row.games, row.wins, row.score_total, row.order_at
            )
    return states


# --- full recompute -------------------------------------------------------------------------


def _current(scope_key: str) -> dict[int, tuple[float, float, int]]:
    return {
        player: (mu, sigma, games)
        for player, mu, sigma, games in PlayerRating.objects.filter(
            scope__key=scope_key
        ).values_list("player_id", "mu", "sigma", "games")
    }


def ratings_rebuild() -> dict[str, int]:
    """Recompute every scope from nothing (and empty the ones nothing counts in any more).

    Each scope in its own transaction under its lock, so workers may keep
    applying new records meanwhile. For each scope that already existed, compares
    the stored ratings with the fresh ones and logs the players that differed
    (beyond 1e-9, or in games): the incremental path should never drift. Returns
    {"scopes": n, "differences": players that differed}.
    """
    specs = all_scope_specs()
    existing = set()
    for key, kind, game, club_id, season_id in RatingScope.objects.values_list(
        "key", "kind", "game", "club_id", "season_id"
    ):
        existing.add(key)
        specs.setdefault(key, ScopeSpec(key, kind, game, club_id, season_id))
    differences = 0
    for key in sorted(specs):
        with transaction.atomic():
            if connection.vendor == "postgresql":
                # A recompute derives everything it writes: should the server crash
                # right after this commit, the next rebuild writes it again, so the
                # commit need not wait for the disk (the database stays consistent).
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL synchronous_commit TO OFF")
            scope = scope_get_locked(specs[key])
            before = _current(key)
            scope_recompute(scope=scope)
            after = _current(key)
        if key in existing:
            drifted = _drift(before, after)
            differences += len(drifted)
            if drifted:
                logger.warning(
                    "ratings drift in %s: %d players differed from a fresh recompute, e.g. %s",
                    key,
                    len(drifted),
                    "; ".join(drifted[:5]),
                )
    return {"scopes": len(specs), "differences": differences}


def _drift(
    before: dict[int, tuple[float, float, int]], after: dict[int, tuple[float, float, int]]
) -> list[str]:
    out = []
    for player in sorted(set(before) | set(after)):
        old, new = before.get(player), after.get(player)
        if (
            old is None
            or new is None
            or old[2] != new[2]
            or abs(old[0] - new[0]) > 1e-9
            or abs(old[1] - new[1]) > 1e-9
        ):
            out.append(f"player {player} was {old}, recomputed {new}")
    return out
