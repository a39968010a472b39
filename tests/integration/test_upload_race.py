"""The same game uploaded twice at the same moment on PostgreSQL: one record, both answered.

Needs PostgreSQL; in CI a missing service fails the test.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from replays.models import Announcement, Record, Seat
from replays.services import record_submit
from tests.integration.services import require_postgres

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_concurrent_uploads_of_one_game_store_one_record(make_document):
    require_postgres()
    document = make_document(seed=31)
    barrier = threading.Barrier(3)
    answers: list[tuple[int, bool]] = []

    def upload() -> None:
        try:
            barrier.wait()
            record, created = record_submit(document=document)
            answers.append((record.pk, created))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=upload) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(answers) == 3
    assert len({pk for pk, _ in answers}) == 1, "every upload answers the same record"
    assert sum(created for _, created in answers) == 1
    assert Record.objects.count() == 1
    assert Seat.objects.count() == len(document["players"])
    assert Announcement.objects.count() == 1
