"""A club's season from nothing, on a 390 px phone, the way a new organiser meets it.

The organiser signs up, creates a club, a league (house rules picked, not typed) and a
season, and invites someone who has no account. The invitee signs up from the link, lands
a member on the club page and records a table game with a typo in it, then corrects it.
The organiser also played a practice game against the service's bots: no standing, rating
or leaderboard ever shows a bot. Every page is also opened at 1280 px, and screenshots of
both widths are kept under artifacts/browser/.
"""

from __future__ import annotations

import random

import pytest
from django.utils import timezone

from clubs.models import AuditLog, Membership, SeasonEntry
from replays.models import Player, Record
from replays.services import record_submit
from replays.simulation import simulated_document
from tests.browser.layout import assert_fits

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery-staple"
BOTS = ("bot-1", "bot-2")



def sign_up(page, base: str, username: str) -> None:
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.org")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("button[type=submit].primary")


def a_practice_game_against_bots(handle: str) -> Record:
    """What "Play against the service" stores: the person at seat 1, bots at the others."""
    document = simulated_document(
        "secret_santa", num_players=3, rng=random.Random(7), simulated=False
    )
    document["players"] = [handle, *BOTS]
    record, created = record_submit(document=document, bot_seats=[1, 2])
    assert created
    return record


def assert_no_bot(page, what: str) -> None:
    text = page.inner_text("main")
    for bot in BOTS:
        assert bot not in text, f"{what} shows {bot}"


