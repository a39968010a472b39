"""Bulk import: many records per transaction, every check in a process pool.

Why a module of its own: storing one record at a time costs about 13 round
trips and 2 commits per record (docs/performance.md). Here a batch of lines is

1. sent as raw JSON to worker processes (:mod:`replays.bulk_worker`), which parse
   each line (orjson), check its envelope, compute its digest, run every rules
   check of :func:`replays.validation.log_validate` (speed never skips
   validation) and encode the columns it is stored with;
2. looked up by digest in one query: a stored game is "present" (its given
   result checked against the stored one, as for a single upload), whatever
   its check said, as if it had not been checked;
3. written in one transaction: players resolved once, the records with one
   ``COPY`` (or ``INSERT ... ON CONFLICT (digest) DO NOTHING`` when a concurrent
   import stored one of them: the loser reports it "present"), the seats, and
   one outbox row naming every record of the batch.

While batch k is written, batch k+1 is being checked. The importing process only
reads lines, looks digests up and writes, so the pool's processes take the rest.
Each line keeps its own outcome (stored / present / refused with the step and
reason); a refused line stores nothing and does not affect the others.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import islice
from multiprocessing import current_process, get_context
from typing import IO, Any

import orjson
from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError, connection, transaction
from django.utils import timezone

from core.errors import BadRequest, ServiceError, Unprocessable
from core.inputs import MAX_DEPTH, json_loads
from replays import outbox
from replays.bulk_worker import LineChecked, lines_check, worker_init
from replays.handles import player_name_problems, player_names_error
from replays.models import Player, Record, Seat
from replays.validation import result_check

logger = logging.getLogger(__name__)

BATCH_SIZE = int(os.environ.get("BULK_BATCH", "250"))
INSERT_ROWS = 200  # rows per INSERT statement (11 parameters each: far below the limit)
FIRST_BATCH = int(os.environ.get("BULK_FIRST_BATCH", "32"))  # see records_import
POOL_MIN = 16  # fewer new records than this in a batch: check them in this process


@dataclass
class BulkOutcome:
    """What happened to one document of a bulk upload."""

    line: int
    status: str  # "stored", "present" or "refused"
    record_id: int | None = None
    game: str | None = None
    players: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    error: ServiceError | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"line": self.line, "status": self.status}
        if self.record_id is not None:
            data["id"] = self.record_id
            data["game"] = self.game
            data["players"] = self.players
            data["result"] = self.result
        if self.error is not None:
            data["error"] = self.error.as_dict()
        return data


def not_stored(line: int) -> BulkOutcome:
    """The outcome of a line the import could not write (the database went away)."""
    return BulkOutcome(
        line,
        "refused",
        error=ServiceError(
            "not_stored",
            "The database connection was lost before this record was stored; "
            "import it again (records already stored are reported as present).",
        ),
    )


# --- reading --------------------------------------------------------------------------


def lines_read(stream: IO[bytes]) -> Iterator[tuple[int, Any]]:
    """(line number, raw line) pairs from a binary stream, without reading NDJSON whole.

    NDJSON streams line by line (flat memory whatever the file size). A body whose
    first line is not a JSON object on its own (a JSON array, one pretty-printed
    document) is read whole (the request's size limit bounds it): an array gives one
    item per "line", re-encoded, a single document one line. Every line is parsed
    and checked later, on its own (``replays.bulk_worker``), so one hostile line is
    refused with its number and the others are still stored.
    """
    number = 0
    for raw in stream:
        number += 1
        if raw.strip():
            break
    else:
        return
    try:
        first = orjson.loads(raw) if len(raw) < _FIRST_LINE_PEEK else None
    except orjson.JSONDecodeError:
        first = None
    if not isinstance(first, dict):
        yield from _whole_read(b"\n" * (number - 1) + raw + stream.read())
        return
    yield number, raw
    for raw in stream:
        number += 1
        if raw.strip():
            yield number, raw


_FIRST_LINE_PEEK = 4 << 20  # a longer first line is checked with the rest, not peeked at


def _whole_read(body: bytes) -> Iterator[tuple[int, Any]]:
    """A body that is not NDJSON: a JSON array (an item per line), one document, or lines.

    Parsed with the same checks as any JSON body (one level deeper for the array
    itself); a body that does not parse as a whole is split into lines, each then
    refused or stored on its own.
    """
    try:
        whole = json_loads(body, max_depth=MAX_DEPTH + 1, nul_escapes=True)
    except ServiceError:
        whole = None
    else:
        if isinstance(whole, list):
            for index, item in enumerate(whole, start=1):
                yield index, _item_bytes(item)
            return
        yield 1, body
        return
    for number, line in enumerate(body.split(b"\n"), start=1):
        if line.strip():
            yield number, line


def _item_bytes(item: Any) -> Any:
    try:
        return orjson.dumps(item)
    except TypeError:  # beyond orjson (cannot happen after json_loads): checked as it is
        return item


# --- the rules check, in worker processes ---------------------------------------------

_POOL: ProcessPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def validation_pool() -> ProcessPoolExecutor | None:
    """The process pool for rules checks (``IMPORT_WORKERS`` processes; 0: none).

    Children come from a ``forkserver``: small fresh processes that import the
    engines once (``worker_init``, no Django apps) and only ever run
    :func:`replays.bulk_worker.lines_check` (no database). Forking the request
    process instead was measured slower: every page the child touches of a
    large parent is copied (docs/performance.md, "Import").
    """
    global _POOL
    workers = getattr(settings, "IMPORT_WORKERS", os.cpu_count() or 1)
    if workers <= 0 or current_process().daemon:  # a Celery pool child may not fork
        return None
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ProcessPoolExecutor(
                max_workers=workers,
                mp_context=get_context("forkserver"),
                initializer=worker_init,
                initargs=(os.getpid(),),  # each child ends when this process does
            )
        return _POOL


def validation_pool_start() -> None:
    """Start the pool's processes now instead of on the first bulk upload.

    A web worker calls it when it starts (config/gunicorn.py): starting the
    forkserver and its children (each importing the engines) took 0.6 s that the
    first bulk upload of every web worker waited for. The start-up runs in the
    children, so the web worker is ready at once; ``IMPORT_POOL_PRESTART=0`` leaves
    the pool to the first upload (a web server that never imports saves the memory:
    about 30 MB a child).
    """
    pool = validation_pool()
    if pool is None:
        return
    for _ in range(getattr(settings, "IMPORT_WORKERS", 1)):
        pool.submit(worker_init)


_ERRORS = {cls.__name__: cls for cls in (ServiceError, BadRequest, Unprocessable)}


def _error_rebuild(kind: str, data: tuple[str, str, dict[str, Any]]) -> ServiceError:
    code, message, detail = data
    return _ERRORS.get(kind, ServiceError)(code, message, **detail)


# --- one batch ------------------------------------------------------------------------


@dataclass
class _Batch:
    order: list[int] = field(default_factory=list)  # line numbers in input order
    checks: list[Future | list[LineChecked]] = field(default_factory=list)


def _payload(item: Any) -> Any:
    """What a pool worker is sent for one line: raw JSON bytes whenever possible.

    A document already parsed (from a JSON array read whole) is encoded again:
    orjson's bytes cost less to send than pickling the nested events.
    """
    if isinstance(item, bytes | json.JSONDecodeError):
        return item
    try:
        return orjson.dumps(item)
    except TypeError:  # orjson refuses it (an integer beyond 64 bits): the document itself
        return item


def _batch_prepare(items: list[tuple[int, Any]]) -> _Batch:
    """Start the checks of a batch's lines: in the pool, or here for a small batch."""
    batch = _Batch(order=[line for line, _ in items])
    pool = validation_pool() if len(items) >= POOL_MIN else None
    if pool is None:
        batch.checks.append(lines_check(items))
        return batch
    payload = [(line, _payload(item)) for line, item in items]
    workers = getattr(settings, "IMPORT_WORKERS", 1)
    size = max(1, -(-len(payload) // (workers * 2)))
    for start in range(0, len(payload), size):
        batch.checks.append(pool.submit(lines_check, payload[start : start + size]))
    return batch


def _refused(checked: LineChecked) -> BulkOutcome:
    assert checked.error is not None
    return BulkOutcome(checked.line, "refused", error=_error_rebuild(*checked.error))


def _present(
    line: int, given: dict[str, Any] | None, known: tuple[int, dict, list[str]], game: str
) -> BulkOutcome:
    record_id, result, players = known
    try:
        result_check(given, result)
    except ServiceError as exc:
        return BulkOutcome(line, "refused", error=exc)
    return BulkOutcome(line, "present", record_id, game, players, result)


def _records_by_digest(digests: set[str]) -> dict[str, tuple[int, dict, list[str]]]:
    """Stored records among ``digests``: id, result and player names in seat order."""
    if not digests:
        return {}
    rows = list(Record.objects.filter(digest__in=digests).values_list("id", "digest", "result"))
    names: dict[int, list[str]] = {}
    seats = Seat.objects.filter(record_id__in=[r[0] for r in rows]).order_by("record_id", "seat")
    for record_id, name in seats.values_list("record_id", "player__name"):
        names.setdefault(record_id, []).append(name)
    return {digest: (pk, result, names.get(pk, [])) for pk, digest, result in rows}


def _batch_finish(batch: _Batch, *, submitted_by: Any) -> list[BulkOutcome]:
    """Wait for the checks, answer the games already stored, write the new valid ones."""
    checked: list[LineChecked] = []
    for check in batch.checks:
        checked.extend(check.result() if isinstance(check, Future) else check)
    known = _records_by_digest({c.digest for c in checked if c.digest is not None})
    outcomes: dict[int, BulkOutcome] = {}
    valid: list[LineChecked] = []
    for item in checked:
        if item.digest is not None and item.digest in known:  # stored before: as if unchecked
            outcomes[item.line] = _present(
                item.line, item.given, known[item.digest], item.game or ""
            )
        elif item.error is not None:
            outcomes[item.line] = _refused(item)
        else:
            valid.append(item)
    problems = player_name_problems({name for item in valid for name in item.players or ()})
    if problems:
        kept = []
        for item in valid:
            error = player_names_error(list(item.players or ()), problems)
            if error is None:
                kept.append(item)
            else:
                outcomes[item.line] = BulkOutcome(item.line, "refused", error=error)
        valid = kept
    if valid:
        outcomes.update(_batch_store(valid, submitted_by=submitted_by))
    return [outcomes[line] for line in batch.order]


def _batch_store(valid: list[LineChecked], *, submitted_by: Any) -> dict[int, BulkOutcome]:
    firsts: dict[str, LineChecked] = {}
    for item in valid:
        firsts.setdefault(item.digest or "", item)
    outcomes: dict[int, BulkOutcome] = {}
    with transaction.atomic():
        players = players_resolve({name for c in firsts.values() for name in c.players or ()})
        bots = set(
            Player.objects.filter(pk__in=players.values(), kind=Player.Kind.BOT).values_list(
                "name", flat=True
            )
        )
        for item in firsts.values():  # a game with a bot seat is bot play (as record_submit)
            item.simulated = item.simulated or not bots.isdisjoint(item.players or ())
        inserted = _records_insert(firsts, submitted_by=submitted_by)
        seats = []
        for digest, record_id in inserted.items():
            first = firsts[digest]
            winners = set((first.result or {}).get("winners", []))
            seats.extend(
                (record_id, players[name], seat, seat in winners)
                for seat, name in enumerate(first.players or ())
            )
        _seats_insert(seats)
        lost = _records_by_digest(set(firsts) - set(inserted))  # stored meanwhile by another
        if inserted:
            outbox.records_announce(record_ids=list(inserted.values()), batch=True)
    for item in valid:
        digest, game, players_ = item.digest or "", item.game or "", list(item.players or ())
        first = firsts[digest]
        if digest in inserted and item is first:
            outcomes[item.line] = BulkOutcome(
                item.line, "stored", inserted[digest], game, players_, item.result
            )
        elif digest in inserted:
            known = (inserted[digest], first.result or {}, list(first.players or ()))
            outcomes[item.line] = _present(item.line, item.given, known, game)
        else:
            outcomes[item.line] = _present(item.line, item.given, lost[digest], game)
    return outcomes


def players_resolve(names: set[str]) -> dict[str, int]:
    """Player ids by name, creating the missing ones: two queries for a whole batch."""
    found = dict(Player.objects.filter(name__in=names).values_list("name", "id"))
    missing = sorted(names - set(found))  # sorted: concurrent batches lock in one order
    if missing:
        now = timezone.now()
        Player.objects.bulk_create(
            [Player(name=name, created_at=now) for name in missing], ignore_conflicts=True
        )
        found.update(Player.objects.filter(name__in=missing).values_list("name", "id"))
    return found


def _json(value: Any) -> str:
    return orjson.dumps(value).decode()


_COLUMNS = (
    "game, kind, digest, options, meta, events, result, num_events, played_at, simulated, "
    "submitted_by_id, created_at, replay_facts"
)
_STAGING = "bulk_record_staging"


def _record_rows(firsts: dict[str, LineChecked], *, submitted_by: Any) -> list[tuple[Any, ...]]:
    """The rows of the batch's records, in the column order of ``_COLUMNS``.

    Datetimes go through the backend's own adaptation, as the ORM's writes do: a
    raw cursor on SQLite would store an aware datetime as ``...+00:00`` text,
    which compares as later than the ORM's ``...`` of the same instant, so keyset
    paging over ``played_at``/``created_at`` (the ratings) would never advance.
    """
    adapt = connection.ops.adapt_datetimefield_value
    now = adapt(timezone.now())
    user_id = getattr(submitted_by, "pk", None)
    rows = []
    for digest in sorted(firsts):  # one order for every importer: no deadlock between two
        item = firsts[digest]
        rows.append(
            (
                item.game,
                item.kind,
                digest,
                item.options_json,
                item.meta_json,
                item.events_json,
                _json(item.result),
                item.num_events,
                adapt(item.played_at),
                item.simulated,
                user_id,
                now,
                item.facts_json or None,
            )
        )
    return rows


def _records_insert(firsts: dict[str, LineChecked], *, submitted_by: Any) -> dict[str, int]:
    """Insert the batch's records, skipping digests already stored; returns {digest: id}.

    On PostgreSQL the rows go through ``COPY`` into a temporary staging table
    and one ``INSERT ... SELECT ... ON CONFLICT (digest) DO NOTHING``; elsewhere
    (SQLite in development) through multi-row inserts with the same conflict rule.
    """
    rows = _record_rows(firsts, submitted_by=submitted_by)
    table = Record._meta.db_table
    inserted: dict[str, int] = {}
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            try:
                return _records_copy(cursor, rows)
            except IntegrityError:  # another import stored one of them meanwhile
                pass
            cursor.execute(
                f"CREATE TEMPORARY TABLE IF NOT EXISTS {_STAGING} "
                "(game text, kind text, digest text, options jsonb, meta jsonb, events jsonb, "
                "result jsonb, num_events integer, played_at timestamptz, simulated boolean, "
                "submitted_by_id integer, created_at timestamptz, replay_facts jsonb) "
                "ON COMMIT DELETE ROWS"
            )
            staging = f"COPY {_STAGING} ({_COLUMNS}) FROM STDIN"
            with connection.wrap_database_errors, cursor.cursor.copy(staging) as copy:
                for row in rows:
                    copy.write_row(row)
            cursor.execute(
                f"INSERT INTO {table} ({_COLUMNS}) SELECT {_COLUMNS} FROM {_STAGING} "
                "ORDER BY digest ON CONFLICT (digest) DO NOTHING RETURNING id, digest"
            )
            inserted.update((digest, pk) for pk, digest in cursor.fetchall())
            cursor.execute(f"TRUNCATE {_STAGING}")
            return inserted
        row_sql = "(" + ", ".join(["%s"] * len(rows[0])) + ")" if rows else ""
        for start in range(0, len(rows), INSERT_ROWS):
            chunk = rows[start : start + INSERT_ROWS]
            cursor.execute(
                f"INSERT INTO {table} ({_COLUMNS}) VALUES {', '.join([row_sql] * len(chunk))} "
                "ON CONFLICT (digest) DO NOTHING RETURNING id, digest",
                [value for row in chunk for value in row],
            )
            inserted.update((digest, pk) for pk, digest in cursor.fetchall())
    return inserted


def _records_copy(cursor: Any, rows: list[tuple[Any, ...]]) -> dict[str, int]:
    """The fast path: ids drawn from the sequence, then one ``COPY`` straight into the table.

    Inside a savepoint: if a digest was stored meanwhile (the unique index
    refuses the COPY), nothing of it stays and the caller takes the path that
    skips conflicts row by row.
    """
    table = Record._meta.db_table
    cursor.execute(
        f"SELECT nextval(pg_get_serial_sequence('{table}', 'id')) FROM generate_series(1, %s)",
        [len(rows)],
    )
    ids = [pk for (pk,) in cursor.fetchall()]
    sql = f"COPY {table} (id, {_COLUMNS}) FROM STDIN"
    # The raw cursor's COPY bypasses Django's error translation: wrapped, a unique
    # violation is an IntegrityError and a lost connection an OperationalError.
    with transaction.atomic(), connection.wrap_database_errors, cursor.cursor.copy(sql) as copy:
        for pk, row in zip(ids, rows, strict=True):
            copy.write_row((pk, *row))
    return {row[2]: pk for pk, row in zip(ids, rows, strict=True)}


def _seats_insert(seats: list[tuple[int, int, int, bool]]) -> None:
    table = Seat._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            sql = f"COPY {table} (record_id, player_id, seat, won) FROM STDIN"
            with connection.wrap_database_errors, cursor.cursor.copy(sql) as copy:
                for seat in seats:
                    copy.write_row(seat)
            return
        for start in range(0, len(seats), 1000):
            chunk = seats[start : start + 1000]
            cursor.execute(
                f"INSERT INTO {table} (record_id, player_id, seat, won) VALUES "
                + ", ".join(["(%s, %s, %s, %s)"] * len(chunk)),
                [value for seat in chunk for value in seat],
            )


# --- the whole import -----------------------------------------------------------------


def records_import(
    items: Iterable[tuple[int, Any]],
    *,
    submitted_by: Any = None,
    batch_size: int = BATCH_SIZE,
    raise_on_lost: bool = False,
) -> Iterator[BulkOutcome]:
    """Import (line, raw line or document) pairs in batches; yields each line's outcome.

    While batch k is written, batch k+1 is already being checked in the pool.
    If the database connection is lost, the batches committed before stay and
    every line not yet written is reported refused with ``not_stored`` (or,
    with ``raise_on_lost``, the error propagates: an import job's chunk is then
    retried whole).
    """
    iterator = iter(items)
    pending: _Batch | None = None
    # The first batches are small and grow to ``batch_size``: nothing can be written
    # while the first batch is checked, so a small one starts the pipeline sooner.
    size = min(batch_size, FIRST_BATCH)
    while True:
        chunk = list(islice(iterator, size))
        size = min(batch_size, size * 2)
        try:
            prepared = _batch_prepare(chunk) if chunk else None
        except (OperationalError, InterfaceError) as exc:
            if raise_on_lost or not _connection_is_lost(exc):
                raise
            yield from _connection_lost(exc, [pending], chunk, iterator)
            return
        if pending is not None:
            try:
                finished = _batch_finish(pending, submitted_by=submitted_by)
            except (OperationalError, InterfaceError) as exc:
                if raise_on_lost or not _connection_is_lost(exc):
                    raise
                yield from _connection_lost(exc, [pending, prepared], [], iterator)
                return
            yield from finished
        if prepared is None:
            return
        pending = prepared


# SQLSTATEs that say the connection itself is gone: class 08 (connection exception)
# and 57P01-57P03 (the server shut the session down, e.g. pg_terminate_backend).
_LOST_STATES = ("08", "57P01", "57P02", "57P03")


def _connection_is_lost(exc: Exception) -> bool:
    """The connection is gone (not a real error such as a missing table).

    Read from the error itself first: asking the connection afterwards (``is_usable``)
    can answer yes for a session the server has just terminated.
    """
    if isinstance(exc, InterfaceError):
        return True
    state = getattr(exc.__cause__, "sqlstate", None) or ""
    if state.startswith(_LOST_STATES):
        return True
    try:
        return connection.connection is None or not connection.is_usable()
    except Exception:
        return True


def _connection_lost(
    exc: Exception,
    batches: list[_Batch | None],
    chunk: list[tuple[int, Any]],
    rest: Iterator[tuple[int, Any]],
) -> Iterator[BulkOutcome]:
    """A line whose envelope was refused keeps that outcome; every other line not yet
    written is not stored (even one the rules refused: whether it is stored already,
    "present", could not be looked up)."""
    logger.warning("bulk import stopped, the database connection was lost: %s", exc)
    for batch in batches:
        if batch is not None:
            refused = {
                item.line: _refused(item)
                for check in batch.checks
                for item in (check.result() if isinstance(check, Future) else check)
                if item.digest is None
            }
            for line in batch.order:
                yield refused.get(line) or not_stored(line)
    for line, _ in chunk:
        yield not_stored(line)
    for line, _ in rest:
        yield not_stored(line)
