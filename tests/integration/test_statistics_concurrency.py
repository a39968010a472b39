"""Several workers applying the same records at once count each record exactly once.

PostgreSQL only (row locks are the point); in CI a missing PostgreSQL fails.
"""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connection

from analytics.models import RecordFacts, StatisticsSnapshot
from analytics.statistics import statistics_apply, statistics_fresh
from replays.models import Record
from replays.services import record_submit
from tests.integration.services import require_postgres

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_concurrent_applies_of_the_same_records_count_each_once(make_document):
    require_postgres()
    for seed in range(8):
        record_submit(document=make_document("secret_santa", seed=200 + seed))
    expected = {
        (s.game, s.simulated, s.num_players, s.variant, s.club, s.month): s.counters
        for s in StatisticsSnapshot.objects.all()
    }
    # Forget what was counted, then let four "workers" count everything at once.
    StatisticsSnapshot.objects.all().delete()
    RecordFacts.objects.all().delete()
    ids = list(Record.objects.values_list("pk", flat=True))
    errors: list[BaseException] = []

    def worker(seed: int) -> None:
        order = ids * 2  # each worker also sees every record twice
        random.Random(seed).shuffle(order)
        try:
            for record_id in order:
                statistics_apply(record=Record.objects.get(pk=record_id))
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    stored = {
        (s.game, s.simulated, s.num_players, s.variant, s.club, s.month): s.counters
        for s in StatisticsSnapshot.objects.all()
    }
    assert stored == expected
    assert stored == statistics_fresh()
    assert sum(s.records for s in StatisticsSnapshot.objects.filter(club="*")) == len(ids)
