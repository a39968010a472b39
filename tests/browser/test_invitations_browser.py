"""An organiser invites someone with no account: copy the link, the invitee signs up from it
and lands on the club page a member. On a 390 px phone and a 1280 px desktop."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from clubs import services
from clubs.models import AuditLog, Membership
from tests.browser.layout import assert_fits

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery-staple"



def a_club_being_set_up():
    """ana's club: one league with a season, one (new) without."""
    ana = get_user_model().objects.create_user(username="ana", password=PASSWORD)
    club = services.club_create(
        user=ana, name="North Pier Games", slug="north-pier", description="Thursdays at the pier."
    )
    santa = services.league_create(
        club=club,
        user=ana,
        name="Santa League",
        slug="santa",
        game="secret_santa",
        points_per_place=[3, 2, 1, 0],
    )
    today = timezone.localdate()
    services.season_create(
        league=santa,
        user=ana,
        name="Winter",
        starts_on=today - dt.timedelta(days=30),
        ends_on=today + dt.timedelta(days=30),
    )
    services.league_create(
        club=club,
        user=ana,
        name="Swap League",
        slug="swap",
        game="gift_swap",
        points_per_place=[2, 1],
    )
    return club


def log_in(page, base: str, username: str, next_path: str) -> None:
    page.goto(f"{base}/accounts/login/?next={next_path}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"{base}{next_path}")


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 900)])
def test_invite_someone_without_an_account_who_signs_up_and_lands_on_the_club_page(
    live_server, open_page, screenshot, width, height
):
    a_club_being_set_up()
    base = live_server.url
    organiser = open_page(width, height)
    organiser.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    log_in(organiser, base, "ana", "/clubs/north-pier/")
    # The club page leads the organiser on: the new league has no season yet.
    swap = organiser.locator("#leagues li.card", has_text="Swap League")
    assert "No season yet" in swap.inner_text()
    assert swap.locator("a.button.primary", has_text="Create a season").is_visible()
    assert "Invite the people you play with" in organiser.inner_text("#next-steps")
    assert_fits(organiser, width, "the club page being set up")
    screenshot(organiser, f"invites-club-setup-{width}")

    organiser.click("#next-steps >> text=Invite people")
    organiser.click("#invite button.primary")
    organiser.wait_for_selector("#invitation-link")
    link = organiser.inner_text("#invitation-link").strip()
    assert link.startswith(f"{base}/clubs/join/")
    copy = organiser.locator("button[data-copy=invitation-link]")
    assert copy.is_visible()
    box = copy.bounding_box()
    assert box is not None
    assert box["height"] >= 44
    copy.click()
    organiser.wait_for_function(
        "() => document.querySelector('#invitation .copy-status').textContent.includes('Copied')"
    )
    assert organiser.evaluate("navigator.clipboard.readText()") == link
    assert "pending" in organiser.inner_text("#invitations")
    assert_fits(organiser, width, "the club page with a new link")
    screenshot(organiser, f"invites-link-made-{width}")

    invitee = open_page(width, height)
    invitee.goto(link)
    assert invitee.inner_text("h1") == "Join North Pier Games"
    card = invitee.inner_text(".invitation-card")
    assert "ana invited you to join North Pier Games on giftbox as a member." in card
    assert "Thursdays at the pier." in card
    assert_fits(invitee, width, "the join page")
    screenshot(invitee, f"invites-join-{width}")

    invitee.click("text=Create an account and join")
    invitee.wait_for_url("**/accounts/signup/?next=*")
    assert "you go straight on" in invitee.inner_text("main")
    assert_fits(invitee, width, "the sign-up page")
    screenshot(invitee, f"invites-signup-{width}")
    invitee.fill("input[name=username]", "newcomer")
    invitee.fill("input[name=email]", "newcomer@example.org")
    invitee.fill("input[name=password1]", PASSWORD)
    invitee.fill("input[name=password2]", PASSWORD)
    invitee.click("button[type=submit].primary")
    invitee.wait_for_url(f"{base}/clubs/north-pier/")
    assert "Welcome to North Pier Games: you are a member now." in invitee.inner_text("ul.messages")
    assert "You are a member of this club." in invitee.inner_text("main")
    assert invitee.locator("text=Record a table game").first.is_visible()
    assert invitee.locator("#invitations").count() == 0
    assert_fits(invitee, width, "the club page of a new member")
    screenshot(invitee, f"invites-member-{width}")
    assert Membership.objects.filter(club__slug="north-pier", user__username="newcomer").exists()

    # The organiser sees the link used once, and revokes it: the next person is refused.
    organiser.goto(f"{base}/clubs/north-pier/#invitations")
    row = organiser.locator("li.invitation").first
    assert "used 1 time" in row.inner_text()
    row.locator("button", has_text="Revoke").click()
    organiser.wait_for_selector("ul.messages")
    assert "is revoked" in organiser.inner_text("ul.messages")
    assert "revoked" in organiser.locator("li.invitation").first.inner_text()
    assert_fits(organiser, width, "the invitation list")
    screenshot(organiser, f"invites-revoked-{width}")
    assert AuditLog.objects.filter(action="invitation.revoke").count() == 1

    late = open_page(width, height)
    late.goto(link)
    assert "no longer works" in late.inner_text("h1")
    assert "withdrawn by an admin" in late.inner_text("main")
    assert late.locator("text=Create an account and join").count() == 0
    assert_fits(late, width, "a revoked link")
    screenshot(late, f"invites-revoked-link-{width}")

    for page in (organiser, invitee):
        assert page.console_errors == []
    assert [e for e in late.console_errors if "status of 403" not in e] == []


def test_the_copy_button_selects_the_link_where_there_is_no_clipboard(
    live_server, open_page, screenshot
):
    a_club_being_set_up()
    base = live_server.url
    page = open_page(390, 844)
    page.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    log_in(page, base, "ana", "/clubs/north-pier/")
    page.click("#invite button.primary")
    page.wait_for_selector("#invitation-link")
    page.click("button[data-copy=invitation-link]")
    status = page.inner_text("#invitation .copy-status")
    assert "Copied" in status or "selected" in status
    selected = page.evaluate("window.getSelection().toString()").strip()
    assert selected == page.inner_text("#invitation-link").strip()
    screenshot(page, "invites-copy-fallback-390")
    assert page.console_errors == []
