"""Ratings: order, late records, ties, voids, simulated play, idempotence, against openskill."""

from __future__ import annotations

import datetime as dt

import pytest

from analytics import ratings
from analytics.models import PlayerRating, RatingApplication, RatingHistory, RatingScope
from analytics.services import analytics_rebuild, record_ingest
from clubs import services as club_services
from tests.analytics.ratings_helpers import (
    competition_ranks,
    openskill_ratings,
    santa,
    store,
    table,
    when,
)
from tests.clubs.conftest import world  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["ana", "ben", "cleo", "dev"]


def scope_ratings(key: str) -> dict[str, tuple[float, float]]:
    return {
        r.player.name: (r.mu, r.sigma)
        for r in PlayerRating.objects.filter(scope__key=key).select_related("player")
    }


def assert_close(got: dict, expected: dict) -> None:
    assert set(got) == set(expected)
    for name, (mu, sigma) in expected.items():
        assert got[name][0] == pytest.approx(mu, abs=1e-9), name
        assert got[name][1] == pytest.approx(sigma, abs=1e-9), name


GAMES = [  # (players, scores, day)
    (["ana", "ben", "cleo"], [10, 7, 3], 1),
    (["ben", "cleo", "dev"], [5, 9, 9], 2),  # cleo and dev tie for first
    (["ana", "dev"], [4, 8], 3),
    (["ana", "ben", "cleo", "dev"], [6, 6, 6, 2], 4),  # a three-way tie
    (["dev", "ana", "ben"], [1, 2, 3], 5),
]


def expected_for(games) -> dict[str, tuple[float, float]]:
    ordered = sorted(games, key=lambda g: g[2])
    return openskill_ratings((names, competition_ranks(scores)) for names, scores, _ in ordered)


def test_in_order_equals_openskill_with_ties():
    for names, scores, day in GAMES:
        store(table(names, scores, day=day))
    assert_close(scope_ratings("game:gift_gift_gone"), expected_for(GAMES))
    scope = RatingScope.objects.get(key="game:gift_gift_gone")
    assert scope.recomputes == 0  # every record was appended
    assert RatingApplication.objects.filter(scope=scope).count() == len(GAMES)


def test_tied_ranks_give_equal_updates():
    store(table(["ana", "ben", "cleo"], [5, 5, 1], day=1))
    got = scope_ratings("game:gift_gift_gone")
    assert got["ana"] == pytest.approx(got["ben"])
    assert got["ana"][0] > 25 > got["cleo"][0]


def test_late_record_recomputes_from_its_point():
    late = GAMES[1]
    for names, scores, day in [g for g in GAMES if g is not late]:
        store(table(names, scores, day=day))
    scope = RatingScope.objects.get(key="game:gift_gift_gone")
    late_at = dt.datetime.fromisoformat(when(late[2]))
    kept = set(
        RatingHistory.objects.filter(scope=scope, order_at__lt=late_at).values_list("id", flat=True)
    )
    redone = set(
        RatingHistory.objects.filter(scope=scope, order_at__gt=late_at).values_list("id", flat=True)
    )
    assert len(kept) == 3
    assert len(redone) == 9
    store(table(*late[:2], day=late[2]))
    scope.refresh_from_db()
    assert scope.recomputes == 1
    assert_close(scope_ratings("game:gift_gift_gone"), expected_for(GAMES))
    ids = set(RatingHistory.objects.filter(scope=scope).values_list("id", flat=True))
    # The state before the late record is restarted from, not redone; what follows is.
    assert kept <= ids
    assert not redone & ids
    assert RatingApplication.objects.filter(scope=scope).count() == len(GAMES)
    history = list(
        RatingHistory.objects.filter(scope=scope, player__name="ana").order_by("order_at")
    )
    assert [h.games for h in history] == list(range(1, len(history) + 1))


def test_ingesting_twice_changes_nothing():
    record = store(table(["ana", "ben", "cleo"], [3, 2, 1], day=1))
    before = scope_ratings("game:gift_gift_gone")
    assert ratings.ratings_apply(record=record) == {"game:gift_gift_gone": "unchanged"}
    record_ingest(record_id=record.pk)
    assert scope_ratings("game:gift_gift_gone") == before
    assert RatingHistory.objects.count() == 3
    assert RatingScope.objects.get().recomputes == 0


def test_simulated_records_never_count():
    store(table(["ana", "ben", "cleo"], [3, 2, 1], day=1, simulated=True))
    assert not PlayerRating.objects.exists()
    store(table(["ana", "ben", "cleo"], [1, 2, 3], day=2))
    assert_close(
        scope_ratings("game:gift_gift_gone"),
        openskill_ratings([(["ana", "ben", "cleo"], [3, 2, 1])]),
    )


def test_rebuild_equals_incremental():
    for names, scores, day in reversed(GAMES):  # every record late but the first
        store(table(names, scores, day=day))
    incremental = scope_ratings("game:gift_gift_gone")
    assert_close(incremental, expected_for(GAMES))
    analytics_rebuild()
    assert_close(scope_ratings("game:gift_gift_gone"), incremental)
    assert RatingApplication.objects.count() == len(GAMES)


