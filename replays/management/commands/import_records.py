"""manage.py import_records FILE: giftlog JSON (one record) or NDJSON (one per line)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from replays.errors import ServiceError
from replays.services import record_submit


def documents_read(text: str) -> Iterator[tuple[int, Any]]:
    """Yield (line number, parsed document or the JSON error) from JSON or NDJSON text."""
    stripped = text.strip()
    if not stripped:
        return
    try:
        yield 1, json.loads(stripped)  # one (possibly pretty-printed) document
        return
    except json.JSONDecodeError:
        pass
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as exc:
            yield number, exc


class Command(BaseCommand):
    help = "Import giftlog records from a JSON file or an NDJSON file (one record per line)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="path to a .json or .ndjson file, or - for stdin")
        parser.add_argument(
            "--strict", action="store_true", help="stop at the first refused record"
        )

    def handle(self, *args, file: str, strict: bool, **options) -> None:
        if file == "-":
            text = sys.stdin.read()
        else:
            path = Path(file)
            if not path.is_file():
                raise CommandError(f"No such file: {file}")
            text = path.read_text(encoding="utf-8")
        created = existing = refused = 0
        for line, document in documents_read(text):
            try:
                if isinstance(document, json.JSONDecodeError):
                    raise ServiceError("malformed_json", f"not JSON: {document.msg}")
                record, is_new = record_submit(document=document)
            except ServiceError as exc:
                refused += 1
                detail = f" (step {exc.detail['step']})" if "step" in exc.detail else ""
                self.stderr.write(f"line {line}: refused: {exc.code}{detail}: {exc.message}")
                if strict:
                    raise CommandError(f"stopped at line {line}") from None
                continue
            created += is_new
            existing += not is_new
            self.stdout.write(
                f"line {line}: record {record.pk} {'stored' if is_new else 'already present'}"
            )
        summary = f"{created} stored, {existing} already present, {refused} refused."
        if refused:
            raise CommandError(summary)
        self.stdout.write(self.style.SUCCESS(summary))
