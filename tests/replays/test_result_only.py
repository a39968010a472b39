"""Result-only records: games played at a real table, stored with their final scores."""

from __future__ import annotations

import copy
import json
from io import StringIO

import jsonschema
import pytest
from django.core.management import call_command

from analytics.models import GameSummary, PlayerResult
from games.registry import all_engines, get_engine
from replays.giftlog import JSON_SCHEMA
from replays.models import Record
from replays.results import result_score_bounds
from replays.services import record_submit

pytestmark = pytest.mark.django_db

NOT_REPLAYABLE = "This game was recorded with its final scores only; it cannot be replayed."


def table_document(game: str = "gift_trap", scores=None, **result) -> dict:
    """A result-only giftlog: players, final scores, no events."""
    scores = [31, 18, 44] if scores is None else scores
    players = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"][: len(scores)]
    return {
        "format": "giftlog/1",
        "game": game,
        "players": players,
        "options": {},
        "meta": {"played_at": "2025-12-01T20:30:00+00:00", "club": "Tuesday club"},
        "result": {"scores": scores, **result},
    }


def assert_nothing_stored() -> None:
    assert Record.objects.count() == 0


def test_upload_is_accepted_and_stored(api):
    document = table_document(duration_minutes=75)
    jsonschema.validate(document, JSON_SCHEMA)
    response = api.post("/api/records/", document, format="json")
    assert response.status_code == 201, response.json()
    record = Record.objects.get()
    assert record.kind == Record.Kind.RESULT
    assert (record.events, record.num_events) == ([], 0)
    assert record.result == {
        "scores": [31, 18, 44],
        "ranks": [2, 3, 1],
        "winners": [2],
        "details": {"result_only": True, "duration_minutes": 75},
    }
    assert [s.won for s in record.seats.order_by("seat")] == [False, False, True]
    assert record.played_at is not None


def test_ties_share_a_rank_when_ranks_are_omitted():
    record, _ = record_submit(document=table_document(scores=[20, 44, 44]))
    assert record.result["ranks"] == [3, 1, 1]
    assert record.result["winners"] == [1, 2]


def test_given_ranks_may_break_a_score_tie():
    # GiftTRAP breaks score ties by the markers: equal scores, different ranks.
    record, _ = record_submit(document=table_document(scores=[44, 44, 10], ranks=[2, 1, 3]))
    assert record.result["ranks"] == [2, 1, 3]
    assert record.result["winners"] == [1]


@pytest.mark.parametrize(
    ("change", "status", "code", "field"),
    [
        # player count the game does not allow (GiftTRAP: 3-8)
        (
            lambda d: d.update(players=["Ana", "Ben"], result={"scores": [1, 2]}),
            400,
            "invalid_setup",
            "players",
        ),
        (lambda d: d["result"].update(scores=[10, 20]), 400, "invalid_result", "result.scores"),
        (
            lambda d: d["result"].update(scores=[10, 20.5, 3]),
            400,
            "invalid_result",
            "result.scores",
        ),
        (
            lambda d: d["result"].update(scores=[10, "20", 3]),
            400,
            "invalid_result",
            "result.scores",
        ),
        (
            lambda d: d["result"].update(scores=[10, True, 3]),
            400,
            "invalid_result",
            "result.scores",
        ),
        (
            lambda d: d["result"].update(scores=[10, 51, 3]),
            422,
            "score_out_of_bounds",
            "result.scores",
        ),
        (
            lambda d: d["result"].update(scores=[10, -1, 3]),
            422,
            "score_out_of_bounds",
            "result.scores",
        ),
        (lambda d: d["result"].update(ranks=[1, 2]), 400, "invalid_result", "result.ranks"),
        (lambda d: d["result"].update(ranks=[1, 2, 4]), 400, "invalid_result", "result.ranks"),
        # a better rank with a lower score
        (lambda d: d["result"].update(ranks=[1, 3, 2]), 422, "ranks_inconsistent", "result.ranks"),
        # a shared rank with different scores
        (lambda d: d["result"].update(ranks=[1, 1, 3]), 422, "ranks_inconsistent", "result.ranks"),
        # not competition ranks: two tied firsts are followed by a third
        (
            lambda d: d["result"].update(scores=[40, 40, 10], ranks=[1, 1, 2]),
            422,
            "ranks_inconsistent",
            "result.ranks",
        ),
        (
            lambda d: d["result"].update(duration_minutes=0),
            400,
            "invalid_result",
            "result.duration_minutes",
        ),
        (lambda d: d["result"].update(colour="red"), 400, "invalid_result", "result.colour"),
        (lambda d: d.pop("result"), 400, "invalid_result", "result"),
        (lambda d: d["result"].update(winners=[0]), 422, "result_mismatch", None),
        (
            lambda d: d.update(options={"track_length": 5}),
            400,
            "bad_option",
            "options.track_length",
        ),
        (lambda d: d.update(options={"first_dealer": 5}), 400, "invalid_setup", "options"),
    ],
)
def test_refusals_name_the_field_and_store_nothing(api, change, status, code, field):
    document = table_document(scores=[10, 20, 44])
    change(document)
    response = api.post("/api/records/", document, format="json")
    assert response.status_code == status, response.json()
    body = response.json()
    assert set(body) == {"code", "message", "detail"}
    assert body["code"] == code
    if field is not None:
        assert body["detail"]["field"] == field
    assert_nothing_stored()