def test_provisional_and_leaderboard_figures(settings):
    from analytics.leaderboards import leaderboard, scope_get

    settings.RATINGS_PROVISIONAL_GAMES = 3
    for names, scores, day in GAMES:
        store(table(names, scores, day=day))
    rows, total = leaderboard(scope=scope_get(key="game:gift_gift_gone"))
    assert total == 4
    by_name = {r.player: r for r in rows}
    # ana: games 1 (won), 3 (lost), 4 (tied first: a win), 5 (second).
    ana = by_name["ana"]
    assert (ana.games, ana.wins) == (4, 2)
    assert ana.win_rate == pytest.approx(0.5)
    assert ana.average_score == pytest.approx((10 + 4 + 6 + 2) / 4)
    assert not ana.provisional
    assert by_name["dev"].games == 4
    assert by_name["cleo"].games == 3
    assert not by_name["cleo"].provisional
    settings.RATINGS_PROVISIONAL_GAMES = 4
    rows, _ = leaderboard(scope=scope_get(key="game:gift_gift_gone"))
    assert {r.player for r in rows if r.provisional} == {"cleo"}  # 3 games; the others 4
    ordinals = [r.ordinal for r in rows]
    assert ordinals == sorted(ordinals, reverse=True)
    assert all(r.ordinal == pytest.approx(r.mu - 3 * r.sigma) for r in rows)


# --- clubs and seasons -------------------------------------------------------------------


def enter(world, names, scores, day, *, user=None):  # noqa: F811
    document = santa(names, scores, day=day)
    entry, _ = club_services.season_entry_submit_document(
        season=world.season, document=document, user=user or world.owner
    )
    return entry


def test_season_and_club_scopes_and_void_recompute(world):  # noqa: F811
    names = [u.username for u in world.members[:4]]
    plays = [
        ([names[0], names[1], names[2]], [9, 5, 1], 1),
        ([names[1], names[2], names[3]], [2, 8, 4], 2),
        ([names[0], names[3]], [3, 7], 3),
    ]
    entries = [enter(world, *play) for play in plays]
    # A record of the game outside the club counts in the game scope only.
    store(santa([names[0], names[1]], [1, 0], day=10))
    season_key = f"season:{world.season.pk}"
    club_key = f"club:{world.club.pk}:secret_santa"
    expected = expected_for(plays)
    assert_close(scope_ratings(season_key), expected)
    assert_close(scope_ratings(club_key), expected)
    assert RatingApplication.objects.filter(scope__key="game:secret_santa").count() == 4

    club_services.record_void(entry=entries[0], user=world.admin, reason="wrong table")
    without = expected_for(plays[1:])
    assert_close(scope_ratings(season_key), without)
    assert_close(scope_ratings(club_key), without)
    assert RatingScope.objects.get(key=season_key).recomputes == 1
    # The game scope still counts the voided game: a void is the league's business.
    assert RatingApplication.objects.filter(scope__key="game:secret_santa").count() == 4

    club_services.record_unvoid(entry=entries[0], user=world.admin, reason="it was fine")
    assert_close(scope_ratings(season_key), expected)
    assert_close(scope_ratings(club_key), expected)
    analytics_rebuild()
    assert_close(scope_ratings(season_key), expected)


def test_unvoid_through_the_api_counts_the_game_again(world):  # noqa: F811
    names = [u.username for u in world.members[:3]]
    entry = enter(world, names, [4, 2, 0], 1)
    key = f"season:{world.season.pk}"
    client = world.client(world.admin)
    base = f"/api/seasons/{world.season.pk}/entries/{entry.pk}"
    assert client.post(f"{base}/void/", {"reason": "typo"}, format="json").status_code == 200
    assert scope_ratings(key) == {}
    member = world.client(world.members[5])
    refused = member.post(f"{base}/unvoid/", {"reason": "ok"}, format="json")
    assert refused.status_code == 403
    assert scope_ratings(key) == {}
    again = client.post(f"{base}/unvoid/", {"reason": "the scores were right"}, format="json")
    assert again.status_code == 200, again.json()
    assert again.json()["voided"] is False
    assert_close(scope_ratings(key), openskill_ratings([(names, [1, 2, 3])]))
    twice = client.post(f"{base}/unvoid/", {"reason": "again"}, format="json")
    assert twice.status_code == 409


def test_entering_a_stored_record_later_counts_it_in_the_season(world):  # noqa: F811
    names = [u.username for u in world.members[:3]]
    record = store(santa(names, [1, 5, 3], day=4), user=world.owner)
    key = f"season:{world.season.pk}"
    assert scope_ratings(key) == {}
    club_services.season_entry_submit(season=world.season, record=record, user=world.owner)
    assert_close(scope_ratings(key), openskill_ratings([(names, [3, 1, 2])]))


