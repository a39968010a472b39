"""Hostile bulk uploads and imports: a bad line is refused alone, a body past its limit is 413.

A bulk upload answers each line's outcome; a line that is too deep, not UTF-8,
holds NUL or a 5,000-digit number is refused with its line number and the good
lines of the same request are still stored. Bodies are counted as they are read:
past ``MAX_UPLOAD_BYTES`` (bulk, JSON bodies) or ``MAX_IMPORT_BYTES`` (imports) the
answer is 413 ``too_large`` and nothing of the upload is kept.
"""

from __future__ import annotations

import json

import orjson
import pytest

from replays.models import ImportChunk, ImportJob, Record
from tests.integration.services import require_postgres

pytestmark = pytest.mark.django_db(transaction=True)

NDJSON = "application/x-ndjson"


def _line(document: dict) -> bytes:
    return orjson.dumps(document) + b"\n"


def _meta(document: dict, value: bytes) -> bytes:
    """The document as one NDJSON line with ``meta.note`` spelled ``value`` literally."""
    text = orjson.dumps({**document, "meta": {"note": "MARK"}})
    return text.replace(b'"MARK"', value) + b"\n"


def test_hostile_lines_are_refused_by_number_and_the_good_ones_stored(api, make_document):
    first, second, other = (make_document("secret_santa", seed=s) for s in (11, 12, 13))
    body = (
        _line(first)
        + _meta(other, b"[" * 5_000 + b"]" * 5_000)  # line 2: deep
        + _meta(other, b'"caf\xe9"')  # line 3: not UTF-8
        + _meta(other, b"9" * 5_000)  # line 4: a 5,000-digit number
        + _meta(other, b'"a\x00b"')  # line 5: a raw NUL byte
        + _meta(other, b'"\\ud800"')  # line 6: a lone surrogate
        + _meta(other, b"1e999")  # line 7: not finite
        + _line(second)
    )
    response = api.post("/api/records/bulk/", body, content_type=NDJSON)
    assert response.status_code == 200, response.content
    data = response.json()
    assert (data["stored"], data["refused"]) == (2, 6)
    refused = {item["line"]: item["error"] for item in data["items"] if item["status"] == "refused"}
    assert sorted(refused) == [2, 3, 4, 5, 6, 7]
    assert refused[2]["detail"]["reason"] == "too_deep"
    assert refused[3]["detail"]["reason"] == "not_utf8"
    assert refused[4]["detail"]["reason"] == "number_too_long"
    assert refused[5]["code"] == "nul_character"
    assert refused[6]["detail"]["reason"] == "not_utf8"
    assert all(error["detail"]["line"] == line for line, error in refused.items())
    assert Record.objects.count() == 2


@pytest.mark.services
def test_a_nul_character_in_one_line_does_not_lose_the_others_on_postgresql(api, make_document):
    require_postgres()
    good, bad = make_document("gift_swap", seed=21), make_document("gift_swap", seed=22)
    body = _line(good) + _meta(bad, b'"a\\u0000b"') + _line(make_document("gift_swap", seed=23))
    response = api.post("/api/records/bulk/", body, content_type=NDJSON)
    assert response.status_code == 200, response.content
    data = response.json()
    assert (data["stored"], data["refused"]) == (2, 1)
    error = data["items"][1]["error"]
    assert error["code"] == "nul_character"
    assert error["detail"] == {"field": "meta.note", "line": 2}
    assert Record.objects.count() == 2


def test_a_json_array_of_nulls_is_refused_item_by_item(api):
    response = api.post("/api/records/bulk/", b"[null, null]", content_type="application/json")
    assert response.status_code == 200
    data = response.json()
    assert (data["stored"], data["refused"]) == (0, 2)
    assert [item["error"]["code"] for item in data["items"]] == ["invalid_envelope"] * 2


def test_a_json_array_item_is_checked_like_a_line(api, make_document):
    good = make_document("secret_santa", seed=31)
    bad = {**make_document("secret_santa", seed=32), "meta": {"note": "a\x00b"}}
    body = json.dumps([good, bad]).encode()
    response = api.post("/api/records/bulk/", body, content_type="application/json")
    data = response.json()
    assert (data["stored"], data["refused"]) == (1, 1)
    assert data["items"][1]["error"]["code"] == "nul_character"


