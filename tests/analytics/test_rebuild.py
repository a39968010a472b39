"""A backup of the records is enough: ``manage.py analytics_rebuild`` gets back every
derived row, exactly as it was computed incrementally when the records arrived."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core.management import call_command

from analytics import services
from games.registry import engine_slugs
from replays.services import record_submit
from tests.analytics.dump import analytics_dump, analytics_row_count

pytestmark = pytest.mark.django_db(transaction=True)


def test_rebuild_from_records_alone_gives_the_same_rows(make_document, capsys, monkeypatch):
    for game in engine_slugs():
        for seed in (1, 2, 3):
            record_submit(document=make_document(game, seed=seed))
    # Ingested as they arrived (eager Celery in tests).
    before = analytics_dump()
    assert analytics_row_count() > 0
    assert before["analytics.PlayerResult"], "the records were ingested"
    # What a restore from a pg_dump of the records looks like: no derived rows at all.
    for model in apps.get_app_config("analytics").get_models():
        model.objects.all().delete()
    assert analytics_row_count() == 0

    def batch_path(chunk):  # the rebuild's own path must give the rows, not its fallback
        raise AssertionError(f"a rebuild batch went through the batch path: {chunk}")

    monkeypatch.setattr(services, "records_ingest_batch", batch_path)
    call_command("analytics_rebuild")
    out = capsys.readouterr().out
    assert "Rebuilt analytics from 15 records" in out
    assert "15 / 15 records (" in out  # its progress: records done of the total, and the rate
    assert analytics_dump() == before
    # Running it again, in batches of 4 records, changes nothing.
    call_command("analytics_rebuild", "--batch", "4")
    assert analytics_dump() == before
