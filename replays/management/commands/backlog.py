"""manage.py backlog: work owed to the workers (announcements, import jobs), and send it now.

What an operator looks at when the broker (Redis) was away: records stored while it
was down are announced to analytics by the outbox sweep, and import jobs accepted
while it was down are sent by the import sweep, both run by beat. This shows what is
still owed and why (the last error), and ``--dispatch`` sends it at once instead of
waiting for the next sweep.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db.models import Max, Min
from django.utils import timezone

from replays import imports, outbox

SHOWN_JOBS = 20


def _ago(moment: datetime | None) -> str:
    if moment is None:
        return "never"
    seconds = int((timezone.now() - moment).total_seconds())
    if seconds < 120:
        return f"{seconds} s ago"
    if seconds < 7200:
        return f"{seconds // 60} min ago"
    return f"{seconds // 3600} h ago"


class Command(BaseCommand):
    help = "Show announcements and import jobs not yet taken by the broker; --dispatch sends them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dispatch", action="store_true", help="send them now (as the beat sweeps would)"
        )

    def handle(self, *args: Any, dispatch: bool, **options: Any) -> None:
        if dispatch:
            sent = outbox.announcements_dispatch()
            jobs = imports.import_jobs_sweep(idle_seconds=0)
            self.stdout.write(f"sent {sent} announcement(s) and {jobs} import job(s)")
        pending = outbox.announcements_pending()
        summary = pending.aggregate(oldest=Min("created_at"), attempts=Max("attempts"))
        count = pending.count()
        line = f"announcements pending: {count}"
        if count:
            last = pending.exclude(last_error="").order_by("-id").first()
            line += (
                f" (oldest stored {_ago(summary['oldest'])}, up to {summary['attempts']} "
                f"attempts; last error: {last.last_error if last else 'none'})"
            )
        self.stdout.write(line)
        unfinished = imports.import_jobs_unfinished()
        self.stdout.write(f"import jobs unfinished: {unfinished.count()}")
        for job in unfinished[:SHOWN_JOBS]:
            sent = f"sent {_ago(job.dispatched_at)}" if job.dispatched_at else "never sent"
            line = (
                f"  #{job.pk}  created {_ago(job.created_at)}  chunks {job.chunks_done}/"
                f"{job.chunks}  {sent}  last chunk done {_ago(job.progressed_at)}  "
                f"{job.attempts} attempt(s)"
            )
            if job.last_error:
                line += f"; last error: {job.last_error}"
            self.stdout.write(line)
