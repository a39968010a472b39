"""POST /api/imports/ and its progress at GET /api/imports/{id}/ (tasks run eagerly here)."""

from __future__ import annotations

import json

import pytest

from replays.models import ImportChunk, Record
from tests.conftest import make_illegal

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_import_job_reports_counts_and_refusals(api, make_document, monkeypatch):
    monkeypatch.setattr("replays.imports.CHUNK_LINES", 2)  # three chunks
    good = [make_document(seed=s) for s in (81, 82, 83)]
    bad, step = make_illegal(make_document(seed=84))
    body = "\n".join(
        [
            json.dumps(good[0]),
            "{nope",
            json.dumps(good[1]),
            json.dumps(bad),
            json.dumps(good[2]),
            json.dumps(good[0]),
        ]
    )
    response = api.post("/api/imports/", body, content_type="application/x-ndjson")
    assert response.status_code == 202
    url = response["Location"]
    assert ImportChunk.objects.count() == 3
    progress = api.get(url).json()
    assert progress["done"] is True
    assert (progress["stored"], progress["present"], progress["refused"]) == (3, 1, 2)
    assert [r["line"] for r in progress["refusals"]] == [2, 4]
    assert progress["refusals"][0]["error"]["code"] == "malformed_json"
    assert progress["refusals"][1]["error"]["detail"]["step"] == step
    assert Record.objects.count() == 3


def test_unknown_and_empty_imports(api):
    missing = api.get("/api/imports/999/")
    assert missing.status_code == 404
    assert missing.json()["code"] == "unknown_import"
    empty = api.post("/api/imports/", "\n \n", content_type="application/x-ndjson")
    assert empty.status_code == 400
    assert empty.json()["code"] == "empty_upload"
