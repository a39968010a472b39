"""A corrected result replaces its contribution exactly: as if it had been stored so.

A table game's scores corrected twice (by its submitter, then by a club admin after
the window) leave every analytics row (per-seat results, statistics counters,
ratings of the game, club and season scopes, summaries) equal to a rebuild from
the records alone.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.apps import apps
from django.utils import timezone

from analytics.models import PlayerResult
from analytics.services import analytics_rebuild
from clubs import services as club_services
from replays.models import Record
from tests.analytics.dump import analytics_dump, analytics_row_count
from tests.clubs.conftest import result_only, world  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def test_corrections_leave_the_figures_a_rebuild_gives(world, settings):  # noqa: F811
    names = [u.username for u in world.members[2:5]]
    submitter = world.members[2]
    entries = [
        club_services.season_entry_submit_document(
            season=world.season, document=result_only(names, scores, day=day), user=submitter
        )[0]
        for day, scores in enumerate([[30, 12, 9], [8, 27, 14], [11, 6, 33]], start=1)
    ]
    first = Record.objects.get(pk=entries[0].record_id)
    club_services.result_correct(record=first, user=submitter, scores=[12, 30, 9])
    late = timezone.now() - settings.RESULT_CORRECTION_WINDOW - dt.timedelta(minutes=1)
    Record.objects.filter(pk=first.pk).update(created_at=late)
    first.refresh_from_db()
    club_services.result_correct(
        record=first, user=world.admin, scores=[12, 31, 9], reason="a late recount"
    )
    incremental = analytics_dump()
    scores = sorted(PlayerResult.objects.filter(record=first).values_list("seat", "score"))
    assert scores == [(0, 12), (1, 31), (2, 9)], "the last correction counts, once"

    for model in apps.get_app_config("analytics").get_models():
        model.objects.all().delete()
    assert analytics_row_count() == 0
    analytics_rebuild()
    assert analytics_dump() == incremental
