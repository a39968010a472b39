"""A season played through the API: 40 games of three kinds, standings checked by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.utils import timezone

from clubs.models import AuditLog, SeasonEntry
from replays.models import Player, Record
from tests.clubs.conftest import as_members, played_at, result_only
from tests.replays.test_player_kinds import play_to_the_end

pytestmark = pytest.mark.django_db

POINTS = [3, 2, 1, 0]


def hand_points(ranks: list[int]) -> list[Fraction]:
    """The "split" rule written out: tied seats share the points of the places they cover."""
    out = []
    for rank in ranks:
        tied = ranks.count(rank)
        places = range(rank, rank + tied)  # places are 1-based
        total = sum(POINTS[p - 1] if p <= len(POINTS) else 0 for p in places)
        out.append(Fraction(total, tied))
    return out


def hand_standings(records: list[Record], min_games: int) -> list[tuple]:
    """Points, games, wins and average score per player, summed plainly; then sorted."""
    table: dict[str, dict] = {}
    for record in records:
        names = [s.player.name for s in record.seats.order_by("seat")]
        ranks, scores = record.result["ranks"], record.result["scores"]
        for seat, (name, points) in enumerate(zip(names, hand_points(ranks), strict=True)):
            row = table.setdefault(name, {"points": Fraction(0), "games": 0, "wins": 0, "sum": 0})
            row["points"] += points
            row["games"] += 1
            row["wins"] += ranks[seat] == 1
            row["sum"] += scores[seat]
    rows = [
        (
            name,
            row["games"],
            row["points"],
            row["wins"],
            round(row["sum"] / row["games"], 2),
            row["games"] >= min_games,
        )
        for name, row in table.items()
    ]
    # ranked first, then points, wins, average score (head to head is not needed
    # for a tie this data does not have; the service test covers it).
    rows.sort(key=lambda r: (not r[5], -r[2], -r[3], -r[4], r[0]))
    return rows


def served(rows: list[dict]) -> list[tuple]:
    return [
        (r["player"], r["games"], r["points"], r["wins"], r["average_score"], r["ranked"])
        for r in rows
    ]


def as_numbers(rows: list[tuple]) -> list[tuple]:
    return [
        (n, g, int(p) if p.denominator == 1 else round(float(p), 4), w, a, k)
        for n, g, p, w, a, k in rows
    ]


def play_live(client, names: list[str], *, seed: int, day: int, bots: bool = False) -> int:
    """A live game played to the end with random legal events: by a person at every seat,
    or (``bots``) by a person at seat 0 and the service's bots at the others."""
    body = {
        "game": "secret_santa",
        "players": names,
        "seed": seed,
        "meta": {"played_at": played_at(day)},
    }
    if bots:
        body["bots"] = {str(seat): "greedy" for seat in range(1, len(names))}
    response = client.post("/api/live/", body, format="json")
    assert response.status_code == 201, response.json()
    return play_to_the_end(response.json()["id"], response.json()["seat_tokens"], seed=seed)


