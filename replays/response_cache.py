"""The JSON bodies of the record endpoints, cached under version tokens that writes replace.

Why: a record's detail, replay steps and timeline, and the record list, are
pure functions of what is stored, and building them (a query, replaying a
log, encoding JSON) cost many times Django's own request cycle
(docs/performance.md, issue 12). The bodies are kept as the bytes the API
answered, under a key naming everything they depend on:

* a record's bodies (detail, step ``k`` as seat ``s`` or everyone, timeline as
  seat ``s`` or everyone) under that record's *token*, which is replaced when
  the record, its seats or its players change, or when it is deleted;
* the list's pages (per query string and host: its links are absolute) under
  the *list token*, replaced by any change to any record, seat, player or
  account.

A token is a random string, never a counter: if the cache forgets it, the
next reader makes a new one, so a body made before a change is never found
again. A reader takes the token *before* it reads the database and writers
replace it *after* they commit: a body built from data older than a change is
stored under a token the change has already dropped. Only the records'
views of a seat are cached per seat, and the seat is part of the key, so one
seat's (or everyone's) body is never served for another. Live games are not
cached here; a record is always a finished game (the upload refuses others).

Each process also keeps the bodies it served last (``LOCAL_BYTES``): a token
names one immutable body, so a copy in memory is as good as the cache's once
the token has been read, and saves fetching a large timeline again. Only the bodies
read through ``body_read`` (timelines, pages, a record's header) are kept so; a step's
body, which ``bodies_read`` reads with its token in one round trip to Redis, never
looks here, and copying each one in (30-60 KB a step of the longest game) churned the
process's memory and pushed the timelines out.

With the cache away (``core.cache``) every read takes a token nobody else knows, so
the body is built from the database; a write's token drop that failed is kept and
sent when the cache answers again, before this process reads from it.
"""

from __future__ import annotations

import hashlib
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse

from core.cache import (
    CACHE_ERRORS,
    TOKEN_MARK,
    cache_failed,
    cache_recovered,
    keys_around,
    shared_redis,
)
from replays.state_cache import BUILD, EVERY, VERSION, WORDS_VERSION

TOKEN_TIMEOUT = 24 * 3600
BODY_TIMEOUT = 3600
LOCAL_BYTES = 32 * 1024 * 1024
LIST_TOKEN = "rc:token:list"


def drawing_version() -> str:
    """A fingerprint of the code that draws a table and a replay page's move list.

    The viewer's cached HTML (a step's table, the page's list of moves, the page's own
    part) is drawn by ``replays/tables/*.py``, ``replays/selectors.py`` and
    ``replays/replay_page.py`` from the engines' views and words (``WORDS_VERSION``); a
    deploy that changes any of them (or the replay templates) changes the keys, so HTML
    drawn by the old code is never served.
    """
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parent
    sources = [
        root / "selectors.py",
        root / "replay_page.py",
        *sorted((root / "tables").glob("*.py")),
        *sorted((root / "templates" / "replays").glob("*.html")),
    ]
    for source in sources:
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:12]


DRAWING_VERSION = drawing_version()


def record_token_name(record_id: int) -> str:
    return f"rc:token:record:{record_id}"


def record_target(record_id: int, variant: str) -> tuple[str, str]:
    return record_token_name(record_id), variant


def header_variant() -> str:
    """What a step's first visit needs of its record (``selectors.record_replay_header``)."""
    return "header:1"


def snapshot_variant(base: int) -> str:
    """The replay state after ``base`` events with the events that follow it
    (``state_cache``'s bundle), kept under the record's token by the replay's
    preparation: a step's first visit reads it with its body and the record's header,
    in one round trip, where the state cache (keyed by the log's digest) was a second.
    Kept as long as bodies (``BODY_TIMEOUT``: a long game's 72 snapshots are ~250 KB, and
    most first visits come soon after an upload); later visits read the state cache.
    Never a body served: it holds every seat's hidden cards."""
    return f"snapshot:{VERSION}:{BUILD}:{EVERY}:{base}"


def detail_variant() -> str:
    return "detail"


def step_variant(step: int, seat: int | None) -> str:
    """A step's body tells the event in words: the words' code is part of its key."""
    return f"step:{WORDS_VERSION}:{step}:{seat}"


def timeline_variant(seat: int | None) -> str:
    return f"timeline:{WORDS_VERSION}:{seat}"


def table_variant(step: int, seat: int | None, *, listed: bool = True) -> str:
    """A step's table drawn as HTML for one viewer: everyone (None) or one seat; with its
    list of moves in words (``listed``) or folded, to be asked for when opened.

    The seat is part of the key, as for the step's JSON: a seat's table shows its own
    hidden cards, and is never the body served to another seat or to everyone.
    """
    return f"table:{WORDS_VERSION}:{DRAWING_VERSION}:{step}:{seat}" + ("" if listed else ":folded")


def page_variant() -> str:
    """The replay page's bulky part (the list of moves, as everyone sees them)."""
    return f"page:{WORDS_VERSION}:{DRAWING_VERSION}"


