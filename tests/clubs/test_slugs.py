"""Club and league slugs: a taken one is a 409, one the site's addresses shadow is refused."""

from __future__ import annotations

import pytest
from django.urls import resolve

from clubs.models import Club, League
from clubs.routes import CLUB, LEAGUE, slug_shadowed
from tests.clubs.conftest import ClubWorld

pytestmark = pytest.mark.django_db


def make_club(world: ClubWorld, slug: str):
    body = {"name": f"Club {slug}", "slug": slug}
    return world.client(world.outsider).post("/api/clubs/", body, format="json")


def make_league(world: ClubWorld, slug: str):
    body = {
        "club": world.club.slug,
        "name": f"League {slug}",
        "slug": slug,
        "game": "gift_swap",
        "points_per_place": [5, 3, 1],
    }
    return world.client(world.admin).post("/api/leagues/", body, format="json")


def test_a_taken_club_slug_is_a_409_slug_taken(world):
    response = make_club(world, world.club.slug)
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "slug_taken"
    assert body["detail"]["field"] == "slug"
    assert Club.objects.filter(slug=world.club.slug).count() == 1


def test_a_taken_league_slug_is_a_409_slug_taken(world):
    response = make_league(world, world.league.slug)
    assert response.status_code == 409
    assert response.json()["code"] == "slug_taken"


@pytest.mark.parametrize("slug", ["join"])
def test_a_club_slug_the_addresses_shadow_is_refused(world, slug):
    response = make_club(world, slug)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "slug_reserved"
    assert body["detail"]["field"] == "slug"
    assert "/clubs/join/" in body["message"]
    assert not Club.objects.filter(slug=slug).exists()


@pytest.mark.parametrize("slug", ["new"])
def test_a_league_slug_the_addresses_shadow_is_refused(world, slug):
    response = make_league(world, slug)
    assert response.status_code == 400
    assert response.json()["code"] == "slug_reserved"
    assert not League.objects.filter(slug=slug).exists()


def test_the_reserved_words_come_from_the_urlconf():
    assert slug_shadowed(CLUB, "join") is not None
    assert slug_shadowed(LEAGUE, "new") is not None
    for ordinary in ("north-pier", "leagues", "seasons", "newcastle", "joiners"):
        assert slug_shadowed(CLUB, ordinary) is None, ordinary
        assert slug_shadowed(LEAGUE, ordinary) is None, ordinary


def test_an_accepted_slug_reaches_its_pages(world):
    assert make_club(world, "leagues").status_code == 201
    assert resolve("/clubs/leagues/leave/").url_name == "club-leave"
    assert resolve("/clubs/leagues/").kwargs == {"slug": "leagues"}
    assert make_league(world, "record").status_code == 201
    match = resolve(f"/clubs/{world.club.slug}/leagues/record/")
    assert (match.url_name, match.kwargs["league_slug"]) == ("league-page", "record")


def test_the_club_form_says_why_a_slug_is_refused(world):
    from django.test import Client

    client = Client()
    client.force_login(world.outsider)
    page = client.post("/clubs/", {"name": "Joiners", "slug": "join", "description": ""})
    assert page.status_code == 400  # the form again, with the reason on its field
    assert "part of the site" in page.content.decode()
    assert not Club.objects.filter(slug="join").exists()
