"""Untrusted input made safe before anything else reads it: JSON bodies and whole numbers.

Every JSON body of the API (``core.api.parsers``), every line of a bulk upload or
an import (``replays.bulk_worker``) and every whole-number query parameter goes
through here, so one hostile input is a 400 in the error shape and never reaches
a place that cannot hold it:

- **Depth.** A body nested deeper than ``MAX_DEPTH`` is refused before it is
  parsed: Python code that walks a document (``json.dumps``, the digest, the
  validators) recurses, and a 5,000-deep array overflowed the stack (a 500).
- **UTF-8.** JSON is UTF-8 (RFC 8259); invalid bytes and lone surrogates
  (``"\\ud800"``) are refused: PostgreSQL cannot store them.
- **NUL.** A raw 0x00 byte or a ``\\u0000`` in any string or key is refused and
  the answer names where (the field's path, the line): PostgreSQL's ``text`` and
  ``jsonb`` cannot hold U+0000, so a record or a meta with one failed at the
  insert, and in a bulk batch took the good lines of the batch with it.
- **Numbers.** At most ``MAX_NUMBER_DIGITS`` digits and finite (``1e999`` is
  refused): a 5,000-digit integer raised ``ValueError`` in the standard
  library's parser, and beyond 20 digits orjson silently reads a float.
- **Whole numbers in query strings and forms** are ASCII digits only:
  ``"²".isdigit()`` is true and ``int("²")`` raises; ``int("٣")`` is 3.

The scan before parsing works on bytes with C-speed operations only (a regular
expression, ``translate``, ``replace``), so a good document costs a few passes
over its brackets; a hostile one at most ``MAX_DEPTH`` passes, bounded by the
body size limit.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

import orjson

from core.errors import BadRequest, ServiceError

MAX_DEPTH = 64  # a giftlog is about 5 deep; options and meta a few more
MAX_NUMBER_DIGITS = 20  # every 64-bit integer fits; more digits is no count or score
INT32_MAX = 2**31 - 1  # the largest value of an ``integer`` column
INT64_MAX = 2**63 - 1

# A JSON string, escapes included (the unrolled loop: linear, no backtracking).
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKETS_ONLY = bytes(b for b in range(256) if b not in b"[]{}")
_CURLY_TO_SQUARE = bytes.maketrans(b"{}", b"[]")
_LONG_NUMBER = re.compile(rb"[0-9]{%d,}" % (MAX_NUMBER_DIGITS + 1))
# ``\u0000`` not itself escaped (an odd number of backslashes before the ``u``).
_NUL_ESCAPE = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000")
_ASCII_WHOLE = re.compile(r"[0-9]+")


class TooLarge(ServiceError):
    """A request body past the size limit this server accepts (413)."""

    status = 413

    def __init__(self, limit: int, *, what: str = "The request body") -> None:
        super().__init__(
            "too_large",
            f"{what} is larger than this server accepts ({limit} bytes at most).",
            limit=limit,
        )


def _where(line: int | None) -> tuple[str, dict[str, Any]]:
    return (f"Line {line}: " if line is not None else ""), (
        {"line": line} if line is not None else {}
    )


def _malformed(message: str, reason: str, line: int | None, **detail: Any) -> BadRequest:
    prefix, where = _where(line)
    return BadRequest("malformed_json", prefix + message, reason=reason, **where, **detail)


@functools.lru_cache(maxsize=8)
def _open_run(limit: int) -> re.Pattern[bytes]:
    return re.compile(rb"\[{%d}" % (limit + 1))


def _too_deep(skeleton: bytes, limit: int) -> bool:
    """Whether the brackets of ``skeleton`` (strings removed) nest deeper than ``limit``.

    ``limit + 1`` openers in a row answer at once. Otherwise the innermost pairs are
    peeled a few times (each pass lowers the depth by one; most documents are then
    empty), and the runs of what is left are summed: a C-speed pass per peel and
    one Python step per run of brackets, never one per byte.
    """
    brackets = skeleton.translate(_CURLY_TO_SQUARE, _BRACKETS_ONLY)
    if _open_run(limit).search(brackets):
        return True
    peeled = 0
    while brackets and peeled < _PEELS:
        shorter = brackets.replace(b"[]", b"")
        if len(shorter) == len(brackets):
            break
        brackets, peeled = shorter, peeled + 1
    depth = deepest = 0
    for run in _RUNS.findall(brackets):
        if run[0] == _OPEN:
            depth += len(run)
            deepest = max(deepest, depth)
        else:
            depth -= len(run)
    return deepest + peeled > limit


_PEELS = 4
_RUNS = re.compile(rb"\[+|\]+")
_OPEN = ord("[")


def json_scan(data: bytes, *, line: int | None = None, max_depth: int = MAX_DEPTH) -> None:
    """Refuse, before parsing, what no parser or column here should be handed."""
    offset = data.find(b"\x00")
    if offset >= 0:
        prefix, where = _where(line)
        raise BadRequest(
            "nul_character",
            prefix + f"The body holds a NUL byte (0x00) at byte {offset}; text cannot hold it.",
            offset=offset,
            **where,
        )
    skeleton = _STRING.sub(b'""', data)
    if _too_deep(skeleton, max_depth):
        raise _malformed(
            f"The JSON is nested more than {max_depth} levels deep.",
            "too_deep",
            line,
            max_depth=max_depth,
        )
    if _LONG_NUMBER.search(data) and _LONG_NUMBER.search(skeleton):
        raise _malformed(
            f"A number has more than {MAX_NUMBER_DIGITS} digits.",
            "number_too_long",
            line,
            max_digits=MAX_NUMBER_DIGITS,
        )


def nul_path(value: Any) -> str | None:
    """The path (``meta.club``, ``events[3].do``) of the first string or key holding U+0000."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return path or "(the body)"
        elif isinstance(item, dict):
            for key, child in reversed(list(item.items())):
                if "\x00" in key:
                    return f"{path}.{key!r}" if path else repr(key)
                stack.append((f"{path}.{key}" if path else key, child))
        elif isinstance(item, list):
            for index in range(len(item) - 1, -1, -1):
                stack.append((f"{path}[{index}]", item[index]))
    return None


