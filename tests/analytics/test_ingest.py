"""Records reach analytics through the outbox; ingesting is idempotent."""

from __future__ import annotations

import pytest
from kombu.exceptions import OperationalError

from analytics import services
from analytics.models import GameSummary, PlayerResult
from replays.models import Announcement, Record
from replays.outbox import announcements_dispatch
from replays.services import record_submit

pytestmark = pytest.mark.django_db(transaction=True)


def test_stored_record_is_ingested_after_commit(make_document):
    document = make_document(seed=21)
    record, created = record_submit(document=document)
    assert created
    results = PlayerResult.objects.filter(record=record).order_by("seat")
    assert [r.score for r in results] == record.result["scores"]
    assert [r.won for r in results] == [
        seat in record.result["winners"] for seat in range(len(document["players"]))
    ]
    summary = GameSummary.objects.get(game=record.game)
    assert summary.games == 1
    assert {p["player"] for p in summary.players} == set(document["players"])
    assert Announcement.objects.get(record=record).dispatched_at is not None


def test_ingesting_twice_changes_nothing(make_document):
    record, _ = record_submit(document=make_document(seed=22))
    before = list(PlayerResult.objects.values_list("seat", "score", "rank", "won"))
    assert services.record_ingest(record_id=record.pk)
    assert list(PlayerResult.objects.values_list("seat", "score", "rank", "won")) == before
    assert GameSummary.objects.get(game=record.game).games == 1


def test_ingest_of_a_deleted_record_returns_quietly():
    assert services.record_ingest(record_id=123456) is False


def test_broker_down_keeps_announcement_for_the_sweep(make_document, monkeypatch, settings):
    from celery import current_app

    monkeypatch.setitem(current_app.conf, "task_always_eager", False)

    def broker_down(self, *args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr("celery.canvas.Signature.delay", broker_down)
    record, created = record_submit(document=make_document(seed=23))
    assert created, "the record is stored even when the broker is down"
    pending = Announcement.objects.get(record=record)
    assert pending.dispatched_at is None
    assert pending.attempts == 1
    assert "Connection refused" in pending.last_error
    assert not PlayerResult.objects.filter(record=record).exists()

    monkeypatch.undo()  # the broker is back (and tasks run in-process again)
    assert announcements_dispatch() == 1
    assert PlayerResult.objects.filter(record=record).count() == len(record.result["scores"])
    assert Announcement.objects.filter(dispatched_at__isnull=True).count() == 0


def test_summary_counts_only_its_game(make_document):
    for seed in (31, 32, 33):
        record_submit(document=make_document(seed=seed))
    assert GameSummary.objects.get(game="secret_santa").games == Record.objects.count() == 3


def test_a_bulk_batch_refreshes_each_game_summary_once(make_document, monkeypatch):
    from analytics import ingest
    from replays.bulk import records_import

    refreshed: list[str] = []
    apply = ingest.game_summaries_apply

    def counting(deltas):
        refreshed.extend(deltas)
        return apply(deltas)

    monkeypatch.setattr(ingest, "game_summaries_apply", counting)
    documents = [make_document(seed=s) for s in (71, 72, 73)]
    documents.append(make_document("gift_swap", seed=74))
    outcomes = list(records_import(enumerate(documents, 1)))  # one batch, one announcement
    assert [o.status for o in outcomes] == ["stored"] * 4
    assert sorted(refreshed) == ["gift_swap", "secret_santa"]
    summary = GameSummary.objects.get(game="secret_santa")
    assert summary.games == 3
    names = {name for d in documents[:3] for name in d["players"]}
    assert {p["player"] for p in summary.players} == names
    assert sum(p["games"] for p in summary.players) == sum(len(d["players"]) for d in documents[:3])
