"""The record list's fast path gives exactly what RecordSummarySerializer gives."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from replays import selectors
from replays.api.serializers import RecordSummarySerializer
from replays.services import record_submit

pytestmark = pytest.mark.django_db


def test_summaries_equal_the_serializer(make_document, api):
    user = get_user_model().objects.create_user("ana", password="x")
    for seed in (1, 2, 3):
        record_submit(document=make_document(seed=seed), submitted_by=user if seed == 2 else None)
    record_submit(
        document={**make_document(seed=4), "meta": {"played_at": "2026-01-13T20:30:00+01:00"}}
    )
    records = selectors.record_list().select_related("submitted_by").order_by("-id")
    expected = RecordSummarySerializer(records, many=True).data
    fast = selectors.record_summaries(list(selectors.record_summary_rows(records)))
    assert fast == [dict(row) for row in expected]
    page = api.get("/api/records/?page_size=2").json()
    assert page["results"] == fast[:2]
    assert api.get(page["next"]).json()["results"] == fast[2:4]
