"""Every game's words in the viewer's voice, and every game's end told with its scores.

* The sentence of the event that ends a game names every seat's final score, equal to the
  engine's result, in everyone's view and in each seat's own view, for every player count,
  many seeds, both bots and the house rules that change how a game ends or is scored.
* In a seat's own view no sentence and no move label names that seat in the third person
  (the placeholder ``{pN}`` a page fills with its name): the seat is "you", and a verb after
  "you" agrees with it ("you take", never "you takes").
"""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Any

import pytest

from games.play import BOTS, replay_states, self_play
from games.registry import get_engine
from games.voice import Voice, final_scores, plain

SEEDS = range(6)

#: House rules that change how a game ends or is scored, played beside the defaults.
VARIANTS: dict[str, list[dict[str, Any] | None]] = {
    "gift_economy": [
        None,
        {"ranking": "goal_only"},
        {"ranking": "capped"},
        {"ranking": "exact"},
        {"ranking": "closeness_floored"},
    ],
    "gift_gift_gone": [None, {"turn_actions": "one"}],
    "gift_swap": [None],
    "gift_trap": [None, {"max_rounds": 2}, {"expert_cards": True}],
    "secret_santa": [None],
}
GAMES = sorted(VARIANTS)


@cache
def _played(slug: str, n: int, seed: int, variant: int) -> tuple[list[dict], list[Any]]:
    engine = get_engine(slug)
    options = VARIANTS[slug][variant]
    # Random GiftTRAP players may never reach the Gifted Zone: its games are the greedy bot's.
    bot = BOTS["greedy" if seed % 2 or slug == "gift_trap" else "random"]
    events, _ = self_play(engine, n, options=options, rng=random.Random(seed), bots=[bot] * n)
    return events, list(replay_states(engine, n, options, events))


def _cases() -> list[tuple[str, int, int, int]]:
    cases = []
    for slug in GAMES:
        engine = get_engine(slug)
        for n in range(engine.min_players, engine.max_players + 1):
            for variant in range(len(VARIANTS[slug])):
                cases.extend((slug, n, seed, variant) for seed in SEEDS)
    return cases


def ref(seat: int, viewer: int | None) -> str:
    return "you" if seat == viewer else f"{{p{seat}}}"


def scores_told(text: str, n: int, viewer: int | None) -> list[int]:
    """Each seat's score as the "final scores" clause of ``text`` gives it."""
    head = re.search(r"\bfinal scores?\b", text)
    assert head, f"no final scores told: {text!r}"
    tail = text[head.end() :]
    told = []
    for seat in range(n):
        found = re.search(rf"(?:: |, ){re.escape(ref(seat, viewer))} (-?\d+)\b", tail)
        assert found, f"no final score for seat {seat} in {text!r}"
        told.append(int(found.group(1)))
    return told


@pytest.mark.parametrize(("slug", "n", "seed", "variant"), _cases())
def test_the_last_sentence_tells_the_results_scores(slug, n, seed, variant):
    engine = get_engine(slug)
    events, states = _played(slug, n, seed, variant)
    result = engine.result(states[-1])
    for viewer in [None, *range(n)]:
        text = engine.describe(events[-1], viewer, before=states[-2], after=states[-1])
        assert scores_told(text, n, viewer) == result.scores, text
        # A winner's score said beside the win ("wins with 50 points") is the result's too.
        for said in re.finditer(r"\b(?:win|wins|share the win) with (-?\d+) points?\b", text):
            assert int(said.group(1)) == result.scores[result.winners[0]], text
        for winner in result.winners:
            assert re.search(
                rf"{re.escape(ref(winner, viewer))}(?!\d)[^;]* (?:win|wins|share)", text
            )


def _own_view_cases() -> list[tuple[str, int, int]]:
    return [
        (slug, n, seed)
        for slug in GAMES
        for n in (get_engine(slug).min_players, get_engine(slug).max_players)
        for seed in range(2)
    ]


#: Words after "you" that end in "s" and are not verbs.
NOT_VERBS = frozenset({"also", "as", "this", "its"})


def check_own_voice(text: str, seat: int, what: str) -> None:
    assert f"{{p{seat}}}" not in text, f"{what}: seat {seat} named in the third person: {text!r}"
    for word in re.findall(r"\b[Yy]ou (\w+)", text):
        if word in NOT_VERBS or not word.endswith("s") or word.endswith("ss"):
            continue
        pytest.fail(f"{what}: 'you {word}' does not agree: {text!r}")


@pytest.mark.parametrize(("slug", "n", "seed"), _own_view_cases())
def test_a_seats_own_view_says_you(slug, n, seed):
    engine = get_engine(slug)
    events, states = _played(slug, n, seed, 0)
    acted = dict.fromkeys(range(n), 0)
    for index, event in enumerate(events):
        before, after = states[index], states[index + 1]
        for seat in range(n):
            text = engine.describe(event, seat, before=before, after=after)
            check_own_voice(text, seat, f"step {index + 1}")
            if event["by"] == seat:
                assert re.match(r"You\b", text), f"step {index + 1}: {text!r}"
                acted[seat] += 1
        if index % 7 == 0:
            for seat in engine.to_move(before):
                if seat == "chance":
                    continue
                for move in engine.legal_events(before, seat):
                    check_own_voice(engine.label(move, seat, before), seat, f"move {move}")
    assert all(acted.values()), "every seat acted and was told so as 'you'"


def test_voice_agrees_with_its_subject():
    me, everyone = Voice(1), Voice(None)
    assert me.does(1, "takes") == "you take"
    assert me.does(0, "takes") == "{p0} takes"
    assert everyone.does(1, "takes") == "{p1} takes"
    assert me.whose(1) == "your"
    assert me.whose(2) == "{p2}'s"
    assert me.their(1) == "your"
    assert me.their(2) == "their"
    assert me.many([0, 1], "wins", "share the win") == "{p0} and you share the win"
    assert me.many([1], "holds", "hold") == "you hold"
    assert [plain(v) for v in ("passes", "has", "is", "does", "carries", "reaches", "must")] == [
        "pass", "have", "are", "do", "carry", "reach", "must",
    ]  # fmt: skip
    assert plain("also takes") == "also take"
    assert final_scores(me, [50, 21], ["61 minus 11", ""], rule="how") == (
        "final scores (how): {p0} 50 (61 minus 11), you 21"
    )
