"""Seat.won: "this seat is in the record's result winners", for the ``winner`` filter.

The backfill reads each stored record's ``result["winners"]`` once; new records
fill the column when they are stored (``replays.services``).
"""

from django.db import migrations, models


def seats_won_backfill(apps, schema_editor):
    Record = apps.get_model("replays", "Record")
    Seat = apps.get_model("replays", "Seat")
    records = Record.objects.order_by("pk").only("pk", "result")
    for record in records.iterator(chunk_size=500):
        winners = (record.result or {}).get("winners") or []
        if winners:
            Seat.objects.filter(record_id=record.pk, seat__in=winners).update(won=True)


class Migration(migrations.Migration):
    dependencies = [
        ("replays", "0002_live_games"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="won",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(seats_won_backfill, migrations.RunPython.noop, elidable=True),
    ]
