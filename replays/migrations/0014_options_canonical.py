"""Stored options in their one canonical spelling (a list option's items in declared order).

GiftTRAP's ``packs`` ``["red", "blue"]`` and ``["blue", "red"]`` are the same rules, but
were stored as given, so the same rules made two variants and a league refused a record
for the order of a list. New input is canonical (``games.base.options_resolve``); this
rewrites what is stored: records and live games.

The digest is the game's identity, computed over the stored options, so a record whose
options change gets its digest recomputed over the canonical options: that is the
digest a re-upload of the same game computes now (in whatever order it lists its
packs), so a re-upload is still found as the same record. If another stored record
already has that digest, the two are the same game stored twice under two spellings;
nothing is deleted (seasons and ratings may count either), the later one keeps its old
digest, and re-uploads find the earlier one.
"""

from django.db import migrations
from django.utils.dateparse import parse_datetime

from games.base import options_canonical
from games.registry import all_engines, get_engine
from replays.giftlog import record_digest, result_only_digest


def _games_with_list_options():
    return [e.slug for e in all_engines() if any(o.kind == "list" for o in e.options)]


def _digest(record, players, options):
    if record.kind == "result":
        result = record.result or {}
        played_at = (record.meta or {}).get("played_at")
        if isinstance(played_at, str):
            parsed = parse_datetime(played_at)
            played_at = parsed.isoformat() if parsed else None
        else:
            played_at = None
        return result_only_digest(
            record.game, options, players, result.get("scores"), result.get("ranks"), played_at
        )
    return record_digest(record.game, options, players, record.events)


def records_options_canonical(apps, schema_editor):
    """Rewrite records' and live games' options (and records' digests) to the canonical form."""
    Record = apps.get_model("replays", "Record")
    Seat = apps.get_model("replays", "Seat")
    LiveGame = apps.get_model("replays", "LiveGame")
    games = _games_with_list_options()
    for record in Record.objects.filter(game__in=games).order_by("pk").iterator(chunk_size=500):
        options = options_canonical(get_engine(record.game), record.options or {})
        if options == record.options:
            continue
        players = list(
            Seat.objects.filter(record=record)
            .order_by("seat")
            .values_list("player__name", flat=True)
        )
        digest = _digest(record, players, options)
        fields = ["options"]
        if not Record.objects.filter(digest=digest).exclude(pk=record.pk).exists():
            record.digest = digest
            fields.append("digest")
        record.options = options
        record.save(update_fields=fields)
    for live in LiveGame.objects.filter(game__in=games).order_by("pk").iterator(chunk_size=500):
        options = options_canonical(get_engine(live.game), live.options or {})
        if options != live.options:
            live.options = options
            live.save(update_fields=["options"])


class Migration(migrations.Migration):
    dependencies = [("replays", "0013_record_rating_order")]

    operations = [migrations.RunPython(records_options_canonical, migrations.RunPython.noop)]
