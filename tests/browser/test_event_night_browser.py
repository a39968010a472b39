"""A whole 13-player, 3-round evening of a 3-5 player game, on 390 px phones.

Check-in from the organiser's desk, round 1 seated (5, 4 and 4), the slips, one table's
result sent from one player's phone and confirmed from another's (the other tables by
their players, confirmed by the organiser), a late drop, round 2 seated by points, round
3 a final with the leaders at the top table, and the standings with each row's
tie-break. Then the event's games are in the club's records and ratings like any other
(the event has no league season: the club counts its confirmed tables).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from analytics.models import RatingApplication
from clubs import services as club_services
from events import services
from events.models import Entry, Round, TableResult
from replays.models import Record
from tests.browser.layout import assert_fits

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery-staple"
WIDTH = 390
NAMES = ["ana", "bo", "cy", "di", "ed", "flo", "gus", "hal", "ivy", "jo", "kit", "lu", "max"]


def _log_in(page, url: str, name: str, next_path: str) -> None:
    page.goto(f"{url}/accounts/login/?next={next_path}")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"{url}{next_path}")


def _scores(size: int, round_number: int, table: int) -> list[int]:
    """Distinct final scores, a different winning seat at each table and round."""
    first = (table + round_number) % size
    return [30 - ((seat - first) % size) * 3 for seat in range(size)]


def _confirm_by_hand(table, organiser, round_number: int) -> None:
    seats = list(table.seats.select_related("entry__player__user").order_by("seat"))
    # The organiser confirms, so the sender is another player: one who sent a result
    # cannot confirm it too, even as the organiser.
    sender = next(s.entry.player.user for s in seats if s.entry.player.user != organiser)
    scores = _scores(len(seats), round_number, table.number)
    services.table_result_submit(table=table, user=sender, scores=scores)
    services.table_result_confirm(table=table, user=organiser)


def test_a_thirteen_player_evening_from_check_in_to_standings(live_server, open_page, screenshot):
    users = {n: get_user_model().objects.create_user(username=n, password=PASSWORD) for n in NAMES}
    ana = users["ana"]
    club = club_services.club_create(user=ana, name="North Pier Games", slug="north-pier")
    for name in NAMES[1:]:
        _inv, key = club_services.invitation_create(club=club, user=ana)
        club_services.club_join(key=key, user=users[name])
    event = services.event_create(
        user=ana, club=club, name="Friday Gift Night", slug="friday", game="gift_gift_gone",
        starts_at=timezone.now(), location="The Pier Café", min_table=3, max_table=5,
        rounds=3, final_top_table=True,
    )  # fmt: skip
    for name in NAMES:
        services.entry_join(event=event, user=users[name])

    desk = open_page(WIDTH, 844)
    _log_in(desk, live_server.url, "ana", f"/events/{event.pk}/organise/")
    for _ in NAMES:  # everyone checks in at the door
        desk.locator("button[value=check_in]").first.click()
        desk.wait_for_load_state()
    assert desk.locator("button[value=check_in]").count() == 0
    desk.click("button[value=seat]")
    desk.wait_for_selector("text=Round 1 is seated.")
    first = Round.objects.get(event=event, number=1)
    sizes = [t.seats.count() for t in first.tables.order_by("number")]
    assert sizes == [5, 4, 4], "13 players of a 3-5 game: one table of 5 and two of 4"
    assert all(t.reason for t in first.tables.all()), "every table says why"
    assert_fits(desk, WIDTH, "the organiser's desk, round 1")
    screenshot(desk, "event-night-round-1")

    desk.goto(f"{live_server.url}/events/{event.pk}/rounds/1/slips/")
    assert desk.locator(".slip svg").count() == 3, "a slip with its QR code per table"

    # Table 1 from two phones: one player sends, another confirms.
    table = first.tables.get(number=1)
    seats = list(table.seats.select_related("entry__player__user").order_by("seat"))
    sender, confirmer = seats[0].entry.player.user, seats[1].entry.player.user
    path = f"/events/{event.pk}/rounds/1/tables/1/"
    phone = open_page(WIDTH, 844)
    _log_in(phone, live_server.url, sender.username, path)
    for seat, score in enumerate(_scores(len(seats), 1, 1)):
        phone.fill(f"input[name=score_{seat}]", str(score))
    phone.click("button[value=submit]")
    phone.wait_for_selector("text=another player of the table confirms it now")
    assert_fits(phone, WIDTH, "the table's result form")
    other = open_page(WIDTH, 844)
    _log_in(other, live_server.url, confirmer.username, path)
    other.click("button[value=confirm]")
    other.wait_for_selector("text=result is confirmed")
    screenshot(other, "event-night-confirmed")
    for table in first.tables.exclude(number=1):
        _confirm_by_hand(table, ana, 1)
    assert TableResult.objects.filter(status="confirmed").count() == 3

    # A late drop: the player leaving after round 1 is not seated again.
    desk.goto(f"{live_server.url}/events/{event.pk}/organise/")
    desk.click("button[value=finish_round]")
    desk.wait_for_selector("text=Seat round 2")
    leaving = Entry.objects.get(event=event, player__user=users["max"])
    row = desk.locator("li", has=desk.locator(f"text={leaving.player.name}")).last
    row.locator("button[value=drop]").click()
    desk.wait_for_selector("text=dropped after round 1")
    desk.click("button[value=seat]")
    desk.wait_for_selector("text=Round 2 is seated.")
    second = Round.objects.get(event=event, number=2)
    seated = {s.entry_id for t in second.tables.all() for s in t.seats.all()}
    assert leaving.pk not in seated
    assert len(seated) == 12
    assert [t.seats.count() for t in second.tables.order_by("number")] == [4, 4, 4]
    # Swiss: from round 2 the leaders sit together; table 1 holds the top of round 1.
    points = {row.entry_id: row.points for row in _standings(event, 1)}
    top = {s.entry_id for s in second.tables.get(number=1).seats.all()}
    best = max(points[e] for e in seated)
    leaders = {e for e in seated if points[e] == best}
    assert leaders & top, "round 2's table 1 seats the leaders on points"
    assert_fits(desk, WIDTH, "the organiser's desk, round 2")
    screenshot(desk, "event-night-round-2")
    for table in second.tables.all():
        _confirm_by_hand(table, ana, 2)

    # Round 3, the final: the leaders after two rounds at the top table.
    desk.goto(f"{live_server.url}/events/{event.pk}/organise/")
    desk.click("button[value=finish_round]")
    desk.wait_for_selector("text=Seat round 3")
    desk.click("button[value=seat]")
    desk.wait_for_selector("text=Round 3 is seated.")
    third = Round.objects.get(event=event, number=3)
    points = {row.entry_id: row.points for row in _standings(event, 2)}
    top_table = third.tables.get(number=1)
    top = [s.entry_id for s in top_table.seats.all()]
    rest = [s.entry_id for t in third.tables.exclude(number=1) for s in t.seats.all()]
    assert min(points[e] for e in top) >= max(points[e] for e in rest), "leaders on top"
    assert "top table" in top_table.reason
    screenshot(desk, "event-night-round-3")
    for table in third.tables.all():
        _confirm_by_hand(table, ana, 3)
    desk.goto(f"{live_server.url}/events/{event.pk}/organise/")
    desk.click("button[value=finish_round]")
    desk.wait_for_selector("text=Round 3 is finished.")
    assert desk.locator("button[value=seat]").count() == 0, "three rounds were planned"
    desk.click("button[value=finish_event]")
    desk.wait_for_selector("text=Friday Gift Night is finished.")
    event.refresh_from_db()
    assert event.status == "finished"

    standings = other  # a member's phone
    standings.goto(f"{live_server.url}/events/{event.pk}/standings/")
    rows = standings.locator("table.standings tbody tr")
    assert rows.count() == 13, "the dropped player keeps a row"
    texts = rows.all_inner_texts()
    assert all(" point" in text for text in texts), "each row says how its place was decided"
    assert any("(dropped)" in text for text in texts)
    assert_fits(standings, WIDTH, "the standings")
    screenshot(standings, "event-night-standings")

    # The event's games are records like any other, and count in the game's ratings.
    games = Record.objects.filter(meta__event=event.pk)
    assert games.count() == 9
    rated = RatingApplication.objects.filter(record__in=games, scope__key="game:gift_gift_gone")
    assert rated.count() == 9
    in_club = RatingApplication.objects.filter(
        record__in=games, scope__key=f"club:{club.pk}:gift_gift_gone"
    )
    assert in_club.count() == 9, "the club's ratings count its event, season or not"
    other.goto(f"{live_server.url}/clubs/{club.slug}/")
    assert other.locator("#recent-games li.game").count() == 9
    assert other.locator("#recent-games", has_text="Friday Gift Night, round 3, table 1").count()
    assert_fits(other, WIDTH, "the club page with the event's games")
    screenshot(other, "event-night-club")
    other.goto(f"{live_server.url}/leaderboards/?club={club.slug}&game=gift_gift_gone")
    board = other.locator("table tbody tr")
    assert board.count() >= 12, "the club's leaderboard lists the event's players"
    screenshot(other, "event-night-club-leaderboard")
    for page in (desk, phone, other):
        assert page.console_errors == []


def _standings(event, after_round):
    from events.selectors import standings

    return standings(event=event, after_round=after_round).rows
