"""Bulk import in batches: the pool path, duplicates, one announcement per batch."""

from __future__ import annotations

import io
import json
import time

import orjson
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from analytics.models import PlayerResult
from replays import bulk
from replays.giftlog import canonical_bytes, canonical_json
from replays.models import Announcement, Record, Seat
from tests.conftest import make_illegal

pytestmark = pytest.mark.django_db(transaction=True)


def _lines(documents: list) -> list[tuple[int, bytes]]:
    return [(n, orjson.dumps(d)) for n, d in enumerate(documents, start=1)]


@pytest.mark.parametrize("workers", [0, 2])
def test_batches_give_each_line_its_outcome(make_document, settings, monkeypatch, workers):
    settings.IMPORT_WORKERS = workers
    monkeypatch.setattr(bulk, "POOL_MIN", 1)  # the pool even for a few records
    good = [make_document(game, seed=s) for s, game in enumerate(["gift_swap", "gift_trap"] * 3)]
    bad, step = make_illegal(make_document("gift_economy", seed=9))
    documents = [good[0], bad, good[1], good[0], good[2], good[3], good[1], good[4], good[5]]
    outcomes = list(bulk.records_import(_lines(documents), batch_size=4))
    statuses = [o.status for o in outcomes]
    assert statuses == [
        "stored",
        "refused",
        "stored",
        "present",
        "stored",
        "stored",
        "present",
        "stored",
        "stored",
    ]
    assert [o.line for o in outcomes] == list(range(1, 10))
    assert outcomes[1].error.code == "illegal_event"
    assert outcomes[1].error.detail["step"] == step
    assert outcomes[3].record_id == outcomes[0].record_id  # same batch duplicate
    assert outcomes[6].record_id == outcomes[2].record_id  # duplicate of an earlier batch
    assert outcomes[6].players == good[1]["players"]
    assert Record.objects.count() == 6
    assert Seat.objects.count() == sum(len(d["players"]) for d in good)
    # One announcement per batch that stored something, naming its records.
    announced = sorted(i for a in Announcement.objects.all() for i in a.record_ids)
    assert announced == sorted(Record.objects.values_list("id", flat=True))
    assert Announcement.objects.count() == 3
    assert all(a.dispatched_at is not None for a in Announcement.objects.all())
    # Eager Celery in tests: analytics.records_ingest ran for every record.
    assert PlayerResult.objects.count() == Seat.objects.count()


def test_a_stored_record_keeps_its_result_check(make_document):
    document = make_document(seed=3)
    list(bulk.records_import(_lines([document])))
    stored = Record.objects.get()
    wrong = {
        **document,
        "result": {**stored.result, "scores": [s + 1 for s in stored.result["scores"]]},
    }
    (outcome,) = bulk.records_import(_lines([wrong]))
    assert outcome.status == "refused"
    assert outcome.error.code == "result_mismatch"


def test_lines_read_streams_ndjson_and_reads_arrays_whole(make_document):
    a, b = make_document(seed=1), make_document(seed=2)
    ndjson = io.BytesIO(b"\n" + orjson.dumps(a) + b"\n\n{oops\n" + orjson.dumps(b) + b"\n")
    items = list(bulk.lines_read(ndjson))
    assert [n for n, _ in items] == [2, 4, 5]
    assert all(isinstance(raw, bytes) for _, raw in items)
    array = io.BytesIO(json.dumps([a, b], indent=2).encode())
    assert [n for n, _ in bulk.lines_read(array)] == [1, 2]


@pytest.mark.parametrize(
    "value",
    [
        {"b": 1, "a": [True, None, "é", "\u2028", "\x1f", 'a\\b"c']},
        {"x": 1.0, "y": 1e16, "z": -0.5},
        {"big": 2**70},
        {"s": "1e5 and 2.5 in words"},
    ],
)
def test_canonical_bytes_equal_the_standard_library(value):
    assert canonical_bytes(value) == canonical_json(value).encode()


