"""Bad input of every kind: a structured 4xx, never a 500, and nothing stored.

Hypothesis mutates real simulated records of every game (envelope fields,
options, events) and posts them through the API.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.registry import all_engines, engine_slugs
from replays.models import Announcement, Player, Record
from replays.simulation import simulated_document

pytestmark = pytest.mark.django_db

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.lists(st.integers(-3, 30), max_size=4),
    st.dictionaries(st.text(max_size=5), st.integers(-3, 30), max_size=3),
    st.just([[[[]]]]),
)
# Option names the engines know, plus one no engine knows.
OPTION_NAMES = [*sorted({o.name for engine in all_engines() for o in engine.options}), "nonsense"]
DOCUMENTS: dict[str, dict] = {}


def document_for(game: str) -> dict:
    if game not in DOCUMENTS:
        DOCUMENTS[game] = simulated_document(game, num_players=3, rng=random.Random(99))
    return copy.deepcopy(DOCUMENTS[game])


@st.composite
def mutated_documents(draw):
    document = document_for(draw(st.sampled_from(engine_slugs())))
    where = draw(st.sampled_from(["envelope", "option", "event_field", "event_drop", "events"]))
    if where == "envelope":
        key = draw(
            st.sampled_from(["format", "game", "players", "options", "meta", "events", "result"])
        )
        document[key] = draw(JUNK)
    elif where == "option":
        document["options"] = {draw(st.sampled_from(OPTION_NAMES)): draw(JUNK)}
    elif where in ("event_field", "event_drop"):
        step = draw(st.integers(0, len(document["events"]) - 1))
        event = document["events"][step]
        key = draw(st.sampled_from([*sorted(event), "extra"]))
        if where == "event_drop":
            event.pop(key, None)
        else:
            event[key] = draw(JUNK)
    else:
        cut = draw(st.integers(0, len(document["events"])))
        document["events"] = document["events"][:cut] + document["events"][cut + 1 :]
    return document


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(document=mutated_documents())
def test_mutated_records_get_a_structured_error_and_store_nothing(api, document):
    Record.objects.all().delete()
    Player.objects.all().delete()
    response = api.post("/api/records/", json.dumps(document), content_type="application/json")
    assert response.status_code in (200, 201, 400, 422), response.content[:500]
    body = response.json()
    if response.status_code >= 400:
        assert set(body) == {"code", "message", "detail"}
        assert isinstance(body["code"], str)
        assert body["message"]
        assert Record.objects.count() == Player.objects.count() == 0
        assert Announcement.objects.count() == 0
    else:
        assert Record.objects.filter(pk=body["id"]).exists()
