"""Analytics' rules variants keyed by the canonical options.

A variant key is a digest of a record's full options (``replays.giftlog.options_key``).
Records' options are now canonical (``replays`` migration 0011: a list option's items
in declared order), so the rows keyed by the old spelling move to the canonical key:
per-seat results, record facts (and the scopes their contribution was counted in),
the statistics snapshots (two snapshots that now share a scope are added together:
their counters are additive), and the balance lab's jobs' options.
"""

from django.db import migrations
from django.db.models import Min

from analytics.stats import counters_add
from games.base import options_canonical
from games.registry import UnknownGame, get_engine
from replays.giftlog import options_key


def _canonical(game, options):
    try:
        engine = get_engine(game)
    except UnknownGame:
        return options
    return options_canonical(engine, options or {})


def _variant_moves(apps):
    """Old variant key -> canonical key, from one record of each stored key."""
    Record = apps.get_model("replays", "Record")
    PlayerResult = apps.get_model("analytics", "PlayerResult")
    RecordFacts = apps.get_model("analytics", "RecordFacts")
    samples = {}
    for model in (PlayerResult, RecordFacts):
        rows = model.objects.order_by().values("variant").annotate(sample=Min("record_id"))
        for row in rows:
            samples.setdefault(row["variant"], row["sample"])
    moves = {}
    for variant, record_id in samples.items():
        record = Record.objects.filter(pk=record_id).only("game", "options").first()
        if record is None:
            continue
        key = options_key(_canonical(record.game, record.options))
        if key != variant:
            moves[variant] = key
    return moves


def variants_canonical(apps, schema_editor):
    PlayerResult = apps.get_model("analytics", "PlayerResult")
    RecordFacts = apps.get_model("analytics", "RecordFacts")
    StatisticsSnapshot = apps.get_model("analytics", "StatisticsSnapshot")
    SimulationJob = apps.get_model("analytics", "SimulationJob")
    for old, new in _variant_moves(apps).items():
        PlayerResult.objects.filter(variant=old).update(variant=new)
        moved = []
        for facts in RecordFacts.objects.filter(variant=old).iterator(chunk_size=500):
            facts.variant = new
            if facts.applied:
                facts.applied = {
                    **facts.applied,
                    "scopes": [
                        [*s[:3], new, *s[4:]] if s[3] == old else s
                        for s in facts.applied.get("scopes", [])
                    ],
                }
            moved.append(facts)
        RecordFacts.objects.bulk_update(moved, ["variant", "applied"], batch_size=500)
        for snapshot in StatisticsSnapshot.objects.filter(variant=old):
            scope = {
                f: getattr(snapshot, f)
                for f in ("game", "simulated", "num_players", "club", "month")
            }
            target = StatisticsSnapshot.objects.filter(variant=new, **scope).first()
            if target is None:
                snapshot.variant = new
                snapshot.save(update_fields=["variant"])
                continue
            target.counters = counters_add(target.counters, snapshot.counters)
            target.records = int(target.counters.get("records", 0))
            target.save(update_fields=["counters", "records"])
            snapshot.delete()
    for job in SimulationJob.objects.order_by("pk").iterator(chunk_size=500):
        options = _canonical(job.game, job.options)
        if options != job.options:
            job.options = options
            job.save(update_fields=["options"])


class Migration(migrations.Migration):
    dependencies = [("analytics", "0006_rating_rows_written_unchecked"), ("replays", "0014_options_canonical")]

    operations = [migrations.RunPython(variants_canonical, migrations.RunPython.noop)]
