"""The club pages: what each shows, who sees the admin forms, and the table-game form's errors."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from clubs import services
from clubs.models import Club, Invitation, League, Season, SeasonEntry
from replays.models import Player, Record
from tests.clubs.conftest import ClubWorld, result_only

pytestmark = pytest.mark.django_db


def browser(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def club_url(world: ClubWorld, name: str = "club-page", *args) -> str:
    return reverse(name, args=[world.club.slug, *args])


def league_url(world: ClubWorld) -> str:
    return reverse("league-page", args=[world.club.slug, world.league.slug])


def record_url(world: ClubWorld) -> str:
    return reverse("table-game", args=[world.club.slug, world.league.slug])


def enter(world: ClubWorld, names: list[str], scores: list[int], *, day: int = 5) -> SeasonEntry:
    entry, _ = services.season_entry_submit_document(
        season=world.season, document=result_only(names, scores, day=day), user=world.admin
    )
    return entry


def text(response) -> str:
    return response.content.decode()


# --- the clubs list and the club page ------------------------------------------------


def test_club_list_shows_clubs_and_asks_anonymous_visitors_to_log_in(world):
    page = text(browser().get(reverse("club-list-page")))
    assert "North-Pier" in page
    assert "South-Pier" in page
    assert "8 members" in page
    assert "to create a club" in page
    assert 'name="description"' not in page


def test_a_logged_in_user_creates_a_club_and_owns_it(world):
    response = browser(world.outsider).post(
        reverse("club-list-page"), {"name": "Harbour Games", "slug": "", "description": "Fridays"}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("club-page", args=["harbour-games"])
    club = Club.objects.get(slug="harbour-games")
    assert club.memberships.get().role == "owner"
    again = browser(world.outsider).post(
        reverse("club-list-page"), {"name": "Harbour Games", "slug": "harbour-games"}
    )
    assert again.status_code == 400
    assert "already called" in text(again)


def test_anonymous_club_creation_goes_to_login(world):
    response = browser().post(reverse("club-list-page"), {"name": "X"})
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_club_page_shows_members_leagues_and_recent_games_in_words(world):
    enter(world, ["m2", "m3", "m4"], [25, 10, 5])
    page = text(browser().get(club_url(world)))
    assert "<h1>North-Pier</h1>" in page
    for name in ["m0", "m1", "m7"]:
        assert f'href="/players/{name}/"' in page
    assert "owner" in page
    assert "admin" in page
    assert "Santa League" in page
    assert "Secret Santa · standard rules" in page
    assert f"?season={world.season.pk}" in page
    assert "Winter" in page
    assert "result only" in page
    assert "m2 25" in page
    assert "secret_santa" not in page
    assert "Make an invitation link" not in page
    assert "Leave North-Pier" not in page


def test_admins_see_the_admin_forms_members_only_leave(world):
    admin_page = text(browser(world.admin).get(club_url(world)))
    assert "Make an invitation link" in admin_page
    assert "Create the league" in admin_page
    assert "Create the season" in admin_page
    member_page = text(browser(world.members[5]).get(club_url(world)))
    assert "Leave North-Pier" in member_page
    assert "Record a table game" in member_page
    for form in ["Make an invitation link", "Create the league", "Create the season"]:
        assert form not in member_page


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("club-invite", {"role": "member"}),
        (
            "league-create",
            {
                "name": "Sneaky",
                "game": "secret_santa",
                "points_per_place": "1",
                "min_games": 0,
                "tie_rule": "split",
            },
        ),
        (
            "season-create",
            {
                "league": "santa",
                "name": "Spring",
                "starts_on": "2026-04-01",
                "ends_on": "2026-06-30",
            },
        ),
        ("league-create", {"name": ""}),  # an invalid form is refused too, not shown back
    ],
)
def test_members_admin_posts_are_refused(world, name, data):
    before = (Invitation.objects.count(), League.objects.count(), Season.objects.count())
    response = browser(world.members[5]).post(club_url(world, name), data)
    assert response.status_code == 403
    assert "Only admins and owners" in text(response)
    assert (Invitation.objects.count(), League.objects.count(), Season.objects.count()) == before


def test_admin_makes_an_invitation_link_that_works(world):
    response = browser(world.admin).post(
        club_url(world, "club-invite"), {"role": "member", "days": 7}
    )
    assert response.status_code == 201
    link = response.context["invitation_link"]
    assert "/clubs/join/" in link
    assert link in text(response)
    joined = browser(world.outsider).post(link.split("testserver")[1])
    assert joined.status_code == 302
    assert world.club.memberships.filter(user=world.outsider).exists()


def test_admin_creates_a_league_and_a_season_from_the_forms(world):
    client = browser(world.admin)
    response = client.post(
        club_url(world, "league-create"),
        {
            "name": "Swap Cup",
            "game": "gift_swap",
            "points_per_place": "5, 3, 1",
            "tie_rule": "share_best",
            "min_games": "2",
            "tie_breaks": ["wins", "head_to_head"],
            "options": "",
        },
    )
    assert response.status_code == 302
    league = League.objects.get(slug="swap-cup")
    assert league.points_per_place == [5, 3, 1]
    assert league.tie_breaks == ["wins", "head_to_head"]
    response = client.post(
        club_url(world, "season-create"),
        {
            "league": "swap-cup",
            "name": "Spring",
            "starts_on": "2026-04-01",
            "ends_on": "2026-06-30",
        },
    )
    assert response.status_code == 302
    assert league.seasons.get().name == "Spring"
    page = text(client.get(club_url(world)))
    assert "Gift Swap" in page
    assert "1st 5, 2nd 3, 3rd 1" in page


def test_league_form_errors_are_shown_on_their_fields(world):
    response = browser(world.admin).post(
        club_url(world, "league-create"),
        {
            "name": "Bad",
            "game": "gift_trap",
            "points_per_place": "three",
            "tie_rule": "split",
            "min_games": "0",
            "rules-gift_trap": "1",
            "rules-gift_trap-track_length": "9",
            "rules-gift_trap-zone_size": "5",
        },
    )
    assert response.status_code == 400
    page = text(response)
    assert "Type whole numbers separated by commas" in page
    errors = response.context["league_form"].errors
    assert "greater than or equal to 10" in errors["rules-gift_trap-track_length"][0]
    assert not League.objects.filter(name="Bad").exists()


def test_a_member_leaves_the_club(world):
    member = world.members[6]
    response = browser(member).post(club_url(world, "club-leave"))
    assert response.status_code == 302
    assert not world.club.memberships.filter(user=member).exists()


# --- the league page ----------------------------------------------------------------


def test_league_page_shows_standings_chart_and_games(world):
    names = [u.username for u in world.members]
    enter(world, names[:3], [25, 10, 5], day=2)
    enter(world, names[:4], [30, 12, 12, 0], day=4)
    player = Player.objects.get(name="m1")
    player.display_name = "Bea Baker"
    player.save()
    response = browser().get(league_url(world))
    page = text(response)
    assert "Standings: Winter" in page
    assert response.context["season"] == world.season
    assert "Bea Baker" in page
    # min_games is 5 in this league: nobody is ranked yet
    assert "needs 3 more games" in page
    assert "needs 4 more games" in page
    assert 'id="standings-chart"' in page
    assert "plotly.min.js" in page
    assert "Points through Winter" in page
    assert "games played in the season" in page
    assert page.count("See the result") == 2
    assert "Void this game" not in page


def test_season_switcher_and_unknown_season(world):
    spring = services.season_create(
        league=world.league,
        user=world.admin,
        name="Spring",
        starts_on=world.season.ends_on.replace(month=4, day=1),
        ends_on=world.season.ends_on.replace(month=6, day=30),
    )
    client = browser()
    current = client.get(league_url(world))
    assert current.context["season"] == spring  # the latest season that has started
    assert "Winter" in text(current)
    assert "Spring" in text(current)
    winter = client.get(league_url(world), {"season": world.season.pk})
    assert winter.context["season"] == world.season
    assert client.get(league_url(world), {"season": 99999}).status_code == 404


def test_void_by_admin_is_struck_through_with_who_and_why(world):
    entry = enter(world, ["m2", "m3", "m4"], [25, 10, 5])
    void_url = reverse("entry-void", args=[world.club.slug, world.league.slug, entry.pk])
    member = browser(world.members[5])
    assert "Void this game" not in text(member.get(league_url(world)))
    refused = member.post(void_url, {"reason": "I lost"})
    assert refused.status_code == 403
    entry.refresh_from_db()
    assert entry.voided_at is None

    admin = browser(world.admin)
    assert "Void this game" in text(admin.get(league_url(world)))
    response = admin.post(void_url, {"reason": "Dealt with a short deck"}, follow=True)
    entry.refresh_from_db()
    assert entry.voided_at is not None
    assert entry.voided_by == world.admin
    page = text(response)
    assert "Voided by m1" in page
    assert "Dealt with a short deck" in page
    assert 'class="game voided"' in page
    assert "<s>" in page
    assert "No games counted in this season yet." in page


# --- the table-game form -------------------------------------------------------------


def table_form(*rows: tuple[str, str, str], played: str = "2026-01-10T20:15") -> dict[str, str]:
    data = {"played_at": played, "duration_minutes": ""}
    for seat, (player, guest, score) in enumerate(rows):
        data.update({f"player_{seat}": player, f"guest_{seat}": guest, f"score_{seat}": score})
    return data


def test_table_game_form_needs_a_login(world):
    response = browser().get(record_url(world))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_table_game_form_offers_members_and_numeric_scores(world):
    page = text(browser(world.members[3]).get(record_url(world)))
    assert page.count('inputmode="numeric"') >= 4
    assert '<option value="m7">m7</option>' in page
    assert 'type="datetime-local"' in page
    assert "guest&#x27;s name" in page


def test_recording_a_table_game_enters_it_and_redirects_to_the_league(world):
    client = browser(world.members[3])
    response = client.post(
        record_url(world), table_form(("m3", "", "26"), ("", "Guest Gus", "30"), ("m4", "", "7"))
    )
    assert response.status_code == 302
    assert response["Location"] == f"{league_url(world)}?season={world.season.pk}"
    entry = SeasonEntry.objects.get()
    record = entry.record
    assert record.kind == Record.Kind.RESULT
    assert record.submitted_by == world.members[3]
    assert [s.player.name for s in record.seats.order_by("seat")] == ["m3", "Guest Gus", "m4"]
    assert entry.guests == [1]
    assert record.result["scores"] == [26, 30, 7]
    page = text(client.get(response["Location"]))
    assert "Game recorded in Santa League" in page
    assert "m3" in page
    assert "Guest Gus" not in page.split("Games of Winter")[0]


@pytest.mark.parametrize(
    ("rows", "played", "field", "message"),
    [
        ((("m3", "", "26"), ("m4", "", "")), None, "score_1", "Type m4&#x27;s final score."),
        ((("m3", "", "26"), ("", "", "")), None, None, "needs 2 to 4 players"),
        ((("m3", "", "26"), ("m3", "", "3")), None, "player_1", "m3 is listed twice."),
        ((("m3", "", "26"), ("", "m4", "3")), None, "guest_1", "m4 is a member"),
        ((("m3", "", "26"), ("m4", "", "-2")), None, "score_1", "scored -2"),
        ((("m3", "", "26"), ("m4", "", "3")), "2026-08-01T20:00", "played_at", "No season"),
        ((("m3", "", "26"), ("m4", "", "3")), "yesterday", "played_at", "valid date"),
    ],
)
def test_table_game_form_errors_name_the_field(world, rows, played, field, message):
    data = table_form(*rows, **({"played": played} if played else {}))
    response = browser(world.members[3]).post(record_url(world), data)
    assert response.status_code in {400, 422}
    form = response.context["form"]
    errors = form.errors.get(field or "__all__")
    assert errors, form.errors
    assert message in text(response)
    assert not Record.objects.exists()


def test_outsiders_cannot_record_a_game(world):
    response = browser(world.outsider).post(
        record_url(world), table_form(("m3", "", "26"), ("m4", "", "3"))
    )
    assert response.status_code == 403
    assert not Record.objects.exists()


# --- the player page ------------------------------------------------------------------


def test_player_page_shows_clubs_games_and_results_by_game(world):
    enter(world, ["m2", "m3", "m4"], [25, 10, 5], day=2)
    enter(world, ["m3", "m2"], [27, 4], day=3)
    response = browser().get(reverse("player-page", args=["m2"]))
    page = text(response)
    assert "<h1>m2</h1>" in page
    assert "North-Pier" in page
    assert response.context["results"] == [
        {"game": "Secret Santa", "games": 2, "wins": 1, "average": 14.5}
    ]
    assert page.count("See the result") == 2
    assert browser().get(reverse("player-page", args=["nobody"])).status_code == 404


def test_a_season_name_is_text_in_the_chart_not_plotly_markup(world):
    """Plotly reads labels as HTML-like markup: a season named like a link must stay text."""
    import json
    import re

    hostile = "<a href=//evil>x</a>"
    world.season.name = hostile
    world.season.save()
    names = [u.username for u in world.members]
    enter(world, names[:3], [25, 10, 5], day=2)
    player = Player.objects.get(name="m1")
    player.display_name = "Bea <b>&</b>"
    player.save()
    page = browser().get(league_url(world)).content.decode()
    found = re.search(
        r'<script id="standings-chart-figure" type="application/json">(.*?)</script>', page
    )
    assert found is not None
    figure = json.loads(found.group(1))
    title = figure["layout"]["title"]["text"]
    assert title == "Points through &lt;a href=//evil&gt;x&lt;/a&gt;"
    bea = next(trace for trace in figure["data"] if "Bea" in trace["name"])
    assert bea["name"] == "Bea &lt;b&gt;&amp;&lt;/b&gt;"
    # Only the chart kit's own line breaks: hover sentences are wrapped to fit a phone.
    assert all("<" not in text.replace("<br>", "") for text in bea["hovertext"])
    # Everywhere in the figure: no markup from people's text.
    assert "<a href" not in found.group(1).replace("\\u003C", "<")
