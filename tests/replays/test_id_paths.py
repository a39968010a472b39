"""A number too long to be an id names nothing: 404 at once, nothing looked up.

Django's ``<int:...>`` matched any length, so a record id of 300 digits was looked up,
and the cache keys built from it ran past 250 characters (``CacheKeyWarning``, under the
API fuzzer). The record routes take ``<id:...>`` (``core.converters``): 18 digits at most.
"""

from __future__ import annotations

import warnings

import pytest
from django.core.cache import CacheKeyWarning
from django.urls import resolve

from core.converters import ID_DIGITS

pytestmark = pytest.mark.django_db

HUGE = "9" * 300
LONGEST = "9" * ID_DIGITS

PAGES = [
    "/records/{id}/",
    "/records/{id}/embed/",
    "/records/{id}/steps/1/table/",
    "/records/1/steps/{id}/table/",
    "/live/{id}/",
]
API = [
    "/api/records/{id}/",
    "/api/records/{id}/steps/1/",
    "/api/records/1/steps/{id}/",
    "/api/records/{id}/timeline/",
    "/api/live/{id}/",
    "/api/imports/{id}/",
]


@pytest.fixture
def no_long_keys():
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheKeyWarning)
        yield


@pytest.mark.parametrize("template", PAGES + API)
def test_a_number_too_long_for_an_id_is_a_404_without_a_lookup(client, no_long_keys, template):
    response = client.get(template.format(id=HUGE))
    assert response.status_code == 404
    if template.startswith("/api/"):
        assert response.json()["code"] == "not_found"


@pytest.mark.parametrize("template", PAGES + API)
def test_the_longest_id_is_still_looked_up(template):
    path = template.format(id=LONGEST)
    assert resolve(path).url_name not in (None, "")
    assert resolve(path).func.__name__ != "api_not_found"


def test_the_api_schema_says_an_id_is_an_integer(client):
    schema = client.get("/api/schema/?format=json").json()
    parameters = schema["paths"]["/api/records/{record_id}/steps/{step}/"]["get"]["parameters"]
    by_name = {p["name"]: p["schema"] for p in parameters if p["in"] == "path"}
    assert by_name["record_id"] == {"type": "integer", "minimum": 0, "maximum": 10**ID_DIGITS - 1}
    assert by_name["step"]["type"] == "integer"