def page_body_variant(*, embed: bool) -> str:
    """The replay page's own part (everything but the site's header), or the embed's."""
    return f"page-body:{WORDS_VERSION}:{DRAWING_VERSION}:{'embed' if embed else 'page'}"


def list_variant(request: Any) -> str:
    """A list page depends on its query and on the host and scheme its links name."""
    return f"list:{request.scheme}://{request.get_host()}?{request.META.get('QUERY_STRING', '')}"


def body_name(token_name: str, token: str, variant: str) -> str:
    """The key of one body: its token's name and value, and which body (step, seat...)."""
    if len(variant) > 80:  # a list query string: any length, any characters
        variant = hashlib.sha256(variant.encode()).hexdigest()
    return f"rc:body:{token_name}:{token}:{variant}"


class LocalBodies:
    """The bodies this process served last, up to ``limit`` bytes (least recently used out)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self.items: OrderedDict[str, bytes] = OrderedDict()

    def get(self, key: str) -> bytes | None:
        body = self.items.get(key)
        if body is not None:
            self.items.move_to_end(key)
        return body

    def put(self, key: str, body: bytes) -> None:
        if len(body) > self.limit // 4 or key in self.items:
            return
        self.items[key] = body
        self.size += len(body)
        while self.size > self.limit:
            _, old = self.items.popitem(last=False)
            self.size -= len(old)

    def clear(self) -> None:
        self.items.clear()
        self.size = 0


local_bodies = LocalBodies(LOCAL_BYTES)


# --- reads -------------------------------------------------------------------------------


def tokens_read(names: list[str]) -> list[str | None]:
    """The current tokens of ``names`` (None: none yet, or the cache is away)."""
    try:
        client = shared_redis()
        if client is None:
            found = cache.get_many(names)
            return [found.get(name) for name in names]
        values = client.mget([cache.make_key(name) for name in names])
    except CACHE_ERRORS as exc:
        cache_failed(exc)
        return [None] * len(names)
    return [value.decode() if value is not None else None for value in values]


def token_taken(name: str) -> str:
    """The token of ``name``, made now if there is none. Read it before the database."""
    (token,) = tokens_read([name])
    if token is not None:
        return token
    fresh = uuid.uuid4().hex
    try:
        client = shared_redis()
        if client is None:
            if cache.add(name, fresh, TOKEN_TIMEOUT):
                return fresh
            return cache.get(name) or fresh
        key = cache.make_key(name)
        if client.set(key, fresh, ex=TOKEN_TIMEOUT, nx=True):
            return fresh
        won = client.get(key)
    except CACHE_ERRORS as exc:
        # A token nobody else knows: the body is built from the database, and the
        # copy this process keeps under it can never be served after a change.
        cache_failed(exc)
        return fresh
    return won.decode() if won is not None else fresh


def body_read(key: str) -> bytes | None:
    """A cached body: this process's copy, else the shared cache's (then kept here)."""
    body = local_bodies.get(key)
    if body is not None:
        return body
    try:
        client = shared_redis()
        body = cache.get(key) if client is None else client.get(cache.make_key(key))
    except CACHE_ERRORS as exc:
        cache_failed(exc)
        return None
    if body is not None:
        local_bodies.put(key, body)
    return body


def bodies_store(token_name: str, token: str, bodies: dict[str, bytes], timeout: int) -> None:
    """Keep several bodies under a token, in one round trip (not in this process)."""
    named = {body_name(token_name, token, variant): body for variant, body in bodies.items()}
    try:
        client = shared_redis()
        if client is None:
            cache.set_many(named, timeout)
            return
        pipe = client.pipeline(transaction=False)
        for key, body in named.items():
            pipe.set(cache.make_key(key), body, ex=timeout)
        pipe.execute()
    except CACHE_ERRORS as exc:
        cache_failed(exc)


def body_store(key: str, body: bytes, *, read_here: bool = True) -> None:
    """Keep a body in the cache, and in this process (``local_bodies``) when it is read
    here: ``read_here=False`` for a step's body, read only by ``bodies_read``, which
    with Redis never looks in this process (without Redis it reads through ``body_read``,
    so the copy is kept)."""
    try:
        client = shared_redis()
        if client is None:
            cache.set(key, body, BODY_TIMEOUT)
        else:
            client.set(cache.make_key(key), body, ex=BODY_TIMEOUT)
            if not read_here:
                return
    except CACHE_ERRORS as exc:
        cache_failed(exc)
    local_bodies.put(key, body)


# One round trip for a token and a body under it, with what building the body needs if it
# is missing: the token's value, then the body's key made of the token (``ARGV[1] ..
# token .. ARGV[2]``: ``core.cache.keys_around``), then, only if it is missing, the
# others'. Why: a step's first visit read the token, its body, the record's header and a
# snapshot, one round trip each; on a loaded machine each is a wait. A hit returns the
# body alone.
BODIES_SCRIPT = """
local token = redis.call('GET', KEYS[1])
if not token then return {} end
local body = redis.call('GET', ARGV[1] .. token .. ARGV[2])
local out = {token, body}
if body then return out end
for i = 3, #ARGV do out[#out + 1] = redis.call('GET', ARGV[1] .. token .. ARGV[i]) end
return out
"""
BODIES_SCRIPT_SHA = hashlib.sha1(BODIES_SCRIPT.encode()).hexdigest()


def bodies_read(token_name: str, variants: Sequence[str]) -> tuple[str | None, list[bytes | None]]:
    """The token of ``token_name`` (None: none yet) and the bodies of ``variants`` under
    it: the first is the body wanted; the others (what building it needs) are read only
    if it is missing (else None).

    With Redis, in one round trip (``BODIES_SCRIPT``), nothing kept in this process (no
    read of these bodies looks there); without it, through ``body_read``. Nothing is
    made: a caller that needs a token to store under takes it with ``token_taken``.
    """
    missing: list[bytes | None] = [None] * len(variants)
    try:
        client = shared_redis()
    except CACHE_ERRORS as exc:
        cache_failed(exc)
        return None, missing
    if client is None:
        (token,) = tokens_read([token_name])
        if token is None:
            return None, missing
        first = body_read(body_name(token_name, token, variants[0]))
        if first is not None:
            return token, [first, *missing[1:]]
        return token, [None, *(body_read(body_name(token_name, token, v)) for v in variants[1:])]
    from redis.exceptions import NoScriptError

    around = keys_around([body_name(token_name, TOKEN_MARK, variant) for variant in variants])
    command = ("EVALSHA", BODIES_SCRIPT_SHA, 1, cache.make_key(token_name), *around)
    try:
        try:
            reply = client.execute_command(*command)
        except NoScriptError:
            client.script_load(BODIES_SCRIPT)
            reply = client.execute_command(*command)
    except CACHE_ERRORS as exc:
        cache_failed(exc)
        return None, missing
    if not reply:
        return None, missing
    token = reply[0].decode()
    bodies: list[bytes | None] = list(reply[1:]) + [None] * (len(variants) + 1 - len(reply))
    return token, bodies


class StoredAfterResponse(HttpResponse):
    """A response whose body (a step's: its JSON or its table) is stored in the cache once
    it has been sent, and kept in this process only without Redis (``body_store``).

    Why: a body built on a miss was stored before the answer left (one more round trip
    the visitor waited for). The server calls ``close()`` after writing the response; a
    visitor asking the same body in between builds it again, which is harmless (a body
    is a pure function of its key).
    """

    def __init__(self, body: bytes, *, key: str, **kwargs: Any) -> None:
        super().__init__(body, **kwargs)
        self.cache_key = key

    def close(self) -> None:
        try:
            body_store(self.cache_key, self.content, read_here=False)
        finally:
            super().close()


def cached_body(
    token_name: str,
    variant: str,
    build: Callable[[], bytes],
    *,
    keep: Callable[[bytes], bool] | None = None,
) -> bytes:
    """The body ``build`` makes, from the cache while ``token_name``'s token stands.

    The token is taken before ``build`` reads anything; an error in ``build``
    (a 404, a 400) propagates and nothing is stored. ``keep`` says whether a body built
    now is kept: a long game's replay page drawn before the game was told is not (its
    next visitor may find the whole page).
    """
    key = body_name(token_name, token_taken(token_name), variant)
    body = body_read(key)
    if body is None:
        body = build()
        if keep is None or keep(body):
            body_store(key, body)
    return body


# --- writes ------------------------------------------------------------------------------


def tokens_drop(record_ids: Iterable[int] = ()) -> None:
    """Forget the list token and these records' tokens, now and again after commit.

    Now: a reader that takes a fresh token meanwhile and reads the data before the
    commit stores its body under a token the second drop forgets. Called by every
    write that changes what a record endpoint answers (``replays.signals``):
    uploads, bulk imports, result corrections, player merges and renames,
    deletions, account changes.
    """
    names = [LIST_TOKEN, *(record_token_name(pk) for pk in set(record_ids))]
    _delete(names)
    transaction.on_commit(lambda: _delete(names), robust=True)


# Tokens a write could not drop while the cache was away, dropped when it answers again
# (``_owed_drop``): a Redis that comes back with its data must not serve bodies of
# before the change under them.
_owed: set[str] = set()


def _delete(names: list[str]) -> None:
    try:
        client = shared_redis()
        if client is None:
            cache.delete_many(names)
        else:
            client.delete(*(cache.make_key(name) for name in names))
    except CACHE_ERRORS as exc:
        cache_failed(exc)
        _owed.update(names)


@cache_recovered
def _owed_drop(client: Any) -> None:
    """Drop the tokens owed by this process (and the list's), before any other call."""
    names = [LIST_TOKEN, *_owed]
    client.delete(*(cache.make_key(name) for name in names))
    _owed.difference_update(names)


def json_body(data: Any) -> bytes:
    """The API's JSON bytes for ``data`` (the ORJSON renderer, as a response would be)."""
    from core.api.renderers import ORJSONRenderer

    return ORJSONRenderer().render(data)
