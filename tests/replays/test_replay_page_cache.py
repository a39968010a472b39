"""The replay page's own part is kept as bytes (``replays.replay_page``): never a visitor's.

What is kept is everything inside the page's ``<main>``; it must hold nothing of the
visitor who happened to ask first (their name, their CSRF token, the host they used),
only ever show a step-0 table as everyone sees it, and follow every change of what it
shows (a rename, the submitter's account). Each test runs on the local-memory cache and,
when ``CACHE_URL`` or ``CELERY_BROKER_URL`` names a Redis, on Redis too.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from replays import replay_page, replay_store, selectors, timeline
from replays.models import Player
from tests.replays.test_response_cache import each_cache, result_only, upload  # noqa: F401

pytestmark = pytest.mark.django_db
DATA_CARD = re.compile(r'data-card="([^"]+)"')
VISITOR = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"|nonce="[^"]*"')


# The replay slot's sections (the analysis panel: "Analyse this game" for who is signed
# in) are rendered per request into the kept part; the rest of <main> is the kept bytes.
SECTIONS = re.compile(r'<section class="analysis".*?</section>', re.S)


def main_part(page: str) -> str:
    return SECTIONS.sub("", page[page.index("<main>") : page.index("</main>")])


def signed_in(name: str) -> Client:
    user = get_user_model().objects.create_user(name, f"{name}@example.org", "a-long-password-1")
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("first", ["signed-in", "anonymous"])
def test_the_kept_part_holds_nothing_of_the_visitor_who_asked_first(make_document, first):
    record_id = upload(make_document("gift_trap", seed=4, players=4))
    member, anonymous = signed_in("Wilhelmina"), Client()
    order = [member, anonymous] if first == "signed-in" else [anonymous, member]
    pages = {id(c): c.get(f"/records/{record_id}/").content.decode() for c in order}
    mine, theirs = pages[id(member)], pages[id(anonymous)]
    assert "Wilhelmina" in mine
    assert "Log out" in mine
    assert "Wilhelmina" not in theirs
    assert "csrfmiddlewaretoken" not in theirs
    assert "Log in" in theirs
    assert main_part(VISITOR.sub("", mine)) == main_part(VISITOR.sub("", theirs))
    assert "Wilhelmina" not in main_part(mine)
    # The panel is the visitor's own: who may ask for an analysis.
    assert 'id="analysis-request"' in mine
    assert 'id="analysis-request"' not in theirs
    assert 'id="analysis-sign-in"' in theirs


def test_the_embed_snippet_names_the_host_each_visitor_asked(make_document, settings):
    settings.ALLOWED_HOSTS = ["testserver", "one.example", "two.example"]
    record_id = upload(make_document("secret_santa", seed=3, players=4))
    for host in ("one.example", "two.example", "one.example"):
        for path in (f"/records/{record_id}/", f"/records/{record_id}/embed/"):
            page = Client().get(path, HTTP_HOST=host).content.decode()
            if path.endswith("/embed/"):
                assert 'class="site"' not in page
                continue
            assert f"http://{host}/records/{record_id}/embed/" in page
            other = "two.example" if host == "one.example" else "one.example"
            assert other not in page
            assert replay_page.ORIGIN_MARK not in page


@pytest.mark.parametrize("game", ["secret_santa", "gift_economy", "gift_gift_gone", "gift_trap"])
def test_the_kept_table_is_everyones_after_a_seat_asked_first(client, make_document, game):
    """A seat's table at step 0 asked first (its hand in it) is never the page's table."""
    record_id = upload(make_document(game, seed=11))
    seat0 = client.get(f"/records/{record_id}/steps/0/table/?seat=0&moves=listed").content.decode()
    everyone = client.get(f"/records/{record_id}/steps/0/table/?moves=listed").content.decode()
    page = client.get(f"/records/{record_id}/").content.decode()
    assert everyone in page
    if seat0 != everyone:
        assert seat0 not in page
    assert set(DATA_CARD.findall(main_part(page))) <= set(DATA_CARD.findall(everyone))


def test_a_second_visit_reads_the_kept_part(client, make_document, monkeypatch):
    record_id = upload(make_document("gift_swap", seed=5))
    first = client.get(f"/records/{record_id}/").content

    def never(*args, **kwargs):
        raise AssertionError("read or rendered again")

    monkeypatch.setattr(selectors, "record_get", never)
    monkeypatch.setattr(replay_page, "_replay_context", never)
    again = client.get(f"/records/{record_id}/").content
    assert VISITOR.sub("", again.decode()) == VISITOR.sub("", first.decode())


def test_a_missing_record_is_a_404_and_nothing_is_kept(client, make_document):
    assert client.get("/records/987654/").status_code == 404
    record_id = upload(make_document("gift_swap", seed=6))
    assert client.get(f"/records/{record_id}/").status_code == 200
    assert client.get("/records/987654/embed/").status_code == 404


def test_the_submitters_new_name_and_deletion_reach_the_page(client, make_document):
    user = get_user_model().objects.create_user("Oldname", "o@example.org", "a-long-password-1")
    record_id = upload(make_document("gift_swap", seed=7), user=user)
    results = upload(result_only(["Ana", "Ben", "Cy"], [30, 50, 44]), user=user)
    for path in (f"/records/{record_id}/", f"/records/{results}/"):
        assert "submitted by Oldname" in client.get(path).content.decode()
    user.username = "Newname"
    user.save()
    for path in (f"/records/{record_id}/", f"/records/{results}/"):
        page = client.get(path).content.decode()
        assert "submitted by Newname" in page
        assert "Oldname" not in page
    user.delete()
    for path in (f"/records/{record_id}/", f"/records/{results}/"):
        assert "submitted by" not in client.get(path).content.decode()


def test_a_renamed_player_reaches_the_embed_too(client, make_document):
    document = {
        **make_document("secret_santa", seed=5, players=3),
        "players": ["Ana", "Quin", "Cy"],
    }
    record_id = upload(document)
    path = f"/records/{record_id}/embed/"
    assert "Quin" in client.get(path).content.decode()
    player = Player.objects.get(name="Quin")
    player.name = "Zara"
    player.save()
    page = client.get(path).content.decode()
    assert "Zara" in page
    assert "Quin" not in page


def test_an_analysis_asked_for_after_the_page_was_kept_shows_on_the_next_visit(make_document):
    """The panel is rendered per request: the kept bytes never freeze "not analysed yet"."""
    from analytics.models import RecordAnalysis

    record_id = upload(make_document("secret_santa", seed=5, players=4))
    before = Client().get(f"/records/{record_id}/").content.decode()
    assert 'data-status=""' in before
    RecordAnalysis.objects.create(
        record_id=record_id, version="test", settings_hash="x", status="running"
    )
    after = Client().get(f"/records/{record_id}/").content.decode()
    assert 'data-status="running"' in after
    unchanged = [VISITOR.sub("", SECTIONS.sub("", page)) for page in (before, after)]
    assert unchanged[0] == unchanged[1], "only the panel changed"


def test_a_long_game_not_told_yet_gets_its_page_at_once_and_the_whole_page_after(
    client, make_document, monkeypatch
):
    """Before its preparation told it, a long game's page does not tell the game (150-250
    ms for the longest): its list comes empty, marked for the viewer to fill from the
    timeline, and that page is not kept; once the timeline is told (the viewer's own
    fetch), the next visit gets the whole list, and keeps it."""
    monkeypatch.setattr(replay_store, "STORE_MIN_EVENTS", 20)
    document = make_document("gift_trap", seed=3, players=4)
    record_id = upload(document)  # not prepared: shorter than viewer_warm.WARM_MIN_EVENTS
    tell = timeline.timeline_entries

    def never(*args, **kwargs):
        raise AssertionError("the game was told for the page")

    monkeypatch.setattr(timeline, "timeline_entries", never)
    for _ in range(2):  # not kept: the second visit is the same page, not told either
        page = client.get(f"/records/{record_id}/").content.decode()
        assert 'data-pending="true"' in page
        assert f"The {len(document['events']):,} moves are being told in words" in page
        assert "data-step=" not in page
        names = ", ".join(document["players"][:-1]) + " and " + document["players"][-1]
        sentence = f"GiftTRAP for 4 players: {names}."
        assert f'<p id="step-text" class="step-text" aria-live="polite">{sentence}</p>' in page
    embed = client.get(f"/records/{record_id}/embed/").content.decode()
    assert 'data-pending="true"' in embed

    monkeypatch.setattr(timeline, "timeline_entries", tell)
    steps = client.get(f"/api/records/{record_id}/timeline/").json()["steps"]
    whole = client.get(f"/records/{record_id}/").content.decode()
    assert "data-pending" not in whole
    assert re.findall(r'<li data-step="(\d+)"', whole) == [str(entry["step"]) for entry in steps]
    assert selectors.timeline_items_html(steps) in whole

    def again(*args, **kwargs):
        raise AssertionError("rendered again")

    monkeypatch.setattr(replay_page, "_replay_context", again)
    kept = client.get(f"/records/{record_id}/").content.decode()
    assert VISITOR.sub("", kept) == VISITOR.sub("", whole)


def test_a_short_game_is_told_for_its_page_as_before(client, make_document):
    """Under ``replay_store.STORE_MIN_EVENTS`` events a game is told in a few ms: its page
    comes whole on the first visit."""
    record_id = upload(make_document("gift_swap", seed=7))
    page = client.get(f"/records/{record_id}/").content.decode()
    assert "data-pending" not in page
    assert '<li data-step="1">' in page
