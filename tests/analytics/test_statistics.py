"""Per-game statistics: hand-computed figures, incremental = fresh, the nightly check."""

from __future__ import annotations

import itertools
import logging
import random

import orjson
import pytest

from analytics import services, stats
from analytics.facts import record_facts_compute
from analytics.models import RecordFacts, StatisticsSnapshot
from analytics.selectors import game_statistics
from analytics.statistics import statistics_fresh, statistics_recompute_all
from analytics.stats import wilson_interval
from games.facts import facts_empty
from games.play import BOTS, self_play
from games.registry import get_engine
from replays.models import Record
from replays.services import record_submit
from replays.simulation import simulated_document

pytestmark = pytest.mark.django_db(transaction=True)


def table(scores, *, day: int, club: str = "North Pier") -> dict:
    return {
        "format": "giftlog/1",
        "game": "gift_trap",
        "players": ["Ana", "Ben", "Cleo", "Dev"][: len(scores)],
        "options": {},
        "meta": {"played_at": f"2026-03-{day:02d}T20:00:00+00:00", "club": club},
        "result": {"scores": scores},
    }


# Five 3-player tables: seat 1 wins twice and shares one win with seat 2, seat 2 wins
# once more, seat 3 wins once. A shared win counts half to each winner. (A GiftTRAP
# game with no round limit ends when someone is Gifted: a winner scores 42 or more.)
HAND_TABLES = [[45, 35, 30], [46, 35, 30], [29, 44, 28], [43, 43, 28], [26, 27, 42]]


def test_seat_advantage_and_wilson_interval_match_a_hand_computation():
    for day, scores in enumerate(HAND_TABLES, start=1):
        record_submit(document=table(scores, day=day))
    figures = game_statistics(game="gift_trap")
    three = figures["real"]["by_players"]["3"]
    assert three["records"] == 5
    assert [s["wins"] for s in three["seats"]] == [2.5, 1.5, 1.0]
    assert [s["win_rate"] for s in three["seats"]] == [0.5, 0.3, 0.2]
    assert [s["fair"] for s in three["seats"]] == [0.3333] * 3
    # By hand, z = 1.96, n = 5. Seat 1, p = 0.5:
    #   centre = (0.5 + 3.8416/10) / (1 + 3.8416/5) = 0.5
    #   half   = 1.96 / 1.76832 * sqrt(0.25/5 + 3.8416/100) = 1.10840 * 0.29735 = 0.32958
    assert three["seats"][0]["low"] == pytest.approx(0.1704, abs=2e-4)
    assert three["seats"][0]["high"] == pytest.approx(0.8296, abs=2e-4)
    # Seat 3, p = 0.2: centre = (0.2 + 0.38416) / 1.76832 = 0.33035
    #   half = 1.10840 * sqrt(0.16/5 + 0.038416) = 1.10840 * 0.26536 = 0.29413
    assert three["seats"][2]["low"] == pytest.approx(0.0362, abs=2e-4)
    assert three["seats"][2]["high"] == pytest.approx(0.6245, abs=2e-4)
    assert all(s["verdict"] == "fair" for s in three["seats"])  # five games prove nothing
    assert three["tie_rate"] == 0.2
    assert three["balance"] == pytest.approx(1 - (0.5 - 0.2))
    assert three["winning_scores"]["median"] == 43.5  # 42, 43, 43 | 44, 45, 46
    assert "simulated" in figures
    assert figures["simulated"]["records"] == 0


def test_wilson_interval_edges():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(10, 10)
    assert high == pytest.approx(1.0)
    assert low == pytest.approx(0.7225, abs=1e-4)
    low, high = wilson_interval(0, 10)
    assert low == pytest.approx(0.0)
    assert high == pytest.approx(0.2775, abs=1e-4)


def test_club_and_month_filters_read_month_snapshots():
    record_submit(document=table([45, 10, 5], day=1, club="North Pier"))
    record_submit(document=table([2, 10, 45], day=2, club="South Quay"))
    north = game_statistics(game="gift_trap", club="North Pier")["real"]
    assert north["records"] == 1
    assert north["by_players"]["3"]["seats"][0]["wins"] == 1.0
    assert game_statistics(game="gift_trap", month_from="2026-04")["real"]["records"] == 0
    assert game_statistics(game="gift_trap", month_to="2026-03")["real"]["records"] == 2


