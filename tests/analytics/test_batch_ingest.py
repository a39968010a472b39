"""The batch ingest: set-based writes giving exactly the rows of a record-by-record ingest.

Records are stored with their announcements held back, then ingested as one batch
(``analytics.services.records_ingest``, a bulk import's task) or one by one; every
derived row must be the same, equal to a rebuild from the records alone, to the
nightly full recomputes (statistics from the facts, summaries from a GROUP BY) and,
for the facts, to a replay of each log as analytics did before facts were stored
with the records.
"""

from __future__ import annotations

import random

import pytest

from analytics import services, statistics
from analytics.models import (
    GameSummary,
    IngestQuarantine,
    PlayerResult,
    RecordFacts,
    StatisticsSnapshot,
)
from analytics.ratings import ratings_deferred, ratings_rebuild
from analytics.rebuild import derived_rows_clear, records_rebuild_stream
from analytics.statistics import FACT_FIELDS, statistics_recompute_all
from analytics.summaries import game_summaries_check
from games.facts import record_facts_compute
from replays import outbox
from replays.models import Player, Record
from replays.services import player_kind_set, player_merge, record_result_replace, record_submit
from replays.simulation import simulated_document
from tests.analytics.dump import analytics_dump
from tests.analytics.ratings_helpers import table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def held(monkeypatch):
    """Stored records are not announced: the test ingests them itself."""
    monkeypatch.setattr(outbox, "announcements_dispatch", lambda **kwargs: 0)


def mixed_corpus() -> list[Record]:
    """Logs of three games (people's and bot play), result-only tables, a game with a bot."""
    rng = random.Random(5)
    records = []
    for k in range(12):
        game = ("secret_santa", "gift_swap", "gift_economy")[k % 3]
        document = simulated_document(game, num_players=3 + k % 2, rng=rng, simulated=k % 4 == 0)
        document["meta"]["club"] = ("North Pier", "South Quay")[k % 2]
        document["meta"]["played_at"] = f"2026-0{1 + k % 3}-1{k % 9}T19:00:00+00:00"
        records.append(record_submit(document=document)[0])
    for day, scores in enumerate([[30, 12, 7], [10, 28, 7], [9, 9, 40], [22, 22, 5]], start=1):
        records.append(record_submit(document=table(["Ana", "Ben", "Cleo"], scores, day=day))[0])
    bot_game = simulated_document("secret_santa", num_players=3, rng=rng, simulated=False)
    records.append(record_submit(document=bot_game, bot_seats=[2])[0])
    return records


def wipe() -> None:
    from django.apps import apps

    for model in apps.get_app_config("analytics").get_models():
        model.objects.all().delete()


def assert_matches_full_recomputes() -> None:
    report = statistics_recompute_all(fix=False)
    assert report["differences"] == []
    assert report["summaries"] == []
    # The facts as analytics computed them before they were stored: a replay of the log.
    for facts in RecordFacts.objects.select_related("record"):
        record = facts.record
        replayed = record_facts_compute(
            game=record.game,
            num_players=len(record.result["scores"]),
            options=record.options,
            events=record.events if record.kind == Record.Kind.LOG else [],
            result=record.result,
        )
        assert {name: getattr(facts, name) for name in FACT_FIELDS} == replayed


def test_a_batch_gives_the_rows_of_one_by_one_and_of_a_rebuild(held):
    records = mixed_corpus()
    ids = [r.pk for r in records]
    assert not PlayerResult.objects.exists()
    assert services.records_ingest(record_ids=ids) == len(ids)
    batch = analytics_dump()
    assert PlayerResult.objects.count() == sum(len(r.result["scores"]) for r in records)
    assert RecordFacts.objects.count() == len(ids)
    assert StatisticsSnapshot.objects.filter(simulated=True).exists()
    assert_matches_full_recomputes()

    wipe()
    for record_id in reversed(ids):  # one record per transaction, in another order
        assert services.record_ingest(record_id=record_id)
    assert analytics_dump() == batch

    wipe()
    services.analytics_rebuild(batch=5)
    assert analytics_dump() == batch


def test_a_correction_in_a_batch_replaces_its_contribution_exactly(held):
    records = mixed_corpus()
    ids = [r.pk for r in records]
    services.records_ingest(record_ids=ids)
    table_record = next(r for r in records if r.kind == Record.Kind.RESULT)
    corrected = {"scores": [12, 30, 7], "ranks": [2, 1, 3], "winners": [1]}
    record_result_replace(record=table_record, result=corrected, digest="corrected-1")
    services.records_ingest(record_ids=ids)  # the whole batch again, one of them changed
    incremental = analytics_dump()
    assert sorted(
        PlayerResult.objects.filter(record=table_record).values_list("seat", "score")
    ) == [(0, 12), (1, 30), (2, 7)]
    assert_matches_full_recomputes()
    wipe()
    services.analytics_rebuild()
    assert analytics_dump() == incremental


def test_ingesting_the_same_batch_twice_changes_nothing(held):
    ids = [r.pk for r in mixed_corpus()]
    services.records_ingest(record_ids=ids)
    once = analytics_dump()
    applied = dict(RecordFacts.objects.values_list("pk", "applied"))
    services.records_ingest(record_ids=ids)
    services.records_ingest(record_ids=ids[3:7])
    assert analytics_dump() == once
    assert dict(RecordFacts.objects.values_list("pk", "applied")) == applied