def test_a_corrected_result_recomputes_from_its_point(world):  # noqa: F811
    names = [u.username for u in world.members[:3]]
    first = store(santa(names, [9, 5, 1], day=1), user=world.owner)
    store(santa(names, [2, 6, 4], day=2), user=world.owner)
    club_services.result_correct(record=first, user=world.owner, scores=[25, 29, 33], reason="swap")
    expected = openskill_ratings([(names, [3, 2, 1]), (names, [3, 1, 2])])
    assert_close(scope_ratings("game:secret_santa"), expected)
    assert RatingScope.objects.get(key="game:secret_santa").recomputes == 1


def test_merging_players_recomputes_their_ratings():
    from replays.models import Player
    from replays.services import player_merge

    store(table(["ana", "ben", "cleo"], [9, 5, 1], day=1))
    store(table(["anna", "ben", "dev"], [2, 8, 5], day=2))  # anna is ana under another name
    store(table(["ana", "cleo", "dev"], [4, 6, 1], day=3))
    player_merge(keep=Player.objects.get(name="ana"), merge=[Player.objects.get(name="anna")])
    expected = openskill_ratings(
        [(["ana", "ben", "cleo"], [1, 2, 3]), (["ana", "ben", "dev"], [3, 1, 2]),
         (["ana", "cleo", "dev"], [2, 1, 3])]
    )  # fmt: skip
    assert_close(scope_ratings("game:gift_gift_gone"), expected)
    assert PlayerRating.objects.get(player__name="ana").games == 3


def test_rebuild_reports_drift(caplog):
    for names, scores, day in GAMES:
        store(table(names, scores, day=day))
    assert ratings.ratings_rebuild() == {"scopes": 1, "differences": 0}
    PlayerRating.objects.filter(player__name="ana").update(mu=99.0)  # a corrupted row
    assert ratings.ratings_rebuild() == {"scopes": 1, "differences": 1}
    assert "ratings drift in game:gift_gift_gone" in caplog.text
    assert_close(scope_ratings("game:gift_gift_gone"), expected_for(GAMES))


def test_a_late_record_resumes_players_whose_later_games_were_not_applied_yet():
    """Records ingested out of order (a worker killed mid-ingest, redelivered messages).

    Ana and Ben have a rated game on day 1 and a stored, not yet ingested one on day 4;
    a late game of Cleo and Dan on day 2 recomputes the scope from day 2, which takes in
    the day-4 game: Ana and Ben must resume from their day-1 ratings, not start afresh.
    """
    games = [
        (["Ana", "Ben"], [10, 4], 1),
        (["Cleo", "Dan"], [7, 9], 3),
        (["Ana", "Ben"], [3, 8], 4),
        (["Cleo", "Dan"], [5, 6], 2),
    ]
    store(table(*games[0][:2], day=games[0][2]))
    store(table(*games[1][:2], day=games[1][2]))
    with ratings.ratings_deferred():  # stored; its ingest has not reached the ratings yet
        pending = store(table(*games[2][:2], day=games[2][2]))
    store(table(*games[3][:2], day=games[3][2]))  # late: recomputes from day 2
    record_ingest(record_id=pending.pk)  # the delayed ingest: already applied, unchanged
    assert_close(scope_ratings("game:gift_gift_gone"), expected_for(games))


def test_a_late_record_redoes_only_the_records_it_reaches():
    """Ana and Ben's late game changes their later ratings, and those of whoever they play
    after it (Eve from day 5 on); Cleo and Dan's games from before they meet Eve keep
    their history rows."""
    games = [
        (["Ana", "Ben"], [10, 4], 1),
        (["Cleo", "Dan"], [7, 9], 2),
        (["Ana", "Ben"], [3, 8], 3),
        (["Cleo", "Dan"], [5, 6], 4),
        (["Ben", "Eve"], [2, 1], 5),
        (["Eve", "Dan"], [4, 4], 6),
        (["Cleo", "Dan"], [1, 0], 7),
        (["Ana", "Ben"], [6, 2], 2.5),  # late
    ]
    for names, scores, day in games[:-1]:
        store(table(names, scores, day=day))
    scope = RatingScope.objects.get(key="game:gift_gift_gone")
    before = dict(RatingHistory.objects.filter(scope=scope).values_list("id", "order_at"))
    store(table(*games[-1][:2], day=games[-1][2]))
    assert_close(scope_ratings("game:gift_gift_gone"), expected_for(games))
    after = set(RatingHistory.objects.filter(scope=scope).values_list("id", flat=True))
    start = dt.datetime.fromisoformat(when(0))
    kept = sorted({(at - start).days for pk, at in before.items() if pk in after})
    assert kept == [1, 2, 4]  # redone from day 3: Ana and Ben, then Eve, then Dan
    ana = RatingHistory.objects.filter(scope=scope, player__name="Ana").order_by("order_at")
    assert [h.games for h in ana] == [1, 2, 3]
    assert RatingHistory.objects.filter(scope=scope).count() == 2 * len(games)
