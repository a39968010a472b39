"""Cached record bodies (replays.response_cache, replays.api.fastpath) are never stale or leaky.

Each test runs on the local-memory cache and, when ``CACHE_URL`` or
``CELERY_BROKER_URL`` names a Redis, on Redis too (the production path: one
script counts the throttle and reads the version token).
"""

from __future__ import annotations

import json
import os
import uuid

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from clubs.services import result_correct
from core.api.renderers import ORJSONRenderer
from games.play import replay_states
from games.registry import get_engine
from replays import response_cache, selectors
from replays.models import Player, Record
from replays.services import player_merge

pytestmark = pytest.mark.django_db

REDIS = os.environ.get("CACHE_URL") or os.environ.get("CELERY_BROKER_URL", "")


def redis_cache_use(settings) -> str:
    """The production cache backend on the Redis of the environment, under keys of this
    test's own (skipped without a Redis); the keys' prefix."""
    if not REDIS.startswith("redis"):
        pytest.skip("no Redis: set CACHE_URL or CELERY_BROKER_URL=redis://...")
    prefix = f"test-{uuid.uuid4().hex}"
    settings.CACHES = {
        "default": {
            "BACKEND": "core.cache.ResilientRedisCache",  # the production backend
            "LOCATION": REDIS,
            "KEY_PREFIX": prefix,  # this test's own keys
        }
    }
    return prefix


@pytest.fixture(params=["locmem", "redis"], autouse=True)
def each_cache(request, settings):
    if request.param == "redis":
        redis_cache_use(settings)
    else:
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "LOCATION": uuid.uuid4().hex,
            }
        }
    response_cache.local_bodies.clear()
    yield request.param
    response_cache.local_bodies.clear()


def upload(document: dict, user=None) -> int:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    response = client.post("/api/records/", document, format="json")
    assert response.status_code == 201, response.content[:300]
    return response.json()["id"]


def result_only(players: list[str], scores: list[int]) -> dict:
    return {
        "format": "giftlog/1",
        "game": "gift_trap",
        "players": players,
        "options": {},
        "meta": {"played_at": "2025-12-01T20:30:00+00:00"},
        "result": {"scores": scores},
    }


def urls(record_id: int, last: int) -> list[str]:
    return [
        f"/api/records/{record_id}/",
        f"/api/records/{record_id}/steps/{last // 2}/",
        f"/api/records/{record_id}/steps/{last // 2}/?seat=1",
        f"/api/records/{record_id}/timeline/",
        f"/api/records/{record_id}/timeline/?seat=0",
        "/api/records/",
    ]


