"""``manage.py analytics_rebuild``: every derived row computed again from the records.

After a restore from a ``pg_dump`` of the records (or to check the incremental
figures), this is all it takes to get ratings, statistics and summaries back.
The records are streamed in played order, ``--batch`` records at a time, each
computed by the ingest's batch functions (``analytics.rebuild``), and the progress
is printed as it goes (records done of the total, and the rate). A record whose
ingest fails is quarantined and reported, and the rebuild completes for every
other record (exit status 0); only a failure of the rebuild itself (the database
away, the ratings' recompute failing) exits 1.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from analytics.ingest import StreamProgress
from analytics.rebuild import REBUILD_BATCH
from analytics.services import analytics_rebuild


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


class Command(BaseCommand):
    help = (
        "Delete every analytics row and compute it again from the stored records. Records "
        "whose ingest fails are quarantined and listed; the rebuild completes without them."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--batch",
            type=int,
            default=REBUILD_BATCH,
            help=f"records per batch (default {REBUILD_BATCH})",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.monotonic()
        shown = [0.0]

        def progress(p: StreamProgress) -> None:
            if p.done < p.total and p.seconds - shown[0] < 5:  # every 5 s, and the last
                return
            shown[0] = p.seconds
            self.stdout.write(
                f"  {p.done:,} / {p.total:,} records ({p.rate:,.0f} records/s)"
                + ("; recomputing the ratings" if p.done == p.total else "")
            )

        try:
            report = analytics_rebuild(batch=max(1, options["batch"]), progress=progress)
        except DatabaseError as exc:
            raise CommandError(f"The rebuild failed: {type(exc).__name__}: {exc}") from exc
        self.stdout.write(
            f"Rebuilt analytics from {plural(report.records, 'record')} "
            f"in {time.monotonic() - started:.1f} s: {report.ingested} ingested, "
            f"{len(report.quarantined)} quarantined."
        )
        if report.quarantined:
            self.stdout.write(
                self.style.WARNING(
                    f"{plural(len(report.quarantined), 'record')} could not be ingested and "
                    "count in no figure until they are (manage.py analytics_quarantine):"
                )
            )
            for row in report.quarantined:
                self.stdout.write(f"  record {row.record_id} ({row.record.game}): {row.error}")