def test_facts_of_a_log_follow_the_running_scores():
    engine = get_engine("secret_santa")
    events, state = self_play(engine, 3, rng=random.Random(4), bots=[BOTS["greedy"]] * 3)
    result = engine.result(state).to_json()
    facts = record_facts_compute(
        game="secret_santa", num_players=3, options=None, events=events, result=result
    )
    assert facts["length"] == len(events)
    assert facts["rounds"] == result["details"]["rounds"]
    assert sum(facts["event_counts"].values()) == sum(1 for e in events if e["by"] != "chance")
    # Recompute the decisive step and lead changes by hand from the running scores.
    from games.play import replay_states

    leaders = []
    for s in replay_states(engine, 3, None, events):
        scores = engine.scores(s)
        leaders.append({i for i, v in enumerate(scores) if v == max(scores)})
    changes = sum(1 for a, b in itertools.pairwise(leaders) if a != b)
    last_bad = max(
        (k for k, lead in enumerate(leaders) if not lead <= set(result["winners"])), default=-1
    )
    assert facts["lead_changes"] == changes
    assert facts["decisiveness"] == round((last_bad + 1) / len(events), 4)
    # Each seat ends with its face-down cards, named from the catalog.
    view = engine.view(state, None)
    catalog = engine.card_catalog()
    for seat in range(3):
        mine = view["players"][seat]["face_down"] + view["players"][seat]["hand"]
        assert set(facts["cards_ended"][seat]) == {catalog[c]["name"] for c in mine}
        assert set(facts["cards_ended"][seat]) <= set(facts["cards_held"][seat])


def _stored() -> dict:
    return {
        (s.game, s.simulated, s.num_players, s.variant, s.club, s.month): s.counters
        for s in StatisticsSnapshot.objects.all()
    }


@pytest.mark.django_db(transaction=True)
def test_incremental_equals_fresh_after_random_order_and_duplicates():
    rng = random.Random(11)
    documents = []
    for k in range(24):
        game = ("secret_santa", "gift_swap", "gift_gift_gone")[k % 3]
        engine = get_engine(game)
        n = rng.randint(engine.min_players, min(engine.max_players, 4))
        doc = simulated_document(game, num_players=n, rng=rng, simulated=k % 2 == 0)
        doc["meta"]["club"] = rng.choice(["North Pier", "South Quay"])
        doc["meta"]["played_at"] = f"2026-{rng.randint(1, 6):02d}-10T19:00:00Z"
        documents.append(doc)
    documents += [table([45, 10, 5], day=d) for d in range(1, 4)]
    rng.shuffle(documents)
    records = [record_submit(document=d)[0] for d in documents]
    for record in rng.sample(records, 10):  # duplicate deliveries
        assert services.record_ingest(record_id=record.pk)
    for doc in rng.sample(documents, 5):  # duplicate uploads
        assert record_submit(document=doc)[1] is False
    assert RecordFacts.objects.count() == len(records)
    assert _stored() == statistics_fresh()
    assert statistics_recompute_all(fix=False)["differences"] == []
    incremental = _stored()
    services.analytics_rebuild()  # everything again from the records alone
    assert _stored() == incremental
    figures = game_statistics(game="secret_santa")
    facts = RecordFacts.objects.filter(game="secret_santa")
    assert figures["real"]["records"] == facts.filter(simulated=False).count()
    assert figures["simulated"]["records"] == facts.filter(simulated=True).count()


@pytest.mark.django_db(transaction=True)
def test_nightly_recompute_logs_and_fixes_a_planted_difference(caplog):
    for day, scores in enumerate(HAND_TABLES, start=1):
        record_submit(document=table(scores, day=day))
    snapshot = StatisticsSnapshot.objects.get(game="gift_trap", club="*", month="*")
    planted = dict(snapshot.counters, records=snapshot.counters["records"] + 7)
    StatisticsSnapshot.objects.filter(pk=snapshot.pk).update(counters=planted, records=12)
    with caplog.at_level(logging.WARNING, logger="analytics.statistics"):
        report = statistics_recompute_all()
    assert len(report["differences"]) == 1
    assert report["differences"][0]["stored_records"] == 12
    assert report["differences"][0]["fresh_records"] == 5
    assert "differs from a fresh computation" in caplog.text
    assert StatisticsSnapshot.objects.get(pk=snapshot.pk).records == 5
    assert statistics_recompute_all()["differences"] == []
    assert game_statistics(game="gift_trap")["real"]["records"] == 5


@pytest.mark.django_db(transaction=True)
def test_a_record_never_ingested_is_counted_by_the_nightly_recompute():
    _record, _ = record_submit(document=table([45, 10, 5], day=1))
    RecordFacts.objects.all().delete()
    StatisticsSnapshot.objects.all().delete()
    report = statistics_recompute_all()
    assert report["records"] == 1
    assert game_statistics(game="gift_trap")["real"]["records"] == 1
    assert Record.objects.count() == 1


