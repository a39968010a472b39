"""Bulk upload: NDJSON or a JSON array; each line stands or falls on its own."""

from __future__ import annotations

import json

import pytest

from replays.models import Record
from tests.conftest import make_illegal

pytestmark = pytest.mark.django_db


def test_ndjson_bulk_stores_good_lines_and_names_bad_ones(api, make_document):
    good = [make_document(seed=s) for s in (71, 72)]
    bad, step = make_illegal(make_document(seed=73))
    lines = [
        json.dumps(good[0]),
        json.dumps(bad),
        "",
        "{nope",
        json.dumps(good[1]),
        json.dumps(good[0]),
    ]
    response = api.post("/api/records/bulk/", "\n".join(lines), content_type="application/x-ndjson")
    assert response.status_code == 200
    body = response.json()
    assert (body["stored"], body["present"], body["refused"]) == (2, 1, 2)
    by_line = {item["line"]: item for item in body["items"]}
    assert by_line[1]["status"] == "stored"
    assert by_line[2]["error"]["code"] == "illegal_event"
    assert by_line[2]["error"]["detail"]["step"] == step
    assert by_line[4]["error"]["code"] == "malformed_json"
    assert by_line[6]["status"] == "present"
    assert by_line[6]["id"] == by_line[1]["id"]
    assert Record.objects.count() == 2


def test_json_array_bulk(api, make_document):
    documents = [make_document(seed=s) for s in (74, 75)]
    response = api.post(
        "/api/records/bulk/", json.dumps(documents), content_type="application/json"
    )
    assert response.json()["stored"] == 2
    assert [item["line"] for item in response.json()["items"]] == [1, 2]


def test_empty_and_oversized_bulk_uploads_are_refused(api, make_document, monkeypatch):
    empty = api.post("/api/records/bulk/", "  \n", content_type="application/x-ndjson")
    assert empty.status_code == 400
    assert empty.json()["code"] == "empty_upload"
    monkeypatch.setattr("replays.api.views.BULK_MAX_RECORDS", 1)
    line = json.dumps(make_document(seed=76))
    many = api.post("/api/records/bulk/", f"{line}\n{line}", content_type="application/x-ndjson")
    assert many.status_code == 400
    assert many.json()["code"] == "too_many_records"
    assert Record.objects.count() == 0


@pytest.mark.parametrize("body", ["false", "12", '"a giftlog"', "null"])
def test_a_json_body_that_is_no_document_nor_array_is_a_400(api, body):
    """The schema's JSON body is a document or an array of them; NDJSON keeps its lines."""
    response = api.post("/api/records/bulk/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "not_a_document"
    as_lines = api.post("/api/records/bulk/", body, content_type="application/x-ndjson")
    assert as_lines.status_code == 200, "an NDJSON line is refused on its own"
    assert as_lines.json()["refused"] == 1
    assert Record.objects.count() == 0
