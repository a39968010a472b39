"""The replay viewer's cached HTML (a step's table, the page's move list) is never leaky or stale.

Each test runs on the local-memory cache and, when ``CACHE_URL`` or
``CELERY_BROKER_URL`` names a Redis, on Redis too.
"""

from __future__ import annotations

import itertools
import json
import re

import pytest
from django.core.cache import cache

from games.play import replay_states
from games.registry import get_engine
from replays import selectors, state_cache, timeline, viewer_warm
from replays.models import Player, Record
from tests.games.words import card_ids_in
from tests.replays.test_response_cache import each_cache, upload  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db
DATA_CARD = re.compile(r'data-card="([^"]+)"')


def fragment(client, record_id: int, step: int, seat: int | None, *, listed: bool = False) -> str:
    """The table as the viewer fetches it: its list of moves folded, or ``listed``."""
    params = ([] if seat is None else [f"seat={seat}"]) + (["moves=listed"] if listed else [])
    query = "?" + "&".join(params) if params else ""
    response = client.get(f"/records/{record_id}/steps/{step}/table/{query}")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("game", ["gift_economy", "secret_santa", "gift_gift_gone", "gift_trap"])
def test_a_cached_table_is_only_ever_its_own_viewers(client, make_document, game):
    """Every viewer's table cached in turn, one order then the other: each answer is the
    table drawn for that viewer, and holds no card that viewer may not see (everyone's
    view of a finished game shows the hands; a seat's shows only what that seat saw)."""
    engine = get_engine(game)
    document = make_document(game, seed=8, players=engine.min_players + 1)
    record_id = upload(document)
    record = Record.objects.get(pk=record_id)
    n = len(document["players"])
    states = list(replay_states(engine, n, document["options"], document["events"]))
    catalog = engine.card_catalog()
    last = len(document["events"])
    viewers: list[int | None] = [*range(n), None]
    for order in (viewers, viewers[::-1], viewers):  # built, then read back twice
        for k in (1, last // 2, last - 1):
            drawn = {}
            for seat, listed in itertools.product(order, (False, True)):
                html = fragment(client, record_id, k, seat, listed=listed)
                drawn_now = selectors.record_step_table(record, step=k, seat=seat, listed=listed)
                assert html == drawn_now
                cards = set(DATA_CARD.findall(html))
                if seat is not None:
                    assert cards <= card_ids_in(engine.view(states[k], seat), catalog)
                    assert not cards & engine.secrets(states[k], seat), (seat, k)
                    assert f"{document['players'][seat]} (you)" in html
                else:  # everyone's view of a finished game: no seat's "(you)"
                    assert cards <= card_ids_in(engine.view(states[k], None), catalog)
                    assert "(you)" not in html
                drawn[seat] = html
            if any(engine.secrets(states[k], s) for s in range(n)):
                assert len(set(drawn.values())) == len(viewers), "one body per viewer"


def test_a_table_is_drawn_once_then_read_from_the_cache(client, make_document, monkeypatch):
    record_id = upload(make_document("gift_economy", seed=3, players=3))
    first = fragment(client, record_id, 5, 1)

    def never(*args, **kwargs):
        raise AssertionError("drawn again")

    monkeypatch.setattr(selectors, "record_step_table", never)
    assert fragment(client, record_id, 5, 1) == first
    with pytest.raises(AssertionError, match="drawn again"):
        fragment(client, record_id, 5, 2)  # another seat is another body, drawn for it


def test_a_refused_step_or_seat_is_never_cached(client, make_document):
    document = make_document("gift_swap", seed=4, players=3)
    record_id = upload(document)
    last = len(document["events"])
    for _ in range(2):
        assert client.get(f"/records/{record_id}/steps/{last + 1}/table/").status_code == 404
        assert client.get(f"/records/{record_id}/steps/2/table/?seat=3").status_code == 400


def test_a_renamed_player_is_not_served_stale_on_the_page_or_its_tables(client, make_document):
    document = {
        **make_document("secret_santa", seed=5, players=3),
        "players": ["Ana", "Quentin", "Cleo"],
    }
    record_id = upload(document)
    old = "Quentin"
    pages = (f"/records/{record_id}/", f"/records/{record_id}/steps/3/table/?seat=1")
    for path in pages:
        assert old in client.get(path).content.decode()
        client.get(path)  # cached
    player = Player.objects.get(name=old)
    player.name = "Zara"
    player.save()
    for path in pages:
        text = client.get(path).content.decode()
        assert "Zara" in text, path
        assert old not in text, path


def test_the_replay_page_is_built_once_then_read_from_the_cache(client, make_document, monkeypatch):
    """A second visit replays nothing and renders no move list: both come from the cache.
    (A game this long is told before its page shows the list: here by the test, as by
    the record's preparation; before that the viewer fills the list itself.)"""
    document = make_document("gift_trap", seed=6, players=5)
    record_id = upload(document)
    timeline = selectors.record_timeline(
        Record.objects.get(pk=record_id), players=document["players"], seat=None
    )["steps"]
    first = client.get(f"/records/{record_id}/").content.decode()

    def never(*args, **kwargs):
        raise AssertionError("built again")

    monkeypatch.setattr(selectors, "record_timeline", never)
    monkeypatch.setattr(selectors, "record_step_table", never)
    again = client.get(f"/records/{record_id}/").content.decode()
    csrf = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"|nonce="[^"]*"')
    assert csrf.sub("", again) == csrf.sub("", first)
    assert again.count("<li data-step=") == len(document["events"]) + 1
    assert "giftbox:moves" not in again
    assert timeline[-1]["text"].replace("'", "&#x27;") in again


def test_a_live_tables_seat_view_needs_its_token_every_time(api, client):
    """Live tables are never cached: each request shows the token's seat, or nothing."""
    engine = get_engine("gift_economy")
    n = engine.min_players
    opened = api.post(
        "/api/live/",
        {"game": engine.slug, "players": [f"p{i}" for i in range(n)], "seed": 5},
        format="json",
    ).json()
    tables = {}
    for _round in range(2):
        for seat in range(n):
            auth = {"HTTP_AUTHORIZATION": f"Seat {opened['seat_tokens'][seat]}"}
            response = client.get(f"/live/{opened['id']}/table/", **auth)
            assert response.status_code == 200
            tables.setdefault(seat, response.content)
            assert response.content == tables[seat]
        assert client.get(f"/live/{opened['id']}/table/").status_code == 401
    assert len(set(tables.values())) == n


def test_a_long_record_is_prepared_when_stored(
    api, client, make_document, monkeypatch, django_capture_on_commit_callbacks
):
    """Stored, then prepared by the task queued on commit: every viewer's timeline, the page
    and its first table are read from the cache, and the snapshots are the replayed states."""
    monkeypatch.setattr(viewer_warm, "WARM_MIN_EVENTS", 20)
    document = make_document("secret_santa", seed=7, players=4)
    assert len(document["events"]) >= 20
    with django_capture_on_commit_callbacks(execute=True):
        record_id = upload(document)
    record = Record.objects.get(pk=record_id)
    engine = get_engine("secret_santa")
    states = list(replay_states(engine, 4, document["options"], document["events"]))
    for count in range(state_cache.EVERY, len(states), state_cache.EVERY):
        saved = cache.get(state_cache._key(record, count))
        assert saved is not None
        state, following = state_cache._unbundle(saved)
        assert engine.view(state, None) == engine.view(states[count], None)
        assert following == document["events"][count : count + state_cache.EVERY]

    def never(*args, **kwargs):
        raise AssertionError("told again")

    monkeypatch.setattr(timeline, "record_states", never)
    monkeypatch.setattr(selectors, "record_timeline", never)
    monkeypatch.setattr(selectors, "record_step_table", never)
    assert client.get(f"/records/{record_id}/").status_code == 200
    players = document["players"]
    for seat in [None, 0, 1, 2, 3]:
        query = "" if seat is None else f"?seat={seat}"
        body = api.get(f"/api/records/{record_id}/timeline/{query}").json()
        told = timeline.timeline_entries(engine, players, document["events"], states, seat)
        assert body["steps"] == json.loads(json.dumps(told)), seat
    # A step's first visit starts from the nearest snapshot, and is the step told fresh.
    monkeypatch.undo()
    step = len(document["events"]) - 1
    fresh = selectors.record_step_view(record, step=step, seat=2)
    assert api.get(f"/api/records/{record_id}/steps/{step}/?seat=2").json() == json.loads(
        json.dumps(fresh)
    )


def test_a_short_record_is_not_prepared(make_document):
    record_id = upload(make_document("gift_swap", seed=2))
    assert viewer_warm.records_viewer_warm(record_ids=[record_id, 10_000]) == 0


def test_a_steps_first_visit_after_the_preparation_reads_no_database(
    make_document, monkeypatch, django_capture_on_commit_callbacks, django_assert_num_queries
):
    """The record's header and the snapshots with their events are kept: a step never asked
    before, for any viewer, is told from the cache alone, and is the step told fresh."""
    monkeypatch.setattr(viewer_warm, "WARM_MIN_EVENTS", 20)
    document = make_document("gift_trap", seed=8, players=5)
    with django_capture_on_commit_callbacks(execute=True):
        record_id = upload(document)
    record = Record.objects.get(pk=record_id)
    last = len(document["events"])
    for step, seat in ((state_cache.EVERY + 3, None), (last - 1, 2), (last, 4)):
        with django_assert_num_queries(0):
            body = selectors.record_step_json(record_id, step=step, seat=seat)
            table = selectors.record_step_table_body(record_id, step=step, seat=seat)
        fresh = selectors.record_step_view(record, step=step, seat=seat)
        assert json.loads(body) == json.loads(json.dumps(fresh))
        assert table.decode() == selectors.record_step_table(record, step=step, seat=seat)


def test_a_steps_first_visit_reads_its_snapshot_with_its_body(
    api, client, make_document, monkeypatch, django_capture_on_commit_callbacks
):
    """The preparation keeps each snapshot under the record's token too, and the set-up
    with the first events: a step's first visit, through the API's fast path or the
    table's view, reads it with the body and the header (neither the state cache by
    digest nor the log is asked), and is the step told fresh; without it (evicted), the
    visit falls back to the state cache and is the same."""
    from replays import response_cache

    monkeypatch.setattr(viewer_warm, "WARM_MIN_EVENTS", 20)
    document = make_document("gift_trap", seed=8, players=5)
    with django_capture_on_commit_callbacks(execute=True):
        record_id = upload(document)
    record = Record.objects.get(pk=record_id)
    every, last = state_cache.EVERY, len(document["events"])
    steps = [(5, 1), (every, None), (every + 3, None), (2 * every + 1, 2), (last, 4)]
    real_saved, real_between = state_cache._saved, state_cache.events_between

    def never(*args, **kwargs):
        raise AssertionError("the snapshot or the log was read again")

    for step, seat in steps:
        monkeypatch.setattr(state_cache, "_saved", never)
        monkeypatch.setattr(state_cache, "events_between", never)
        query = "" if seat is None else f"?seat={seat}"
        body = api.get(f"/api/records/{record_id}/steps/{step}/{query}").json()
        table = fragment(client, record_id, step, seat)
        monkeypatch.setattr(state_cache, "_saved", real_saved)
        monkeypatch.setattr(state_cache, "events_between", real_between)
        fresh = selectors.record_step_view(record, step=step, seat=seat)
        assert body == json.loads(json.dumps(fresh))
        assert table == selectors.record_step_table(record, step=step, seat=seat, listed=False)
    # Evicted from under the token: read by digest, the same step.
    token_name = response_cache.record_token_name(record_id)
    token = response_cache.token_taken(token_name)
    step = 3 * every + 5
    snapshot = response_cache.body_name(
        token_name, token, response_cache.snapshot_variant(state_cache.window_base(step))
    )
    cache.delete(snapshot)
    response_cache.local_bodies.clear()
    asked = []
    monkeypatch.setattr(
        state_cache, "_saved", lambda *args: asked.append(args) or real_saved(*args)
    )
    body = api.get(f"/api/records/{record_id}/steps/{step}/?seat=1").json()
    assert asked, "the evicted snapshot was not read by digest"
    assert body == json.loads(json.dumps(selectors.record_step_view(record, step=step, seat=1)))


def test_a_step_through_the_api_is_one_round_trip_first_visit_or_repeat(
    api, make_document, monkeypatch, django_capture_on_commit_callbacks, each_cache  # noqa: F811
):
    """On Redis, a step asked through the API's fast path is one round trip before its
    answer, never asked before or asked again: the throttle's script counts the request
    and reads the record's token, the body under it and, the body missing, what building
    it needs (the header, the snapshot). Storing a new body, after the answer, is the
    only other command. On either cache the answers are the step told fresh."""
    import redis

    monkeypatch.setattr(viewer_warm, "WARM_MIN_EVENTS", 20)
    document = make_document("gift_trap", seed=8, players=5)
    with django_capture_on_commit_callbacks(execute=True):
        record_id = upload(document)
    record = Record.objects.get(pk=record_id)
    sent: list[str] = []
    real = redis.Redis.execute_command

    def counted(self, *args, **kwargs):
        sent.append(str(args[0]).upper())
        return real(self, *args, **kwargs)

    monkeypatch.setattr(redis.Redis, "execute_command", counted)
    every = state_cache.EVERY
    for step, seat in (
        (3, None),
        (every + 2, 1),
        (2 * every + 7, None),
        (len(document["events"]), 4),
    ):
        query = "" if seat is None else f"?seat={seat}"
        url = f"/api/records/{record_id}/steps/{step}/{query}"
        fresh = json.loads(json.dumps(selectors.record_step_view(record, step=step, seat=seat)))
        for visit in ("first", "repeat"):
            sent.clear()
            assert api.get(url).json() == fresh, (step, seat, visit)
            if each_cache == "redis":
                stored = ["SET"] if visit == "first" else []
                assert sent == ["EVALSHA", *stored], (step, seat, visit)
