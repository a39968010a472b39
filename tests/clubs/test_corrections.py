"""Results a club can trust: correcting a table game, impossible and unusual scores.

The submitter corrects a result-only game for the correction window, a club admin
at any time; everyone else is told why not and who may. Every correction goes
through ``clubs.services.result_correct``: audited, standings and ratings
recounted. Scores no game ends with are refused naming the seats (from 1, by name
on the form); unusual ones are stored only once confirmed.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs import services
from clubs.models import AuditLog, SeasonEntry
from replays.models import Record
from tests.clubs.conftest import ClubWorld, result_only

pytestmark = pytest.mark.django_db


def browser(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def text(response) -> str:
    return response.content.decode()


def league_url(world: ClubWorld) -> str:
    return reverse("league-page", args=[world.club.slug, world.league.slug])


def record_url(world: ClubWorld) -> str:
    return reverse("table-game", args=[world.club.slug, world.league.slug])


def correct_url(world: ClubWorld, entry: SeasonEntry) -> str:
    return reverse("entry-correct", args=[world.club.slug, world.league.slug, entry.pk])


def enter(world: ClubWorld, user, names: list[str], scores: list[int]) -> SeasonEntry:
    entry, _ = services.season_entry_submit_document(
        season=world.season, document=result_only(names, scores), user=user
    )
    return entry


def close_the_window(entry: SeasonEntry, settings) -> None:
    late = timezone.now() - settings.RESULT_CORRECTION_WINDOW - dt.timedelta(minutes=1)
    Record.objects.filter(pk=entry.record_id).update(created_at=late)


def table_form(*rows: tuple[str, str, str], played: str = "2026-01-10T20:15") -> dict[str, str]:
    data = {"played_at": played, "duration_minutes": ""}
    for seat, (player, guest, score) in enumerate(rows):
        data.update({f"player_{seat}": player, f"guest_{seat}": guest, f"score_{seat}": score})
    return data


# --- the correction page -----------------------------------------------------------------


def test_the_submitter_corrects_a_typo_from_the_league_page(
    world, django_capture_on_commit_callbacks
):
    submitter = world.members[4]
    with django_capture_on_commit_callbacks(execute=True):
        entry = enter(world, submitter, ["m2", "m3", "m4"], [25, 10, 5])
    client = browser(submitter)
    league_page = text(client.get(league_url(world)))
    assert correct_url(world, entry) in league_page
    assert "Correct the scores" in league_page
    page = client.get(correct_url(world, entry))
    assert page.status_code == 200
    assert "m2 (seat 1)" in text(page)
    assert 'value="25"' in text(page)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            correct_url(world, entry),
            {
                "score_0": "12",
                "score_1": "26",
                "score_2": "5",
                "reason": "typed into the wrong row",
            },
        )
    assert response.status_code == 302, text(response)
    assert response["Location"] == f"{league_url(world)}?season={world.season.pk}"
    record = Record.objects.get(pk=entry.record_id)
    assert record.result["scores"] == [12, 26, 5]
    assert record.result["ranks"] == [2, 1, 3]
    log = AuditLog.objects.get(action="result.correct")
    assert (log.actor, log.club) == (submitter, world.club)
    assert log.before["scores"] == [25, 10, 5]
    assert log.after["scores"] == [12, 26, 5]
    assert log.reason == "typed into the wrong row"
    rows = world.client().get(f"/api/seasons/{world.season.pk}/standings/").json()["rows"]
    assert rows[0]["player"] == "m3"
    from analytics.models import PlayerResult

    assert sorted(PlayerResult.objects.filter(record=record).values_list("seat", "score")) == [
        (0, 12),
        (1, 26),
        (2, 5),
    ]
    after = text(client.get(response["Location"]))
    assert "is corrected" in after
    assert "Secret Santa of m2, m3 and m4" in after


def test_after_the_window_the_submitter_is_told_why_and_who_may(world, settings):
    submitter = world.members[4]
    entry = enter(world, submitter, ["m2", "m3", "m4"], [25, 10, 5])
    close_the_window(entry, settings)
    client = browser(submitter)
    page = text(client.get(correct_url(world, entry)))
    assert "24 hours after entering it" in page
    assert "Admins of North-Pier (m0, m1) may correct it" in page
    assert 'name="score_0"' not in page
    refused = client.post(
        correct_url(world, entry), {"score_0": "1", "score_1": "2", "score_2": "30"}
    )
    assert refused.status_code == 403
    assert Record.objects.get(pk=entry.record_id).result["scores"] == [25, 10, 5]
    assert not AuditLog.objects.filter(action="result.correct").exists()


def test_another_member_may_not_correct_and_sees_no_button(world):
    entry = enter(world, world.members[4], ["m2", "m3", "m4"], [25, 10, 5])
    other = browser(world.members[5])
    assert correct_url(world, entry) not in text(other.get(league_url(world)))
    page = text(other.get(correct_url(world, entry)))
    assert "Only the person who entered this result (m4) may correct it" in page
    refused = other.post(
        correct_url(world, entry), {"score_0": "1", "score_1": "2", "score_2": "30"}
    )
    assert refused.status_code == 403


def test_a_club_admin_corrects_after_the_window(world, settings):
    entry = enter(world, world.members[4], ["m2", "m3", "m4"], [25, 10, 5])
    close_the_window(entry, settings)
    admin = browser(world.admin)
    assert correct_url(world, entry) in text(admin.get(league_url(world)))
    response = admin.post(
        correct_url(world, entry), {"score_0": "25", "score_1": "10", "score_2": "6"}
    )
    assert response.status_code == 302, text(response)
    assert Record.objects.get(pk=entry.record_id).result["scores"] == [25, 10, 6]
    assert AuditLog.objects.get(action="result.correct").actor == world.admin


def test_an_admin_of_another_club_may_not_correct(world, settings):
    entry = enter(world, world.members[4], ["m2", "m3", "m4"], [25, 10, 5])
    close_the_window(entry, settings)
    response = world.client(world.other_admin).patch(
        f"/api/records/{entry.record_id}/result/", {"scores": [25, 10, 6]}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["code"] == "not_submitter"


def test_the_api_lets_club_admins_correct_after_the_window_and_names_them(world, settings):
    entry = enter(world, world.members[4], ["m2", "m3", "m4"], [25, 10, 5])
    close_the_window(entry, settings)
    url = f"/api/records/{entry.record_id}/result/"
    late = world.client(world.members[4]).patch(url, {"scores": [25, 10, 6]}, format="json")
    assert late.status_code == 403
    body = late.json()
    assert body["code"] == "correction_window_closed"
    assert body["detail"]["admins"] == ["m0", "m1"]
    assert "m0, m1" in body["message"]
    fixed = world.client(world.admin).patch(url, {"scores": [25, 10, 6]}, format="json")
    assert fixed.status_code == 200, fixed.json()
    assert fixed.json()["result"]["scores"] == [25, 10, 6]


def test_a_correction_is_checked_by_the_rules_and_confirmed_when_unusual(world):
    entry = enter(world, world.members[4], ["m2", "m3", "m4"], [25, 10, 5])
    client = browser(world.members[4])
    tie = client.post(correct_url(world, entry), {"score_0": "25", "score_1": "25", "score_2": "5"})
    assert tie.status_code == 422
    assert "m2 and m3 share the highest total (25)" in text(tie)
    unusual = {"score_0": "250", "score_1": "10", "score_2": "5"}
    asked = client.post(correct_url(world, entry), unusual)
    assert asked.status_code == 422
    page = text(asked)
    assert "m2&#x27;s 250 looks unusual" in page
    assert 'name="confirm_unusual" value="250,10,5"' in page
    assert Record.objects.get(pk=entry.record_id).result["scores"] == [25, 10, 5]
    confirmed = client.post(correct_url(world, entry), {**unusual, "confirm_unusual": "250,10,5"})
    assert confirmed.status_code == 302
    assert Record.objects.get(pk=entry.record_id).result["scores"] == [250, 10, 5]


# --- the table-game form: impossible and unusual results --------------------------------


def test_a_tie_for_first_in_secret_santa_is_refused_naming_the_players(world):
    response = browser(world.members[3]).post(
        record_url(world), table_form(("m3", "", "31"), ("m4", "", "31"), ("m5", "", "7"))
    )
    assert response.status_code == 422
    page = text(response)
    assert "m3 and m4 share the highest total (31)" in page
    assert "the rounds go on while the top is tied" in page
    assert not Record.objects.exists()


def test_an_unusual_score_is_stored_only_once_confirmed(world):
    client = browser(world.members[3])
    rows = (("m3", "", "310"), ("m4", "", "12"), ("m5", "", "7"))
    asked = client.post(record_url(world), table_form(*rows))
    assert asked.status_code == 422
    page = text(asked)
    assert "m3&#x27;s 310 looks unusual" in page
    assert "from 0 to 100" in page
    assert not Record.objects.exists()
    # The confirmation is for exactly these scores: a changed score asks again.
    changed = table_form(("m3", "", "320"), ("m4", "", "12"), ("m5", "", "7"))
    again = client.post(record_url(world), {**changed, "confirm_unusual": "310,12,7"})
    assert again.status_code == 422
    assert not Record.objects.exists()
    stored = client.post(record_url(world), {**table_form(*rows), "confirm_unusual": "310,12,7"})
    assert stored.status_code == 302
    assert Record.objects.get().result["scores"] == [310, 12, 7]


def test_the_entries_api_wants_an_explicit_confirmation_of_unusual_scores(world):
    client = world.client(world.members[3])
    url = f"/api/seasons/{world.season.pk}/entries/"
    document = result_only(["m3", "m4", "m5"], [310, 12, 7])
    refused = client.post(url, {"document": document}, format="json")
    assert refused.status_code == 422
    body = refused.json()
    assert body["code"] == "result_unusual"
    assert body["detail"]["unusual"] == [{"seat": 0, "score": 310}]
    assert body["detail"]["usual"] == [0, 100]
    assert body["detail"]["confirm_field"] == "confirm_unusual"
    assert "seat 1 scored 310" in body["message"]
    assert not Record.objects.exists()
    stored = client.post(url, {"document": document, "confirm_unusual": True}, format="json")
    assert stored.status_code == 201, stored.json()


def test_the_records_api_wants_confirm_unusual_for_a_result_only_upload(world):
    client = world.client(world.members[3])
    document = result_only(["m3", "m4", "m5"], [310, 12, 7])
    refused = client.post("/api/records/", document, format="json")
    assert refused.status_code == 422
    assert refused.json()["code"] == "result_unusual"
    bad = client.post("/api/records/?confirm_unusual=perhaps", document, format="json")
    assert bad.status_code == 400
    assert bad.json()["detail"]["field"] == "confirm_unusual"
    stored = client.post("/api/records/?confirm_unusual=true", document, format="json")
    assert stored.status_code == 201, stored.json()


# --- forms that speak ----------------------------------------------------------------------


def test_form_errors_are_summarised_at_the_top_with_links_to_their_fields(world):
    data = table_form(("m3", "", "26"), ("m4", "", "3"), played="2026-08-01T20:00")
    response = browser(world.members[3]).post(record_url(world), data)
    page = text(response)
    summary = page.index("data-error-summary")
    assert summary < page.index('name="player_0"'), "the summary comes before the fields"
    assert '<a href="#id_played_at">Played</a>: No season of Santa League covers' in page
    assert page.count("No season of Santa League covers") == 2, "at the top and beside the field"
    assert "core/forms.js" in page


def test_one_filled_row_is_said_in_the_singular(world):
    response = browser(world.members[3]).post(record_url(world), table_form(("m3", "", "26")))
    assert "1 is filled in" in text(response)
    assert "1 are filled in" not in text(response)


def test_the_void_message_names_the_game_not_a_record_id(world):
    entry = enter(world, world.admin, ["m2", "m3", "m4"], [25, 10, 5])
    void_url = reverse("entry-void", args=[world.club.slug, world.league.slug, entry.pk])
    response = browser(world.admin).post(void_url, {"reason": "short deck"}, follow=True)
    page = text(response)
    assert "The game of Secret Santa of m2, m3 and m4 on 6 Jan 2026 is voided: short deck" in page
    assert f"Game {entry.record_id} is voided" not in page


def test_a_refusal_naming_a_seat_numbers_it_from_1(world):
    client = world.client(world.members[3])
    url = f"/api/seasons/{world.season.pk}/entries/"
    stranger = result_only(["m3", "walk-in", "m5"], [25, 10, 5])
    response = client.post(url, {"document": stranger}, format="json")
    assert response.status_code == 422
    assert response.json()["message"].startswith("Seat 2 (walk-in) is not a member")
    assert response.json()["detail"]["seat"] == 1