def test_forty_games_make_the_standings_computed_by_hand(world, make_document):
    names = [u.username for u in world.members]
    client = world.client(world.members[2])
    url = f"/api/seasons/{world.season.pk}/entries/"
    for game in range(40):
        table = [names[(game + k) % 8] for k in range(4 if game % 3 else 3)]
        day = game * 2
        if game < 28:  # full logs, stored and entered in one request
            document = as_members(
                make_document("secret_santa", seed=game, players=len(table)), table, day=day
            )
            response = client.post(url, {"document": document}, format="json")
        elif game < 34:  # live games played to the end by the members, then entered by id
            record_id = play_live(client, table, seed=game, day=day)
            response = client.post(url, {"record": record_id}, format="json")
        else:  # result-only records from a real table (two of them with a tie)
            scores = [25 + game % 4, 18, 18 if game % 2 else 11, 7][: len(table)]
            response = client.post(
                url, {"document": result_only(table, scores, day=day)}, format="json"
            )
        assert response.status_code == 201, (game, response.json())
    assert SeasonEntry.objects.filter(season=world.season).count() == 40
    kinds = set(Record.objects.values_list("kind", flat=True))
    assert kinds == {"log", "result"}

    standings = client.get(f"/api/seasons/{world.season.pk}/standings/").json()
    records = [e.record for e in SeasonEntry.objects.filter(season=world.season)]
    assert standings["games"] == 40
    assert served(standings["rows"]) == as_numbers(hand_standings(records, 5))
    assert len(standings["history"]) == 40
    last = standings["history"][-1]["points"]
    assert last == {r["player"]: r["points"] for r in standings["rows"]}

    # Voiding one game (an admin) takes it out of the standings; it stays listed.
    voided = SeasonEntry.objects.filter(season=world.season).order_by("id")[5]
    response = world.client(world.admin).post(
        f"{url}{voided.pk}/void/", {"reason": "dealt with a short deck"}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["voided"] is True
    assert response.json()["voided_by"] == world.admin.username
    after = client.get(f"/api/seasons/{world.season.pk}/standings/").json()
    kept = [r for r in records if r.pk != voided.record_id]
    assert after["games"] == 39
    assert served(after["rows"]) == as_numbers(hand_standings(kept, 5))
    listed = client.get(url).json()
    assert len(listed) == 40
    assert [e["void_reason"] for e in listed if e["voided"]] == ["dealt with a short deck"]
    log = AuditLog.objects.get(action="entry.void")
    assert (log.actor, log.club, log.target_id) == (world.admin, world.club, voided.pk)
    assert log.reason == "dealt with a short deck"


def test_a_league_refuses_other_games_variants_dates_and_strangers(world, make_document):
    names = [u.username for u in world.members]
    client = world.client(world.members[3])
    url = f"/api/seasons/{world.season.pk}/entries/"
    before = Record.objects.count()

    def refused(document, code, **extra):
        response = client.post(url, {"document": document, **extra}, format="json")
        assert response.status_code == 422, response.json()
        assert response.json()["code"] == code
        assert Record.objects.count() == before, "a refusal stores nothing"

    other_game = as_members(make_document("gift_swap", seed=1, players=3), names)
    refused(other_game, "wrong_game")
    # The league plays the default deal fallback ("guest"); this table played the other.
    assert world.league.options["deal_fallback"] == "guest"
    variant_doc = result_only(names[:3], [25, 10, 5])
    variant_doc["options"] = {"deal_fallback": "first_with_room"}
    refused(variant_doc, "wrong_variant")
    late = as_members(make_document("secret_santa", seed=3, players=3), names, day=120)
    refused(late, "outside_season")
    undated = result_only(names[:3], [25, 10, 5])
    del undated["meta"]
    refused(undated, "played_at_missing")
    stranger = result_only([names[0], names[1], "walk-in"], [25, 10, 5])
    refused(stranger, "not_a_member_player")
    # The same table with the walk-in marked as a guest is entered.
    response = client.post(url, {"document": stranger, "guests": [2]}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["guests"] == [2]
    standings = client.get(f"/api/seasons/{world.season.pk}/standings/").json()
    assert "walk-in" not in [r["player"] for r in standings["rows"]]
    # A name new to giftbox entered as a guest is stored as a guest; members stay people.
    assert Player.objects.get(name="walk-in").kind == Player.Kind.GUEST
    assert Player.objects.get(name=names[0]).kind == Player.Kind.PERSON


def test_a_live_game_against_bots_never_counts_in_a_season(world):
    """The members' live game with the service's bots in two seats is bot play: refused
    by the season, and its players never reach the standings or a rating board."""
    names = [u.username for u in world.members[:3]]
    client = world.client(world.members[0])
    record_id = play_live(client, names, seed=7, day=3, bots=True)
    record = Record.objects.get(pk=record_id)
    assert record.simulated is True
    assert record.meta["simulated"] is True
    url = f"/api/seasons/{world.season.pk}/entries/"
    response = client.post(url, {"record": record_id}, format="json")
    assert response.status_code == 422, response.json()
    assert response.json()["code"] == "simulated_record"
    assert not SeasonEntry.objects.filter(record=record).exists()
    standings = client.get(f"/api/seasons/{world.season.pk}/standings/").json()
    assert standings["games"] == 0
    assert standings["rows"] == []
    # The members at the bots' seats are still people (they have accounts).
    kinds = set(Player.objects.filter(name__in=names).values_list("kind", flat=True))
    assert kinds == {Player.Kind.PERSON}


def test_result_correction_inside_and_outside_the_window(
    world, settings, django_capture_on_commit_callbacks
):
    names = [u.username for u in world.members[:3]]
    submitter = world.members[4]
    client = world.client(submitter)
    url = f"/api/seasons/{world.season.pk}/entries/"
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"document": result_only(names, [25, 10, 5])}, format="json")
    assert response.status_code == 201, response.json()
    record = Record.objects.get(pk=response.json()["record"])
    assert record.submitted_by == submitter

    with django_capture_on_commit_callbacks(execute=True):
        fixed = client.patch(
            f"/api/records/{record.pk}/result/",
            {"scores": [12, 26, 5], "reason": "swapped two scores"},
            format="json",
        )
    assert fixed.status_code == 200, fixed.json()
    record.refresh_from_db()
    assert record.result["ranks"] == [2, 1, 3]
    assert [s.won for s in record.seats.order_by("seat")] == [False, True, False]
    rows = client.get(f"/api/seasons/{world.season.pk}/standings/").json()["rows"]
    assert rows[0]["player"] == names[1]
    assert rows[0]["points"] == 3
    from analytics.models import PlayerResult

    assert sorted(PlayerResult.objects.filter(record=record).values_list("seat", "rank")) == [
        (0, 2),
        (1, 1),
        (2, 3),
    ], "analytics ingested the corrected record again"
    log = AuditLog.objects.get(action="result.correct")
    assert log.before["scores"] == [25, 10, 5]
    assert log.after["scores"] == [12, 26, 5]
    assert log.actor == submitter
    assert log.reason == "swapped two scores"

    bad = client.patch(f"/api/records/{record.pk}/result/", {"scores": [-4, 26, 5]}, format="json")
    assert bad.status_code == 422
    assert bad.json()["code"] == "score_out_of_bounds"

    Record.objects.filter(pk=record.pk).update(
        created_at=timezone.now() - settings.RESULT_CORRECTION_WINDOW - timezone.timedelta(1)
    )
    late = client.patch(f"/api/records/{record.pk}/result/", {"scores": [1, 2, 3]}, format="json")
    assert late.status_code == 403
    assert late.json()["code"] == "correction_window_closed"
    record.refresh_from_db()
    assert record.result["scores"] == [12, 26, 5]
    assert AuditLog.objects.filter(action="result.correct").count() == 1
