"""Player names from uploads: look-alikes of a name or of an existing player are refused."""

from __future__ import annotations

import json

import pytest

from core.handles import handle_key, handle_problem
from replays.models import Player, Record

pytestmark = pytest.mark.django_db

CYRILLIC_A = "\N{CYRILLIC SMALL LETTER A}"
CYRILLIC_ACE = "\N{CYRILLIC SMALL LETTER A}\N{CYRILLIC SMALL LETTER ES}\N{CYRILLIC SMALL LETTER IE}"
FULLWIDTH_ANA = "\N{FULLWIDTH LATIN SMALL LETTER A}na"


def test_handles_compare_as_people_read_them():
    assert handle_key("ana") == handle_key("ANA") == handle_key(FULLWIDTH_ANA)
    assert handle_key(f"{CYRILLIC_A}na") == "ana"
    assert handle_key("ana²") == "ana2"
    assert handle_problem("ana") is None
    assert handle_problem("Ana Lima") is None
    assert handle_problem("\N{CYRILLIC CAPITAL LETTER VE}\N{CYRILLIC SMALL LETTER IE}") is None
    for name in (f"{CYRILLIC_A}na", FULLWIDTH_ANA, "ana²", "\N{LATIN SMALL LIGATURE FI}na"):
        assert handle_problem(name), name


def seated(document: dict, names: list[str]) -> dict:
    return {**document, "players": names[: len(document["players"])]}


@pytest.mark.parametrize("name", [f"{CYRILLIC_A}na", FULLWIDTH_ANA, "ana²"])
def test_an_upload_with_a_look_alike_name_is_refused_beside_ana(api, make_document, name):
    document = make_document(seed=2, players=3)
    stored = api.post("/api/records/", seated(document, ["ana", "bo", "cy"]), format="json")
    assert stored.status_code == 201
    refused = api.post(
        "/api/records/", seated(make_document(seed=5, players=3), [name, "bo", "cy"]), format="json"
    )
    assert refused.status_code == 400
    body = refused.json()
    assert body["code"] == "invalid_envelope"
    assert body["detail"]["field"] == "players"
    assert body["detail"]["seat"] == 0
    assert Player.objects.filter(name=name).count() == 0
    assert Record.objects.count() == 1


def test_a_whole_script_look_alike_of_an_existing_player_is_refused(api, make_document):
    first = seated(make_document(seed=2, players=3), ["ace", "bo", "cy"])
    assert api.post("/api/records/", first, format="json").status_code == 201
    second = seated(make_document(seed=4, players=3), ["bo", CYRILLIC_ACE, "cy"])
    refused = api.post("/api/records/", second, format="json")
    assert refused.status_code == 400
    assert "“ace”" in refused.json()["message"]
    # With no "ace" stored, the same Cyrillic name is a name like any other.
    Player.objects.filter(name="ace").update(name="ace-old")
    assert api.post("/api/records/", second, format="json").status_code == 201


def test_a_case_difference_is_still_the_same_search_and_allowed(api, make_document):
    first = seated(make_document(seed=2, players=3), ["ana", "bo", "cy"])
    assert api.post("/api/records/", first, format="json").status_code == 201
    second = seated(make_document(seed=4, players=3), ["Ana", "bo", "cy"])
    assert api.post("/api/records/", second, format="json").status_code == 201


def test_stored_names_keep_working(api, make_document):
    # A player stored before the rule (as by an older version) is still accepted.
    Player.objects.create(name="ana²")
    document = seated(make_document(seed=2, players=3), ["ana²", "bo", "cy"])
    assert api.post("/api/records/", document, format="json").status_code == 201


def test_bulk_refuses_only_the_line_with_a_look_alike(api, make_document):
    lines = [
        seated(make_document(seed=2, players=3), ["ana", "bo", "cy"]),
        seated(make_document(seed=3, players=3), [f"{CYRILLIC_A}na", "bo", "cy"]),
        seated(make_document(seed=4, players=3), ["dee", "bo", "cy"]),
    ]
    body = "\n".join(json.dumps(line) for line in lines)
    response = api.post(
        "/api/records/bulk/", body, content_type="application/x-ndjson"
    )
    assert response.status_code == 200, response.content
    outcomes = response.json()["items"]
    assert [o["status"] for o in outcomes] == ["stored", "refused", "stored"]
    assert outcomes[1]["error"]["code"] == "invalid_envelope"
    assert not Player.objects.filter(name=f"{CYRILLIC_A}na").exists()


def test_a_live_game_refuses_a_look_alike_when_it_opens(api):
    body = {"game": "gift_swap", "players": ["ana", FULLWIDTH_ANA, "cy"]}
    refused = api.post("/api/live/", body, format="json")
    assert refused.status_code == 400
    assert refused.json()["detail"]["seat"] == 1
