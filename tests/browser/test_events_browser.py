"""An event on a 390 px phone: the organiser's desk, a table's form, the slips, the standings."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from clubs import services as club_services
from events import services
from events.models import TableResult
from tests.browser.layout import assert_fits

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery-staple"
WIDTH = 390


def _log_in(page, url: str, name: str, next_path: str) -> None:
    page.goto(f"{url}/accounts/login/?next={next_path}")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"{url}{next_path}")


def test_an_evening_on_phones(live_server, open_page, screenshot):
    users = get_user_model().objects
    ana = users.create_user(username="ana", password=PASSWORD)
    players = [users.create_user(username=n, password=PASSWORD) for n in ("bo", "cy", "di")]
    club = club_services.club_create(user=ana, name="North Pier Games", slug="north-pier")
    for user in players:
        _inv, key = club_services.invitation_create(club=club, user=ana)
        club_services.club_join(key=key, user=user)
    event = services.event_create(
        user=ana,
        club=club,
        name="Thursday Gift Night",
        slug="thursday",
        game="gift_gift_gone",
        starts_at=timezone.now(),
        location="The Pier Café",
        min_table=3,
        max_table=4,
    )
    for user in players:
        services.entry_join(event=event, user=user)
    services.entry_add(event=event, user=ana, handle="Walk-in Wes")

    desk = open_page(WIDTH, 844)
    _log_in(desk, live_server.url, "ana", f"/events/{event.pk}/organise/")
    for _ in range(4):  # check everyone in from the list
        desk.locator("button[value=check_in]").first.click()
        desk.wait_for_load_state()
    desk.click("button[value=seat]")
    desk.wait_for_selector("text=Round 1 is seated.")
    assert_fits(desk, WIDTH, "the organiser's desk")
    screenshot(desk, "events-organise")
    assert desk.console_errors == []

    table = event.round_set.get().tables.get()
    seats = list(table.seats.select_related("entry__player").order_by("seat"))
    first = next(s for s in seats if s.entry.player.user is not None).entry.player.user
    second = next(s for s in seats if s.entry.player.user not in (None, first)).entry.player.user
    desk.goto(f"{live_server.url}/events/{event.pk}/rounds/1/slips/")  # signed in as ana
    assert desk.locator(".slip svg").count() == 1
    screenshot(desk, "events-slips")

    phone = open_page(WIDTH, 844)
    path = f"/events/{event.pk}/rounds/1/tables/1/"
    _log_in(phone, live_server.url, first.username, path)
    for i in range(len(seats)):
        phone.fill(f"input[name=score_{i}]", str(20 - i))
    phone.click("button[value=submit]")
    phone.wait_for_selector("text=another player of the table confirms it now")
    assert_fits(phone, WIDTH, "the table's result form")
    screenshot(phone, "events-table-sent")

    other = open_page(WIDTH, 844)
    _log_in(other, live_server.url, second.username, path)
    other.click("button[value=confirm]")
    other.wait_for_selector("text=result is confirmed")
    assert TableResult.objects.get().status == "confirmed"

    standings = open_page(WIDTH, 844)
    standings.goto(f"{live_server.url}/events/link/{event.link_key}/")
    assert "Thursday Gift Night" in standings.inner_text("h1")
    assert_fits(standings, WIDTH, "the public event page")
    screenshot(standings, "events-public")
    for page in (desk, phone, other, standings):
        assert page.console_errors == []
