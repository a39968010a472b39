"""Invitation links: joining with or without an account, dead links, the admins' list, revoking.

An invitee without an account follows the link, signs up from it and arrives a member on
the club's page; the join page names the club, who invited and as what; a revoked,
used-up or expired link says so and what to do; admins see every link with its status
and revoke a pending one (audited); nobody else may list or revoke.
"""

from __future__ import annotations

import datetime as dt
import re
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs import services
from clubs.models import AuditLog, Invitation, Membership
from tests.clubs.conftest import ClubWorld, make_user
from tests.clubs.test_permissions import UNAUTH, check

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery-staple"


def browser(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def text(response) -> str:
    return response.content.decode()


def invite(world: ClubWorld, *, by=None, **kwargs) -> tuple[Invitation, str]:
    return services.invitation_create(club=world.club, user=by or world.admin, **kwargs)


def join_path(key: str) -> str:
    return reverse("club-join-page", args=[key])


def club_path(world: ClubWorld) -> str:
    return reverse("club-page", args=[world.club.slug])


def is_member(world: ClubWorld, username: str) -> bool:
    return Membership.objects.filter(club=world.club, user__username=username).exists()


# --- no account yet: sign up from the link ---------------------------------------------------


def test_an_invitee_without_an_account_signs_up_from_the_link_and_lands_a_member(world):
    _invitation, key = invite(world)
    client = Client()
    page = client.get(join_path(key))
    assert page.status_code == 200
    assert "Join North-Pier" in text(page)
    assert "Create an account and join" in text(page)

    asked = client.post(join_path(key), {"account": "new"})
    assert asked.status_code == 302
    signup_url = asked["Location"]
    assert signup_url == f"{reverse('signup')}?next={quote(join_path(key), safe='')}"
    form = client.get(signup_url)
    assert f'name="next" value="{join_path(key)}"' in text(form)

    made = client.post(
        signup_url,
        {
            "username": "newcomer",
            "email": "newcomer@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": join_path(key),
        },
    )
    assert made.status_code == 302
    assert made["Location"] == join_path(key)
    landed = client.get(made["Location"], follow=True)
    assert landed.redirect_chain[-1][0] == club_path(world)
    assert is_member(world, "newcomer")
    assert Membership.objects.get(user__username="newcomer").role == "member"
    assert "Welcome to North-Pier: you are a member now." in text(landed)
    assert "You are a member of this club." in text(landed)


def test_an_invitee_with_an_account_logs_in_from_the_link_and_lands_a_member(world):
    _invitation, key = invite(world, role="admin", by=world.owner)
    get_user_model().objects.create_user(username="returning", password=PASSWORD)
    client = Client()
    asked = client.post(join_path(key), {"account": "existing"})
    assert asked["Location"] == f"{reverse('login')}?next={quote(join_path(key), safe='')}"
    logged_in = client.post(
        asked["Location"], {"username": "returning", "password": PASSWORD, "next": join_path(key)}
    )
    assert logged_in["Location"] == join_path(key)
    landed = client.get(join_path(key), follow=True)
    assert landed.redirect_chain[-1][0] == club_path(world)
    assert Membership.objects.get(club=world.club, user__username="returning").role == "admin"
    assert "you are an admin now" in text(landed)


def test_the_sign_up_link_on_the_login_page_keeps_next_to_the_invitation(world):
    _invitation, key = invite(world)
    client = Client()
    login = client.get(f"{reverse('login')}?next={quote(join_path(key), safe='')}")
    signup_href = f'href="{reverse("signup")}?next={quote(join_path(key), safe="")}"'
    assert signup_href in text(login)
    # Signing up from there (no earlier "join" press) comes back to the join page, which
    # asks once: a link alone never joins anyone.
    made = client.post(
        f"{reverse('signup')}?next={quote(join_path(key), safe='')}",
        {
            "username": "viaLogin",
            "email": "v@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert made["Location"] == join_path(key)
    confirm = client.get(join_path(key))
    assert confirm.status_code == 200
    assert "Join North-Pier" in text(confirm)
    assert not is_member(world, "viaLogin")
    joined = client.post(join_path(key))
    assert joined["Location"] == club_path(world)
    assert is_member(world, "viaLogin")


def test_a_join_asked_for_one_link_does_not_join_another(world):
    _invitation, key = invite(world)
    other_club = world.other_admin.club_memberships.get().club
    _other, other_key = services.invitation_create(club=other_club, user=world.other_admin)
    client = Client()
    client.post(join_path(key), {"account": "new"})
    client.post(
        reverse("signup"),
        {
            "username": "cleo",
            "email": "c@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    page = client.get(join_path(other_key))
    assert page.status_code == 200
    assert not Membership.objects.filter(club=other_club, user__username="cleo").exists()


# --- the join page ------------------------------------------------------------------------


def test_the_join_page_names_the_club_the_inviter_and_the_role(world):
    world.club.description = "Thursdays at the pier."
    world.club.save()
    _invitation, key = invite(world, expires_at=timezone.now() + dt.timedelta(days=7))
    page = text(browser(world.outsider).get(join_path(key)))
    assert "<h1>Join North-Pier</h1>" in page
    assert "<strong>m1</strong> invited you to join <strong>North-Pier</strong>" in page
    assert "as a member" in page
    assert "record the games you play" in page
    assert "Thursdays at the pier." in page
    assert "valid until" in page
    assert "logged in as <strong>stranger</strong>" in page
    assert not is_member(world, "stranger")  # a GET (a link preview) joins nobody

    _admin_invitation, admin_key = invite(world, role="admin", by=world.owner)
    admin_page = text(browser(world.outsider).get(join_path(admin_key)))
    assert "<strong>m0</strong> invited you" in admin_page
    assert "as an admin" in admin_page
    assert "create leagues and seasons" in admin_page


def test_after_joining_a_member_lands_on_the_club_page_with_a_message(world):
    _invitation, key = invite(world)
    client = browser(world.outsider)
    joined = client.post(join_path(key))
    assert joined.status_code == 302
    assert joined["Location"] == club_path(world)
    page = text(client.get(joined["Location"]))
    assert "Welcome to North-Pier: you are a member now." in page
    assert is_member(world, "stranger")


def test_a_member_opening_a_link_again_goes_to_the_club_page(world):
    _invitation, key = invite(world, max_uses=1)
    client = browser(world.outsider)
    client.post(join_path(key))
    again = client.get(join_path(key), follow=True)
    assert again.redirect_chain[-1][0] == club_path(world)
    assert "You are already a member of North-Pier." in text(again)


def _used_up(world: ClubWorld) -> str:
    _invitation, key = invite(world, max_uses=1)
    services.club_join(key=key, user=make_user("first"))
    return key


def _revoked(world: ClubWorld) -> str:
    invitation, key = invite(world)
    services.invitation_revoke(club=world.club, user=world.admin, invitation_id=invitation.pk)
    return key


def _expired(world: ClubWorld) -> str:
    invitation, key = invite(world)
    Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - dt.timedelta(days=1)
    )
    return key


@pytest.mark.parametrize(
    ("make", "status", "words"),
    [
        (_revoked, 403, "was withdrawn by an admin"),
        (_used_up, 403, "has already been used as often as it allowed"),
        (_expired, 403, "expired on"),
        (lambda world: "no-such-key", 404, "This invitation link is not known"),
    ],
)
@pytest.mark.parametrize("logged_in", [False, True])
def test_a_dead_link_says_why_and_what_to_do_and_joins_nobody(
    world, make, status, words, logged_in
):
    key = make(world)
    client = browser(world.outsider if logged_in else None)
    for response in (client.get(join_path(key)), client.post(join_path(key), {"account": "new"})):
        assert response.status_code == status
        page = text(response)
        assert words in page
        assert "What you can do" in page
        assert "for a new invitation link" in page
        assert "Create an account and join" not in page
        assert 'type="submit"' not in page.split("<main>")[1]
    assert not is_member(world, "stranger")


# --- the admins' list and revoking --------------------------------------------------------------


def _row(page: str, invitation: Invitation) -> str:
    """The list item of one invitation on the club page."""
    section = page.split('id="invitations"')[1].split("</section>")[0]
    return section.split(f"…/clubs/join/{invitation.prefix}…")[1].split("</li>")[0]


def test_admins_see_every_invitation_with_its_status_and_maker(world):
    Invitation.objects.all().delete()  # the world's own links: start from none
    pending, _ = invite(world)
    used = Invitation.objects.get(key_hash=Invitation.hash_of(_used_up(world)))
    revoked = Invitation.objects.get(key_hash=Invitation.hash_of(_revoked(world)))
    expired = Invitation.objects.get(key_hash=Invitation.hash_of(_expired(world)))
    admin_made, _ = invite(world, role="admin", by=world.owner)
    page = text(browser(world.admin).get(club_path(world)))
    for invitation, status in [
        (pending, "pending"),
        (used, "used"),
        (revoked, "revoked"),
        (expired, "expired"),
    ]:
        row = _row(page, invitation)
        assert f'<span class="status">{status}</span>' in row
        assert "made by m1" in row
        assert "Joins as a member" in row
        assert (">Revoke</button>" in row) == (status == "pending")
    assert "used 1 of 1 time" in _row(page, used)
    assert "expired " in _row(page, expired)
    assert "made by m0" in _row(page, admin_made)
    assert "Joins as an admin" in _row(page, admin_made)
    assert ">Revoke</button>" not in _row(page, admin_made)  # only owners revoke those
    assert ">Revoke</button>" in _row(text(browser(world.owner).get(club_path(world))), admin_made)
    assert reverse("club-invite-revoke", args=[world.club.slug, pending.pk]) in _row(page, pending)


def test_members_and_visitors_do_not_see_the_invitation_list(world):
    invite(world)
    for user in (world.members[5], world.outsider, None):
        page = text(browser(user).get(club_path(world)))
        assert 'id="invitations"' not in page
        assert "/clubs/join/" not in page


def test_an_admin_revokes_a_link_it_is_audited_and_the_link_is_refused(world):
    invitation, key = invite(world)
    url = reverse("club-invite-revoke", args=[world.club.slug, invitation.pk])
    response = browser(world.admin).post(url)
    assert response.status_code == 302
    assert response["Location"] == club_path(world) + "#invitations"
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None
    log = AuditLog.objects.get(action="invitation.revoke")
    assert (log.actor, log.club, log.target_id) == (world.admin, world.club, invitation.pk)
    assert log.before["status"] == "pending"
    assert log.after["status"] == "revoked"
    refused = browser(world.outsider).post(join_path(key))
    assert refused.status_code == 403
    assert "withdrawn" in text(refused)
    assert not is_member(world, "stranger")


@pytest.mark.parametrize("who", ["member", "other_admin", "outsider"])
def test_non_admins_cannot_revoke_from_the_page(world, who):
    invitation, _key = invite(world)
    user = {
        "member": world.members[5],
        "other_admin": world.other_admin,
        "outsider": world.outsider,
    }
    response = browser(user[who]).post(
        reverse("club-invite-revoke", args=[world.club.slug, invitation.pk])
    )
    assert response.status_code == 403
    invitation.refresh_from_db()
    assert invitation.revoked_at is None
    assert not AuditLog.objects.filter(action="invitation.revoke").exists()


def test_anonymous_revoke_goes_to_login_and_changes_nothing(world):
    invitation, _key = invite(world)
    response = Client().post(reverse("club-invite-revoke", args=[world.club.slug, invitation.pk]))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]
    invitation.refresh_from_db()
    assert invitation.revoked_at is None


def test_only_owners_revoke_an_admin_invitation(world):
    invitation, _key = invite(world, role="admin", by=world.owner)
    url = reverse("club-invite-revoke", args=[world.club.slug, invitation.pk])
    assert browser(world.admin).post(url).status_code == 403
    page = text(browser(world.admin).get(club_path(world)))
    assert url not in page  # no button the admin cannot use
    assert browser(world.owner).post(url).status_code == 302
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None


def test_another_clubs_invitation_is_not_found_here(world):
    other_club = world.other_admin.club_memberships.get().club
    other, _key = services.invitation_create(club=other_club, user=world.other_admin)
    url = reverse("club-invite-revoke", args=[world.club.slug, other.pk])
    assert browser(world.admin).post(url).status_code == 404
    other.refresh_from_db()
    assert other.revoked_at is None


# --- the API ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("anonymous", UNAUTH),
        ("member", (403, "not_club_admin")),
        ("admin", (200, None)),
        ("other_admin", (403, "not_a_member")),
    ],
)
def test_api_invitation_list_is_for_admins(world, who, expected):
    invite(world)
    check(world, who, expected, lambda c: c.get(f"/api/clubs/{world.club.slug}/invitations/"))


def test_api_lists_invitations_with_status_and_maker(world):
    pending, _ = invite(world, max_uses=3)
    _revoked(world)
    body = world.client(world.admin).get(f"/api/clubs/{world.club.slug}/invitations/").json()
    # the world's own links (one per member) are there too, used by nobody else since
    by_id = {row["id"]: row for row in body}
    assert by_id[pending.pk]["status"] == "pending"
    assert by_id[pending.pk]["created_by"] == "m1"
    assert by_id[pending.pk]["max_uses"] == 3
    assert "revoked" in {row["status"] for row in body}
    assert all("key" not in row and "key_hash" not in row for row in body)


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("anonymous", UNAUTH),
        ("member", (403, "not_club_admin")),
        ("admin", (200, None)),
        ("other_admin", (403, "not_a_member")),
    ],
)
def test_api_revoke_is_for_admins(world, who, expected):
    invitation, _key = invite(world)
    url = f"/api/clubs/{world.club.slug}/invitations/{invitation.pk}/revoke/"
    check(world, who, expected, lambda c: c.post(url, {"reason": "wrong group"}, format="json"))


