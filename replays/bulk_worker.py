"""What a bulk import's worker process runs: the rules check of a few logs.

A module of its own that imports no models at import time: whatever way a
pool child is started, unpickling the function must not need Django's apps.
"""

from __future__ import annotations

from typing import Any


def worker_init() -> None:
    """A pool child's start: the engines imported, no Django apps (none are needed)."""
    import replays.validation  # noqa: F401


def logs_check(logs: list[Any]) -> list[tuple[str, Any]]:
    """Each log's computed result, or its refusal as plain data (exceptions do not pickle).

    A log comes as a parsed :class:`~replays.giftlog.Giftlog` or as the raw
    JSON line it was parsed from: parsing a line again here (orjson, C) costs
    less than pickling the parsed events across processes.
    """
    import orjson

    from replays.errors import ServiceError
    from replays.giftlog import giftlog_parse
    from replays.validation import log_validate

    checked: list[tuple[str, Any]] = []
    for item in logs:
        try:
            log = giftlog_parse(orjson.loads(item)) if isinstance(item, bytes) else item
            checked.append(("ok", log_validate(log)))
        except ServiceError as exc:
            checked.append((type(exc).__name__, (exc.code, exc.message, exc.detail)))
    return checked
