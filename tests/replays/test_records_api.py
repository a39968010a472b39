"""The records API: upload, export, refusal with the step, and nothing stored on error."""

from __future__ import annotations

import json

import pytest

from games.registry import engine_slugs, get_engine
from replays.models import Announcement, Player, Record, Seat
from tests.conftest import make_illegal

pytestmark = pytest.mark.django_db
GAMES = engine_slugs()


def counts() -> tuple[int, int, int, int]:
    return (
        Record.objects.count(),
        Player.objects.count(),
        Seat.objects.count(),
        Announcement.objects.count(),
    )


def post(api, document):
    return api.post("/api/records/", document, format="json")


@pytest.mark.parametrize("game", GAMES)
def test_upload_export_upload_again_gives_same_record(api, make_document, game):
    document = make_document(game, seed=7)
    created = post(api, document)
    assert created.status_code == 201, created.json()
    body = created.json()
    record_id = body["id"]
    assert created["Location"] == f"/api/records/{record_id}/"

    exported = api.get(f"/api/records/{record_id}/").json()
    assert exported["events"] == document["events"]
    assert exported["players"] == document["players"]
    assert exported["result"] == body["result"]
    assert exported["format"] == "giftlog/1"

    again = post(api, exported)
    assert again.status_code == 200
    assert again.json()["id"] == record_id
    assert again.json()["created"] is False
    assert Record.objects.count() == 1


@pytest.mark.parametrize("game", GAMES)
def test_exported_record_reimports_into_empty_store_with_same_result(api, make_document, game):
    first = post(api, make_document(game, seed=3)).json()
    exported = api.get(f"/api/records/{first['id']}/").json()
    Record.objects.all().delete()

    again = post(api, exported)
    assert again.status_code == 201
    assert again.json()["result"] == first["result"]
    assert api.get(f"/api/records/{again.json()['id']}/").json() == exported


@pytest.mark.parametrize("game", GAMES)
def test_illegal_event_is_refused_with_its_step_and_nothing_is_stored(api, make_document, game):
    bad, step = make_illegal(make_document(game, seed=11), seed=5)
    before = counts()
    response = post(api, bad)
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "illegal_event"
    assert body["detail"]["step"] == step
    assert body["detail"]["reason"] == "not_your_turn"
    assert body["detail"]["event"] == bad["events"][step]
    assert str(step) in body["message"]
    assert counts() == before


def test_result_given_on_upload_must_match(api, make_document):
    document = make_document(seed=2)
    engine = get_engine(document["game"])
    document["result"] = {"scores": [0] * len(document["players"])}
    response = post(api, document)
    assert response.status_code == 422
    assert response.json()["code"] == "result_mismatch"
    assert response.json()["detail"]["computed"]["scores"] != [0] * len(document["players"])
    assert Record.objects.count() == 0

    correct = post(api, {**document, "result": None}).json()["result"]
    Record.objects.all().delete()
    ok = post(api, {**document, "result": {"scores": correct["scores"]}})
    assert ok.status_code == 201
    assert engine.slug == ok.json()["game"]


def test_unfinished_game_is_refused(api, make_document):
    document = make_document(seed=4)
    document["events"] = document["events"][:-3]
    response = post(api, document)
    assert response.status_code == 422
    assert response.json()["code"] == "game_unfinished"
    assert response.json()["detail"]["step"] == len(document["events"])
    assert Record.objects.count() == 0


def test_malformed_json_is_a_400_in_the_error_shape(api):
    response = api.post("/api/records/", "{not json", content_type="application/json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "malformed_json"
    assert set(body) == {"code", "message", "detail"}


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"format": "giftlog/0"}, "invalid_envelope", "format"),
        ({"game": "chess"}, "unknown_game", "game"),
        ({"players": "ana"}, "invalid_envelope", "players"),
        ({"players": ["ana", "ana"]}, "invalid_envelope", "players"),
        ({"players": ["ana", ""]}, "invalid_envelope", "players"),
        ({"events": {"by": 0}}, "invalid_envelope", "events"),
        ({"options": []}, "invalid_envelope", "options"),
        ({"meta": {"played_at": "yesterday"}}, "invalid_envelope", "meta.played_at"),
        ({"colour": "red"}, "invalid_envelope", "colour"),
    ],
)
def test_bad_envelope_is_a_400_naming_the_field(api, make_document, change, code, field):
    document = {**make_document(seed=1), **change}
    response = post(api, document)
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert response.json()["detail"]["field"] == field
    assert counts() == (0, 0, 0, 0)


