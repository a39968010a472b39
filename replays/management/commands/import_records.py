"""manage.py import_records FILE: giftlog JSON, a JSON array, or NDJSON (one per line)."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import IO

from django.core.management.base import BaseCommand, CommandError, CommandParser

from replays.bulk import BATCH_SIZE, lines_read, records_import


class Command(BaseCommand):
    help = "Import giftlog records from a JSON file or an NDJSON file (one record per line)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="path to a .json or .ndjson file, or - for stdin")
        parser.add_argument(
            "--strict", action="store_true", help="stop at the first refused record"
        )
        parser.add_argument(
            "--batch-size",
            type=int,
            default=BATCH_SIZE,
            help=f"records per transaction (default {BATCH_SIZE})",
        )

    def handle(self, *args, file: str, strict: bool, batch_size: int, **options) -> None:
        stream: IO[bytes]
        if file == "-":
            stream = sys.stdin.buffer
        else:
            path = Path(file)
            if not path.is_file():
                raise CommandError(f"No such file: {file}")
            stream = path.open("rb")
        with stream:
            self._import(stream, strict=strict, batch_size=max(1, batch_size))

    def _import(self, stream: IO[bytes], *, strict: bool, batch_size: int) -> None:
        """Line by line and in batches: memory stays flat however large the file."""
        tally: Counter[str] = Counter()
        for outcome in records_import(lines_read(stream), batch_size=batch_size):
            tally[outcome.status] += 1
            if outcome.error is not None:
                error = outcome.error
                where = f" (step {error.detail['step']})" if "step" in error.detail else ""
                self.stderr.write(
                    f"line {outcome.line}: refused: {error.code}{where}: {error.message}"
                )
                if strict:
                    raise CommandError(f"stopped at line {outcome.line}")
            else:
                verb = "stored" if outcome.status == "stored" else "already present"
                self.stdout.write(f"line {outcome.line}: record {outcome.record_id} {verb}")
        summary = (
            f"{tally['stored']} stored, {tally['present']} already present, "
            f"{tally['refused']} refused."
        )
        if tally["refused"]:
            raise CommandError(summary)
        self.stdout.write(self.style.SUCCESS(summary))
