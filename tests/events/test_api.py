"""The events API: the same refusals as the services, in the common error shape."""

from __future__ import annotations

import pytest

from events.models import Entry, Event, TableResult
from tests.events.conftest import STARTS, user_at

pytestmark = pytest.mark.django_db


def test_make_an_event_and_read_it(ev) -> None:
    client = ev.client(ev.admin)
    made = client.post(
        "/api/events/",
        {
            "club": "north-pier",
            "name": "Spring Cup",
            "slug": "spring-cup",
            "game": "gift_trap",
            "format": "round_robin",
            "rounds": 4,
            "min_table": 3,
            "max_table": 5,
            "points_per_place": [5, 3, 1],
            "starts_at": STARTS.isoformat(),
            "location": "The Pier Café",
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    body = made.json()
    assert body["club"] == "north-pier"
    assert body["format"] == "round_robin"
    assert body["calendar"] == "/clubs/north-pier/events.ics"
    assert body["entries"] == []
    assert body["round_list"] == []
    assert "link_key" not in body  # the public link is the organiser's to share
    assert ev.client(ev.players[0]).get(f"/api/events/{body['id']}/").status_code == 200
    assert ev.client(ev.outsider).get(f"/api/events/{body['id']}/").status_code == 404
    assert ev.client().get(f"/api/events/{body['id']}/").status_code == 404


def test_refusals_have_the_common_shape(ev) -> None:
    member = ev.client(ev.players[0])
    refused = member.post(
        "/api/events/",
        {
            "club": "north-pier",
            "name": "X",
            "slug": "x",
            "game": "gift_trap",
            "starts_at": STARTS.isoformat(),
        },
        format="json",
    )
    assert refused.status_code == 403
    assert refused.json()["code"] == "not_club_admin"
    assert set(refused.json()) == {"code", "message", "detail"}
    anonymous = ev.client().post("/api/events/", {}, format="json")
    assert anonymous.status_code in (401, 403)
    seat = member.post(f"/api/events/{ev.event.pk}/rounds/", {}, format="json")
    assert seat.status_code == 403
    assert seat.json()["code"] == "not_organiser"


def test_a_round_through_the_api(ev) -> None:
    event_id = ev.event.pk
    organiser = ev.client(ev.owner)
    seated = organiser.post(f"/api/events/{event_id}/rounds/", {"seed": 11}, format="json")
    assert seated.status_code == 201, seated.json()
    rnd = seated.json()
    assert rnd["number"] == 1
    assert rnd["seed"] == 11
    assert len(rnd["tables"]) == 2
    first, second = rnd["tables"][0]["seats"][0]["entry"], rnd["tables"][1]["seats"][0]["entry"]
    swapped = organiser.post(
        f"/api/events/{event_id}/rounds/1/swap/",
        {"first": first, "second": second},
        format="json",
    )
    assert swapped.status_code == 200, swapped.json()
    assert swapped.json()["change"] == 0
    assert swapped.json()["round"]["tables"][0]["seats"][0]["entry"] == second

    table = ev.event.round_set.get().tables.get(number=1)
    url = f"/api/events/{event_id}/rounds/1/tables/1/"
    sender = ev.client(user_at(table, 0))
    both = sender.post(url + "result/", {"scores": [1, 2, 3, 4], "document": {}}, format="json")
    assert both.status_code == 400
    sent = sender.post(url + "result/", {"scores": [7, 5, 3, 1]}, format="json")
    assert sent.status_code == 201, sent.json()
    assert sent.json()["status"] == "pending"
    assert sent.json()["ranks"] == [1, 2, 3, 4]
    own = sender.post(url + "confirm/", format="json")
    assert own.status_code == 403
    assert own.json()["code"] == "own_result"
    stranger = ev.client(ev.outsider).post(url + "confirm/", format="json")
    assert stranger.status_code == 404  # a club event is not shown to outsiders
    confirmed = ev.client(user_at(table, 1)).post(url + "confirm/", format="json")
    assert confirmed.status_code == 200
    assert confirmed.json()["status"] == "confirmed"
    assert TableResult.objects.get(table=table).status == "confirmed"

    unfinished = organiser.post(f"/api/events/{event_id}/rounds/1/finish/", format="json")
    assert unfinished.status_code == 409
    assert unfinished.json()["detail"]["tables"] == [2]

    standings = organiser.get(f"/api/events/{event_id}/standings/").json()
    assert standings["after_round"] == 1
    assert standings["pending_tables"] == 1
    top = standings["rows"][0]
    assert top["player"] == table.seats.get(seat=0).entry.player.name
    assert top["points"] == 3
    assert top["explanation"]
    bad = organiser.get(f"/api/events/{event_id}/standings/?after_round=x")
    assert bad.status_code == 400


def test_entries_check_in_and_drop(ev) -> None:
    organiser = ev.client(ev.owner)
    event_id = ev.event.pk
    made = organiser.post(
        f"/api/events/{event_id}/entries/", {"handle": "Guest Gus"}, format="json"
    )
    assert made.status_code == 201
    assert made.json()["checked_in"] is False
    entry_id = made.json()["id"]
    checked = organiser.post(
        f"/api/events/{event_id}/entries/{entry_id}/check-in/",
        {"checked_in": True},
        format="json",
    )
    assert checked.json()["checked_in"] is True
    again = organiser.post(
        f"/api/events/{event_id}/entries/", {"handle": "Guest Gus"}, format="json"
    )
    assert again.status_code == 409
    dropped = organiser.post(f"/api/events/{event_id}/entries/{entry_id}/drop/", format="json")
    assert dropped.json()["dropped_after"] == 0
    assert organiser.delete(f"/api/events/{event_id}/entries/{entry_id}/").status_code == 204
    assert not Entry.objects.filter(pk=entry_id).exists()


def test_open_events_are_listed_for_anyone(ev) -> None:
    client = ev.client(ev.outsider)
    made = client.post(
        "/api/events/",
        {
            "name": "Open night",
            "slug": "open",
            "game": "gift_swap",
            "starts_at": STARTS.isoformat(),
        },
        format="json",
    )
    assert made.status_code == 201
    listed = [e["name"] for e in ev.client().get("/api/events/").json()]
    assert listed == ["Open night"]  # the club's event is not shown to someone outside it
    mine = [e["name"] for e in ev.client(ev.players[0]).get("/api/events/").json()]
    assert sorted(mine) == ["Open night", "Winter Night"]
    assert ev.client(ev.outsider).delete(f"/api/events/{made.json()['id']}/").status_code == 204
    assert not Event.objects.filter(name="Open night").exists()


def test_schema_documents_the_events_api(ev) -> None:
    schema = ev.client().get("/api/schema/", {"format": "json"}).json()
    assert "/api/events/{event_id}/rounds/{number}/tables/{table}/result/" in schema["paths"]
    assert "EventStandingRow" in schema["components"]["schemas"]


def test_rising_points_per_place_are_a_422_naming_the_field(ev) -> None:
    body = {
        "club": ev.event.club.slug, "name": "Odd night", "slug": "odd-night",
        "game": "gift_gift_gone", "starts_at": "2026-02-01T19:00:00Z",
        "points_per_place": [1, 3, 0],
    }  # fmt: skip
    response = ev.client(ev.owner).post("/api/events/", body, format="json")
    assert response.status_code == 422, response.json()
    assert response.json()["code"] == "points_rising"
    assert response.json()["detail"]["field"] == "points_per_place"
