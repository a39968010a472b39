"""A step's first visit: drawn with the fast kit (the bytes ``format_html`` gives), built on
the API's fast path without the DRF view, and kept in the cache only once answered.

Runs on the local-memory cache and, when ``CACHE_URL`` or ``CELERY_BROKER_URL`` names a
Redis, on Redis too (``each_cache``).
"""

from __future__ import annotations

import html
import json
import random
from importlib import import_module
from typing import Any

import pytest
from django.test import RequestFactory
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from rest_framework.test import APIClient

from games.base import CHANCE
from games.play import replay_states
from games.registry import all_engines, get_engine
from replays import pages, response_cache, selectors
from replays.api import views
from replays.models import Record
from replays.simulation import simulated_document
from replays.tables import kit, table_html
from replays.timeline import step_move_words
from tests.replays.test_fastpath_signed_in import clients, reader  # noqa: F401 (fixture)
from tests.replays.test_response_cache import each_cache, upload  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

DRAWING_MODULES = [
    "replays.tables",
    "replays.tables.generic",
    *(f"replays.tables.{engine.slug}" for engine in all_engines()),
]


def escaped(value: Any) -> str:
    """Django's ``conditional_escape``, what is beyond ASCII then written as character
    references (as the kit writes a table: ``kit.ascii_html``)."""
    text = str(conditional_escape(value))
    if isinstance(value, SafeString):
        return text
    return text.encode("ascii", "xmlcharrefreplace").decode()


def reference_el(tag: str, *children: Any, cls: str = "", **attrs: Any) -> SafeString:
    """The kit's ``el`` as Django would write it: ``conditional_escape`` of every part."""
    attributes = [("class", cls)] if cls else []
    attributes += [(name.rstrip("_").replace("_", "-"), value) for name, value in attrs.items()]
    rendered = "".join(
        f' {escaped(name)}="{escaped("" if value is True else value)}"'
        for name, value in attributes
        if value is not None and value is not False
    )
    inner = "".join(escaped(child) for child in children)
    return mark_safe(f"<{tag}{rendered}>{inner}</{tag}>")


def tables_of_every_game() -> list[str]:
    """Tables of every game at sampled steps, for every viewer, with names to escape."""
    drawn = []
    for engine in sorted(all_engines(), key=lambda e: e.slug):
        players = engine.max_players
        document = simulated_document(
            engine.slug, num_players=players, rng=random.Random(players), simulated=False
        )
        names = [f"P<{i}>&'\" Zoë 🎁" for i in range(players)]
        states = list(replay_states(engine, players, document["options"], document["events"]))
        rng = random.Random(1)
        for step in sorted({0, len(states) - 1, *rng.sample(range(len(states)), 6)}):
            state = states[step]
            for seat in [None, *range(players)]:
                movers = [m for m in engine.to_move(state) if m != CHANCE and seat in (None, m)]
                moves = step_move_words(engine, state, movers, names)
                drawn.append(table_html(engine, state, seat=seat, players=names, moves=moves))
    return drawn


def test_the_kit_draws_the_bytes_django_escaping_draws(monkeypatch):
    fast = tables_of_every_game()
    for name in DRAWING_MODULES:
        module = import_module(name)
        if hasattr(module, "el"):
            monkeypatch.setattr(module, "el", reference_el)
    monkeypatch.setattr(kit, "el", reference_el)
    reference = tables_of_every_game()
    assert len(fast) == len(reference) > 200
    for ours, theirs in zip(fast, reference, strict=True):
        assert ours == theirs
    assert any("P&lt;1&gt;&amp;&#x27;&quot; Zo&#235; &#127873;" in table for table in fast)


def test_a_drawn_table_is_ascii_and_reads_as_the_names_and_words_it_draws():
    """Every table is ASCII (a string of one byte a character: ``kit.ascii_html``), and what
    was beyond ASCII reads back as itself: the names, a GiftTRAP gift's pack icon, a card
    back, a score line's arrow."""
    drawn = tables_of_every_game()
    assert all(table.isascii() for table in drawn)
    text = "".join(html.unescape(table) for table in drawn)
    for words in ("P<3>&'\" Zoë 🎁", "🎈", "→", "·"):
        assert words in text


def test_the_kits_remembered_escapes_stay_bounded_and_right(monkeypatch):
    monkeypatch.setattr(kit, "_ESCAPED_MAX", 4)
    monkeypatch.setattr(kit, "_ESCAPED", {})
    monkeypatch.setattr(kit, "_ESCAPED_OLD", {})
    for index in range(10):
        assert kit.el("b", f"<{index}>") == f"<b>&lt;{index}&gt;</b>"
        assert len(kit._ESCAPED) <= 4
        assert len(kit._ESCAPED_OLD) <= 4
    assert (
        kit.el("i", mark_safe("<u>x</u>"), title='"q"') == '<i title="&quot;q&quot;"><u>x</u></i>'
    )