def test_a_cached_answer_is_the_drf_answer_byte_for_byte(api, make_document):
    document = make_document("gift_economy", seed=3, players=3)
    record_id = upload(document)
    last = len(document["events"])
    for url in urls(record_id, last):
        first = api.get(url)  # built by the DRF view, and stored
        again = api.get(url)  # answered before DRF, from the cache
        assert first.status_code == again.status_code == 200, url
        assert first.content == again.content, url
        assert dict(first.headers) == dict(again.headers), url
    record = Record.objects.get(pk=record_id)
    expected = ORJSONRenderer().render(selectors.record_step_view(record, step=last // 2, seat=1))
    assert api.get(f"/api/records/{record_id}/steps/{last // 2}/?seat=1").content == expected


def test_other_formats_and_credentials_get_the_same_bodies(api, make_document):
    document = make_document("secret_santa", seed=4, players=4)
    record_id = upload(document)
    url = f"/api/records/{record_id}/steps/5/?seat=2"
    cached = api.get(url).content
    assert api.get(url).content == cached
    browsable = api.get(url, HTTP_ACCEPT="text/html")
    assert browsable["Content-Type"].startswith("text/html")
    indented = api.get(url, HTTP_ACCEPT="application/json; indent=2")
    assert json.loads(indented.content) == json.loads(cached)
    assert indented.content != cached
    user = get_user_model().objects.create_user("reader", "r@example.org", "pw-long-enough-1")
    signed_in = APIClient()
    signed_in.force_login(user)
    assert signed_in.get(url).content == cached


@pytest.mark.parametrize("game", ["gift_economy", "secret_santa", "gift_gift_gone"])
def test_a_seat_never_gets_another_viewers_cached_body(api, make_document, game):
    """Warm every viewer's body in turn; each answer holds none of that viewer's secrets."""
    engine = get_engine(game)
    document = make_document(game, seed=8, players=engine.min_players + 1)
    record_id = upload(document)
    n = len(document["players"])
    states = list(replay_states(engine, n, document["options"], document["events"]))
    last = len(document["events"])
    viewers = [*range(n), None]
    for _round in range(2):  # the first builds each body, the second reads them back
        for k in (1, last // 2, last - 1):
            bodies = {}
            for seat in viewers:
                query = "" if seat is None else f"?seat={seat}"
                body = api.get(f"/api/records/{record_id}/steps/{k}/{query}").json()
                assert body["seat"] == seat
                assert body["state"] == json.loads(json.dumps(engine.view(states[k], seat)))
                text = json.dumps(body)
                hidden = engine.secrets(states[k], seat) if seat is not None else set()
                assert not any(json.dumps(card) in text for card in hidden), (seat, k)
                bodies[seat] = body
            if any(engine.secrets(states[k], s) for s in range(n)):
                assert len({json.dumps(b["state"], sort_keys=True) for b in bodies.values()}) > 1
        for seat in range(n):
            timeline = api.get(f"/api/records/{record_id}/timeline/?seat={seat}").json()
            assert timeline["seat"] == seat
            for k, entry in enumerate(timeline["steps"][1:], start=1):
                both = engine.secrets(states[k - 1], seat) & engine.secrets(states[k], seat)
                assert not any(json.dumps(card) in json.dumps(entry) for card in both), (seat, k)


def test_a_live_game_is_never_served_from_the_record_cache(api, make_document):
    """A live game's seat view needs its token; a spectator is refused, cached or not."""
    engine = get_engine("gift_economy")
    n = engine.min_players
    opened = api.post(
        "/api/live/",
        {"game": engine.slug, "players": [f"p{i}" for i in range(n)], "seed": 5},
        format="json",
    ).json()
    seat0 = {"HTTP_AUTHORIZATION": f"Seat {opened['seat_tokens'][0]}"}
    seat1 = {"HTTP_AUTHORIZATION": f"Seat {opened['seat_tokens'][1]}"}
    first = api.get(f"/api/live/{opened['id']}/", **seat0).json()
    other = api.get(f"/api/live/{opened['id']}/", **seat1).json()
    assert first != other
    assert api.get(f"/api/live/{opened['id']}/").status_code == 401
    assert api.get(f"/api/live/{opened['id']}/").status_code == 401


def test_a_new_upload_shows_in_the_cached_list(api, make_document):
    first = upload(make_document("gift_swap", seed=1))
    assert [r["id"] for r in api.get("/api/records/").json()["results"]] == [first]
    api.get("/api/records/")  # cached
    second = upload(make_document("gift_swap", seed=2))
    assert [r["id"] for r in api.get("/api/records/").json()["results"]] == [second, first]
    bulk = make_document("secret_santa", seed=3)
    line = json.dumps(bulk).encode()
    answer = api.generic("POST", "/api/records/bulk/", line, "application/x-ndjson").json()
    third = answer["items"][0]["id"]
    assert next(r["id"] for r in api.get("/api/records/").json()["results"]) == third


def test_a_corrected_result_is_not_served_stale(api):
    user = get_user_model().objects.create_user("submitter", "s@example.org", "pw-long-enough-1")
    record_id = upload(result_only(["Ana", "Ben", "Cleo"], [31, 18, 44]), user=user)
    for url in (f"/api/records/{record_id}/", "/api/records/"):
        api.get(url)
        api.get(url)
    assert api.get(f"/api/records/{record_id}/").json()["result"]["scores"] == [31, 18, 44]
    result_correct(record=Record.objects.get(pk=record_id), user=user, scores=[12, 26, 45])
    assert api.get(f"/api/records/{record_id}/").json()["result"]["scores"] == [12, 26, 45]
    listed = api.get("/api/records/").json()["results"][0]
    assert listed["result"]["scores"] == [12, 26, 45]


def test_merged_and_renamed_players_are_not_served_stale(api, make_document):
    document = make_document("secret_santa", seed=5, players=3)
    record_id = upload(document)
    last = len(document["events"])
    for url in urls(record_id, last):
        api.get(url)
    old = document["players"][1]
    upload({**make_document("gift_swap", seed=6, players=3), "players": ["Zed", "Yan", "Xu"]})
    keep = Player.objects.get(name="Zed")
    player_merge(keep=keep, merge=[Player.objects.get(name=old)])
    for url in urls(record_id, last):
        text = api.get(url).content.decode()
        assert f'"{old}"' not in text, url
    assert api.get(f"/api/records/{record_id}/").json()["players"][1] == "Zed"
    keep.name = "Zara"
    keep.save()
    assert api.get(f"/api/records/{record_id}/").json()["players"][1] == "Zara"
    timeline = api.get(f"/api/records/{record_id}/timeline/").json()
    assert timeline["players"][1] == "Zara"
    step = api.get(f"/api/records/{record_id}/steps/{last // 2}/?seat=1").json()
    assert step["players"][1] == "Zara"


def test_a_deleted_record_is_gone_from_every_cached_answer(api, make_document):
    document = make_document("gift_gift_gone", seed=7)
    record_id = upload(document)
    last = len(document["events"])
    for url in urls(record_id, last):
        assert api.get(url).status_code == 200
        assert api.get(url).status_code == 200
    Record.objects.get(pk=record_id).delete()
    for url in urls(record_id, last)[:-1]:
        assert api.get(url).status_code == 404, url
    assert api.get("/api/records/").json()["results"] == []


def test_a_renamed_submitter_is_not_served_stale_in_the_list(api):
    user = get_user_model().objects.create_user("before", "b@example.org", "pw-long-enough-1")
    upload(result_only(["Ana", "Ben", "Cleo"], [31, 18, 44]), user=user)
    assert api.get("/api/records/").json()["results"][0]["submitted_by"] == "before"
    user.username = "after"
    user.save()
    assert api.get("/api/records/").json()["results"][0]["submitted_by"] == "after"


def test_cached_answers_are_still_throttled(settings, make_document):
    record_id = upload(make_document("gift_swap", seed=9))
    api = APIClient(REMOTE_ADDR="10.0.0.7")  # not the uploader's address
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "3/min", "user": "5/min"},
    }
    url = f"/api/records/{record_id}/steps/3/"
    response_cache.local_bodies.clear()
    statuses = [api.get(url).status_code for _ in range(3)]
    assert statuses == [200, 200, 200]  # the last two from the cache
    refused = api.get(url)
    assert refused.status_code == 429
    body = refused.json()
    assert body["code"] == "throttled"
    assert set(body) == {"code", "message", "detail"}
    assert refused["Retry-After"] == str(body["detail"]["retry_after"])
    assert 1 <= body["detail"]["retry_after"] <= 60
    assert api.get("/api/records/").status_code == 429
    other = APIClient(REMOTE_ADDR="10.1.2.3")
    assert other.get(url).status_code == 200  # another address is counted apart


def test_only_bodies_read_from_this_process_are_kept_in_it(api, make_document, each_cache):
    """A step's bodies (its JSON, its table) are read with their token in one round trip
    to Redis, never from this process's copies: with Redis they are not copied into it
    (30-60 KB a step of a long game, they churned its memory and pushed out the
    timelines, which are read here first). Without Redis they are read through this
    process's copies, so they are kept. Either way a second visit gets the same bytes."""
    record_id = upload(make_document("gift_economy", seed=3, players=3))
    paths = [
        f"/api/records/{record_id}/steps/2/",
        f"/api/records/{record_id}/steps/3/?seat=1",
        f"/records/{record_id}/steps/2/table/",
        f"/records/{record_id}/steps/3/table/?seat=1",
    ]
    first = [api.get(path).content for path in paths]
    assert api.get(f"/api/records/{record_id}/timeline/").status_code == 200
    kept = list(response_cache.local_bodies.items)
    steps = [key for key in kept if ":step:" in key or ":table:" in key]
    assert any(":timeline:" in key for key in kept)
    assert len(steps) == (0 if each_cache == "redis" else len(paths))
    assert [api.get(path).content for path in paths] == first
