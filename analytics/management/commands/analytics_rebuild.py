"""``manage.py analytics_rebuild``: every derived row computed again from the records.

After a restore from a ``pg_dump`` of the records (or to check the incremental
figures), this is all it takes to get ratings, statistics and summaries back.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from analytics.services import analytics_rebuild


class Command(BaseCommand):
    help = "Delete every analytics row and compute it again from the stored records."

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.monotonic()
        records = analytics_rebuild()
        self.stdout.write(
            f"Rebuilt analytics from {records} record{'s' if records != 1 else ''} "
            f"in {time.monotonic() - started:.1f} s."
        )
