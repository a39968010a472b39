"""Bots stored as bots, their games as bot play.

Before this, live games against the service's bots, and the demo data, were stored as
real play, so a bot (``bot-1``) could rank on a leaderboard. This marks as bots:

- the players of the seats a program played in a finished live game (``LiveGame.bots``),
  when they have no account and never sat anywhere else: ``bot-1``, ``bot-2``... of the
  home page's "Play against the service"; a person's name at a bot's seat (a game played
  on from a record) stays a person;
- the players of the simulator and of the demo data (``meta.source`` "simulate ..." or
  "demo data"), when they have no account and sat in nothing else.

Then every game with a bot seat, every finished live game with a bot, and the demo
data are marked simulated (``Record.simulated`` and ``meta.simulated``; the digest does
not include ``meta``, so the records keep their identity), and announced through the
outbox: analytics ingests them again (the beat's sweep sends the announcements; on the
embedded default ``bin/serve`` sends them when it starts, as ``manage.py backlog
--dispatch`` does), which takes them out of every rating, leaderboard and real-play
figure.
"""

from __future__ import annotations

from django.db import migrations
from django.db.models import Exists, OuterRef, Q

ANNOUNCE_BATCH = 500


def _bot_sources() -> Q:
    return Q(meta__source="demo data") | Q(meta__source__startswith="simulate")


def bots_mark(apps, schema_editor) -> None:
    Player = apps.get_model("replays", "Player")
    Record = apps.get_model("replays", "Record")
    Seat = apps.get_model("replays", "Seat")
    LiveGame = apps.get_model("replays", "LiveGame")
    Announcement = apps.get_model("replays", "Announcement")

    # Seats a program played: every seat of a simulation or of the demo data, and the
    # bot seats of finished live games.
    bot_records = set(Record.objects.filter(_bot_sources()).values_list("pk", flat=True))
    bot_seats: set[tuple[int, int]] = set()
    live_records = set()
    for record_id, bots in LiveGame.objects.filter(record__isnull=False).values_list(
        "record_id", "bots"
    ):
        if bots:
            live_records.add(record_id)
            bot_seats.update((record_id, int(seat)) for seat in bots)

    candidates: dict[int, bool] = {}  # player id -> sat only where a program played
    seats = Seat.objects.filter(
        Q(record_id__in=bot_records) | Q(record_id__in=live_records)
    ).values_list("record_id", "seat", "player_id")
    for record_id, seat, player_id in seats.iterator():
        if record_id in bot_records or (record_id, seat) in bot_seats:
            candidates.setdefault(player_id, True)
    if candidates:
        for player in Player.objects.filter(pk__in=list(candidates), user__isnull=True):
            played_by_a_person = False
            for record_id, seat in Seat.objects.filter(player=player).values_list(
                "record_id", "seat"
            ):
                if record_id not in bot_records and (record_id, seat) not in bot_seats:
                    played_by_a_person = True
                    break
            if not played_by_a_person:
                player.kind = "bot"
                player.save(update_fields=["kind"])

    # Bot play: the demo data, live games with a bot, and any game a bot sat in.
    with_bot = Exists(Seat.objects.filter(record=OuterRef("pk"), player__kind="bot"))
    changed = []
    records = Record.objects.filter(simulated=False).filter(
        Q(meta__source="demo data") | Q(pk__in=live_records) | with_bot
    )
    for record in records.iterator():
        record.simulated = True
        record.meta = {**(record.meta or {}), "simulated": True}
        record.save(update_fields=["simulated", "meta"])
        changed.append(record.pk)
    for start in range(0, len(changed), ANNOUNCE_BATCH):
        Announcement.objects.create(
            topic="records.stored", record_ids=changed[start : start + ANNOUNCE_BATCH]
        )


class Migration(migrations.Migration):
    dependencies = [
        ("replays", "0011_player_kind"),
    ]

    operations = [
        migrations.RunPython(bots_mark, migrations.RunPython.noop),
    ]