def test_a_bulk_record_is_the_record_a_single_upload_stores(api, make_document):
    """Every column the single-upload path writes, the batch path writes the same."""
    document = make_document("gift_swap", seed=91)
    document["meta"] = {"simulated": True, "played_at": "2026-03-01T20:00:00+00:00"}
    bulk = api.post("/api/records/bulk/", [document], format="json")
    assert bulk.status_code == 200, bulk.content
    stored = Record.objects.get()
    skip = {"id", "created_at"}
    fields = [f.attname for f in Record._meta.concrete_fields if f.attname not in skip]
    from_bulk = {name: getattr(stored, name) for name in fields}
    Record.objects.all().delete()
    single = api.post("/api/records/", document, format="json")
    assert single.status_code == 201, single.content
    again = Record.objects.get()
    assert {name: getattr(again, name) for name in fields} == from_bulk
    assert from_bulk["simulated"] is True


def test_the_pool_can_start_before_the_first_upload(settings):
    """A web worker starts the pool's children when it starts (config/gunicorn.py)."""
    settings.IMPORT_WORKERS = 2
    bulk.validation_pool_start()
    pool = bulk.validation_pool()
    assert pool is not None
    deadline = time.monotonic() + 30
    while len(pool._processes) < 2 and time.monotonic() < deadline:  # started by the warm-up
        time.sleep(0.05)
    assert len(pool._processes) == 2
    assert all(process.is_alive() for process in pool._processes.values())


def test_a_bulk_body_is_read_in_lines_through_a_buffer():
    from core.api.parsers import counted

    def buffered(stream):
        return counted(stream, limit=1 << 30)

    class Trickle:  # a server stream that answers a few bytes at a time
        def __init__(self, data: bytes) -> None:
            self.data = data

        def read(self, size: int = -1) -> bytes:
            chunk, self.data = self.data[:7], self.data[7:]
            return chunk

    lines = [orjson.dumps({"n": n, "pad": "x" * n}) + b"\n" for n in range(50)]
    assert list(buffered(Trickle(b"".join(lines)))) == lines
    assert list(bulk.lines_read(buffered(Trickle(b"".join(lines))))) == [
        (n + 1, line) for n, line in enumerate(lines)
    ]


def test_an_import_costs_a_few_queries_per_batch_not_per_record(
    make_document, settings, monkeypatch
):
    """Storing a batch of 3 or of 12 records takes the same queries: nothing of the import
    (the replays' preparation included) runs record by record in the importing process.
    The preparation of long games run there cost a 300-game import 91 of its 94 s."""
    from core import background
    from replays import outbox, viewer_warm

    settings.IMPORT_WORKERS = 0
    # A management command without a broker: tasks eager, no pool of its own.
    monkeypatch.setattr(background, "_serving_pid", 0)
    monkeypatch.setattr(viewer_warm, "WARM_MIN_EVENTS", 1)  # every record a long one
    monkeypatch.setattr(outbox, "announcements_dispatch", lambda **kwargs: 0)  # the import only
    prepared: list[int] = []
    warm = viewer_warm.records_viewer_warm
    monkeypatch.setattr(
        viewer_warm,
        "records_viewer_warm",
        lambda *, record_ids: prepared.extend(record_ids) or warm(record_ids=record_ids),
    )
    games = ["secret_santa", "gift_swap", "gift_economy"]
    documents = [make_document(games[k % 3], seed=500 + k) for k in range(15)]
    counts = []
    for chunk in (documents[:3], documents[3:]):
        with CaptureQueriesContext(connection) as queries:
            outcomes = list(bulk.records_import(_lines(chunk), batch_size=50))
        assert [o.status for o in outcomes] == ["stored"] * len(chunk)
        counts.append(len(queries))
    assert counts[1] == counts[0], counts
    assert prepared == []
