"""The sweep ingests stored records whose ingest message never arrived."""

from __future__ import annotations

from datetime import timedelta

import pytest

from analytics.models import PlayerResult
from analytics.services import records_uningested_ingest
from replays.models import Record
from replays.services import record_submit

pytestmark = pytest.mark.django_db


def test_a_record_without_derived_rows_is_ingested_and_others_are_left(make_document):
    lost, _ = record_submit(document=make_document("gift_swap", seed=11))
    kept, _ = record_submit(document=make_document("secret_santa", seed=12))
    PlayerResult.objects.filter(record=lost).delete()  # as if its message was lost
    rows_before = PlayerResult.objects.filter(record=kept).count()
    # Too young: left to its own message.
    assert records_uningested_ingest(older_than=timedelta(hours=1)) == 0
    assert not PlayerResult.objects.filter(record=lost).exists()
    Record.objects.filter(pk=lost.pk).update(created_at=lost.created_at - timedelta(hours=2))
    assert records_uningested_ingest(older_than=timedelta(hours=1)) == 1
    assert PlayerResult.objects.filter(record=lost).count() == len(lost.seats.all())
    assert PlayerResult.objects.filter(record=kept).count() == rows_before
