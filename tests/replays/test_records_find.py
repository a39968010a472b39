"""Finding records (list filters, cursor pages) and bringing them (NDJSON export, re-import)."""

from __future__ import annotations

import importlib
import json
import re
from datetime import UTC, datetime
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command

from replays.api import views
from replays.giftlog import giftlog_parse
from replays.models import Record, Seat
from replays.services import record_submit, record_validate

pytestmark = pytest.mark.django_db


def store(document: dict, *, created_at: datetime | None = None) -> Record:
    record, created = record_submit(document=document)
    assert created
    if created_at is not None:
        Record.objects.filter(pk=record.pk).update(created_at=created_at)
    return record


def seated(document: dict, names: list[str]) -> dict:
    """The same game with these players, in seat order."""
    return {**document, "players": names[: len(document["players"])]}


def winners_of(document: dict) -> list[int]:
    return record_validate(giftlog_parse(document))["winners"]


def listed(api, **params) -> list[int]:
    response = api.get("/api/records/", params)
    assert response.status_code == 200, response.json()
    return [row["id"] for row in response.json()["results"]]


def exported(api, **params) -> list[dict]:
    response = api.get("/api/records/export/", params)
    assert response.status_code == 200
    return [json.loads(line) for line in b"".join(response.streaming_content).splitlines()]


# Filters


@pytest.mark.parametrize(
    "written", ["gift_swap", "Gift Swap", "gift swap", "GIFT SWAP", "giftswap"]
)
def test_game_filter_takes_the_slug_or_the_name_people_write(api, make_document, written):
    swap = store(make_document("gift_swap", seed=1))
    store(make_document("secret_santa", seed=1))
    assert listed(api, game=written) == [swap.pk]


def test_player_filter_keeps_games_the_player_sat_in_any_case(api, make_document):
    with_ana = store(seated(make_document(seed=1), ["Ana", "Ben", "Cy", "Dee"]))
    store(seated(make_document(seed=2), ["Ben", "Cy", "Dee", "Eli"]))
    assert listed(api, player="Ana") == [with_ana.pk]
    assert listed(api, player="ana") == [with_ana.pk]
    assert listed(api, player="Zed") == []


def test_players_filter_counts_the_seats(api, make_document):
    two = store(make_document("secret_santa", seed=1, players=2))
    four = store(make_document("secret_santa", seed=2, players=4))
    assert listed(api, players=2) == [two.pk]
    assert listed(api, players=4) == [four.pk]
    assert listed(api, players=3) == []


def test_dates_bound_played_at_or_else_the_day_it_was_stored(api, make_document):
    played = make_document(seed=1)
    played["meta"] = {"played_at": "2026-11-28T19:30:00Z"}
    november = store(played, created_at=datetime(2027, 1, 5, tzinfo=UTC))
    # No played_at: counts as played when it was stored.
    december = store(make_document(seed=2), created_at=datetime(2026, 12, 3, 12, 0, tzinfo=UTC))

    assert listed(api, played_after="2026-11-28") == [december.pk, november.pk]
    assert listed(api, played_after="2026-11-29") == [december.pk]
    assert listed(api, played_before="2026-12-01") == [november.pk]
    assert listed(api, played_after="2026-11-01", played_before="2026-11-29") == [november.pk]
    # Date-times, with Z or an offset; the lower bound is inclusive, the upper exclusive.
    assert listed(api, played_after="2026-11-28T19:30:00Z") == [december.pk, november.pk]
    assert listed(api, played_before="2026-11-28T19:30:00Z") == []
    assert listed(api, played_before="2026-11-28T20:31:00+01:00") == [november.pk]
    # "+01:00" not URL-encoded arrives as " 01:00": still understood.
    assert listed(api, played_before="2026-11-28T20:31:00 01:00") == [november.pk]


def test_winner_filter_keeps_only_games_the_player_won(api, make_document):
    won, lost = make_document(seed=3, players=3), make_document(seed=4, players=3)
    won_by, lost_by = winners_of(won), winners_of(lost)
    assert len(won_by) < 3  # neither is an all-way tie
    assert len(lost_by) < 3
    losing_seat = next(s for s in range(3) if s not in lost_by)
    ana_won = store(seated(won, names_with_ana_at(won_by[0])))
    lost_names = names_with_ana_at(losing_seat)
    ana_lost = store(seated(lost, lost_names))

    assert listed(api, player="Ana") == [ana_lost.pk, ana_won.pk]
    assert listed(api, winner="Ana") == [ana_won.pk]
    assert listed(api, winner="ana") == [ana_won.pk]
    assert ana_lost.pk in listed(api, winner=lost_names[lost_by[0]])


