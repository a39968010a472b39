"""core.inputs: the checks every JSON body and whole-number parameter goes through."""

from __future__ import annotations

import io
import json
import time

import orjson
import pytest

from core.api.parsers import counted
from core.errors import BadRequest
from core.inputs import (
    INT32_MAX,
    MAX_DEPTH,
    MAX_NUMBER_DIGITS,
    TooLarge,
    json_loads,
    json_scan,
    nul_path,
    whole_number,
)


def _deep(depth: int) -> bytes:
    return b"[" * depth + b"1" + b"]" * depth


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1_000, 1_100, 5_000, 200_000])
def test_nesting_past_the_limit_is_a_400_before_parsing(depth):
    with pytest.raises(BadRequest) as refused:
        json_loads(_deep(depth))
    assert refused.value.code == "malformed_json"
    assert refused.value.detail == {"reason": "too_deep", "max_depth": MAX_DEPTH}


def test_nesting_up_to_the_limit_parses_and_brackets_in_strings_do_not_count():
    assert json_loads(_deep(MAX_DEPTH)) is not None
    text = json.dumps({"a": "[" * 5_000, "b": ["]" * 300, '"\\[[[', {"c": "{{{{"}]})
    assert json_loads(text)["a"] == "[" * 5_000
    mixed = b'{"x": [' + b"{}," * 1000 + b"[[[]]]]}"
    assert json_loads(mixed)["x"][-1] == [[[]]]


def test_unbalanced_brackets_are_malformed_not_too_deep():
    with pytest.raises(BadRequest) as refused:
        json_loads(b"[" * 100_000)
    assert refused.value.detail["reason"] in ("syntax", "too_deep")
    with pytest.raises(BadRequest) as refused:
        json_loads(b'{"a": [1, 2}')
    assert refused.value.detail["reason"] == "syntax"


def test_a_hostile_depth_scan_is_bounded():
    body = _deep(8 << 20)  # 16 MiB of brackets, the size limit
    started = time.perf_counter()
    with pytest.raises(BadRequest):
        json_loads(body)
    assert time.perf_counter() - started < 10


@pytest.mark.parametrize(
    ("body", "path"),
    [
        (b'{"meta": {"club": "a\\u0000b"}}', "meta.club"),
        (b'{"events": [{"do": "x"}, {"do": "\\u0000"}]}', "events[1].do"),
        (b'{"a\\u0000": 1}', "'a\\x00'"),
        (b'"\\u0000"', "(the body)"),
    ],
)
def test_a_nul_escape_is_refused_naming_where(body, path):
    with pytest.raises(BadRequest) as refused:
        json_loads(body, line=7)
    assert refused.value.code == "nul_character"
    assert refused.value.detail == {"field": path, "line": 7}
    assert refused.value.message.startswith("Line 7: ")


def test_an_escaped_backslash_before_u0000_is_text_not_nul():
    assert json_loads(b'{"a": "\\\\u0000"}') == {"a": "\\u0000"}


def test_a_raw_nul_byte_is_refused_with_its_offset():
    with pytest.raises(BadRequest) as refused:
        json_loads(b'{"a": "x\x00"}')
    assert refused.value.code == "nul_character"
    assert refused.value.detail == {"offset": 8}


@pytest.mark.parametrize(
    "body", [b'{"a": "caf\xe9"}', b'{"a": "\xff\xfe"}', b'{"a": "\\ud800"}', b'["\\udfff x"]']
)
def test_text_that_is_not_utf8_is_refused(body):
    with pytest.raises(BadRequest) as refused:
        json_loads(body)
    assert refused.value.code == "malformed_json"
    assert refused.value.detail["reason"] == "not_utf8"


@pytest.mark.parametrize("number", ["9" * 5_000, "1" + "0" * MAX_NUMBER_DIGITS, "-" + "9" * 30])
def test_numbers_past_the_digit_limit_are_refused(number):
    with pytest.raises(BadRequest) as refused:
        json_loads(f'{{"n": {number}}}')
    assert refused.value.detail["reason"] == "number_too_long"


