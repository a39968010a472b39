"""Who submitted what, on every upload path; and uploads without an account, on and off."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import override_settings
from rest_framework.test import APIClient

from replays.models import Record

pytestmark = pytest.mark.django_db(transaction=True)


def play_to_the_end(opened: dict) -> dict:
    """Seat 0 is ours (the others are bots): play its first legal event until the end.

    The seat token is the credential of live play (one ``Authorization`` header:
    ``Seat``, not the account's ``Token``); the account matters when opening.
    """
    client = APIClient()
    live_id, token = opened["id"], opened["seat_tokens"][0]
    seat = {"HTTP_AUTHORIZATION": f"Seat {token}"}
    for _ in range(5000):
        view = client.get(f"/api/live/{live_id}/", **seat).json()
        if view["status"] == "finished":
            return view
        event = view["legal_events"][0]
        response = client.post(
            f"/api/live/{live_id}/events/",
            {"step": view["step"], "event": event},
            format="json",
            **seat,
        )
        assert response.status_code == 201, response.json()
    raise AssertionError("the game did not end")


def open_against_bots(client: APIClient, path: str = "/api/live/", body: dict | None = None):
    body = body or {
        "game": "secret_santa",
        "players": ["ana", "bot-1", "bot-2"],
        "bots": {"1": "random", "2": "random"},
        "seed": 4,
    }
    response = client.post(path, body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_single_upload_records_its_submitter(token_api, user, make_document):
    response = token_api.post("/api/records/", make_document(seed=11), format="json")
    assert response.status_code == 201
    assert Record.objects.get(pk=response.json()["id"]).submitted_by == user
    row = token_api.get("/api/records/").json()["results"][0]
    assert row["submitted_by"] == "ana"


def test_an_anonymous_upload_has_no_submitter(api, make_document):
    response = api.post("/api/records/", make_document(seed=12), format="json")
    assert Record.objects.get(pk=response.json()["id"]).submitted_by is None
    assert api.get("/api/records/").json()["results"][0]["submitted_by"] is None


def test_uploading_a_stored_game_again_keeps_the_first_submitter(
    api, token_api, user, make_document
):
    document = make_document(seed=13)
    api.post("/api/records/", document, format="json")
    assert token_api.post("/api/records/", document, format="json").status_code == 200
    assert Record.objects.get().submitted_by is None


def test_bulk_upload_records_its_submitter(token_api, user, make_document):
    body = "\n".join(json.dumps(make_document(seed=s)) for s in (21, 22)) + "\n"
    response = token_api.post("/api/records/bulk/", body, content_type="application/x-ndjson")
    assert response.json()["stored"] == 2
    assert set(Record.objects.values_list("submitted_by", flat=True)) == {user.pk}


def test_import_records_has_no_submitter(tmp_path, make_document):
    path = tmp_path / "one.json"
    path.write_text(json.dumps(make_document(seed=23)))
    call_command("import_records", str(path), stdout=StringIO())
    assert Record.objects.get().submitted_by is None


def test_a_live_game_is_submitted_by_whoever_opened_it(token_api, user):
    finished = play_to_the_end(open_against_bots(token_api))
    assert Record.objects.get(pk=finished["record"]).submitted_by == user


def test_an_anonymous_live_game_has_no_submitter(api):
    finished = play_to_the_end(open_against_bots(api))
    assert Record.objects.get(pk=finished["record"]).submitted_by is None


def test_a_fork_is_submitted_by_whoever_forked(api, token_api, user, make_document):
    stored = api.post("/api/records/", make_document(seed=24, players=3), format="json").json()
    body = {"step": 3, "seats": ["person", "random", "random"], "seed": 2}
    opened = open_against_bots(token_api, f"/api/records/{stored['id']}/fork/", body)
    finished = play_to_the_end(opened)
    assert Record.objects.get(pk=finished["record"]).submitted_by == user


def test_the_replay_page_says_who_submitted(client, token_api, make_document):
    record_id = token_api.post("/api/records/", make_document(seed=25), format="json").json()["id"]
    page = client.get(f"/records/{record_id}/")
    assert b"submitted by ana" in page.content


@override_settings(ALLOW_ANONYMOUS_UPLOADS=False)
def test_anonymous_uploads_refused_when_off(api, make_document):
    stored = Record.objects.count()
    bulk = json.dumps(make_document(seed=31)) + "\n"
    live = {"game": "secret_santa", "players": ["a", "b", "c"]}
    for path, body, kind in [
        ("/api/records/", make_document(seed=30), "json"),
        ("/api/records/bulk/", bulk, None),
        ("/api/live/", live, "json"),
        ("/api/records/1/fork/", {"step": 0}, "json"),
    ]:
        if kind:
            response = api.post(path, body, format=kind)
        else:
            response = api.post(path, body, content_type="application/x-ndjson")
        assert response.status_code == 401, (path, response.json())
        error = response.json()
        assert error["code"] == "authentication_required"
        assert set(error) == {"code", "message", "detail"}
        assert response["WWW-Authenticate"].startswith("Token")
    assert Record.objects.count() == stored
    assert api.get("/api/records/").status_code == 200  # reads stay open


@override_settings(ALLOW_ANONYMOUS_UPLOADS=False)
def test_accounts_may_upload_when_anonymous_is_off(token_api, make_document):
    assert token_api.post("/api/records/", make_document(seed=32), format="json").status_code == 201
    play_to_the_end(open_against_bots(token_api))


@override_settings(ALLOW_ANONYMOUS_UPLOADS=True)
def test_anonymous_uploads_allowed_when_on(api, make_document):
    assert api.post("/api/records/", make_document(seed=33), format="json").status_code == 201
