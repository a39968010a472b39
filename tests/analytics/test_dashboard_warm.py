"""The worker renders a game's dashboard after an ingest: the first visitor reads it cached."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from analytics import dashboard, tasks
from replays.services import record_submit

pytestmark = pytest.mark.django_db(transaction=True)


def _refuse_compute(*args, **kwargs):
    raise AssertionError("the dashboard was computed during the visit")


def test_first_visit_after_an_ingest_reads_the_warmed_page(client, make_document, monkeypatch):
    cache.clear()
    documents = [make_document(seed=s) for s in (51, 52)]
    for document in documents:
        record_submit(document=document)  # eager Celery: ingest, then the warm-up
    monkeypatch.setattr(dashboard, "_statistics_compute", _refuse_compute)
    page = client.get("/games/secret_santa/")
    assert page.status_code == 200
    assert b"2 real games recorded" in page.content
    for name in documents[1]["players"]:
        assert f"<td>{name}</td>".encode() in page.content


def test_a_new_record_is_never_hidden_by_the_cached_page(client, make_document, monkeypatch):
    cache.clear()
    record_submit(document=make_document(seed=53))
    assert b"1 real game recorded" in client.get("/games/secret_santa/").content
    # Without the warm-up, the visit must notice the new snapshot version itself.
    monkeypatch.setattr(dashboard, "dashboard_warm", lambda *, game: None)
    monkeypatch.setattr("analytics.services.dashboard_warm", lambda *, game: None)
    record_submit(document=make_document(seed=54))
    assert b"2 real games recorded" in client.get("/games/secret_santa/").content


def test_one_cache_entry_per_page_however_many_records(make_document):
    cache.clear()
    for seed in (55, 56, 57):
        record_submit(document=make_document(seed=seed))
    keys = [k for k in cache._cache if "dashboard:" in k]  # locmem in tests
    assert len(keys) == len(dashboard.dashboard_warm_filters(game="secret_santa")) == 3


def test_the_filtered_views_visitors_ask_for_are_warm_after_an_ingest(
    client, make_document, monkeypatch
):
    cache.clear()
    record_submit(document=make_document(seed=59))
    asked = "/games/secret_santa/?players=&real=&club=&from=&to=&variant=&players=4"
    assert client.get(asked).status_code == 200  # computed, and noted as asked
    record_submit(document=make_document(seed=60))  # ingest, then the warm-up
    monkeypatch.setattr(dashboard, "_statistics_compute", _refuse_compute)
    for path in (asked, "/games/secret_santa/?real=real", "/games/secret_santa/?real=simulated"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert b"2 real games recorded" in page.content, path
    with pytest.raises(AssertionError, match="computed during the visit"):
        client.get("/games/secret_santa/?players=5")  # never asked: computed by its visitor


def test_a_failed_warm_up_does_not_fail_the_ingest(make_document, monkeypatch, caplog):
    def broken(*, game: str) -> None:
        raise ConnectionError("cache away")

    monkeypatch.setattr("analytics.services.dashboard_warm", broken)
    record, _ = record_submit(document=make_document(seed=58))
    assert record.player_results.count() == len(record.result["scores"])
    assert "dashboard of secret_santa not warmed" in caplog.text


def test_the_ingest_task_renders_the_pages_itself_after_its_commit(
    client, make_document, monkeypatch
):
    """No warm-up task to wait behind a queue of ingests: the ingest task's own body renders
    the dashboards once its transaction committed, the asked filtered views too."""
    cache.clear()
    record_submit(document=make_document(seed=61))
    asked = "/games/secret_santa/?players=4"
    assert client.get(asked).status_code == 200  # noted as asked

    def no_task(*args, **kwargs):
        raise AssertionError("a separate warm-up task was queued")

    monkeypatch.setattr(tasks.dashboards_warm, "delay", no_task)
    monkeypatch.setattr(tasks.dashboards_warm, "apply_async", no_task)
    record_submit(document=make_document(seed=62))  # eager Celery: the ingest task runs
    monkeypatch.setattr(dashboard, "_statistics_compute", _refuse_compute)
    for path in ("/games/secret_santa/", "/games/secret_santa/?real=real", asked):
        page = client.get(path)
        assert page.status_code == 200, path
        assert b"2 real games recorded" in page.content, path


def _stored_unannounced(documents: list[dict]) -> list[int]:
    """Store the documents as a bulk import does, their ingest not run yet (held back)."""
    import json
    from unittest import mock

    from replays import outbox
    from replays.bulk import records_import

    lines = [(n, json.dumps(d).encode()) for n, d in enumerate(documents, start=1)]
    with mock.patch.object(outbox, "announcements_dispatch", return_value=0):
        return [o.record_id for o in records_import(lines) if o.status == "stored"]


def test_a_batch_leaves_the_warm_up_to_the_ingest_of_the_games_last_waiting_records(
    make_document, monkeypatch
):
    """A bulk import's batches: a page rendered after each batch is out of date at the
    next one's commit, and rendering every game's pages cost more than the batch."""
    from datetime import timedelta

    from django.utils import timezone

    from analytics import services
    from replays.models import Record

    warmed: list[str] = []
    monkeypatch.setattr(services, "dashboard_warm", lambda *, game: warmed.append(game))
    first, second, third = _stored_unannounced([make_document(seed=s) for s in (61, 62, 63)])
    tasks.records_ingest(record_ids=[first])
    assert warmed == []  # two records of the game still wait: the last batch renders
    tasks.records_ingest(record_ids=[second])
    assert warmed == []
    tasks.records_ingest(record_ids=[third])
    assert warmed == ["secret_santa"]
    # A record long stored and still waiting (its message lost: the sweep's business)
    # holds no warm-up back.
    late, recent = _stored_unannounced([make_document(seed=s) for s in (64, 65)])
    Record.objects.filter(pk=late).update(
        created_at=timezone.now() - timedelta(seconds=services.WARM_DEFER_SECONDS + 60)
    )
    tasks.records_ingest(record_ids=[recent])
    assert warmed == ["secret_santa", "secret_santa"]
