"""What a bulk import's worker processes run: everything about a line that needs no database.

A module of its own that imports no models at import time: whatever way a
pool child is started, unpickling the function must not need Django's apps.

A worker receives raw JSON lines and sends back small, ready-to-store rows: it
parses the line, checks its envelope, computes its digest, replays it through
its engine (every rules check, and the record's facts in the same pass) and
encodes the columns the record is written with. The importing process then only
looks the digests up and writes; parsing and encoding 8 KB of events per game twice
in that one process was a third of its time, and it is the one process that cannot
be parallel (docs/performance.md, "Import").
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

KIND_LOG = "log"  # replays.models.Record.Kind, spelled here: no models in a worker
KIND_RESULT = "result"


@dataclass(slots=True)
class LineChecked:
    """One line after its checks: enough to answer "present", refuse it, or store it.

    ``digest`` is set whenever the envelope parsed, also when the rules refuse the
    game: a game already stored is "present" whatever its check says, exactly as
    when the digest was looked up before the replay.
    """

    line: int
    digest: str | None = None
    game: str | None = None
    players: list[str] | None = None
    given: dict[str, Any] | None = None  # the result the document states, if any
    result: dict[str, Any] | None = None  # computed by the rules (None when refused)
    error: tuple[str, tuple[str, str, dict[str, Any]]] | None = None  # (class, data)
    # The record's columns, encoded once here (JSON text as stored):
    kind: str = KIND_LOG
    options_json: str = ""
    meta_json: str = ""
    events_json: str = ""
    facts_json: str = ""  # games.facts, from the same replay as the rules check
    num_events: int = 0
    played_at: datetime | None = None
    simulated: bool = False


def worker_init(parent: int | None = None) -> None:
    """A pool child's start: the engines imported, no Django apps (none are needed);
    with ``parent`` (the pid of the process the pool belongs to), a watch that ends the
    child once that process is gone (``parent_watch``)."""
    import replays.validation  # noqa: F401

    if parent is not None:
        parent_watch(parent)


PARENT_POLL_SECONDS = 1.0
_watching: set[int] = set()


def parent_watch(parent: int, *, poll: float = PARENT_POLL_SECONDS) -> None:
    """End this process within ``poll`` seconds of ``parent``'s end, however it ended.

    Why: a pool child waits for work on a queue whose writing end every child holds too,
    so a pool whose owner died without shutting it down (a server stopped by SIGTERM,
    killed, or out of memory) never sees the end of its queue; its children, and the
    forkserver they keep open, then lived on with no owner: three processes left
    behind at each stop of the embedded server (``bin/serve``) that had imported. The
    child's own parent is the forkserver, so it watches the owner's pid instead.
    """
    if parent in _watching:
        return
    _watching.add(parent)

    def watch() -> None:
        while True:
            time.sleep(poll)
            try:
                os.kill(parent, 0)
            except OSError:  # gone (or its pid taken by another user's process): ours ended
                os._exit(0)

    threading.Thread(target=watch, name="pool-parent-watch", daemon=True).start()


def document_load(line: int, item: Any) -> Any:
    """The document of a line: raw JSON parsed with every check of ``core.inputs``.

    Nesting, UTF-8, NUL and number checks refuse the line with its number (a 400
    error in the line's outcome); a parsed document (a caller's own) is taken as it is.
    """
    from core.inputs import json_loads

    if not isinstance(item, bytes | str):
        return item
    return json_loads(item, line=line)


def lines_check(lines: list[tuple[int, Any]]) -> list[LineChecked]:
    """Each (line number, raw JSON bytes or parsed document) checked, in order.

    Refusals travel as plain data (exception classes with their arguments do not
    pickle reliably across processes).
    """
    import orjson

    from core.errors import ServiceError
    from replays.giftlog import giftlog_parse
    from replays.validation import log_validate_with_facts

    checked: list[LineChecked] = []
    for line, item in lines:
        out = LineChecked(line)
        checked.append(out)
        try:
            log = giftlog_parse(document_load(line, item))
            out.digest = log.digest
        except ServiceError as exc:
            out.error = (type(exc).__name__, (exc.code, exc.message, exc.detail))
            continue
        out.game, out.players = log.game, log.players
        out.given = log.table.given if log.table is not None else log.result
        try:
            out.result, facts = log_validate_with_facts(log)
        except ServiceError as exc:
            out.error = (type(exc).__name__, (exc.code, exc.message, exc.detail))
            continue
        out.kind = KIND_LOG if log.table is None else KIND_RESULT
        out.options_json = orjson.dumps(log.options).decode()
        out.meta_json = orjson.dumps(log.meta).decode()
        out.events_json = orjson.dumps(log.events).decode()
        out.facts_json = orjson.dumps(facts).decode()
        out.num_events = len(log.events)
        out.played_at = log.played_at
        out.simulated = log.simulated
    return checked