def test_a_full_memo_keeps_what_every_table_says(monkeypatch):
    """Strings said once (a record's names, its score lines) fill the memo; a string every
    table says is still remembered across the fills, not escaped again after each."""
    monkeypatch.setattr(kit, "_ESCAPED_MAX", 4)
    monkeypatch.setattr(kit, "_ESCAPED", {})
    monkeypatch.setattr(kit, "_ESCAPED_OLD", {})
    asked: list[str] = []  # what the kit escaped, not found in its memo
    monkeypatch.setattr(kit, "escape_html", lambda text: asked.append(text) or html.escape(text))
    for index in range(20):
        assert kit.esc("a class <b>") == "a class &lt;b&gt;"
        assert kit.esc(f"said once {index} é") == f"said once {index} &#233;"
    assert asked.count("a class <b>") == 1
    assert len(asked) == 21


@pytest.mark.parametrize("listed", [False, True], ids=["folded", "listed"])
def test_a_tables_first_visit_is_kept_once_the_answer_is_sent(make_document, listed):
    """Each of a step's two tables (its list of moves folded, as the viewer first asks
    for it, or listed: ``?moves=listed``) is drawn, answered, then kept under its own key."""
    record_id = upload(make_document("secret_santa", seed=5, players=4))
    record = Record.objects.get(pk=record_id)
    # A step where seat 2 may move (its table has a list of moves), drawn without the cache.
    step = next(
        k for k in range(1, 40) if "may do" in selectors.record_step_table(record, step=k, seat=2)
    )
    query = "?seat=2&moves=listed" if listed else "?seat=2"
    request = RequestFactory().get(f"/records/{record_id}/steps/{step}/table/{query}")
    response = pages.record_step_table_fragment(request, record_id, step)
    assert response.status_code == 200
    drawn = selectors.record_step_table(record, step=step, seat=2, listed=listed)
    assert response.content.decode() == drawn
    assert ("<li>" in drawn) is listed, "seat 2's moves listed, or folded and left out"
    token_name = response_cache.record_token_name(record_id)
    other = response_cache.table_variant(step, 2, listed=not listed)
    variant = response_cache.table_variant(step, 2, listed=listed)
    assert response_cache.bodies_read(token_name, [variant])[1] == [None], "not kept yet"
    response.close()  # the server closes a response once it has sent it
    response_cache.local_bodies.clear()
    assert response_cache.bodies_read(token_name, [variant])[1] == [response.content]
    assert response_cache.bodies_read(token_name, [other])[1] == [None], "the other table"
    again = pages.record_step_table_fragment(request, record_id, step)
    assert not isinstance(again, response_cache.StoredAfterResponse), "read from the cache"
    assert again.content == response.content


def test_a_steps_first_visit_is_built_on_the_fast_path(make_document, monkeypatch, reader):  # noqa: F811
    """A miss is built without the DRF view, for every kind of client, and each answer is
    the step told fresh for its viewer; a refused step or seat still gets DRF's answer."""
    document = make_document("gift_trap", seed=6, players=4)
    record_id = upload(document)
    record = Record.objects.get(pk=record_id)
    by = clients(reader)

    def never(*args, **kwargs):
        raise AssertionError("reached the DRF view")

    with monkeypatch.context() as patched:
        patched.setattr(views.RecordStepView, "get", never)
        for step, who, seat in [(3, "anonymous", None), (9, "token", 1), (12, "session", 2)]:
            query = "" if seat is None else f"?seat={seat}"
            response = by[who].get(f"/api/records/{record_id}/steps/{step}/{query}")
            assert response.status_code == 200, (who, response.content[:200])
            assert response["Content-Type"] == "application/json"
            fresh = selectors.record_step_view(record, step=step, seat=seat)
            assert response.json() == json.loads(json.dumps(fresh))
            assert isinstance(response, response_cache.StoredAfterResponse)
    last = len(document["events"])
    for _ in range(2):  # refusals are never kept
        outside = APIClient().get(f"/api/records/{record_id}/steps/{last + 1}/")
        assert outside.status_code == 404
        assert outside.json()["code"] == "step_out_of_range"
        seat = APIClient().get(f"/api/records/{record_id}/steps/2/?seat=4")
        assert seat.status_code == 400
        assert seat.json()["code"] == "bad_seat"
    missing = APIClient().get("/api/records/999999/steps/2/")
    assert missing.status_code == 404


def test_a_seats_first_visit_on_the_fast_path_is_only_ever_that_seats(make_document):
    """Every viewer's step in turn, on a miss: each body holds only what its viewer saw."""
    engine = get_engine("gift_economy")
    document = make_document("gift_economy", seed=9, players=3)
    record_id = upload(document)
    states = list(replay_states(engine, 3, document["options"], document["events"]))
    step = len(document["events"]) // 2
    bodies = {}
    for seat in [0, None, 1, 2]:
        query = "" if seat is None else f"?seat={seat}"
        body = APIClient().get(f"/api/records/{record_id}/steps/{step}/{query}").json()
        assert body["seat"] == seat
        assert body["state"] == json.loads(json.dumps(engine.view(states[step], seat)))
        bodies[seat] = body
    assert len({json.dumps(b["state"], sort_keys=True) for b in bodies.values()}) == 4