def test_one_bad_record_in_a_batch_is_quarantined_and_the_others_go_on(held, monkeypatch):
    records = mixed_corpus()
    ids = [r.pk for r in records]
    bad = records[4]
    real = statistics.record_facts_build

    def build(*, record, **kwargs):
        if record.pk == bad.pk:
            raise RuntimeError("boom")
        return real(record=record, **kwargs)

    monkeypatch.setattr(statistics, "record_facts_build", build)
    assert services.records_ingest(record_ids=ids) == len(ids) - 1
    assert list(IngestQuarantine.objects.values_list("record_id", flat=True)) == [bad.pk]
    assert not PlayerResult.objects.filter(record=bad).exists()
    assert not RecordFacts.objects.filter(pk=bad.pk).exists()
    assert RecordFacts.objects.count() == len(ids) - 1
    assert statistics_recompute_all(fix=False)["differences"] == []

    monkeypatch.setattr(statistics, "record_facts_build", real)
    assert services.quarantine_retry().ingested == 1
    after_retry = analytics_dump()
    wipe()
    services.records_ingest(record_ids=ids)
    assert analytics_dump() == after_retry


def test_records_stored_before_facts_are_kept_get_them_by_a_replay(held):
    ids = [r.pk for r in mixed_corpus()]
    services.records_ingest(record_ids=ids)
    reference = analytics_dump()
    assert all(Record.objects.filter(kind=Record.Kind.LOG).values_list("replay_facts", flat=True))
    wipe()
    Record.objects.update(replay_facts=None)
    services.records_ingest(record_ids=ids)
    assert analytics_dump() == reference


def test_a_bulk_import_stores_each_record_with_its_facts(make_document):
    from replays.bulk import records_import

    documents = [make_document(game, seed=s) for s, game in enumerate(["gift_swap", "gift_trap"])]
    outcomes = list(records_import(enumerate(documents, 1)))
    for outcome in outcomes:
        record = Record.objects.get(pk=outcome.record_id)
        assert record.replay_facts == record_facts_compute(
            game=record.game,
            num_players=len(record.result["scores"]),
            options=record.options,
            events=record.events,
            result=record.result,
        )


def _summaries() -> dict[str, tuple]:
    return {s.game: (s.games, s.players, s.tallies) for s in GameSummary.objects.all()}


def test_summaries_kept_by_deltas_equal_a_full_recompute(held):
    records = mixed_corpus()
    ids = [r.pk for r in records]
    services.records_ingest(record_ids=ids[:8])
    services.records_ingest(record_ids=ids[8:])
    assert game_summaries_check(fix=False) == []
    table_record = next(r for r in records if r.kind == Record.Kind.RESULT)
    corrected = {"scores": [40, 30, 7], "ranks": [1, 2, 3], "winners": [0]}
    record_result_replace(record=table_record, result=corrected, digest="corrected-2")
    services.record_ingest(record_id=table_record.pk)
    assert game_summaries_check(fix=False) == []

    # Two names merged into one: their seats (and results) move to the one kept.
    ben = Player.objects.get(name="Ben")
    benjamin = Player.objects.create(name="Benjamin")
    player_merge(keep=benjamin, merge=[ben])
    services.records_ingest(record_ids=ids)
    assert game_summaries_check(fix=False) == []
    names = {p["player"] for s in GameSummary.objects.all() for p in s.players}
    assert "Benjamin" in names
    assert "Ben" not in names

    # A person made a bot: their games become bot play, and leave the players table.
    ana = Player.objects.get(name="Ana")
    player_kind_set(player=ana, kind=Player.Kind.BOT)
    services.records_ingest(record_ids=ids)
    assert game_summaries_check(fix=False) == []
    assert "Ana" not in {p["player"] for s in GameSummary.objects.all() for p in s.players}
    incremental = _summaries()
    for game in incremental:
        services.game_summary_refresh(game=game)
    assert _summaries() == incremental


def test_a_rebuild_hands_a_batch_a_worker_wrote_meanwhile_to_the_batch_path(held):
    """A worker ingests records after the rebuild emptied the tables: their batch's copy
    meets their rows, goes through the batch path, and every record counts once."""
    ids = [r.pk for r in mixed_corpus()]
    services.records_ingest(record_ids=ids)
    reference = analytics_dump()
    derived_rows_clear()
    services.records_ingest(record_ids=ids[5:7])  # the worker, after the TRUNCATE
    handed: list[list[int]] = []

    def fallback(chunk: list[int]) -> None:
        handed.append(chunk)
        services.records_ingest_batch(chunk)

    with ratings_deferred():
        outcome = records_rebuild_stream(records=Record.objects.all(), fallback=fallback, batch=4)
    ratings_rebuild()
    assert outcome.records == len(ids)
    assert outcome.handed_on == len(handed) >= 1
    assert sum(map(len, handed)) < len(ids), "the other batches were the rebuild's own"
    assert analytics_dump() == reference
    assert_matches_full_recomputes()
