"""Options through the API: stored in full, refused by name, listed, filtered on."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.base import options_resolve
from games.registry import all_engines, get_engine
from replays.models import Record
from replays.simulation import simulated_document

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("engine", all_engines(), ids=lambda e: e.slug)
def test_a_record_stores_the_options_it_was_validated_with_in_full(api, make_document, engine):
    document = make_document(engine.slug, seed=3)
    given = {k: v for k, v in document["options"].items() if v != _default(engine, k)}
    document["options"] = given  # only what differs from the defaults, as people write it
    created = api.post("/api/records/", document, format="json")
    assert created.status_code == 201
    record = Record.objects.get(pk=created.json()["id"])
    assert record.options == options_resolve(engine, given)
    assert set(record.options) == {option.name for option in engine.options}
    exported = api.get(f"/api/records/{record.pk}/").json()
    assert exported["options"] == record.options
    again = api.post("/api/records/", exported, format="json")
    assert again.status_code == 200, "the export is the same record"
    assert again.json()["id"] == record.pk
    explicit = {**document, "options": options_resolve(engine, given)}
    assert api.post("/api/records/", explicit, format="json").json()["id"] == record.pk


def _default(engine, name):
    return next(option.default for option in engine.options if option.name == name)


@pytest.mark.parametrize("engine", all_engines(), ids=lambda e: e.slug)
def test_an_unknown_option_or_value_is_a_400_naming_it(api, make_document, engine):
    document = make_document(engine.slug, seed=3)
    unknown = api.post("/api/records/", {**document, "options": {"nope": 1}}, format="json")
    assert unknown.status_code == 400
    assert unknown.json()["code"] == "unknown_option"
    assert unknown.json()["detail"]["field"] == "options.nope"
    for option in engine.options:
        bad = api.post("/api/records/", {**document, "options": {option.name: "??"}}, format="json")
        assert bad.status_code == 400, option.name
        assert bad.json()["code"] == "bad_option"
        assert bad.json()["detail"]["field"] == f"options.{option.name}"
        assert option.name in bad.json()["message"]
    assert not Record.objects.exists()


def test_games_list_their_options_and_cards(api):
    games = {game["slug"]: game for game in api.get("/api/games/").json()["games"]}
    for engine in all_engines():
        listed = games[engine.slug]["options"]
        assert [o["name"] for o in listed] == [o.name for o in engine.options]
        for option in listed:
            assert {"type", "default", "allowed", "description", "rulebook", "why_default"} <= set(
                option
            )
        detail = api.get(f"/api/games/{engine.slug}/").json()
        assert detail["cards"] == engine.card_catalog()
    assert api.get("/api/games/chess/").status_code == 404


def test_a_stored_record_replays_the_same_after_a_default_changes(api, make_document, monkeypatch):
    engine = get_engine("gift_trap")
    document = make_document("gift_trap", seed=4, players=4)
    record_id = api.post("/api/records/", document, format="json").json()["id"]
    record = Record.objects.get(pk=record_id)
    last = record.num_events
    # A later release plays GiftTRAP with a one-round limit by default.
    changed = tuple(
        dataclasses.replace(o, default=1) if o.name == "max_rounds" else o for o in engine.options
    )
    monkeypatch.setattr(type(engine), "options", changed)
    assert options_resolve(engine, {})["max_rounds"] == 1
    final = api.get(f"/api/records/{record_id}/steps/{last}/").json()
    assert final["is_over"]
    assert final["result"]["scores"] == record.result["scores"]
    again = api.post("/api/records/", api.get(f"/api/records/{record_id}/").json(), format="json")
    assert again.status_code == 200
    assert again.json()["id"] == record_id


def test_records_filter_by_option(api, make_document):
    plain = make_document("gift_trap", seed=5, players=3)
    plain_id = api.post("/api/records/", plain, format="json").json()["id"]
    limited = simulated_document(
        "gift_trap", num_players=3, rng=random.Random(6), options={"max_rounds": 2}
    )
    limited_id = api.post("/api/records/", limited, format="json").json()["id"]

    def ids(query):
        response = api.get(f"/api/records/?{query}")
        assert response.status_code == 200, response.json()
        return {r["id"] for r in response.json()["results"]}

    assert ids("game=gift_trap&option.max_rounds=2") == {limited_id}
    assert ids("game=gift_trap&option.max_rounds=30") == {plain_id}, "simulations stop at 30"
    assert ids("game=gift_trap&option.max_rounds=null") == set()
    assert ids("game=GiftTRAP") == {plain_id, limited_id}
    for query, field in [
        ("option.max_rounds=2", "option.max_rounds"),
        ("game=gift_trap&option.nope=1", "option.nope"),
        ("game=gift_trap&option.max_rounds=-3", "option.max_rounds"),
    ]:
        response = api.get(f"/api/records/?{query}")
        assert response.status_code == 400, query
        assert response.json()["code"] == "bad_filter"
        assert response.json()["detail"]["field"] == field