def json_loads(
    data: bytes | str,
    *,
    line: int | None = None,
    max_depth: int = MAX_DEPTH,
    nul_escapes: bool = False,
) -> Any:
    """Parse untrusted JSON: checked as the module says, or a 400 saying what and where.

    ``nul_escapes=True`` lets ``\\u0000`` through: for a bulk upload's JSON array,
    whose items are then checked one by one (one item's NUL refuses that item only).
    """
    if isinstance(data, str):
        try:
            data = data.encode()
        except UnicodeEncodeError:
            raise _malformed("The JSON is not UTF-8 text.", "not_utf8", line) from None
    json_scan(data, line=line, max_depth=max_depth)
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        reason = "not_utf8" if "UTF-8" in str(exc) or "surrogate" in str(exc) else "syntax"
        raise _malformed(f"The body is not valid JSON: {exc}.", reason, line) from None
    if not nul_escapes and b"\\u0000" in data and _NUL_ESCAPE.search(data):
        path = nul_path(value)
        if path is not None:
            prefix, where = _where(line)
            raise BadRequest(
                "nul_character",
                prefix + f"{path} holds a NUL character (\\u0000); text cannot hold it.",
                field=path,
                **where,
            )
    return value


def text_has_nul(values: Mapping[str, Any]) -> str | None:
    """The first key of a query or form mapping whose name or value holds NUL."""
    for key in values:
        if "\x00" in key:
            return key
        getter = getattr(values, "getlist", None)
        items = getter(key) if getter else [values[key]]
        if any(isinstance(v, str) and "\x00" in v for v in items):
            return key
    return None


def whole_number(text: Any, *, low: int = 0, high: int = INT32_MAX) -> int | None:
    """``text`` as a whole number from ``low`` to ``high``, or None.

    ASCII digits only (an optional leading ``-`` when ``low`` is negative), at most
    as many as ``high`` has: ``"²"``, ``"٣"``, ``"1e3"`` and 5,000 digits are None,
    never an exception.
    """
    if not isinstance(text, str):
        return None
    text = text.strip()
    sign = 1
    if text.startswith("-") and low < 0:
        sign, text = -1, text[1:]
    if not _ASCII_WHOLE.fullmatch(text) or len(text) > len(str(max(abs(low), abs(high)))):
        return None
    value = sign * int(text)
    return value if low <= value <= high else None