def test_out_of_bounds_names_the_seat_and_the_bounds(api):
    response = api.post("/api/records/", table_document(scores=[10, 20, 51]), format="json")
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert (detail["seat"], detail["score"], detail["bounds"]) == (2, 51, [0, 50])


def test_bounds_follow_the_options():
    document = table_document(scores=[10, 20, 80])
    document["options"] = {"track_length": 40}
    record, created = record_submit(document=document)
    assert created
    assert record.result["scores"] == [10, 20, 80]


@pytest.mark.parametrize("engine", all_engines(), ids=lambda e: e.slug)
def test_every_engine_checks_its_bounds(api, engine):
    n = engine.min_players
    low, high = result_score_bounds(engine, n, {})
    rules_low, rules_high = engine.score_bounds(n, {})
    assert low == rules_low
    assert high == rules_high or rules_high is None
    assert -(2**31) <= low <= high <= 2**31 - 1, "every bound fits the 32-bit score column"
    inside = table_document(engine.slug, scores=[low] * (n - 1) + [high])
    # The bounds themselves may be unusual scores, stored once confirmed.
    stored = api.post("/api/records/?confirm_unusual=true", inside, format="json")
    assert stored.status_code == 201, stored.json()
    below = table_document(engine.slug, scores=[low - 1] + [low] * (n - 1))
    response = api.post("/api/records/", below, format="json")
    assert response.status_code == 422
    assert response.json()["detail"]["seat"] == 0
    above = table_document(engine.slug, scores=[low] * (n - 1) + [high + 1])
    response = api.post("/api/records/", above, format="json")
    assert response.status_code == 422
    assert response.json()["detail"]["seat"] == n - 1
    assert response.json()["message"].startswith(f"Seat {n} scored {high + 1}, ")
    assert Record.objects.count() == 1


def test_a_score_past_the_column_is_refused_with_the_reason(api):
    """The poison upload: a Secret Santa total of three billion was stored and never ingested."""
    document = table_document("secret_santa", scores=[25, 3_000_000_000, 3])
    response = api.post("/api/records/", document, format="json")
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "score_out_of_bounds"
    assert body["message"] == (
        "Seat 2 scored 3000000000, but a seat of a 3-player game of Secret Santa scores at "
        "most 1000 in a record of its result (the rules set no highest score; a higher one "
        "is taken for a typing error)."
    )
    assert body["detail"] == {
        "field": "result.scores",
        "seat": 1,
        "score": 3_000_000_000,
        "bounds": [0, 1000],
    }
    bulk = api.post("/api/records/bulk/", json.dumps(document), content_type="application/x-ndjson")
    assert bulk.json()["items"][0]["error"]["code"] == "score_out_of_bounds"
    assert_nothing_stored()


def test_games_list_gives_the_bounds(api):
    games = {g["slug"]: g for g in api.get("/api/games/").json()["games"]}
    assert games["gift_trap"]["score_bounds"]["3"] == [0, 50]
    assert games["secret_santa"]["score_bounds"] == {"2": [0, 1000], "3": [0, 1000], "4": [0, 1000]}
    for engine in all_engines():
        counts = games[engine.slug]["score_bounds"]
        assert set(counts) == {str(n) for n in range(engine.min_players, engine.max_players + 1)}


def test_export_reuploads_as_the_same_record(api):
    created = api.post("/api/records/", table_document(duration_minutes=40), format="json")
    record_id = created.json()["id"]
    exported = api.get(f"/api/records/{record_id}/").json()
    assert "events" not in exported
    jsonschema.validate(exported, JSON_SCHEMA)
    again = api.post("/api/records/", exported, format="json")
    assert again.status_code == 200
    assert again.json()["id"] == record_id
    assert Record.objects.count() == 1


