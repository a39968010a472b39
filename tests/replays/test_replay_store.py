"""A long record's prepared replay is kept in the database (``replays.replay_store``).

After the cache is emptied (a Redis restart, an eviction, a day), a first visit reads the
stored snapshot or timeline with one query instead of replaying the log; a row made from
another log, version, build or set of names is never read; a seat's timeline is only
ever read back for that seat; a change to the record drops or replaces what is stored.
"""

from __future__ import annotations

import json
import uuid

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.play import replay_states
from games.registry import get_engine
from replays import replay_store, selectors, state_cache, timeline, viewer_warm
from replays.models import Player, Record, StoredSnapshots, StoredTimeline
from replays.services import player_merge
from tests.replays.test_response_cache import upload

pytestmark = pytest.mark.django_db

GAME, PLAYERS = "gift_trap", 4


@pytest.fixture
def long_enough(monkeypatch, settings):
    """Records of 20 events count as long (a 4-player GiftTRAP game has a few hundred),
    snapshots every 8 events, and a cache with room for all of them."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": uuid.uuid4().hex,
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        }
    }
    monkeypatch.setattr(replay_store, "STORE_MIN_EVENTS", 20)
    monkeypatch.setattr(viewer_warm, "WARM_MIN_EVENTS", 20)
    monkeypatch.setattr(state_cache, "EVERY", 8)
    cache.clear()


def never(*args, **kwargs):
    raise AssertionError("the log was replayed")


def prepared(make_document, seed: int = 3) -> tuple[dict, Record]:
    document = make_document(GAME, seed=seed, players=PLAYERS)
    record_id = upload(document)
    assert viewer_warm.record_viewer_warm(record_id=record_id)
    return document, Record.objects.get(pk=record_id)


def told(document: dict, seat: int | None, players: list[str] | None = None) -> list:
    engine = get_engine(GAME)
    states = list(replay_states(engine, PLAYERS, document["options"], document["events"]))
    entries = timeline.timeline_entries(
        engine, players or document["players"], document["events"], states, seat
    )
    return json.loads(json.dumps(entries))


def test_the_preparation_stores_one_row_of_snapshots_and_one_timeline_per_viewer(
    long_enough, make_document
):
    document, record = prepared(make_document)
    snapshots = StoredSnapshots.objects.get(record=record)
    assert (snapshots.build, snapshots.version, snapshots.every) == (
        state_cache.BUILD,
        state_cache.VERSION,
        8,
    )
    assert snapshots.digest == record.digest
    bundles = replay_store.snapshots_read(
        record_id=record.pk,
        build=state_cache.BUILD,
        version=state_cache.VERSION,
        digest=record.digest,
        every=8,
    )
    assert bundles is not None
    assert len(bundles) == len(document["events"]) // 8
    viewers = sorted(StoredTimeline.objects.filter(record=record).values_list("viewer", flat=True))
    assert viewers == [StoredTimeline.EVERYONE, *range(PLAYERS)]


@pytest.mark.parametrize("step_of", [lambda last: 8 * 5 + 3, lambda last: last - 2])
def test_a_first_step_after_the_cache_is_emptied_reads_the_stored_snapshot_not_the_log(
    long_enough, make_document, monkeypatch, django_assert_num_queries, step_of
):
    document, record = prepared(make_document)
    engine = get_engine(GAME)
    states = list(replay_states(engine, PLAYERS, document["options"], document["events"]))
    step = step_of(len(document["events"]))
    cache.clear()
    monkeypatch.setattr(type(engine), "setup", never)
    light = Record.objects.defer("events").get(pk=record.pk)
    with django_assert_num_queries(1):  # the stored row, and nothing of the log
        before, event, state = state_cache.position_at(engine, light, PLAYERS, step)
    assert "events" in light.get_deferred_fields()
    assert engine.view(state, None) == engine.view(states[step], None)
    assert engine.view(before, None) == engine.view(states[step - 1], None)
    assert event == document["events"][step - 1]
    # Put back in the cache: the next step reads no database; a step elsewhere reads the
    # row again (one query), and not the log.
    with django_assert_num_queries(0):
        _, _, state = state_cache.position_at(engine, light, PLAYERS, step + 1)
    assert engine.view(state, 1) == engine.view(states[step + 1], 1)
    with django_assert_num_queries(1):
        _, _, state = state_cache.position_at(engine, light, PLAYERS, 17)
    assert engine.view(state, 1) == engine.view(states[17], 1)
    assert "events" in light.get_deferred_fields()


def test_a_first_timeline_after_the_cache_is_emptied_reads_the_stored_one(
    long_enough, make_document, monkeypatch
):
    document, record = prepared(make_document)
    expected = {seat: told(document, seat) for seat in [None, *range(PLAYERS)]}
    page = selectors.record_replay_page_parts(record.pk)
    cache.clear()
    selectors.response_cache.local_bodies.clear()
    monkeypatch.setattr(timeline, "record_states", never)
    monkeypatch.setattr(timeline, "timeline_entries", never)
    for seat, steps in expected.items():
        body = json.loads(selectors.record_timeline_body(record.pk, seat=seat))
        assert body["seat"] == seat
        assert body["steps"] == steps, seat
    # The page's move list (from the dict form, read back from the stored JSON) too.
    assert selectors.record_replay_page_parts(record.pk) == page


def test_a_seats_stored_timeline_is_never_read_for_another_viewer(
    long_enough, make_document, monkeypatch, api
):
    """Only seat 0's timeline is stored, and marked: seat 0 is served the mark (it is read
    from the database), every other viewer is told its own timeline, never the mark."""
    document, record = prepared(make_document)
    StoredTimeline.objects.filter(record=record).exclude(viewer=0).delete()
    mark = b'{"steps": "seat 0 only"}'
    StoredTimeline.objects.filter(record=record, viewer=0).update(
        body=replay_store.zlib.compress(mark)
    )
    players = document["players"]
    args = {"version": state_cache.WORDS_VERSION, "digest": record.digest, "players": players}
    assert replay_store.timeline_read(record_id=record.pk, seat=0, **args) == mark
    for seat in [None, 1, 2, 3]:
        assert replay_store.timeline_read(record_id=record.pk, seat=seat, **args) is None
    cache.clear()
    selectors.response_cache.local_bodies.clear()
    for seat in [None, 1, 2, 3, 0]:
        query = "" if seat is None else f"?seat={seat}"
        response = api.get(f"/api/records/{record.pk}/timeline/{query}")
        assert response.status_code == 200
        if seat == 0:
            assert response.content == mark
        else:
            assert b"seat 0 only" not in response.content
            assert response.json()["steps"] == told(document, seat), seat
    # Each viewer told now was stored as its own row, for itself.
    for seat in [None, 1, 2, 3]:
        stored = replay_store.timeline_read(record_id=record.pk, seat=seat, **args)
        assert stored is not None
        assert json.loads(stored)["seat"] == seat


@pytest.mark.parametrize(
    ("field", "value"), [("version", "0ld"), ("build", "other"), ("every", 16)]
)
def test_snapshots_of_another_version_build_or_spacing_are_absent_and_replaced(
    long_enough, make_document, monkeypatch, field, value
):
    document, record = prepared(make_document)
    StoredSnapshots.objects.filter(record=record).update(**{field: value})
    cache.clear()
    engine = get_engine(GAME)
    replayed = []
    real = type(engine).setup

    def counted(self, *args, **kwargs):
        replayed.append(args)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(type(engine), "setup", counted)
    states = list(replay_states(engine, PLAYERS, document["options"], document["events"]))
    replayed.clear()
    light = Record.objects.defer("events").get(pk=record.pk)
    _, _, state = state_cache.position_at(engine, light, PLAYERS, 30)
    assert len(replayed) == 1  # from the log
    assert engine.view(state, 2) == engine.view(states[30], 2)
    current = StoredSnapshots.objects.get(record=record, build=state_cache.BUILD)
    assert (current.version, current.every) == (state_cache.VERSION, 8)
    if field == "build":  # the other build's row is that build's: kept
        assert StoredSnapshots.objects.filter(record=record, build="other").exists()
    cache.clear()  # and now read from the row stored in its place
    _, _, state = state_cache.position_at(engine, light, PLAYERS, 30)
    assert len(replayed) == 1
    assert engine.view(state, 2) == engine.view(states[30], 2)


def test_a_visitors_replay_stores_the_snapshots_it_passed_and_a_later_one_the_rest(
    long_enough, make_document, monkeypatch
):
    document = make_document(GAME, seed=6, players=PLAYERS)
    record = Record.objects.get(pk=upload(document))
    engine = get_engine(GAME)
    states = list(replay_states(engine, PLAYERS, document["options"], document["events"]))
    last = len(document["events"])
    light = Record.objects.defer("events").get(pk=record.pk)
    queries = CaptureQueriesContext(connection)
    with queries:  # replayed to 16: two snapshots
        state_cache.position_at(engine, light, PLAYERS, 21)
    looked_up = [
        q["sql"] for q in queries if "storedsnapshots" in q["sql"] and "SELECT" in q["sql"]
    ]
    assert len(looked_up) == 1  # the row asked for once, then the log
    args = {"build": state_cache.BUILD, "version": state_cache.VERSION, "digest": record.digest}
    stored = replay_store.snapshots_read(record_id=record.pk, every=8, **args)
    assert stored is not None
    assert len(stored) == 2
    cache.clear()
    _, _, state = state_cache.position_at(engine, light, PLAYERS, last)  # past the row
    assert engine.view(state, 0) == engine.view(states[last], 0)
    stored = replay_store.snapshots_read(record_id=record.pk, every=8, **args)
    assert stored is not None
    assert len(stored) == (last - 1) // 8
    cache.clear()
    monkeypatch.setattr(type(engine), "setup", never)
    for step in (9, last // 2, last):
        _, _, state = state_cache.position_at(engine, light, PLAYERS, step)
        assert engine.view(state, 1) == engine.view(states[step], 1)


def test_a_timeline_of_another_words_version_is_told_again_and_replaced(
    long_enough, make_document, monkeypatch
):
    document, record = prepared(make_document)
    StoredTimeline.objects.filter(record=record).update(version="0ld")
    cache.clear()
    selectors.response_cache.local_bodies.clear()
    body = json.loads(selectors.record_timeline_body(record.pk, seat=2))
    assert body["steps"] == told(document, 2)
    row = StoredTimeline.objects.get(record=record, viewer=2)
    assert row.version == state_cache.WORDS_VERSION


def test_a_visitor_of_a_long_record_never_prepared_stores_what_it_replayed(
    long_enough, make_document
):
    document = make_document(GAME, seed=5, players=PLAYERS)
    record_id = upload(document)
    assert not StoredSnapshots.objects.filter(record_id=record_id).exists()
    selectors.record_step_json(record_id, step=len(document["events"]) - 2, seat=1)
    assert StoredSnapshots.objects.filter(record_id=record_id).count() == 1
    selectors.record_timeline_body(record_id, seat=1)
    assert list(
        StoredTimeline.objects.filter(record_id=record_id).values_list("viewer", flat=True)
    ) == [1]


def test_a_short_record_is_never_stored(make_document, monkeypatch):
    monkeypatch.setattr(state_cache, "EVERY", 8)
    document = make_document("gift_swap", seed=2)
    assert len(document["events"]) < replay_store.STORE_MIN_EVENTS
    record_id = upload(document)
    selectors.record_step_json(record_id, step=len(document["events"]), seat=None)
    selectors.record_timeline_body(record_id, seat=None)
    assert not StoredSnapshots.objects.exists()
    assert not StoredTimeline.objects.exists()


def test_a_correction_drops_the_stored_replay_and_the_next_preparation_replaces_it(
    long_enough, make_document
):
    """A record saved with its identity or options changed (a correction, an admin's edit)
    loses its rows; rows left of the old digest would never be read."""
    document, record = prepared(make_document)
    old_digest = record.digest
    record.digest = "corrected-" + old_digest[:20]
    record.save(update_fields=["result", "digest"])
    assert not StoredSnapshots.objects.filter(record=record).exists()
    assert not StoredTimeline.objects.filter(record=record).exists()
    assert viewer_warm.record_viewer_warm(record_id=record.pk)
    assert StoredSnapshots.objects.get(record=record).digest == record.digest
    assert set(StoredTimeline.objects.filter(record=record).values_list("digest", flat=True)) == {
        record.digest
    }
    args = {"version": state_cache.WORDS_VERSION, "players": document["players"]}
    assert (
        replay_store.timeline_read(record_id=record.pk, seat=1, digest=old_digest, **args) is None
    )
    old = replay_store.snapshots_read(
        record_id=record.pk,
        build=state_cache.BUILD,
        version=state_cache.VERSION,
        digest=old_digest,
        every=8,
    )
    assert old is None


def test_marking_a_record_as_bot_play_keeps_its_stored_replay(long_enough, make_document):
    _, record = prepared(make_document)
    record.simulated = True
    record.save(update_fields=["simulated", "meta"])
    assert StoredSnapshots.objects.filter(record=record).exists()
    assert StoredTimeline.objects.filter(record=record).count() == PLAYERS + 1


def test_merged_players_replace_the_stored_timelines(
    long_enough, make_document, django_capture_on_commit_callbacks
):
    document, record = prepared(make_document)
    old = document["players"][1]
    keep = Player.objects.create(name=f"kept-{uuid.uuid4().hex[:6]}")
    with django_capture_on_commit_callbacks(execute=True):  # the announcement prepares it
        player_merge(keep=keep, merge=[Player.objects.get(name=old)])
    players = [keep.name if name == old else name for name in document["players"]]
    rows = StoredTimeline.objects.filter(record=record)
    assert set(rows.values_list("players", flat=True)) == {replay_store.players_key(players)}
    cache.clear()
    selectors.response_cache.local_bodies.clear()
    body = json.loads(selectors.record_timeline_body(record.pk, seat=None))
    assert body["players"] == players
    assert body["steps"] == told(document, None, players)


def test_a_renamed_players_stored_timeline_is_absent(long_enough, make_document):
    """A name changed with no merge (the admin): the rows name the old names, never read."""
    document, record = prepared(make_document)
    player = Player.objects.get(name=document["players"][0])
    player.name = f"renamed-{uuid.uuid4().hex[:6]}"
    player.save()
    cache.clear()
    selectors.response_cache.local_bodies.clear()
    body = json.loads(selectors.record_timeline_body(record.pk, seat=None))
    assert body["players"][0] == player.name
    assert player.name in body["steps"][0]["text"]


def test_a_deleted_record_takes_its_stored_replay_with_it(long_enough, make_document):
    _, record = prepared(make_document)
    record.delete()
    assert not StoredSnapshots.objects.exists()
    assert not StoredTimeline.objects.exists()


def test_a_copy_written_while_its_record_is_deleted_breaks_nothing(long_enough, make_document):
    """A visitor storing what it replayed while the record is deleted: no foreign key in
    the database refuses the write (or, later, the deletion), the caller's transaction
    goes on, and the row left behind is never read for any record."""
    _, record = prepared(make_document)
    gone = record.pk
    record.delete()
    assert replay_store.timeline_write(
        record_id=gone, seat=None, version="v", digest="d", players=["a"], body=b"{}"
    )
    assert replay_store.snapshots_write(
        record_id=gone, build="py", version="v", digest="d", every=8, bundles=[b"x"]
    )
    assert Record.objects.count() == 0  # the transaction still answers
    connection.check_constraints()  # what a commit would check
    other_document, other = prepared(make_document, seed=4)
    assert other.pk != gone
    cache.clear()
    selectors.response_cache.local_bodies.clear()
    body = json.loads(selectors.record_timeline_body(other.pk, seat=None))
    assert body["steps"] == told(other_document, None)
