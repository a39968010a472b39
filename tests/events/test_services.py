"""Events' services: who may do what, seating, late arrivals and drops, results and records."""

from __future__ import annotations

import random

import pytest

from clubs import services as club_services
from clubs.models import AuditLog, SeasonEntry
from core.errors import Conflict, Forbidden, Unprocessable
from events import services
from events.models import Bye, Entry, Event, TableResult, TableSeat
from replays.models import Record
from replays.simulation import simulated_document
from tests.clubs.conftest import make_user
from tests.events.conftest import STARTS, play_round, user_at

pytestmark = pytest.mark.django_db


def test_club_events_are_made_by_admins_open_events_by_anyone(ev) -> None:
    with pytest.raises(Forbidden) as refused:
        services.event_create(
            user=ev.players[0],
            club=ev.event.club,
            name="Mine",
            slug="mine",
            game="gift_gift_gone",
            starts_at=STARTS,
        )
    assert refused.value.code == "not_club_admin"
    open_event = services.event_create(
        user=ev.outsider,
        club=None,
        name="Open",
        slug="open",
        game="gift_trap",
        starts_at=STARTS,
        options={},
    )
    assert open_event.club is None
    assert open_event.options
    assert AuditLog.objects.filter(action="event.create", target_id=ev.event.pk).exists()


def test_table_sizes_outside_the_game_are_refused(ev) -> None:
    with pytest.raises(Exception) as refused:
        services.event_create(
            user=ev.owner,
            club=None,
            name="Big",
            slug="big",
            game="gift_swap",
            starts_at=STARTS,
            max_table=6,
        )
    assert refused.value.code == "invalid_table_sizes"


def test_non_members_cannot_join_a_club_event(ev) -> None:
    with pytest.raises(Forbidden):
        services.entry_join(event=ev.event, user=ev.outsider)
    with pytest.raises(Conflict):
        services.entry_join(event=ev.event, user=ev.players[0])  # already in


def test_seating_places_every_checked_in_player_once(ev) -> None:
    not_here = services.entry_add(event=ev.event, user=ev.owner, handle="Late Larry")
    rnd = services.round_seat_next(event=ev.event, user=ev.owner, seed=3)
    seated = TableSeat.objects.filter(table__round=rnd)
    assert sorted(s.entry.player.user.pk for s in seated) == sorted(u.pk for u in ev.players)
    assert not seated.filter(entry=not_here).exists()
    assert [t.seats.count() for t in rnd.tables.all()] == [4, 4]
    assert rnd.seed == 3
    ev.event.refresh_from_db()
    assert ev.event.status == Event.Status.RUNNING
    with pytest.raises(Conflict) as refused:
        services.round_seat_next(event=ev.event, user=ev.owner)
    assert refused.value.code == "round_unfinished"


def test_only_the_organiser_seats(ev) -> None:
    with pytest.raises(Forbidden):
        services.round_seat_next(event=ev.event, user=ev.players[0])
    services.round_seat_next(event=ev.event, user=ev.admin)  # a club admin may


def test_late_arrival_and_drop(ev) -> None:
    late = services.entry_add(event=ev.event, user=ev.owner, handle="Late Larry")
    dropper = Entry.objects.get(event=ev.event, user=ev.players[0])
    play_round(ev)
    late = services.entry_check_in(entry=late, user=ev.owner)
    assert late.arrived_round == 2
    services.entry_drop(entry=dropper, user=ev.players[0])  # a player may drop themselves
    rnd = services.round_seat_next(event=ev.event, user=ev.owner, seed=1)
    seated = set(TableSeat.objects.filter(table__round=rnd).values_list("entry_id", flat=True))
    assert late.pk in seated
    assert dropper.pk not in seated
    assert len(seated) == 8


def test_byes_when_numbers_do_not_fit(db) -> None:
    organiser = make_user("org")
    event = services.event_create(
        user=organiser,
        club=None,
        name="Swap night",
        slug="swap",
        game="gift_swap",
        starts_at=STARTS,
    )
    for name in ["Ana", "Bea", "Cai", "Dev", "Eli"]:
        services.entry_add(event=event, user=organiser, handle=name, checked_in=True)
    rnd = services.round_seat_next(event=event, user=organiser, seed=2)
    assert [t.seats.count() for t in rnd.tables.all()] == [4]
    assert Bye.objects.filter(round=rnd).count() == 1


