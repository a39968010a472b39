"""A seat's timeline speaks to it: "you" everywhere, never its own name in the third person.

Also: the sentences a page shows agree with the result (the replay page's headline), seats
past the table are numbered from 1, and a cached step or timeline body is keyed by the
code that words it, so a reworded sentence is never served from an older cache entry.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

import games
from games.play import replay
from games.registry import engine_slugs, get_engine
from replays import response_cache, state_cache
from replays.replay_page import result_words as _result_words
from replays.timeline import names_fill, setup_sentence

GAMES = engine_slugs()


def named(name: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_a_seats_own_timeline_says_you_and_never_its_name(api, make_document, game):
    engine = get_engine(game)
    document = make_document(game, seed=4, players=engine.min_players + 1)
    record_id = api.post("/api/records/", document, format="json").json()["id"]
    players = document["players"]
    final = replay(engine, len(players), document["options"], document["events"])
    scores = engine.result(final).scores
    everyone = api.get(f"/api/records/{record_id}/timeline/").json()["steps"]
    assert "(you)" not in everyone[0]["text"]
    assert not any(re.search(r"\b[Yy]ou\b", e["text"]) for e in everyone[1:])
    for seat, name in enumerate(players):
        steps = api.get(f"/api/records/{record_id}/timeline/?seat={seat}").json()["steps"]
        assert f"{name} (you)" in steps[0]["text"]
        for entry in steps[1:]:
            assert not named(name, entry["text"]), (seat, entry)
        mine = [e for e in steps[1:] if e["actor"] and e["actor"]["seat"] == seat]
        assert mine
        assert all(e["text"].startswith("You ") for e in mine)
        # The last step tells every final score, the viewer's as "you".
        assert re.search(rf"(?:: |, )you {scores[seat]}\b", steps[-1]["text"]), steps[-1]


@pytest.mark.django_db
def test_a_live_seat_is_told_you(api):
    opened = api.post(
        "/api/live/",
        {"game": "gift_swap", "players": ["Ana", "Ben", "Cy"], "seed": 3, "bots": {"0": "greedy"}},
        format="json",
    ).json()
    auth = {"HTTP_AUTHORIZATION": f"Seat {opened['seat_tokens'][1]}"}
    view = api.get(f"/api/live/{opened['id']}/", **auth).json()
    assert view["timeline"][0]["text"] == "Gift Swap for 3 players: Ana, Ben (you) and Cy."
    assert all(not named("Ben", e["text"]) for e in view["timeline"][1:])


def test_names_fill_numbers_a_seat_past_the_table_from_1():
    assert names_fill("{p0} and {p3}", ["Ana", "Ben", "Cy"]) == "Ana and seat 4"


def test_the_setup_sentence_marks_the_viewer():
    engine = get_engine("secret_santa")
    assert setup_sentence(engine, ["Ana", "Ben"]) == "Secret Santa for 2 players: Ana and Ben."
    assert setup_sentence(engine, ["Ana", "Ben"], 1) == (
        "Secret Santa for 2 players: Ana and Ben (you)."
    )


def test_the_replay_headline_gives_the_winners_own_score():
    players = ["Ana", "Ben", "Cy"]
    # Gift Gift Gone: the seat that reaches the target wins, though another scores more.
    reached = SimpleNamespace(result={"scores": [41, 50, 3], "winners": [0]})
    assert _result_words(reached, players) == "Ana wins with 41 points."
    one = SimpleNamespace(result={"scores": [1, -4, 0], "winners": [0]})
    assert _result_words(one, players) == "Ana wins with 1 point."
    tied = SimpleNamespace(result={"scores": [9, 9, 4], "winners": [0, 1]})
    assert _result_words(tied, players) == "Ana and Ben share the win with 9 points each."


def test_cached_bodies_are_keyed_by_the_code_that_words_them():
    version = state_cache.WORDS_VERSION
    assert version in response_cache.step_variant(3, 1)
    assert version in response_cache.timeline_variant(None)
    assert state_cache.words_version() == version


def test_the_words_fingerprint_follows_every_words_module(tmp_path, monkeypatch):
    copy = tmp_path / "games"
    shutil.copytree(Path(games.__file__).parent, copy, ignore=shutil.ignore_patterns("*.so"))
    monkeypatch.setattr(games, "__file__", str(copy / "__init__.py"))
    first = state_cache.words_version()
    words = copy / "gift_gift_gone" / "words.py"
    words.write_text(words.read_text() + "\n# reworded\n")
    assert state_cache.words_version() != first


def test_the_words_fingerprint_leaves_out_only_modules_replays_never_word_from(
    tmp_path, monkeypatch
):
    """Editing the analysis (a module of ``games/`` no replay body is worded from) keeps
    cached bodies; every module left out exists, and no replay module imports it."""
    root = Path(games.__file__).parent
    assert state_cache.NOT_WORDING
    for name in state_cache.NOT_WORDING:
        assert (root / name).is_file(), name
        module = "games." + name.removesuffix(".py").replace("/", ".")
        for source in Path(state_cache.__file__).parent.rglob("*.py"):
            assert module not in source.read_text(), f"{source} imports {module}"
    copy = tmp_path / "games"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("*.so"))
    monkeypatch.setattr(games, "__file__", str(copy / "__init__.py"))
    first = state_cache.words_version()
    for name in state_cache.NOT_WORDING:
        (copy / name).write_text((copy / name).read_text() + "\n# playouts tuned\n")
    assert state_cache.words_version() == first
    voice = copy / "voice.py"
    voice.write_text(voice.read_text() + "\n# reworded\n")
    assert state_cache.words_version() != first