def test_a_whole_season_on_a_phone(live_server, open_page, screenshot):
    base = live_server.url
    today = timezone.localdate()
    shots: list[str] = []

    def shot(page, name: str) -> None:
        assert_fits(page, 390, name)
        screenshot(page, f"season-{name}-390")
        shots.append(page.url)

    # The organiser signs up and creates a club.
    organiser = open_page(390, 844)
    organiser.goto(f"{base}/accounts/signup/")
    shot(organiser, "signup")
    sign_up(organiser, base, "ana")
    organiser.wait_for_url(f"{base}/")
    organiser.goto(f"{base}/clubs/")
    organiser.fill("input[name=name]", "North Pier Games")
    organiser.fill("input[name=slug]", "north-pier")
    organiser.fill("textarea[name=description]", "Thursdays at the pier.")
    shot(organiser, "club-create")
    organiser.click("main form button.primary")
    organiser.wait_for_url(f"{base}/clubs/north-pier/")
    assert "North Pier Games" in organiser.inner_text("h1")
    assert "Getting your club going" in organiser.inner_text("#next-steps")
    shot(organiser, "club-new")

    # A league of Secret Santa, its house rules picked from the game's own options.
    league = organiser.locator("#create-league")
    league.locator("input[name=name]").fill("Santa League")
    league.locator("input[name=slug]").fill("santa")
    league.locator("select[name=game]").select_option("secret_santa")
    picker = league.locator("fieldset.house-rules:not([hidden])")
    assert picker.count() == 1
    assert "Secret Santa" in picker.inner_text()
    assert league.locator("textarea[name=options]").count() == 0  # no JSON to type
    league.locator("button.primary").click()
    organiser.wait_for_url(f"{base}/clubs/north-pier/**")
    santa = organiser.locator("#leagues li.card", has_text="Santa League")
    assert "No season yet" in santa.inner_text()

    # The club page leads on to the season; the form names the league already.
    santa.locator("a.button.primary", has_text="Create a season").click()
    season = organiser.locator("#create-season")
    season.locator("input[name=name]").fill("Winter")
    season.locator("input[name=starts_on]").fill(f"{today.year}-01-01")
    season.locator("input[name=ends_on]").fill(f"{today.year}-12-31")
    shot(organiser, "season-create")
    season.locator("button.primary").click()
    organiser.wait_for_url(f"{base}/clubs/north-pier/**")
    assert "No season yet" not in organiser.locator("#leagues").inner_text()

    # An invitation link, copied with one tap.
    organiser.click("#invite button.primary")
    organiser.wait_for_selector("#invitation-link")
    link = organiser.inner_text("#invitation-link").strip()
    assert organiser.locator("button[data-copy=invitation-link]").is_visible()
    shot(organiser, "invitation")

    # The organiser's practice game against the bots: bot play, stored as such.
    practice = a_practice_game_against_bots("ana")
    assert practice.simulated
    assert set(Player.objects.filter(name__in=BOTS).values_list("kind", flat=True)) == {"bot"}

    # The invitee has no account: the link names the club and who invited; sign up from it.
    invitee = open_page(390, 844)
    invitee.goto(link)
    assert invitee.inner_text("h1") == "Join North Pier Games"
    assert "ana invited you" in invitee.inner_text(".invitation-card")
    shot(invitee, "join")
    invitee.click("text=Create an account and join")
    invitee.wait_for_url("**/accounts/signup/?next=*")
    sign_up(invitee, base, "bo")
    invitee.wait_for_url(f"{base}/clubs/north-pier/")
    assert "you are a member now" in invitee.inner_text("ul.messages")
    assert Membership.objects.filter(club__slug="north-pier", user__username="bo").exists()
    shot(invitee, "club-member")

    # bo records the evening's game on the phone form, with a typo: 32 for ana's 23.
    invitee.click("#leagues >> text=Santa League")
    invitee.wait_for_url("**/leagues/santa/**")
    invitee.click("text=Record a table game")
    invitee.wait_for_url("**/leagues/santa/record/")
    invitee.select_option("#id_player_0", "ana")
    invitee.fill("#id_score_0", "32")
    invitee.select_option("#id_player_1", "bo")
    invitee.fill("#id_score_1", "28")
    invitee.fill("#id_guest_2", "Cleo")
    invitee.fill("#id_score_2", "9")
    shot(invitee, "table-game")
    invitee.click("button.primary.big")
    invitee.wait_for_url("**/clubs/north-pier/leagues/santa/?season=*")
    standings = invitee.inner_text("table.standings")
    assert standings.index("ana") < standings.index("bo")
    shot(invitee, "league-typo")

    # The submitter corrects it: ratings and standings follow.
    invitee.click("text=Correct the scores")
    invitee.wait_for_url("**/games/*/correct/")
    shot(invitee, "correct")
    invitee.fill("#id_score_0", "23")
    invitee.fill("#id_reason", "ana had 23, not 32")
    invitee.click("button.primary.big")
    invitee.wait_for_url("**/clubs/north-pier/leagues/santa/?season=*")
    assert "is corrected" in invitee.inner_text("ul.messages")
    assert "ana 23" in invitee.inner_text("#games")
    standings = invitee.inner_text("table.standings")
    assert standings.index("bo") < standings.index("ana")
    assert "Cleo" not in standings
    entry = SeasonEntry.objects.get()
    assert entry.record.result["scores"] == [23, 28, 9]
    assert AuditLog.objects.filter(action__contains="correct").exists()
    assert_no_bot(invitee, "the league page")
    shot(invitee, "league-corrected")

    # No bot on the standings, the ratings or the leaderboard; the practice game is not
    # in the season, and ana's rating counts the club game only.
    for path, name in [
        ("/leaderboards/?game=secret_santa", "leaderboard"),
        ("/players/bo/", "player-bo"),
        ("/players/ana/", "player-ana"),
    ]:
        invitee.goto(f"{base}{path}")
        assert_no_bot(invitee, path)
        if name == "leaderboard":
            assert "bo" in invitee.inner_text("main")
        shot(invitee, name)
    assert not SeasonEntry.objects.filter(record=practice).exists()

    # The invitee sees the club page, a member, without the admins' parts.
    invitee.goto(f"{base}/clubs/north-pier/")
    assert "You are a member of this club." in invitee.inner_text("main")
    assert invitee.locator("#invitations").count() == 0
    assert_no_bot(invitee, "the club page")
    shot(invitee, "club-invitee")

    # The same pages at 1280 px, for the organiser (signed in on a desktop).
    wide = open_page(1280, 900)
    wide.goto(f"{base}/accounts/login/?next=/clubs/north-pier/")
    wide.fill("input[name=username]", "ana")
    wide.fill("input[name=password]", PASSWORD)
    wide.click("button[type=submit].primary")
    wide.wait_for_url(f"{base}/clubs/north-pier/")
    for url in dict.fromkeys(shots):
        if any(part in url for part in ("/accounts/signup/", "/clubs/join/", "/invite/")):
            continue  # the signed-in organiser is sent on from these; a link is made by POST
        wide.goto(url)
        assert_fits(wide, 1280, url)
        name = url.removeprefix(base).strip("/").replace("/", "-").split("?")[0] or "home"
        screenshot(wide, f"season-{name}-1280")
        if "/correct/" not in url and "/record/" not in url:
            assert_no_bot(wide, url)

    for page in (organiser, invitee, wide):
        assert page.console_errors == []