def test_result_needs_a_second_person(ev) -> None:
    rnd = services.round_seat_next(event=ev.event, user=ev.owner, seed=5)
    table, other = rnd.tables.order_by("number")
    submitter = user_at(table, 0)
    with pytest.raises(Forbidden) as refused:
        services.table_result_submit(table=table, user=ev.outsider, scores=[4, 3, 2, 1])
    assert refused.value.code == "not_at_table"
    with pytest.raises(Forbidden):  # a player of another table is not at this one
        services.table_result_submit(table=table, user=user_at(other, 0), scores=[4, 3, 2, 1])
    pending = services.table_result_submit(table=table, user=submitter, scores=[9, 5, 2, 1])
    assert pending.status == TableResult.Status.PENDING
    assert not Record.objects.exists()
    with pytest.raises(Forbidden) as refused:
        services.table_result_confirm(table=table, user=submitter)
    assert refused.value.code == "own_result"
    with pytest.raises(Forbidden) as refused:
        services.table_result_confirm(table=table, user=user_at(other, 1))
    assert refused.value.code == "not_at_table"
    confirmed = services.table_result_confirm(table=table, user=user_at(table, 2))
    assert confirmed.status == TableResult.Status.CONFIRMED
    record = Record.objects.get()
    table.refresh_from_db()
    assert table.record == record
    assert record.meta["club"] == "north-pier"
    assert record.meta["event"] == ev.event.pk
    assert record.meta["round"] == 1
    assert record.meta["table"] == 1
    assert record.played_at is not None
    assert record.played_at >= STARTS
    assert [s.player.name for s in record.seats.order_by("seat")] == [
        s.entry.player.name for s in table.seats.order_by("seat")
    ]
    assert record.result["scores"] == [9, 5, 2, 1]
    assert record.submitted_by == submitter
    with pytest.raises(Conflict):
        services.table_result_submit(table=table, user=submitter, scores=[1, 2, 3, 4])


def test_an_admin_confirms_and_a_bad_result_stores_nothing(ev) -> None:
    rnd = services.round_seat_next(event=ev.event, user=ev.owner, seed=5)
    table = rnd.tables.first()
    with pytest.raises(Exception) as refused:
        services.table_result_submit(table=table, user=user_at(table, 0), scores=[1, 2])
    assert refused.value.status == 400
    assert not TableResult.objects.exists()
    services.table_result_submit(table=table, user=user_at(table, 0), scores=[3, 3, 2, 1])
    services.table_result_confirm(table=table, user=ev.admin)
    assert Record.objects.get().result["ranks"] == [1, 1, 3, 4]


def test_round_finish_needs_every_result_then_event_finishes(ev) -> None:
    rnd = services.round_seat_next(event=ev.event, user=ev.owner, seed=5)
    with pytest.raises(Conflict) as refused:
        services.round_finish(event=ev.event, user=ev.owner, round_number=1)
    assert refused.value.detail["tables"] == [1, 2]
    for table in rnd.tables.all():
        services.table_result_submit(table=table, user=user_at(table, 0), scores=[4, 3, 2, 1])
        services.table_result_confirm(table=table, user=user_at(table, 3))
    services.round_finish(event=ev.event, user=ev.owner, round_number=1)
    event = services.event_finish(event=ev.event, user=ev.owner)
    assert event.status == Event.Status.FINISHED
    with pytest.raises(Conflict):
        services.round_seat_next(event=event, user=ev.owner)


