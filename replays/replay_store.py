"""A long record's prepared replay kept in the database: its state snapshots and timelines.

Why: ``replays.state_cache`` and ``replays.timeline`` keep them in the cache only, for a
day; after a Redis restart, an eviction or a day, the next first visit of a step or a
timeline replayed the whole log again (hundreds of ms for a 4,620-event GiftTRAP game,
docs/performance.md, "Stored snapshots and timelines"). A finished record never changes,
so what was prepared once can be kept: readers go to the cache first, then here (and put
what they found back in the cache), and only then replay the log (and store the result).

Kept small: one row per record and build for the snapshots (all of them in one
compressed blob, ``StoredSnapshots``) and one per record and viewer for the timelines
(the API's JSON bytes, compressed, ``StoredTimeline``), only for records of at least
``STORE_MIN_EVENTS`` events (a shorter one is replayed in a few ms) and never for a live
game. Every row names what it was made from (the record's digest, the code's version,
the build, the players' names for a timeline): a row that does not match is absent,
and the next reader replaces it. A seat's timeline tells that seat's hidden cards: the
seat is part of its key, and it is read back only for that seat.

Like the cache, a copy and never a source of truth: every failure to read or write here
is logged and the caller replays the log. Reads and writes both live here (it is a
storage layer, like the cache), called from the read paths that fill it.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
import zlib
from collections.abc import Iterable, Sequence

from django.db import DatabaseError, transaction

from replays.models import StoredSnapshots, StoredTimeline

logger = logging.getLogger(__name__)

#: Records this long or longer are kept (the replay's preparation, ``replays.viewer_warm``,
#: prepares the same ones).
STORE_MIN_EVENTS = 500
LEVEL = 6  # zlib: the snapshots of the longest game shrink 8x, in ~15 ms once per record


def worth_storing(num_events: int) -> bool:
    return num_events >= STORE_MIN_EVENTS


def players_key(players: Sequence[str]) -> str:
    """A fingerprint of the names a timeline was told with (names hold any character)."""
    return hashlib.sha256("\0".join(players).encode()).hexdigest()[:32]


def _viewer(seat: int | None) -> int:
    return StoredTimeline.EVERYONE if seat is None else seat


# --- snapshots ---------------------------------------------------------------------------


def snapshots_read(
    *, record_id: int, build: str, version: str, digest: str, every: int
) -> list[bytes] | None:
    """The bundles ``state_cache`` keeps (index ``i``: after ``(i + 1) * every`` events),
    or None when none are stored for this record, build, version, digest and spacing."""
    try:
        data = (
            StoredSnapshots.objects.filter(
                record_id=record_id, build=build, version=version, digest=digest, every=every
            )
            .values_list("data", flat=True)
            .first()
        )
    except DatabaseError as exc:
        logger.warning("stored snapshots of record %s not read: %s", record_id, exc)
        return None
    if data is None:
        return None
    bundles = pickle.loads(zlib.decompress(bytes(data)))
    return bundles if isinstance(bundles, list) else None


def snapshots_write(
    *, record_id: int, build: str, version: str, digest: str, every: int, bundles: list[bytes]
) -> bool:
    """Keep these bundles for the record and build (replacing any older row); False if
    the database refused."""
    data = zlib.compress(pickle.dumps(bundles, pickle.HIGHEST_PROTOCOL), LEVEL)
    row = StoredSnapshots(
        record_id=record_id, build=build, version=version, digest=digest, every=every, data=data
    )
    return _upsert(
        StoredSnapshots,
        row,
        unique=["record", "build"],
        fields=["version", "digest", "every", "data", "stored_at"],
    )


# --- timelines ---------------------------------------------------------------------------


def timeline_read(
    *, record_id: int, seat: int | None, version: str, digest: str, players: Sequence[str]
) -> bytes | None:
    """The timeline's JSON bytes as ``seat`` (None: everyone) saw it, if stored for this
    digest, words' version and names; never another viewer's."""
    viewer = _viewer(seat)
    try:
        found = (
            StoredTimeline.objects.filter(
                record_id=record_id,
                viewer=viewer,
                version=version,
                digest=digest,
                players=players_key(players),
            )
            .values_list("viewer", "body")
            .first()
        )
    except DatabaseError as exc:
        logger.warning("stored timeline of record %s not read: %s", record_id, exc)
        return None
    if found is None or found[0] != viewer:  # the key holds the seat; checked once more
        return None
    return zlib.decompress(bytes(found[1]))


def timeline_write(
    *,
    record_id: int,
    seat: int | None,
    version: str,
    digest: str,
    players: Sequence[str],
    body: bytes,
) -> bool:
    """Keep one viewer's timeline (its JSON bytes), replacing that viewer's older row."""
    row = StoredTimeline(
        record_id=record_id,
        viewer=_viewer(seat),
        version=version,
        digest=digest,
        players=players_key(players),
        body=zlib.compress(body, LEVEL),
    )
    return _upsert(
        StoredTimeline,
        row,
        unique=["record", "viewer"],
        fields=["version", "digest", "players", "body", "stored_at"],
    )


# --- writes that change a record ---------------------------------------------------------


def records_stored_drop(record_ids: Iterable[int], *, timelines_only: bool = False) -> None:
    """Forget what is stored of these records: their log, options or names changed.

    Stale rows are never read (each names its digest and players), so this keeps the
    table from holding rows nobody reads and makes the next preparation's rows the only
    ones. A failure propagates: it runs in the caller's transaction.
    """
    ids = sorted(set(record_ids))
    if not ids:
        return
    StoredTimeline.objects.filter(record_id__in=ids).delete()
    if not timelines_only:
        StoredSnapshots.objects.filter(record_id__in=ids).delete()


def _upsert(
    model: type[StoredSnapshots] | type[StoredTimeline],
    row: StoredSnapshots | StoredTimeline,
    *,
    unique: list[str],
    fields: list[str],
) -> bool:
    """One ``INSERT ... ON CONFLICT DO UPDATE``, in a savepoint: a refused write (the
    table not migrated yet, a lost connection) never breaks the caller's transaction.
    The rows hold no foreign key constraint: a record deleted meanwhile refuses nothing."""
    try:
        with transaction.atomic():
            model.objects.bulk_create(  # type: ignore[attr-defined]
                [row], update_conflicts=True, unique_fields=unique, update_fields=fields
            )
    except DatabaseError as exc:
        logger.warning("%s of record %s not stored: %s", model.__name__, row.record_id, exc)
        return False
    return True
