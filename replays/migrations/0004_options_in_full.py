"""Records and live games keep the options they were validated with, in full.

Until now a record stored its options as uploaded (``{}`` for the defaults). From
now on the full set is stored, defaults filled in, so a default changed later
never changes what a stored record replays to. Existing rows get the values that
reproduce how they were validated: the games' options as they were before house
rules became options, frozen here (never read from the engines, whose defaults
move on), and each record's digest is recomputed over its full options.
"""

import hashlib
import json

from django.db import migrations

# What "no options" meant for each game before this migration: today's names, with
# the values that replay old logs exactly (see each docs/rules/<game>.md, "Options").
LEGACY_OPTIONS = {
    "secret_santa": {"deal_fallback": "first_with_room"},
    "gift_economy": {"start_player": 0, "ranking": "closeness"},
    "gift_trap": {
        "expert_cards": False,
        "packs": ["yellow", "red", "blue", "black"],
        "first_dealer": 0,
        "track_length": 25,
        "zone_size": 5,
        "max_rounds": 15,
    },
    "gift_gift_gone": {"turn_actions": "one", "give_frozen_in_swap": True},
    "gift_swap": {"start_player": 0, "regift_own_row": False},
}


def _digest(game, options, players, events):
    payload = json.dumps(
        {"game": game, "options": options, "players": players, "events": events},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(payload.encode()).hexdigest()


def options_in_full(apps, schema_editor):
    Record = apps.get_model("replays", "Record")
    Seat = apps.get_model("replays", "Seat")
    LiveGame = apps.get_model("replays", "LiveGame")
    for record in Record.objects.order_by("pk").iterator(chunk_size=500):
        full = {**LEGACY_OPTIONS.get(record.game, {}), **(record.options or {})}
        if full == record.options:
            continue
        players = list(
            Seat.objects.filter(record=record).order_by("seat").values_list("player__name", flat=True)
        )
        record.options = full
        record.digest = _digest(record.game, full, players, record.events)
        record.save(update_fields=["options", "digest"])
    for live in LiveGame.objects.order_by("pk").iterator(chunk_size=500):
        full = {**LEGACY_OPTIONS.get(live.game, {}), **(live.options or {})}
        if full != live.options:
            live.options = full
            live.save(update_fields=["options"])


class Migration(migrations.Migration):
    dependencies = [("replays", "0003_seat_won")]

    operations = [migrations.RunPython(options_in_full, migrations.RunPython.noop)]
