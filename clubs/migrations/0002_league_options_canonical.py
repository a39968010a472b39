"""Leagues' options in their one canonical spelling (a list option's items in declared order).

A league compares its options with a record's, and records' options are now canonical
(``replays`` migration 0011), so a league made with GiftTRAP's packs in another order
would refuse every record of its own rules.
"""

from django.db import migrations

from games.base import options_canonical
from games.registry import UnknownGame, get_engine


def leagues_options_canonical(apps, schema_editor):
    League = apps.get_model("clubs", "League")
    for league in League.objects.order_by("pk").iterator(chunk_size=500):
        try:
            engine = get_engine(league.game)
        except UnknownGame:
            continue
        options = options_canonical(engine, league.options or {})
        if options != league.options:
            league.options = options
            league.save(update_fields=["options"])


class Migration(migrations.Migration):
    dependencies = [("clubs", "0001_initial"), ("replays", "0014_options_canonical")]

    operations = [migrations.RunPython(leagues_options_canonical, migrations.RunPython.noop)]