def _plain_counters(facts):
    """The counters of one record as first defined, before any canonical form."""
    n = int(facts["num_players"])
    scores = [int(s) for s in facts["scores"]]
    winners = sorted({int(w) for w in facts["winners"]})
    share = stats.WIN_UNIT // len(winners) if winners else 0
    units = [share if seat in winners else 0 for seat in range(n)]
    counters = {
        "records": 1,
        "ties": 1 if len(winners) > 1 else 0,
        "seat_wins": units,
        "scores": [{str(scores[seat]): 1} for seat in range(n)],
        "win_scores": {},
    }
    for w in winners:
        counters["win_scores"][str(scores[w])] = counters["win_scores"].get(str(scores[w]), 0) + 1
    if facts.get("length") is not None:
        counters["logs"] = 1
        counters["length"] = {str(facts["length"]): 1}
        if facts.get("rounds") is not None:
            counters["rounds"] = {str(facts["rounds"]): 1}
        if facts.get("decisiveness") is not None:
            decile = min(int(float(facts["decisiveness"]) * 10), 9)
            counters["decisive"] = {str(decile): 1}
            counters["decisive_milli"] = round(float(facts["decisiveness"]) * 1000)
        if facts.get("lead_changes") is not None:
            counters["lead_changes"] = {str(facts["lead_changes"]): 1}
        counters["events"] = {k: int(v) for k, v in (facts.get("event_counts") or {}).items()}
        counters["event_games"] = {k: 1 for k, v in (facts.get("event_counts") or {}).items() if v}
        cards = {}
        for seat in range(n):
            for kind, names in ((0, facts["cards_held"][seat]), (2, facts["cards_ended"][seat])):
                for name in names:
                    row = cards.setdefault(name, [0, 0, 0, 0])
                    row[kind] += 1
                    row[kind + 1] += units[seat]
        counters["cards"] = cards
        counters["card_seat_games"] = n
        counters["card_win_units"] = sum(units)
    return counters


@pytest.mark.parametrize("game", ["secret_santa", "gift_economy", "gift_gift_gone", "gift_swap"])
def test_a_contribution_is_the_canonical_form_of_its_plain_counters(game):
    """``contribution`` builds the canonical form directly; it must be exactly (keys and
    their order too, as stored) what canonicalising the plain counters gives, for logs,
    result-only records, ties, no winners and a decisive first step."""
    engine = get_engine(game)
    rng = random.Random(game)
    cases = []
    for _ in range(6):
        n = rng.randint(engine.min_players, engine.max_players)
        events, state = self_play(engine, n, rng=rng)
        result = engine.result(state).to_json()
        facts = record_facts_compute(
            game=game, num_players=n, options=None, events=events, result=result
        )
        base = {**facts, "num_players": n, "scores": result["scores"]}
        cases += [
            {**base, "winners": result["winners"]},
            {**base, "winners": list(range(n))},  # everyone tied
            {**base, "winners": [], "decisiveness": 0.0, "event_counts": {"x": 0}},
            {**facts_empty(n), "num_players": n, "scores": result["scores"], "winners": [0]},
        ]
    for facts in cases:
        made = stats.contribution(facts)
        expected = stats.canonical(_plain_counters(facts))
        assert made == expected
        assert orjson.dumps(made) == orjson.dumps(expected)  # the same keys in the same order


def test_every_filter_shape_is_compiled_once_and_reads_what_the_queryset_reads(monkeypatch):
    """The dashboard's statistics read is compiled once per shape of filter
    (``core.queries``): the parameters the selector passes are the ones its SQL takes, in
    order, for every shape and value (a wrong order would not be kept, and would fail the
    count below), and the figures are those of the queryset run as Django runs it."""
    from core import queries

    for day, club, scores in ((1, "North Pier", [45, 10, 5]), (2, "South Quay", [2, 10, 45])):
        record_submit(document=table(scores, day=day, club=club))
    record_submit(document=table([44, 3, 2, 1], day=3))
    filters = list(
        itertools.product(
            [None, "North Pier", "Old Mill"], [None, "2026-03"], [None, "2026-02"], [None, 3, 4],
            [None, True, False],
        )
    )  # fmt: skip
    queries._COMPILED.clear()
    compiled = {
        f: game_statistics(
            game="gift_trap", club=f[0], month_from=f[1], month_to=f[2], players=f[3], real=f[4]
        )
        for f in filters
    }
    shapes = {key for _vendor, key in queries._COMPILED if key[0] == "statistics-rows"}
    # Club, from and to present or not (eight, one of them unscoped), a table size or not,
    # real, simulated or both: every shape kept, none refused.
    assert len(shapes) == 8 * 2 * 3
    monkeypatch.setattr(queries, "COMPILED_LIMIT", 0)
    queries._COMPILED.clear()
    for f in filters:
        plain = game_statistics(
            game="gift_trap", club=f[0], month_from=f[1], month_to=f[2], players=f[3], real=f[4]
        )
        assert compiled[f] == plain, f
    assert compiled[(None, None, None, 3, True)]["real"]["records"] == 2
    assert compiled[("North Pier", None, "2026-02", None, None)]["real"]["records"] == 0
