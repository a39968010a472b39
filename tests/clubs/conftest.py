"""A club with an owner, an admin and members, a Secret Santa league and a winter season."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from clubs import services
from clubs.models import Club, League, Season

SEASON_START = dt.date(2026, 1, 1)
SEASON_END = dt.date(2026, 3, 31)


@dataclass
class ClubWorld:
    club: Club
    league: League
    season: Season
    owner: Any
    admin: Any
    members: list[Any]  # owner, admin and the plain members: every member
    other_admin: Any  # an admin of another club
    outsider: Any

    def client(self, user: Any = None) -> APIClient:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client


def make_user(name: str):
    return get_user_model().objects.create_user(username=name, password="pw-" + name)


def club_with_members(*, slug: str, owner, others: list, admins: tuple = ()) -> Club:
    club = services.club_create(user=owner, name=slug.title(), slug=slug)
    for user in others:
        role = "admin" if user in admins else "member"
        _invitation, key = services.invitation_create(club=club, user=owner, role=role)
        services.club_join(key=key, user=user)
    return club


@pytest.fixture
def world(db) -> ClubWorld:
    users = [make_user(f"m{i}") for i in range(8)]
    owner, admin = users[0], users[1]
    club = club_with_members(slug="north-pier", owner=owner, others=users[1:], admins=(admin,))
    other_admin = make_user("rival")
    club_with_members(slug="south-pier", owner=other_admin, others=[])
    league = services.league_create(
        club=club,
        user=admin,
        name="Santa League",
        slug="santa",
        game="secret_santa",
        options={},
        points_per_place=[3, 2, 1, 0],
        tie_rule="split",
        min_games=5,
        tie_breaks=["wins", "average_score", "head_to_head"],
    )
    season = services.season_create(
        league=league, user=admin, name="Winter", starts_on=SEASON_START, ends_on=SEASON_END
    )
    return ClubWorld(club, league, season, owner, admin, users, other_admin, make_user("stranger"))


def played_at(day: int) -> str:
    """A time on the ``day``-th day of the season (0 = its first day)."""
    return (dt.datetime(2026, 1, 1, 19, 30, tzinfo=dt.UTC) + dt.timedelta(days=day)).isoformat()


def as_members(document: dict, names: list[str], *, day: int = 3) -> dict:
    """A simulated game with its players renamed to members' handles, played in the season."""
    document = dict(document)
    document["players"] = names[: len(document["players"])]
    document["meta"] = {**document.get("meta", {}), "played_at": played_at(day)}
    document.pop("result", None)
    return document


def result_only(names: list[str], scores: list[int], *, day: int = 5, ranks=None) -> dict:
    result: dict[str, Any] = {"scores": scores}
    if ranks is not None:
        result["ranks"] = ranks
    return {
        "format": "giftlog/1",
        "game": "secret_santa",
        "options": {},
        "players": names,
        "meta": {"played_at": played_at(day)},
        "result": result,
    }