def names_with_ana_at(seat: int) -> list[str]:
    others = iter(["Ben", "Cy", "Dee"])
    return ["Ana" if s == seat else next(others) for s in range(3)]


def test_filters_combine(api, make_document):
    swap = store(seated(make_document("gift_swap", seed=5, players=3), ["Ana", "Ben", "Cy"]))
    store(seated(make_document("gift_swap", seed=6, players=4), ["Ana", "Ben", "Cy", "Dee"]))
    store(seated(make_document("secret_santa", seed=7, players=3), ["Ana", "Ben", "Cy"]))
    assert listed(api, game="Gift Swap", player="Ana", players=3) == [swap.pk]


def test_seat_won_is_filled_when_stored_and_by_the_migration_backfill(make_document):
    document = make_document(seed=8, players=3)
    record = store(document)
    expected = {s: s in winners_of(document) for s in range(3)}
    assert {s.seat: s.won for s in record.seats.all()} == expected

    Seat.objects.update(won=False)
    migration = importlib.import_module("replays.migrations.0003_seat_won")
    migration.seats_won_backfill(apps, None)
    assert {s.seat: s.won for s in Seat.objects.filter(record=record)} == expected


# Cursor pages


def test_cursor_pages_visit_every_record_once_newest_first(api, make_document):
    ids = [store(make_document(seed=seed)).pk for seed in range(20, 25)]
    seen, pages = [], 0
    url, params = "/api/records/", {"page_size": 2}
    while url:
        body = api.get(url, params).json()
        seen += [row["id"] for row in body["results"]]
        url, params, pages = body["next"], None, pages + 1
    assert seen == sorted(ids, reverse=True)
    assert pages == 3

    last = api.get("/api/records/", {"page_size": 2}).json()
    second = api.get(last["next"]).json()
    back = api.get(second["previous"]).json()
    assert [r["id"] for r in back["results"]] == seen[:2]


def test_cursor_pages_keep_the_filters(api, make_document):
    swaps = [store(make_document("gift_swap", seed=s)).pk for s in (30, 31, 32)]
    store(make_document("secret_santa", seed=33))
    first = api.get("/api/records/", {"game": "Gift Swap", "page_size": 2}).json()
    second = api.get(first["next"]).json()
    assert [r["id"] for r in first["results"] + second["results"]] == swaps[::-1]
    assert second["next"] is None


def test_default_page_is_fifty_and_at_most_two_hundred():
    assert views.RecordCursorPagination.page_size == 50
    assert views.RecordCursorPagination.max_page_size == 200


# 400s, in the common error shape, naming the field

BAD_FILTERS = [
    ({"game": "chess"}, "bad_filter", "game"),
    ({"players": "four"}, "bad_filter", "players"),
    ({"players": "1.5"}, "bad_filter", "players"),
    ({"players": "0"}, "bad_filter", "players"),
    ({"players": "99999999999999999999999"}, "bad_filter", "players"),
    ({"played_after": "yesterday"}, "bad_filter", "played_after"),
    ({"played_before": "2026-02-30"}, "bad_filter", "played_before"),
    ({"played_after": "2026-12-01", "played_before": "2026-11-01"}, "bad_filter", "played_before"),
    ({"player": "x" * 65}, "bad_filter", "player"),
    ({"winner": "x" * 65}, "bad_filter", "winner"),
    ({"winer": "ana"}, "invalid_query", "winer"),
]


@pytest.mark.parametrize("path", ["/api/records/", "/api/records/export/"])
@pytest.mark.parametrize(("params", "code", "field"), BAD_FILTERS)
def test_bad_filter_is_a_400_naming_the_field(api, make_document, path, params, code, field):
    store(make_document(seed=1))
    response = api.get(path, params)
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"code", "message", "detail"}
    assert body["code"] == code
    assert body["detail"]["field"] == field
    assert body["message"]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"page_size": "0"}, "page_size"),
        ({"page_size": "201"}, "page_size"),
        ({"page_size": "lots"}, "page_size"),
        ({"cursor": "not-a-cursor"}, "cursor"),
    ],
)
def test_bad_paging_is_a_400_naming_the_field(api, make_document, params, field):
    store(make_document(seed=1))
    response = api.get("/api/records/", params)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_filter"
    assert response.json()["detail"]["field"] == field