def test_hand_swap_before_results(ev) -> None:
    rnd = services.round_seat_next(event=ev.event, user=ev.owner, seed=5)
    t1, t2 = rnd.tables.order_by("number")
    a, b = t1.seats.get(seat=0).entry, t2.seats.get(seat=2).entry
    outcome = services.seat_swap(event=ev.event, user=ev.owner, round_number=1, first=a, second=b)
    assert t1.seats.get(seat=0).entry == b
    assert t2.seats.get(seat=2).entry == a
    assert set(outcome.before) == set(outcome.after)
    assert outcome.change == 0
    with pytest.raises(Forbidden):
        services.seat_swap(event=ev.event, user=ev.players[0], round_number=1, first=a, second=b)
    services.table_result_submit(table=t1, user=user_at(t1, 1), scores=[4, 3, 2, 1])
    with pytest.raises(Conflict) as refused:
        services.seat_swap(event=ev.event, user=ev.owner, round_number=1, first=a, second=b)
    assert refused.value.code == "round_played"


def _log_for(table, seed: int = 1) -> dict:
    n = table.seats.count()
    document = simulated_document(
        "gift_gift_gone", num_players=n, rng=random.Random(seed), simulated=False
    )
    document["players"] = [s.entry.player.name for s in table.seats.order_by("seat")]
    document.pop("result", None)
    return document


def test_a_full_log_instead_of_a_result(ev) -> None:
    rnd = services.round_seat_next(event=ev.event, user=ev.owner, seed=5)
    table = rnd.tables.first()
    document = _log_for(table)
    wrong = {**document, "players": list(reversed(document["players"]))}
    with pytest.raises(Unprocessable) as refused:
        services.table_log_submit(table=table, user=user_at(table, 0), document=wrong)
    assert refused.value.code == "players_mismatch"
    bad = {**document, "events": document["events"][:3]}  # an unfinished game
    with pytest.raises(Exception) as refused:
        services.table_log_submit(table=table, user=user_at(table, 0), document=bad)
    assert refused.value.status in (400, 422)
    pending = services.table_log_submit(table=table, user=user_at(table, 0), document=document)
    assert pending.kind == TableResult.Kind.LOG
    services.table_result_confirm(table=table, user=user_at(table, 1))
    record = Record.objects.get()
    assert record.kind == Record.Kind.LOG
    assert record.meta["event"] == ev.event.pk


def test_results_enter_the_events_season_with_guests(ev) -> None:
    league = club_services.league_create(
        club=ev.event.club,
        user=ev.owner,
        name="GGG",
        slug="ggg",
        game="gift_gift_gone",
        options={},
        points_per_place=[3, 2, 1, 0],
    )
    season = club_services.season_create(
        league=league,
        user=ev.owner,
        name="Winter",
        starts_on=STARTS.date(),
        ends_on=STARTS.date(),
    )
    event = services.event_create(
        user=ev.owner,
        club=ev.event.club,
        name="Season night",
        slug="season-night",
        game="gift_gift_gone",
        starts_at=STARTS,
        season=season,
        min_table=3,
        max_table=3,
    )
    for user in ev.players[:2]:
        services.entry_check_in(entry=services.entry_join(event=event, user=user), user=ev.owner)
    services.entry_add(event=event, user=ev.owner, handle="Visiting Vic", checked_in=True)
    rnd = services.round_seat_next(event=event, user=ev.owner, seed=1)
    table = rnd.tables.get()
    member_seat = next(s for s in table.seats.all() if s.entry.player.user is not None)
    services.table_result_submit(table=table, user=ev.owner, scores=[5, 3, 1])
    services.table_result_confirm(table=table, user=member_seat.entry.player.user)
    entry = SeasonEntry.objects.get(season=season)
    vic_seat = table.seats.get(entry__player__name="Visiting Vic").seat
    assert entry.guests == [vic_seat]
    assert entry.record.meta["club"] == "north-pier"


def test_a_season_of_another_variant_is_refused(ev) -> None:
    league = club_services.league_create(
        club=ev.event.club,
        user=ev.owner,
        name="Santa",
        slug="santa",
        game="secret_santa",
        options={},
        points_per_place=[3, 2, 1, 0],
    )
    season = club_services.season_create(
        league=league, user=ev.owner, name="W", starts_on=STARTS.date(), ends_on=STARTS.date()
    )
    with pytest.raises(Unprocessable):
        services.event_create(
            user=ev.owner,
            club=ev.event.club,
            name="X",
            slug="x",
            game="gift_gift_gone",
            starts_at=STARTS,
            season=season,
        )
