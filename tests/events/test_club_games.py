"""An event's confirmed tables are the club's games: its ratings and its list count them,
season or not; a record that only names the club in its meta does not count there."""

from __future__ import annotations

import datetime as dt

from analytics.models import RatingApplication, RatingScope
from analytics.rating_scopes import club_scope_key, scope_records
from clubs.models import ClubRecord
from events import services
from replays.models import Record
from replays.services import record_submit
from tests.events.conftest import STARTS, play_round, user_at


def test_confirmed_tables_count_in_the_clubs_ratings_without_a_season(
    ev, django_capture_on_commit_callbacks
) -> None:
    assert ev.event.season_id is None
    with django_capture_on_commit_callbacks(execute=True):
        tables = play_round(ev)
    records = [Record.objects.get(event_tables=t) for t in tables]
    club = ev.event.club
    rows = ClubRecord.objects.filter(club=club).order_by("record_id")
    assert [r.record_id for r in rows] == sorted(r.pk for r in records)
    assert {r.source for r in rows} == {f"Winter Night, round 1, table {t.number}" for t in tables}
    key = club_scope_key(club.pk, "gift_gift_gone")
    rated = RatingApplication.objects.filter(scope__key=key)
    assert sorted(rated.values_list("record_id", flat=True)) == sorted(r.pk for r in records)
    scope = RatingScope.objects.get(key=key)
    assert set(scope_records(scope).values_list("pk", flat=True)) == {r.pk for r in records}


def test_a_record_naming_the_club_in_its_meta_does_not_count_there(
    ev, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        play_round(ev)
    names = [u.username for u in ev.players[:3]]
    document = {
        "format": "giftlog/1",
        "game": "gift_gift_gone",
        "players": names,
        "meta": {"club": ev.event.club.slug, "played_at": STARTS.isoformat()},
        "result": {"scores": [9, 5, 2]},
    }
    with django_capture_on_commit_callbacks(execute=True):
        outsider_record, _ = record_submit(document=document, submitted_by=ev.outsider)
    scope = RatingScope.objects.get(key=club_scope_key(ev.event.club.pk, "gift_gift_gone"))
    assert not scope_records(scope).filter(pk=outsider_record.pk).exists()
    assert not RatingApplication.objects.filter(scope=scope, record=outsider_record).exists()
    assert RatingApplication.objects.filter(
        scope__key="game:gift_gift_gone", record=outsider_record
    ).exists(), "it counts in the game's ratings like any upload"


def test_the_club_page_lists_event_games_with_where_they_come_from(ev, client) -> None:
    tables = play_round(ev)
    for table in tables:
        table.refresh_from_db()
    client.force_login(ev.players[0])
    page = client.get(f"/clubs/{ev.event.club.slug}/").content.decode()
    for table in tables:
        assert f"Winter Night, round 1, table {table.number}" in page
        assert f"/records/{table.record_id}/" in page
    assert f"/events/?club={ev.event.club.slug}" in page, "the club page leads to its events"


def test_an_event_with_a_season_shows_each_game_once_as_its_season_entry(ev) -> None:
    from clubs.selectors import club_recent_games
    from clubs.services import league_create, season_create

    league = league_create(
        club=ev.event.club, user=ev.owner, name="GGG", slug="ggg", game="gift_gift_gone",
        options={}, points_per_place=[3, 2, 1, 0],
    )  # fmt: skip
    season = season_create(
        league=league, user=ev.owner, name="Winter",
        starts_on=STARTS.date(), ends_on=STARTS.date(),
    )  # fmt: skip
    ev.event.season = season
    ev.event.save(update_fields=["season"])
    tables = play_round(ev)
    games = club_recent_games(club=ev.event.club)
    played = sorted(Record.objects.filter(event_tables__in=tables).values_list("pk", flat=True))
    assert sorted(g.record_id for g in games) == played
    assert all(hasattr(g, "season") for g in games), "shown as season entries (voidable)"
    assert ClubRecord.objects.filter(record_id__in=played).count() == len(played)


def test_event_list_for_a_club_coming_soonest_first_then_past_latest_first(ev, client) -> None:
    club = ev.event.club
    now = dt.datetime.now(dt.UTC)
    made = {}
    for name, days in [("Later", 20), ("Soon", 2), ("Long ago", -60), ("Last month", -30)]:
        made[name] = services.event_create(
            user=ev.owner, club=club, name=name, slug=name.lower().replace(" ", "-"),
            game="gift_gift_gone", starts_at=now + dt.timedelta(days=days),
            min_table=3, max_table=5, rounds=1,
        )  # fmt: skip
    client.force_login(ev.players[0])
    page = client.get(f"/events/?club={club.slug}").content.decode()
    coming, past = page.split("<h2>Past</h2>")
    assert coming.index("Soon") < coming.index("Later")
    assert past.index("Last month") < past.index("Long ago") < past.index("Winter Night")
    other = client.get("/events/?club=no-such-club")
    assert other.status_code == 200


def test_a_second_confirmation_of_the_same_game_keeps_one_club_row(ev) -> None:
    rnd = services.round_seat_next(event=ev.event, user=ev.owner, seed=7)
    table = rnd.tables.order_by("number").first()
    n = table.seats.count()
    services.table_result_submit(
        table=table, user=user_at(table, 0), scores=list(range(n, 0, -1)), confirm_unusual=True
    )
    services.table_result_confirm(table=table, user=user_at(table, 1))
    from clubs.services import club_record_add

    table.refresh_from_db()
    again = club_record_add(club=ev.event.club, record=Record.objects.get(pk=table.record_id),
                            source="other")  # fmt: skip
    assert again.source.startswith("Winter Night")
    assert ClubRecord.objects.filter(record_id=table.record_id).count() == 1
