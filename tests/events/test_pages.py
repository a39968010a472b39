"""Event pages: who sees what, the organiser's desk, slips with QR codes, the phone form,
standings, and the iCal feeds."""

from __future__ import annotations

import icalendar
import pytest
from django.test import Client

from events import services
from events.models import Entry, TableResult
from replays.models import Record
from tests.events.conftest import play_round, user_at

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_event_page_for_members_and_by_public_link(ev) -> None:
    page = _client(ev.players[0]).get(f"/events/{ev.event.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Winter Night" in html
    assert "Gift Gift Gone" in html
    assert "Organiser&#x27;s desk" not in html
    assert "Organiser's desk" not in html
    assert "My events (iCal)" in html  # a player subscribes to their own calendar
    assert _client(ev.outsider).get(f"/events/{ev.event.pk}/").status_code == 404
    public = _client().get(f"/events/link/{ev.event.link_key}/")
    assert public.status_code == 200
    assert "Winter Night" in public.content.decode()
    assert "Report the result" not in public.content.decode()
    assert _client().get("/events/link/not-the-key/").status_code == 404
    desk = _client(ev.owner).get(f"/events/{ev.event.pk}/").content.decode()
    assert ev.event.link_key in desk  # the organiser sees the link to share


def test_organiser_desk_checks_in_seats_and_swaps(ev) -> None:
    desk = _client(ev.owner)
    url = f"/events/{ev.event.pk}/organise/"
    assert _client(ev.players[0]).get(url).status_code == 403
    page = desk.get(url)
    assert page.status_code == 200
    assert "Seat round 1" in page.content.decode()
    added = desk.post(url, {"action": "add", "add-handle": "Walk-in Wes", "add-checked_in": "on"})
    assert added.status_code == 302
    wes = Entry.objects.get(event=ev.event, player__name="Walk-in Wes")
    assert wes.checked_in
    desk.post(url, {"action": "check_out", "entry": wes.pk})
    wes.refresh_from_db()
    assert not wes.checked_in
    desk.post(url, {"action": "seat"})
    rnd = ev.event.round_set.get()
    assert rnd.tables.count() == 2
    t1, t2 = rnd.tables.order_by("number")
    a, b = t1.seats.get(seat=0).entry, t2.seats.get(seat=0).entry
    swapped = desk.post(url, {"action": "swap", "swap-first": a.pk, "swap-second": b.pk})
    assert swapped.status_code == 200
    assert "Swapped." in swapped.content.decode()
    assert t1.seats.get(seat=0).entry == b
    refused = desk.post(url, {"action": "finish_round"}, follow=True)
    assert "have no confirmed result yet" in refused.content.decode()


def test_slips_carry_a_qr_code_to_each_table(ev) -> None:
    services.round_seat_next(event=ev.event, user=ev.owner, seed=1)
    page = _client(ev.owner).get(f"/events/{ev.event.pk}/rounds/1/slips/")
    html = page.content.decode()
    assert page.status_code == 200
    assert html.count("<svg") == 2
    assert f"/events/{ev.event.pk}/rounds/1/tables/1/" in html
    assert f"/events/{ev.event.pk}/rounds/1/tables/2/" in html


def test_phone_form_submit_then_confirm(ev) -> None:
    rnd = services.round_seat_next(event=ev.event, user=ev.owner, seed=1)
    table = rnd.tables.get(number=1)
    url = f"/events/{ev.event.pk}/rounds/1/tables/1/"
    names = [s.entry.player.name for s in table.seats.order_by("seat")]
    sender = _client(user_at(table, 0))
    page = sender.get(url).content.decode()
    for seat, name in enumerate(names):
        assert f"{name} (seat {seat + 1})" in page  # pre-filled with the table's seats
    missing = sender.post(url, {"action": "submit", "score_0": "5"})
    assert missing.status_code == 200
    assert "error-summary" in missing.content.decode()
    assert not TableResult.objects.exists()
    sent = sender.post(
        url, {"action": "submit", **{f"score_{i}": str(10 - i) for i in range(len(names))}}
    )
    assert sent.status_code == 302
    own = sender.get(url).content.decode()
    assert "you sent it" in own
    assert "These are right: confirm" not in own
    assert sender.post(url, {"action": "confirm"}).status_code == 403
    other_table_player = user_at(rnd.tables.get(number=2), 0)
    assert _client(other_table_player).post(url, {"action": "confirm"}).status_code == 403
    confirmer = _client(user_at(table, 1))
    assert "These are right: confirm" in confirmer.get(url).content.decode()
    assert confirmer.post(url, {"action": "confirm"}).status_code == 302
    assert Record.objects.get().result["scores"] == [10, 9, 8, 7]


def test_standings_page_explains_ties(ev) -> None:
    play_round(ev, scores_of=lambda table: [5] * table.seats.count())  # all tied
    page = _client(ev.players[0]).get(f"/events/{ev.event.pk}/standings/?after_round=1")
    html = page.content.decode()
    assert page.status_code == 200
    assert "shares the place with" in html
    assert "After round 1" in html


def test_ical_feeds_have_stable_uids(ev) -> None:
    feed = _client().get("/clubs/north-pier/events.ics")
    assert feed.status_code == 200
    assert feed["Content-Type"].startswith("text/calendar")
    cal = icalendar.Calendar.from_ical(feed.content)
    events = list(cal.walk("VEVENT"))
    assert [str(e["uid"]) for e in events] == [f"event-{ev.event.pk}@giftbox"]
    assert str(events[0]["summary"]) == "Winter Night"
    again = icalendar.Calendar.from_ical(_client().get("/clubs/north-pier/events.ics").content)
    assert [str(e["uid"]) for e in again.walk("VEVENT")] == [f"event-{ev.event.pk}@giftbox"]
    player = Entry.objects.filter(event=ev.event).first().player.name
    mine = icalendar.Calendar.from_ical(_client().get(f"/players/{player}/events.ics").content)
    assert [str(e["uid"]) for e in mine.walk("VEVENT")] == [f"event-{ev.event.pk}@giftbox"]
    nobody = icalendar.Calendar.from_ical(_client().get("/players/nobody/events.ics").content)
    assert list(nobody.walk("VEVENT")) == []


def test_make_an_event_from_a_page(ev) -> None:
    client = _client(ev.admin)
    page = client.get("/events/new/")
    assert page.status_code == 200
    assert "North-Pier" in page.content.decode() or "north-pier" in page.content.decode()
    refused = client.post(
        "/events/new/",
        {
            "name": "Bad",
            "game": "gift_swap",
            "format": "swiss",
            "rounds": "2",
            "starts_at": "2026-04-01T19:00",
            "max_table": "7",
        },
    )
    assert refused.status_code == 400
    assert "error-summary" in refused.content.decode()
    made = client.post(
        "/events/new/",
        {
            "name": "Spring Night",
            "club": "north-pier",
            "game": "gift_swap",
            "format": "random",
            "rounds": "2",
            "starts_at": "2026-04-01T19:00",
            "points_per_place": "4, 2, 1",
        },
    )
    assert made.status_code == 302
    from events.models import Event

    event = Event.objects.get(name="Spring Night")
    assert event.club.slug == "north-pier"
    assert event.points_per_place == [4, 2, 1]
    assert event.slug == "spring-night"
    assert event.created_by == ev.admin
    listed = _client(ev.players[0]).get("/events/").content.decode()
    assert "Spring Night" in listed
    assert "Winter Night" in listed
    assert "Spring Night" not in _client(ev.outsider).get("/events/").content.decode()
    assert (
        _client(ev.players[0])
        .post(
            "/events/new/",
            {
                "name": "Sneaky",
                "club": "north-pier",
                "game": "gift_swap",
                "format": "random",
                "rounds": "2",
                "starts_at": "2026-04-01T19:00",
            },
        )
        .status_code
        == 400
    )  # a plain member has no club to choose: not a valid choice
    assert not Event.objects.filter(name="Sneaky").exists()


def _table_button(html: str, table_number: int) -> str:
    """The label of the button under table ``table_number`` on the event page."""
    section = html.split(f"<h4>Table {table_number}", 1)[1].split("</li>\n", 1)[0]
    return section.split('class="button"', 1)[1].split(">", 1)[1].split("<", 1)[0]


def test_a_tables_button_says_what_its_reader_can_do_now(ev) -> None:
    rnd = services.round_seat_next(event=ev.event, user=ev.owner, seed=7)
    table = rnd.tables.order_by("number").first()
    first, second = user_at(table, 0), user_at(table, 1)
    others = set(ev.players) - {s.entry.player.user for s in table.seats.all()}
    outsider = next(iter(others))
    url = f"/events/{ev.event.pk}/"

    def label(user) -> str:
        return _table_button(_client(user).get(url).content.decode(), table.number)

    assert label(first) == "Report the result"
    assert label(ev.owner) == "Report the result"
    assert label(outsider) == "Open table"
    scores = list(range(table.seats.count(), 0, -1))
    services.table_result_submit(table=table, user=first, scores=scores, confirm_unusual=True)
    assert label(first) == "Open table"  # one's own result waits for someone else
    assert label(second) == "Confirm the result"
    assert label(ev.owner) == "Confirm the result"
    services.table_result_confirm(table=table, user=second)
    assert label(first) == label(second) == label(ev.owner) == "Open table"
