"""A club with an organiser (its owner), an admin, eight members and a Gift Gift Gone event."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from events import services
from events.models import Event, Table
from tests.clubs.conftest import club_with_members, make_user

STARTS = dt.datetime(2026, 1, 10, 19, 0, tzinfo=dt.UTC)


@dataclass
class EventWorld:
    event: Event
    owner: Any
    admin: Any
    players: list[Any]  # members entered and checked in
    outsider: Any

    def client(self, user: Any = None) -> APIClient:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client


@pytest.fixture
def ev(db) -> EventWorld:
    owner, admin = make_user("boss"), make_user("adm")
    players = [make_user(f"p{i}") for i in range(8)]
    club = club_with_members(
        slug="north-pier", owner=owner, others=[admin, *players], admins=(admin,)
    )
    event = services.event_create(
        user=owner,
        club=club,
        name="Winter Night",
        slug="winter-night",
        game="gift_gift_gone",
        starts_at=STARTS,
        min_table=3,
        max_table=5,
        rounds=3,
    )
    for user in players:
        entry = services.entry_join(event=event, user=user)
        services.entry_check_in(entry=entry, user=owner)
    return EventWorld(event, owner, admin, players, make_user("stranger"))


def user_at(table: Table, seat: int):
    """The user whose player sits at ``seat`` of ``table``."""
    return table.seats.get(seat=seat).entry.player.user


def play_round(ev: EventWorld, scores_of=None) -> list[Table]:
    """Seat the next round, submit and confirm every table, finish the round."""
    rnd = services.round_seat_next(event=ev.event, user=ev.owner, seed=7)
    tables = list(rnd.tables.order_by("number"))
    for table in tables:
        n = table.seats.count()
        scores = scores_of(table) if scores_of else list(range(n, 0, -1))
        services.table_result_submit(
            table=table, user=user_at(table, 0), scores=scores, confirm_unusual=True
        )
        services.table_result_confirm(table=table, user=user_at(table, 1))
    services.round_finish(event=ev.event, user=ev.owner, round_number=rnd.number)
    return tables