def test_empty_filter_values_are_no_filter(api, make_document):
    record = store(make_document(seed=1))
    params = {"game": "", "player": "", "players": "", "played_after": "", "winner": ""}
    assert listed(api, **params) == [record.pk]


def test_unknown_game_message_names_the_games_people_know(api):
    message = api.get("/api/records/", {"game": "chess"}).json()["message"]
    assert "Gift Swap" in message
    assert "gift_swap" not in message


# Export


def test_export_streams_one_giftlog_per_line_as_the_detail_gives_it(
    api, make_document, monkeypatch
):
    monkeypatch.setattr(views, "EXPORT_CHUNK_SIZE", 2)  # cross chunk boundaries
    records = [
        store(make_document(game, seed=s))
        for s, game in enumerate(
            ["secret_santa", "gift_swap", "gift_trap", "gift_economy", "gift_gift_gone"]
        )
    ]
    response = api.get("/api/records/export/")
    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Type"] == "application/x-ndjson"
    assert re.fullmatch(
        r'attachment; filename="giftbox-\d{4}-\d\d-\d\d\.ndjson"', response["Content-Disposition"]
    )
    text = b"".join(response.streaming_content).decode()
    assert text.endswith("\n")
    lines = text.splitlines()
    assert len(lines) == len(records)
    for record, line in zip(records, lines, strict=True):  # oldest stored first
        assert json.loads(line) == api.get(f"/api/records/{record.pk}/").json()


def test_export_takes_the_list_filters(api, make_document):
    swap = store(make_document("gift_swap", seed=1))
    store(make_document("secret_santa", seed=2))
    documents = exported(api, game="Gift Swap")
    assert documents == [api.get(f"/api/records/{swap.pk}/").json()]
    assert exported(api, player="nobody") == []
    asked = api.get("/api/records/export/", HTTP_ACCEPT="application/x-ndjson")
    assert asked.status_code == 200
    assert asked["Content-Type"] == "application/x-ndjson"


def test_export_then_bulk_import_stores_nothing_new(api, make_document):
    records = [store(make_document(seed=s)) for s in (40, 41, 42)]
    body = api.get("/api/records/export/")
    text = b"".join(body.streaming_content).decode()
    before = Record.objects.count(), Seat.objects.count()

    response = api.post("/api/records/bulk/", text, content_type="application/x-ndjson")
    assert response.status_code == 200
    answer = response.json()
    assert (answer["stored"], answer["present"], answer["refused"]) == (0, 3, 0)
    assert [item["id"] for item in answer["items"]] == [r.pk for r in records]
    assert (Record.objects.count(), Seat.objects.count()) == before


def test_export_then_import_records_into_an_empty_store_gives_the_same_records(
    api, make_document, tmp_path
):
    for seed in (43, 44, 45):
        store(make_document(seed=seed))
    digests = sorted(Record.objects.values_list("digest", flat=True))
    path = tmp_path / "giftbox.ndjson"
    path.write_bytes(b"".join(api.get("/api/records/export/").streaming_content))
    documents = [json.loads(line) for line in path.read_text().splitlines()]

    Record.objects.all().delete()
    call_command("import_records", str(path), stdout=StringIO())
    assert sorted(Record.objects.values_list("digest", flat=True)) == digests
    assert exported(api) == documents


def test_bulk_outcome_names_the_game_and_the_players(api, make_document):
    document = seated(make_document("gift_swap", seed=2, players=3), ["Ana", "Ben", "Cy"])
    item = api.post("/api/records/bulk/", json.dumps(document), content_type="application/json")
    item = item.json()["items"][0]
    assert item["status"] == "stored"
    assert item["game"] == "gift_swap"
    assert item["players"] == ["Ana", "Ben", "Cy"]
    assert item["result"]["winners"] == winners_of(document)


def test_schema_documents_the_filters_and_the_export(api):
    schema = api.get("/api/schema/", {"format": "json"}).json()
    listing = schema["paths"]["/api/records/"]["get"]
    names = {p["name"] for p in listing["parameters"]}
    expected = {"game", "player", "players", "played_after", "played_before", "winner"}
    assert expected | {"cursor", "page_size"} <= names
    export = schema["paths"]["/api/records/export/"]["get"]
    assert expected <= {p["name"] for p in export["parameters"]}
    assert "application/x-ndjson" in export["responses"]["200"]["content"]
