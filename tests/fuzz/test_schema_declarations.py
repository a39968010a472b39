"""The disagreements schemathesis found between the schema and the server, one by one.

The full run (test_api_schemathesis.py) needs PostgreSQL; these hold the schema's
declarations, and the two server refusals that came with them, on every database.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from drf_spectacular.generators import SchemaGenerator

from games.registry import engine_slugs

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def parameter(schema: dict, path: str, name: str) -> dict:
    found = [p for p in schema["paths"][path]["get"]["parameters"] if p["name"] == name]
    assert found, f"{path} has no parameter {name}"
    return found[0]["schema"]


def integer_branch(declared: dict) -> dict:
    return next(s for s in declared.get("anyOf", [declared]) if s.get("type") == "integer")


def request_schema(schema: dict, path: str, method: str = "post") -> dict:
    body = schema["paths"][path][method]["requestBody"]
    assert body["required"] is True
    declared = body["content"]["application/json"]["schema"]
    if "$ref" in declared:
        declared = schema["components"]["schemas"][declared["$ref"].rsplit("/", 1)[-1]]
    return declared


@pytest.mark.parametrize(
    ("path", "name", "low", "high"),
    [
        ("/api/records/", "players", 1, 100),
        ("/api/records/", "page_size", 1, 200),
        ("/api/records/export/", "players", 1, 100),
        ("/api/leaderboards/", "limit", 1, 200),
        ("/api/leaderboards/", "offset", 0, 10**9),
        ("/api/games/{slug}/statistics/", "players", 1, 12),
    ],
)
def test_integer_parameters_declare_the_range_the_server_takes(schema, path, name, low, high):
    declared = integer_branch(parameter(schema, path, name))
    assert (declared["minimum"], declared["maximum"]) == (low, high)


def test_a_game_is_one_the_server_knows(schema):
    assert "" not in parameter(schema, "/api/head-to-head/", "game")["enum"]
    assert "Gift Swap" in parameter(schema, "/api/records/", "game")["enum"]
    simulation = request_schema(schema, "/api/simulations/")
    assert simulation["properties"]["game"]["enum"] == engine_slugs()


def test_bodies_refusing_unknown_fields_say_so(schema):
    assert request_schema(schema, "/api/records/")["additionalProperties"] is False
    assert request_schema(schema, "/api/live/")["additionalProperties"] is False


def test_the_bulk_body_is_an_array_of_objects_or_one_object(schema):
    body = schema["paths"]["/api/records/bulk/"]["post"]["requestBody"]
    branches = body["content"]["application/json"]["schema"]["anyOf"]
    array = next(b for b in branches if b["type"] == "array")
    assert array["items"]["type"] == "object"
    assert array["minItems"] == 1
    assert body["content"]["application/x-ndjson"]["schema"]["pattern"] == r"\S"


def test_a_patch_body_keeps_its_required_fields(schema):
    role = request_schema(schema, "/api/clubs/{slug}/members/{username}/", "patch")
    assert role["required"] == ["role"]


def test_text_fields_refused_blank_say_so(schema):
    join = request_schema(schema, "/api/clubs/join/")["properties"]["key"]
    assert join["minLength"] == 1
    assert "x00" in join["pattern"]


def test_a_number_is_not_a_club_name(api):
    user = get_user_model().objects.create_user(username="ana", password="pw-ana-123456")
    api.force_authenticate(user)
    answer = api.post("/api/clubs/", {"name": 0, "slug": "owls"}, format="json")
    assert answer.status_code == 400
    assert "name" in answer.json()["detail"]


def test_simulation_options_must_be_an_object(api):
    user = get_user_model().objects.create_user(username="ana", password="pw-ana-123456")
    api.force_authenticate(user)
    body = {"game": "secret_santa", "players": 3, "games": 1, "options": False}
    answer = api.post("/api/simulations/", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "bad_options"