def test_api_revoke_answers_the_link_is_audited_and_a_dead_link_is_a_conflict(world):
    invitation, key = invite(world)
    url = f"/api/clubs/{world.club.slug}/invitations/{invitation.pk}/revoke/"
    client = world.client(world.admin)
    response = client.post(url, {"reason": "sent to the wrong group"}, format="json")
    assert response.status_code == 200
    assert response.json()["status"] == "revoked"
    assert AuditLog.objects.get(action="invitation.revoke").reason == "sent to the wrong group"
    assert client.post(url, {}, format="json").status_code == 200  # again: nothing changes
    assert AuditLog.objects.filter(action="invitation.revoke").count() == 1
    joined = world.client(world.outsider).post("/api/clubs/join/", {"key": key}, format="json")
    assert joined.status_code == 403
    assert joined.json()["code"] == "invitation_revoked"

    used_key = _used_up(world)
    used = Invitation.objects.get(key_hash=Invitation.hash_of(used_key))
    conflict = client.post(f"/api/clubs/{world.club.slug}/invitations/{used.pk}/revoke/")
    assert conflict.status_code == 409
    assert conflict.json()["code"] == "invitation_inactive"


def test_making_an_invitation_is_audited(world):
    invitation, _key = invite(world, max_uses=2)
    log = AuditLog.objects.get(action="invitation.create", target_id=invitation.pk)
    assert log.actor == world.admin
    assert log.after["prefix"] == invitation.prefix
    assert log.after["max_uses"] == 2


