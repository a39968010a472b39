"""The API's body parsers: JSON checked by ``core.inputs``, bodies counted as they are read.

DRF's own ``JSONParser`` reads the stream without Django's size limit
(``DATA_UPLOAD_MAX_MEMORY_SIZE`` applies to ``request.body`` and forms only) and
hands the bytes to the standard library, which overflowed the stack on deep
nesting. Here every JSON body is read up to ``MAX_UPLOAD_BYTES`` (413
``too_large`` past it, refused from ``Content-Length`` before a byte is read),
then parsed by :func:`core.inputs.json_loads`. Streaming uploads (bulk NDJSON,
imports) wrap the request in :func:`counted`, which counts bytes as they are read
and stops at the limit, so the body is never held whole.
"""

from __future__ import annotations

import io
from typing import Any

from django.conf import settings
from rest_framework.exceptions import UnsupportedMediaType
from rest_framework.parsers import BaseParser

from core.inputs import TooLarge, json_loads

CHUNK = 1 << 20


def upload_limit() -> int:
    """The largest request body (``MAX_UPLOAD_BYTES``, Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE``)."""
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 16 * 1024 * 1024)


def import_limit() -> int:
    """The largest NDJSON body of an import job (``MAX_IMPORT_BYTES``)."""
    return int(getattr(settings, "MAX_IMPORT_BYTES", 0) or 256 * 1024 * 1024)


def declared_length(parser_context: dict[str, Any] | None) -> int | None:
    request = (parser_context or {}).get("request")
    meta = getattr(request, "META", {}) if request is not None else {}
    try:
        return int(meta.get("CONTENT_LENGTH") or 0) or None
    except (TypeError, ValueError):
        return None


def charset_check(media_type: str | None) -> None:
    """JSON is UTF-8: another declared charset is 415, not bytes read as something else."""
    for part in (media_type or "").split(";")[1:]:
        name, _, value = part.strip().partition("=")
        if name.strip().lower() == "charset" and value.strip().strip('"').lower() not in (
            "utf-8",
            "utf8",
        ):
            raise UnsupportedMediaType(media_type)


class _Counted(io.RawIOBase):
    """A request stream that raises :class:`TooLarge` once more than ``limit`` bytes came."""

    def __init__(self, stream: Any, limit: int, what: str) -> None:
        self.stream, self.limit, self.what, self.seen = stream, limit, what, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.stream.read(len(buffer))
        self.seen += len(data)
        if self.seen > self.limit:
            raise TooLarge(self.limit, what=self.what)
        buffer[: len(data)] = data
        return len(data)


def counted(
    stream: Any,
    *,
    limit: int,
    parser_context: dict[str, Any] | None = None,
    what: str = "The request body",
) -> io.BufferedReader:
    """The body as a buffered binary stream (1 MiB reads, lines split in C), at most ``limit``.

    A ``Content-Length`` past the limit is refused before anything is read.
    """
    length = declared_length(parser_context)
    if length is not None and length > limit:
        raise TooLarge(limit, what=what)
    if stream is None:
        return io.BufferedReader(io.BytesIO())  # type: ignore[arg-type]
    return io.BufferedReader(_Counted(stream, limit, what), buffer_size=CHUNK)


def body_read(stream: Any, *, limit: int, parser_context: dict[str, Any] | None = None) -> bytes:
    """The whole body (for a JSON document), at most ``limit`` bytes."""
    return counted(stream, limit=limit, parser_context=parser_context).read()


class JSONParser(BaseParser):
    """Every JSON body of the API: size-limited, depth-limited, UTF-8, no NUL, bounded numbers."""

    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None):
        charset_check(media_type)
        return json_loads(body_read(stream, limit=upload_limit(), parser_context=parser_context))