@pytest.mark.parametrize("body", ["[1e999]", "[NaN]", "[Infinity]", "[-1e400]"])
def test_numbers_that_are_not_finite_are_refused(body):
    with pytest.raises(BadRequest) as refused:
        json_loads(body)
    assert refused.value.code == "malformed_json"


def test_digits_inside_strings_are_not_numbers():
    assert json_loads(json.dumps({"id": "9" * 5_000}))["id"] == "9" * 5_000
    assert json_loads(b'{"n": 18446744073709551615}') == {"n": 18446744073709551615}


def test_nul_path_walks_keys_lists_and_values():
    assert nul_path({"a": [1, {"b": "ok"}], "c": "fine"}) is None
    assert nul_path({"a": [1, {"b": "no\x00"}]}) == "a[1].b"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7", 7),
        (" 12 ", 12),
        ("0", 0),
        (str(INT32_MAX), INT32_MAX),
        (str(INT32_MAX + 1), None),
        ("²", None),
        ("٣", None),
        ("\uff11", None),  # fullwidth one
        ("①", None),
        ("9" * 5_000, None),
        ("-1", None),
        ("1.5", None),
        ("1e3", None),
        ("0x10", None),
        ("", None),
        (None, None),
        (3, None),
    ],
)
def test_whole_number_takes_ascii_digits_within_range_only(text, expected):
    assert whole_number(text) == expected


def test_whole_number_bounds():
    assert whole_number("5", low=1, high=4) is None
    assert whole_number("-3", low=-5, high=5) == -3
    assert whole_number("0", low=1) is None


class _Source:
    """A request stream that says how much was read from it."""

    def __init__(self, size: int) -> None:
        self.left, self.read_bytes = size, 0

    def read(self, size: int = -1) -> bytes:
        size = self.left if size < 0 else min(size, self.left)
        self.left -= size
        self.read_bytes += size
        return b"x" * (size - 1) + b"\n" if size else b""


def test_a_counted_stream_stops_just_past_its_limit():
    source = _Source(200 << 20)
    stream = counted(source, limit=3 << 20)
    with pytest.raises(TooLarge) as refused:
        for _ in stream:
            pass
    assert refused.value.status == 413
    assert refused.value.code == "too_large"
    assert source.read_bytes <= (4 << 20) + 1, "read no more than a buffer past the limit"


def test_a_declared_length_past_the_limit_is_refused_before_reading():
    class Request:
        META = {"CONTENT_LENGTH": str(200 << 20)}

    source = _Source(200 << 20)
    with pytest.raises(TooLarge):
        counted(source, limit=1 << 20, parser_context={"request": Request()})
    assert source.read_bytes == 0


def test_a_counted_stream_within_its_limit_reads_everything():
    data = b"".join(b'{"n": %d}\n' % n for n in range(1000))
    assert b"".join(counted(io.BytesIO(data), limit=len(data))) == data


def test_depth_is_counted_across_runs_and_siblings():
    # 70 deep, never more than 40 openers in a row, with leaves to peel on the way.
    body = b"[" * 40 + b"[[[]]]," + b"[" * 30 + b"1" + b"]" * 70
    with pytest.raises(BadRequest):
        json_loads(body)
    fine = b"[" * 40 + b"[[[]]]," + b"[" * 20 + b"1" + b"]" * 60
    assert json_loads(fine) is not None


def test_many_shallow_siblings_are_scanned_in_about_the_time_of_parsing():
    body = b"[" + b",".join([b"[[[[[1]]]]]"] * 200_000) + b"]"
    started = time.perf_counter()
    json_scan(body)
    scanned = time.perf_counter() - started
    started = time.perf_counter()
    orjson.loads(body)
    parsed = time.perf_counter() - started
    assert scanned < 3 * parsed + 0.5
