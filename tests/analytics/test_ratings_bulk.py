"""Ratings in bulk: the direct Plackett-Luce update, the one-pass read, bulk against incremental.

A full recompute reads a scope's outcomes in one query, rates them in memory with
``plackett_luce`` (openskill's arithmetic without its objects) and writes in
batches; one new record goes through ``ratings_apply``. Both must give what
openskill gives, and the same history rows.
"""

from __future__ import annotations

import random

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from openskill.models import PlackettLuce

from analytics import ratings
from analytics.models import PlayerRating, RatingHistory, RatingScope
from analytics.rating_model import plackett_luce
from analytics.rating_scopes import scope_records
from tests.analytics.ratings_helpers import competition_ranks, openskill_ratings, store, table

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["ana", "ben", "cleo", "dev", "eli", "fay", "gus", "hana"]


def test_plackett_luce_equals_openskill_to_1e9():
    """Random tables of 2 to 8 with ties and all sorts of ratings, against ``rate``."""
    model = PlackettLuce()
    rng = random.Random(23)
    for _ in range(3000):
        n = rng.choice([2, 3, 4, 5, 6, 8])
        mus = [rng.uniform(-10, 60) for _ in range(n)]
        sigmas = [rng.uniform(0.05, 9) for _ in range(n)]
        ranks = competition_ranks([rng.randint(0, 4) for _ in range(n)])
        teams = [[model.rating(mu=m, sigma=s)] for m, s in zip(mus, sigmas, strict=True)]
        expected = [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=ranks)]
        got = plackett_luce(mus, sigmas, ranks)
        for (mu, sigma), (want_mu, want_sigma) in zip(got, expected, strict=True):
            assert mu == pytest.approx(want_mu, abs=1e-9, rel=0)
            assert sigma == pytest.approx(want_sigma, abs=1e-9, rel=0)


def test_plackett_luce_refuses_ranks_that_do_not_match_the_players():
    with pytest.raises(ValueError, match="2 ranks for 3 players"):
        plackett_luce([25.0] * 3, [8.3] * 3, [1, 2])


def games(count: int, seed: int) -> list[tuple[list[str], list[int], float]]:
    """(players, scores, day): tables of 2 to 4 of eight players, ties common."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        names = rng.sample(NAMES, rng.choice([2, 3, 4]))
        out.append((names, [rng.randint(0, 3) for _ in names], k + rng.random() / 2))
    return out


def history_of(key: str) -> list[tuple]:
    return sorted(
        RatingHistory.objects.filter(scope__key=key).values_list(
            "record_id", "player__name", "order_at", "mu", "sigma", "ordinal", "rank", "score",
            "games", "wins", "score_total",
        )
    )  # fmt: skip


def assert_rows_close(got: list[tuple], expected: list[tuple]) -> None:
    assert len(got) == len(expected)
    for row, want in zip(got, expected, strict=True):
        assert row[:3] == want[:3]
        assert row[6:] == want[6:]
        assert row[3:6] == pytest.approx(want[3:6], abs=1e-9, rel=0)


def test_bulk_recompute_equals_incremental_and_openskill():
    """Stored out of order (late records recompute from their point), then recomputed
    from nothing: the same ratings and history rows, and openskill's ratings."""
    played = games(60, seed=5)
    shuffled = played[:]
    random.Random(9).shuffle(shuffled)
    for names, scores, day in shuffled:
        store(table(names, scores, day=day))
    key = "game:gift_gift_gone"
    incremental_history = history_of(key)
    incremental = {
        r.player.name: (r.mu, r.sigma, r.games, r.wins, r.score_total)
        for r in PlayerRating.objects.filter(scope__key=key).select_related("player")
    }
    expected = openskill_ratings(
        (names, competition_ranks(scores))
        for names, scores, _ in sorted(played, key=lambda g: g[2])
    )
    assert ratings.ratings_rebuild() == {"scopes": 1, "differences": 0}
    bulk = {
        r.player.name: (r.mu, r.sigma, r.games, r.wins, r.score_total)
        for r in PlayerRating.objects.filter(scope__key=key).select_related("player")
    }
    assert set(bulk) == set(incremental) == set(expected)
    for name, (mu, sigma) in expected.items():
        assert bulk[name][:2] == pytest.approx((mu, sigma), abs=1e-9, rel=0), name
        assert incremental[name][:2] == pytest.approx((mu, sigma), abs=1e-9, rel=0), name
        assert bulk[name][2:] == incremental[name][2:]
    assert_rows_close(history_of(key), incremental_history)
    assert len(incremental_history) == sum(len(names) for names, _, _ in played)
    scope = RatingScope.objects.get(key=key)
    last = max(played, key=lambda g: g[2])
    assert (
        scope.last_record_id
        == RatingHistory.objects.filter(scope=scope).latest("order_at").record_id
    )
    assert {
        h.player.name for h in RatingHistory.objects.filter(record_id=scope.last_record_id)
    } == set(last[0])


