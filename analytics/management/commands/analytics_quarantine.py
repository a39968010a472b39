"""``manage.py analytics_quarantine``: the records whose ingest failed, and a retry.

A record whose ingest fails is quarantined (``analytics.models.IngestQuarantine``):
it counts in no figure, the other records go on, and the ingest sweep retries it
with a growing wait. This lists them with their error; ``--retry`` tries them
again now (after the cause is fixed: a corrected result, a deployed fix).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from analytics.selectors import quarantined_records
from analytics.services import quarantine_retry


class Command(BaseCommand):
    help = "List the records whose ingest failed (quarantined); --retry tries them again now."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--retry",
            action="store_true",
            help="Ingest the quarantined records again now (those that fail stay quarantined).",
        )
        parser.add_argument(
            "records",
            nargs="*",
            type=int,
            metavar="RECORD_ID",
            help="Only these records (default: every quarantined record).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        ids: list[int] | None = options["records"] or None
        if options["retry"]:
            outcome = quarantine_retry(record_ids=ids)
            self.stdout.write(
                f"Retried: {outcome.ingested} ingested, {len(outcome.quarantined)} still failing."
            )
        rows = quarantined_records()
        if ids is not None:
            rows = rows.filter(record_id__in=ids)
        rows = list(rows)
        if not rows:
            self.stdout.write("No quarantined records.")
            return
        self.stdout.write(f"{len(rows)} quarantined record{'' if len(rows) == 1 else 's'}:")
        now = timezone.now()
        for row in rows:
            wait = max(0, int((row.next_retry_at - now).total_seconds()))
            self.stdout.write(
                f"  record {row.record_id} ({row.record.game}), {row.attempts} "
                f"attempt{'' if row.attempts == 1 else 's'}, last failed "
                f"{row.last_failed_at.isoformat(timespec='seconds')}, next try in {wait} s: "
                f"{row.error}"
            )