def test_player_count_outside_the_rules_is_refused(api, make_document):
    document = make_document(seed=1)
    engine = get_engine(document["game"])
    document["players"] = [f"p{i}" for i in range(engine.max_players + 1)]
    response = post(api, document)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_setup"
    assert response.json()["detail"]["reason"] == "bad_player_count"


def test_event_that_is_not_an_object_is_refused(api, make_document):
    document = make_document(seed=1)
    document["events"][3] = ["by", 0]
    response = post(api, document)
    assert response.status_code == 400
    assert response.json()["detail"]["step"] == 3


def test_list_filters_by_game_and_player(api, make_document):
    document = make_document(seed=9)
    post(api, document)
    listing = api.get("/api/records/", {"player": document["players"][0]}).json()
    assert len(listing["results"]) == 1
    assert listing["results"][0]["players"] == document["players"]
    assert api.get("/api/records/", {"player": "nobody"}).json()["results"] == []
    assert api.get("/api/records/", {"game": "gift_swap"}).json()["results"] == []


def test_unknown_record_and_unknown_path_answer_in_the_error_shape(api):
    missing = api.get("/api/records/999/")
    assert missing.status_code == 404
    assert missing.json()["code"] == "not_found"
    nowhere = api.get("/api/nowhere/")
    assert nowhere.status_code == 404
    assert nowhere.json()["code"] == "not_found"


def test_games_endpoint_lists_registered_engines(api):
    games = api.get("/api/games/").json()["games"]
    assert "secret_santa" in [g["slug"] for g in games]


def test_openapi_schema_and_offline_swagger_ui(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/records/{record_id}/steps/{step}/" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "drf_spectacular_sidecar/swagger-ui-dist" in html
    assert "cdn" not in html.lower()


def test_giftlog_json_schema_is_published(api):
    schema = api.get("/api/schema/giftlog/").json()
    assert schema["properties"]["format"]["const"] == "giftlog/1"
    assert json.dumps(schema)


def test_body_over_the_size_limit_is_a_413_in_the_error_shape(api, make_document, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = post(api, make_document(seed=1))
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    assert Record.objects.count() == 0


def test_reupload_of_a_stored_game_with_a_wrong_result_is_refused(api, make_document):
    document = make_document(seed=12)
    stored = post(api, document).json()
    wrong = {**document, "result": {"winners": [s + 1 for s in stored["result"]["winners"]]}}
    response = post(api, wrong)
    assert response.status_code == 422
    assert response.json()["code"] == "result_mismatch"
    assert post(api, {**document, "result": stored["result"]}).status_code == 200


def test_openapi_schema_validates_without_warnings(tmp_path):
    from django.core.management import call_command

    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    text = target.read_text()
    for path in ("/api/records/bulk/", "/api/live/{live_id}/events/", "/api/games/"):
        assert path in text


def test_reuploading_a_stored_game_with_other_meta_says_the_meta_was_not_applied(
    api, make_document
):
    document = make_document(seed=77)
    document["meta"] = {"club": "north-pier"}
    first = api.post("/api/records/", document, format="json").json()
    assert "note" not in first
    same = api.post("/api/records/", document, format="json").json()
    assert "note" not in same, "the same meta again: nothing to say"
    other = api.post("/api/records/", {**document, "meta": {"club": "elsewhere"}}, format="json")
    assert other.status_code == 200
    assert "meta of this upload was not applied" in other.json()["note"]
    stored = api.get(f"/api/records/{first['id']}/").json()
    assert stored["meta"] == {"club": "north-pier"}