def test_a_bulk_body_past_the_limit_is_413_and_stores_nothing(api, make_document, settings):
    lines = b"".join(_line(make_document("secret_santa", seed=s)) for s in range(40, 46))
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = len(lines) - 10
    for content_type, body in (
        (NDJSON, lines),
        ("application/json", b"[" + lines.replace(b"\n", b",").rstrip(b",") + b"]"),
    ):
        response = api.post("/api/records/bulk/", body, content_type=content_type)
        assert response.status_code == 413, response.content
        assert response.json()["code"] == "too_large"
        assert response.json()["detail"] == {"limit": len(lines) - 10}
    assert Record.objects.count() == 0


def test_a_json_body_past_the_limit_is_413(api, make_document, settings):
    body = json.dumps(make_document("secret_santa", seed=50)).encode()
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = len(body) - 1
    response = api.post("/api/records/", body, content_type="application/json")
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    assert Record.objects.count() == 0


def test_an_import_past_its_limit_is_413_and_keeps_nothing(api, make_document, settings):
    lines = b"".join(_line(make_document("secret_santa", seed=s)) for s in range(60, 70))
    settings.MAX_IMPORT_BYTES = len(lines) // 2
    response = api.post("/api/imports/", lines, content_type=NDJSON)
    assert response.status_code == 413, response.content
    assert response.json()["code"] == "too_large"
    assert (ImportJob.objects.count(), ImportChunk.objects.count(), Record.objects.count()) == (
        0,
        0,
        0,
    )


def test_a_json_array_import_is_held_to_the_upload_limit(api, make_document, settings):
    documents = [make_document("secret_santa", seed=s) for s in range(70, 75)]
    body = json.dumps(documents).encode()
    settings.MAX_IMPORT_BYTES = len(body) * 10
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = len(body) - 1
    response = api.post("/api/imports/", body, content_type=NDJSON)
    assert response.status_code == 413
    assert "send NDJSON" in response.json()["message"]
    assert ImportJob.objects.count() == 0


@pytest.mark.parametrize(
    ("path", "limit"),
    [
        ("/api/imports/", "MAX_IMPORT_BYTES"),
        ("/api/records/bulk/", "DATA_UPLOAD_MAX_MEMORY_SIZE"),
        ("/api/records/", "DATA_UPLOAD_MAX_MEMORY_SIZE"),
    ],
)
def test_a_declared_length_past_the_limit_is_refused_before_the_body_is_read(
    api, settings, path, limit
):
    # The test client's payload raises if more is read than it holds: a 200 MB
    # Content-Length over 2 bytes of body is refused from the header alone.
    setattr(settings, limit, 1 << 20)
    content_type = "application/json" if path == "/api/records/" else NDJSON
    response = api.post(path, b"{}", content_type=content_type, CONTENT_LENGTH=str(200 << 20))
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    assert ImportJob.objects.count() == 0


def test_an_import_line_with_a_nul_byte_refuses_the_import_naming_the_line(api, make_document):
    body = _line(make_document("secret_santa", seed=80)) + b'{"a": "\x00"}\n'
    response = api.post("/api/imports/", body, content_type=NDJSON)
    assert response.status_code == 400
    assert response.json()["code"] == "nul_character"
    assert response.json()["detail"] == {"line": 2}
    assert ImportJob.objects.count() == 0


def test_an_import_line_that_is_hostile_json_is_refused_by_the_worker(api, make_document):
    good = make_document("secret_santa", seed=81)
    body = _line(good) + _meta(make_document("secret_santa", seed=82), b"[" * 5_000 + b"]" * 5_000)
    response = api.post("/api/imports/", body, content_type=NDJSON)
    assert response.status_code == 202
    job = api.get(f"/api/imports/{response.json()['id']}/").json()
    assert (job["stored"], job["refused"]) == (1, 1)
    assert job["refusals"][0]["line"] == 2
    assert job["refusals"][0]["error"]["detail"]["reason"] == "too_deep"


@pytest.mark.parametrize(
    "content_type", ["application/json; charset=utf-16", "application/x-ndjson; charset=latin-1"]
)
def test_a_charset_other_than_utf8_is_415(api, content_type, make_document):
    path = "/api/records/" if content_type.startswith("application/json") else "/api/imports/"
    body = json.dumps(make_document("secret_santa", seed=90)).encode()
    response = api.post(path, body, content_type=content_type)
    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"
    assert Record.objects.count() == 0