# --- the copy button and an organiser's next step ---------------------------------------


def test_a_new_link_has_a_copy_button_served_from_our_static_files(world):
    response = browser(world.admin).post(
        reverse("club-invite", args=[world.club.slug]), {"role": "member", "days": 7}
    )
    page = text(response)
    assert re.search(
        r'<code class="invitation-link" id="invitation-link">http://testserver/clubs/join/', page
    )
    assert 'data-copy="invitation-link"' in page
    assert re.search(r'<script src="/static/core/copy\.js" defer>', page)


def test_a_league_without_a_season_leads_its_admin_to_create_one(world):
    services.league_create(
        club=world.club,
        user=world.admin,
        name="Swap League",
        slug="swap",
        game="gift_swap",
        points_per_place=[2, 1],
    )
    page = text(browser(world.admin).get(club_path(world)))
    card = page.split(">Swap League</a>")[1].split("</li>")[0]
    assert "No season yet." in card
    assert '<a class="button primary" href="?league=swap#create-season">Create a season</a>' in card
    chosen = text(browser(world.admin).get(club_path(world) + "?league=swap"))
    form = chosen.split('id="create-season"')[1]
    assert '<option value="swap" selected>' in form
    member = text(browser(world.members[5]).get(club_path(world)))
    assert "No season yet: an admin of the club starts one." in member
    assert "#create-season" not in member


def test_a_new_club_shows_its_organiser_the_next_steps(world):
    client = browser(world.outsider)
    client.post(reverse("club-list-page"), {"name": "Harbour Games", "slug": "harbour"})
    page = text(client.get(reverse("club-page", args=["harbour"])))
    steps = page.split('id="next-steps"')[1].split("</section>")[0]
    assert "Getting your club going" in page
    assert '<a class="button primary" href="#create-league">Create a league</a>' in steps
    assert "Give it a season" in steps
    assert "Invite the people you play with" in steps
    assert "No leagues yet. A league is one game" in page
    # a club that is set up (the world's) shows no checklist
    assert 'id="next-steps"' not in text(browser(world.admin).get(club_path(world)))