def test_identity_is_the_result_and_when_it_was_played():
    first, created = record_submit(document=table_document())
    assert created
    same, created = record_submit(document=table_document(ranks=[2, 3, 1]))
    assert (same.pk, created) == (first.pk, False)  # computed ranks == given ranks
    later = table_document()
    later["meta"]["played_at"] = "2025-12-08T20:30:00+00:00"
    other, created = record_submit(document=later)
    assert created
    assert other.pk != first.pk
    undated = table_document()
    del undated["meta"]["played_at"]
    one, created = record_submit(document=undated)
    two, created_again = record_submit(document=copy.deepcopy(undated))
    assert created
    assert not created_again
    assert one.pk == two.pk


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", "/api/records/{id}/steps/0/", None),
        ("get", "/api/records/{id}/timeline/", None),
        ("post", "/api/records/{id}/fork/", {"step": 0}),
    ],
)
def test_replay_endpoints_answer_not_replayable(api, method, path, body):
    record, _ = record_submit(document=table_document())
    url = path.format(id=record.pk)
    response = api.post(url, body, format="json") if method == "post" else api.get(url)
    assert response.status_code == 409
    assert response.json()["code"] == "not_replayable"
    assert response.json()["message"] == NOT_REPLAYABLE


def test_step_table_fragment_refuses(client):
    record, _ = record_submit(document=table_document())
    response = client.get(f"/records/{record.pk}/steps/0/table/")
    assert response.status_code == 409


def test_replay_page_shows_the_result_and_says_it_cannot_be_replayed(client):
    record, _ = record_submit(document=table_document(duration_minutes=90))
    page = client.get(f"/records/{record.pk}/").content.decode()
    assert "GiftTRAP" in page
    assert NOT_REPLAYABLE in page
    for name, score in (("Ana", 31), ("Ben", 18), ("Cleo", 44)):
        assert name in page
        assert f"{score} points" in page
    assert "90 minutes" in page
    for control in ('id="viewer"', 'id="play"', "fork-form"):
        assert control not in page
    embed = client.get(f"/records/{record.pk}/embed/").content.decode()
    assert NOT_REPLAYABLE in embed


def test_records_list_marks_result_only_rows(client, make_document):
    record_submit(document=make_document(seed=3))
    record_submit(document=table_document())
    page = client.get("/records/").content.decode()
    assert page.count("result only") == 1
    assert ">Result</a>" in page
    assert ">Replay</a>" in page


@pytest.mark.django_db(transaction=True)
def test_analytics_counts_result_only_records():
    record, _ = record_submit(document=table_document(scores=[31, 18, 44]))
    rows = PlayerResult.objects.filter(record=record).order_by("seat")
    assert [(r.score, r.rank, r.won) for r in rows] == [
        (31, 2, False),
        (18, 3, False),
        (44, 1, True),
    ]
    summary = GameSummary.objects.get(game="gift_trap")
    assert summary.games == 1
    cleo = next(p for p in summary.players if p["player"] == "Cleo")
    assert (cleo["games"], cleo["wins"], cleo["average_score"]) == (1, 1, 44.0)


def test_bulk_mixes_full_logs_and_result_only_lines(api, make_document):
    lines = [
        json.dumps(make_document(seed=11)),
        json.dumps(table_document()),
        json.dumps(table_document(scores=[10, 99, 3])),
        json.dumps(table_document()),
    ]
    response = api.post("/api/records/bulk/", "\n".join(lines), content_type="application/x-ndjson")
    body = response.json()
    assert (body["stored"], body["present"], body["refused"]) == (2, 1, 1)
    by_line = {item["line"]: item for item in body["items"]}
    assert by_line[3]["error"]["code"] == "score_out_of_bounds"
    assert by_line[3]["error"]["detail"]["seat"] == 1
    kinds = sorted(Record.objects.values_list("kind", flat=True))
    assert kinds == ["log", "result"]


def test_import_records_command_takes_result_only_lines(tmp_path, make_document):
    path = tmp_path / "table.ndjson"
    path.write_text(json.dumps(table_document()) + "\n" + json.dumps(make_document(seed=12)) + "\n")
    call_command("import_records", str(path), stdout=StringIO(), stderr=StringIO())
    assert Record.objects.filter(kind=Record.Kind.RESULT).count() == 1
    assert Record.objects.count() == 2


def test_secret_santa_has_no_highest_score():
    engine = get_engine("secret_santa")
    _, created = record_submit(
        document=table_document("secret_santa", scores=[25, 140, 3]), confirm_unusual=True
    )
    assert created
    assert engine.score_bounds(3, {}) == (0, None)