def test_a_new_record_after_a_bulk_recompute_appends_as_openskill_would():
    played = games(12, seed=11)
    with ratings.ratings_deferred():
        for names, scores, day in played:
            store(table(names, scores, day=day))
    ratings.ratings_rebuild()
    newest = (["ana", "ben", "cleo"], [2, 2, 1], 100.0)
    store(table(newest[0], newest[1], day=newest[2]))
    scope = RatingScope.objects.get(key="game:gift_gift_gone")
    assert scope.recomputes == 1  # the rebuild; the new record was appended
    expected = openskill_ratings(
        (names, competition_ranks(scores)) for names, scores, _ in [*played, newest]
    )
    got = {
        r.player.name: (r.mu, r.sigma)
        for r in PlayerRating.objects.filter(scope=scope).select_related("player")
    }
    assert set(got) == set(expected)
    for name, pair in expected.items():
        assert got[name] == pytest.approx(pair, abs=1e-9, rel=0), name


def test_a_recompute_reads_the_scope_in_one_query(monkeypatch):
    """However many records: one read of records and seats (a chunked read once ran two
    queries a chunk, each over the whole game)."""
    monkeypatch.setattr(ratings, "CHUNK", 5)
    monkeypatch.setattr(ratings, "READ_CHUNK", 5, raising=False)
    with ratings.ratings_deferred():
        for names, scores, day in games(23, seed=3):
            store(table(names, scores, day=day))
    spec = ratings.ScopeSpec("game:gift_gift_gone", "game", "gift_gift_gone")
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        assert ratings.scope_recompute(scope=ratings.scope_get_locked(spec)) == 23
    reads = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].lstrip().upper().startswith(("SELECT", "DECLARE", "FETCH", "COPY"))
        and ("replays_record" in q["sql"] or "replays_seat" in q["sql"])
    ]
    assert len(reads) == 1, reads


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plan")
def test_a_game_scope_is_read_along_its_index_without_a_sort():
    for names, scores, day in games(5, seed=1):
        store(table(names, scores, day=day))
    scope = RatingScope.objects.get(key="game:gift_gift_gone")
    records = scope_records(scope)
    with connection.cursor() as cursor:
        # With sorting priced out, a sort still in the plan means the index cannot serve.
        cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute("SET LOCAL enable_seqscan = off")
        sql, params = records.values_list("id").query.sql_with_params()
        cursor.execute(f"EXPLAIN {sql}", params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "record_rating_order" in plan, plan
    assert "Sort" not in plan, plan


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's JIT")
def test_the_read_turns_the_jit_off_for_itself_only():
    for names, scores, day in games(5, seed=2):
        store(table(names, scores, day=day))
    spec = ratings.ScopeSpec("game:gift_gift_gone", "game", "gift_gift_gone")
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL jit = on")
        assert ratings.scope_recompute(scope=ratings.scope_get_locked(spec)) == 5
        cursor.execute("SHOW jit")
        assert cursor.fetchone()[0] == "on"
