"""JSON rendering with orjson: the same bytes as DRF's JSONRenderer, several times faster.

DRF's renderer writes compact UTF-8 JSON, dates as ISO 8601 with ``Z`` for
UTC, and anything else through its encoder. orjson writes the same for
dicts, lists, strings, integers, booleans and null; dates, times, decimals,
UUIDs and lazy strings are handed to DRF's own encoder (``default``), so every
answer keeps its shape. The list of records and a record's replay steps are
where encoding showed in the profile (docs/performance.md).
"""

from __future__ import annotations

from typing import Any

import orjson
from rest_framework.renderers import JSONRenderer
from rest_framework.utils.encoders import JSONEncoder

_ENCODER = JSONEncoder()
_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


class ORJSONRenderer(JSONRenderer):
    def render(self, data: Any, accepted_media_type=None, renderer_context=None) -> bytes:
        if data is None:
            return b""
        if accepted_media_type and "indent" in accepted_media_type:
            return super().render(data, accepted_media_type, renderer_context)
        try:
            out = orjson.dumps(data, default=_ENCODER.default, option=_OPTIONS)
        except TypeError:  # beyond orjson (an integer over 64 bits): the standard path
            return super().render(data, accepted_media_type, renderer_context)
        # As DRF does: U+2028/2029 escaped, so the JSON is also valid JavaScript.
        if b"\xe2\x80\xa8" in out or b"\xe2\x80\xa9" in out:
            out = out.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")
        return out
