"""A club's settings: whether its league games are analysed, set by its admins."""

from __future__ import annotations

import pytest

from clubs.models import AuditLog, Club

pytestmark = pytest.mark.django_db


def url(world) -> str:
    return f"/api/clubs/{world.club.slug}/"


def test_an_admin_turns_the_analysis_of_league_games_on_and_off(world):
    admin = world.client(world.admin)
    assert admin.get(url(world)).json()["analyse_league_games"] is False
    answer = admin.patch(url(world), {"analyse_league_games": True}, format="json")
    assert answer.status_code == 200
    assert answer.json()["analyse_league_games"] is True
    assert Club.objects.get(pk=world.club.pk).analyse_league_games is True
    log = AuditLog.objects.get(action="club_settings")
    assert (log.before, log.after) == (
        {"analyse_league_games": False},
        {"analyse_league_games": True},
    )
    assert (
        admin.patch(url(world), {"analyse_league_games": False}, format="json").status_code == 200
    )
    assert Club.objects.get(pk=world.club.pk).analyse_league_games is False


@pytest.mark.parametrize(
    ("who", "status", "code"),
    [("member", 403, "not_club_admin"), ("outsider", 403, "not_a_member"), (None, 401, None)],
)
def test_only_admins_may_change_it(world, who, status, code):
    user = {"member": world.members[4], "outsider": world.outsider, None: None}[who]
    answer = world.client(user).patch(url(world), {"analyse_league_games": True}, format="json")
    assert answer.status_code == status
    if code:
        assert answer.json()["code"] == code
    assert Club.objects.get(pk=world.club.pk).analyse_league_games is False


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_a_value_that_is_not_true_or_false_is_a_400(world, value):
    answer = world.client(world.admin).patch(
        url(world), {"analyse_league_games": value}, format="json"
    )
    assert answer.status_code == 400
    assert Club.objects.get(pk=world.club.pk).analyse_league_games is False


def test_the_club_page_offers_admins_the_setting_and_saves_it(client, world):
    client.force_login(world.admin)
    page = client.get(f"/clubs/{world.club.slug}/").content.decode()
    assert 'name="analyse_league_games"' in page
    saved = client.post(f"/clubs/{world.club.slug}/settings/", {"analyse_league_games": "on"})
    assert saved.status_code == 302
    assert Club.objects.get(pk=world.club.pk).analyse_league_games is True
    client.post(f"/clubs/{world.club.slug}/settings/", {})
    assert Club.objects.get(pk=world.club.pk).analyse_league_games is False
    client.force_login(world.members[4])
    assert (
        'name="analyse_league_games"'
        not in client.get(f"/clubs/{world.club.slug}/").content.decode()
    )
    refused = client.post(f"/clubs/{world.club.slug}/settings/", {"analyse_league_games": "on"})
    assert refused.status_code == 403
    assert Club.objects.get(pk=world.club.pk).analyse_league_games is False
