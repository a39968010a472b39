"""Checks every engine must pass; used by test_conformance.py for every registered game.

Kept apart from the test module so a game's own tests can call the same
checks on hand-built positions.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

from games.base import CHANCE, Engine, IllegalEvent, Result
from games.play import BOTS, replay_states, self_play
from tests.games.words import check_labels, check_words

VIEW_SAMPLE = 250
WORDS_SAMPLE = 40


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def roundtrip(value: Any) -> Any:
    """What a stored record gives back: JSON in, JSON out."""
    return json.loads(json.dumps(value))


def play_game(
    engine: Engine,
    num_players: int,
    seed: int,
    bot: str = "random",
    options: dict | None = None,
) -> list[dict]:
    rng = random.Random(seed)
    events, _ = self_play(
        engine, num_players, options=options, rng=rng, bots=[BOTS[bot]] * num_players
    )
    return events


def check_game(
    engine: Engine,
    num_players: int,
    events: list[dict],
    seed: int,
    options: dict | None = None,
) -> None:
    """Replay ``events`` checking every invariant at every step."""
    rng = random.Random(seed ^ 0x5EED)
    states = list(replay_states(engine, num_players, options, roundtrip(events)))
    assert engine.is_over(states[-1]), "a self-played log must end in a finished game"
    deck = engine.card_multiset(states[0])
    pool = roundtrip(events)
    probe_steps = set(rng.sample(range(len(events)), min(6, len(events))))
    # Every seat's view at every step of a long game costs minutes; a few hundred
    # random steps (and always the first and last) find a leak just as well.
    view_steps = set(rng.sample(range(len(states)), min(VIEW_SAMPLE, len(states))))
    view_steps |= {0, 1, len(states) - 1}
    # Words: a sample of steps plus the first event of every type, told to every seat.
    word_steps = set(rng.sample(range(1, len(states)), min(WORDS_SAMPLE, len(events))))
    first_of_kind: dict[str, int] = {}
    for index, event in enumerate(events):
        first_of_kind.setdefault(event["do"], index + 1)
    word_steps |= set(first_of_kind.values())

    # A whole game told at once (a timeline) says what each event told alone says.
    for seat in (None, *range(num_players)):
        told = engine.describe_each(events, seat, states)
        for step in sorted(word_steps):
            before, event = states[step - 1], events[step - 1]
            assert told[step - 1] == (
                engine.describe(event, seat, before, states[step]),
                engine.event_view(event, seat, before=before),
            ), f"step {step}: describe_each differs from describe for seat {seat}"

    for step, state in enumerate(states):
        # Cards are conserved: every card is somewhere, none is duplicated.
        assert engine.card_multiset(state) == deck, f"cards not conserved after {step} events"
        assert len(engine.scores(state)) == num_players
        # The envelope's quick "may this actor move" answers exactly as to_move does.
        movers = engine.to_move(state)
        for actor in (CHANCE, *range(num_players)):
            assert engine.may_act(state, actor) == (actor in movers), (
                f"after {step} events may_act({actor!r}) disagrees with to_move {movers}"
            )
        if step in view_steps:
            check_views(
                engine,
                state,
                events[step - 1] if step else None,
                num_players,
                before=states[step - 1] if step else None,
            )
        if step in word_steps:
            check_words(engine, states[step - 1], events[step - 1], state, num_players, step)
            check_labels(engine, states[step - 1], num_players, step - 1)
        if step < len(events):
            event = events[step]
            movers = engine.to_move(state)
            assert event["by"] in movers
            if event["by"] != CHANCE:
                legal = engine.legal_events(state, event["by"])
                assert event in legal, f"step {step}: played event not among legal_events"
            if step in probe_steps:
                check_illegal_refused(engine, state, pool, rng, step)

    final = states[-1]
    result = engine.result(final)
    check_result(result, num_players)
    assert engine.to_move(final) == []
    for seat in range(num_players):
        assert engine.legal_events(final, seat) == []

    # Replaying the stored log gives the same states, step by step.
    again = list(replay_states(engine, num_players, options, roundtrip(events)))
    assert len(again) == len(states)
    for step in sorted(view_steps):
        assert canonical(engine.view(again[step], None)) == canonical(
            engine.view(states[step], None)
        ), f"replaying the stored log gave a different state after {step} events"
    assert engine.result(again[-1]) == result


def check_views(
    engine: Engine, state: Any, last_event: dict | None, n: int, before: Any = None
) -> None:
    """No seat's view, nor its view of the event that led here, holds its secrets.

    The event is checked both with the state it was applied to (as replays and
    live games show it) and without (the safe default).
    """
    everything = engine.view(state, None)
    json.dumps(everything)  # must be JSON-serialisable
    for seat in range(n):
        seen = canonical(engine.view(state, seat))
        seen_events = (
            canonical(engine.event_view(last_event, seat, before=before))
            + canonical(engine.event_view(last_event, seat))
            if last_event
            else ""
        )
        for secret in engine.secrets(state, seat):
            assert json.dumps(secret) not in seen, f"seat {seat} sees hidden {secret!r}"
            assert json.dumps(secret) not in seen_events, (
                f"seat {seat} sees hidden {secret!r} in the event that led here"
            )


def check_result(result: Result, n: int) -> None:
    data = result.to_json()
    assert roundtrip(data) == data
    assert len(result.scores) == len(result.ranks) == n
    assert result.winners, "somebody wins (ties share the win)"
    assert all(result.ranks[w] == 1 for w in result.winners)
    assert sorted(result.winners) == [s for s in range(n) if result.ranks[s] == 1]
    for a in range(n):
        better = sum(1 for b in range(n) if result.ranks[b] < result.ranks[a])
        assert result.ranks[a] == better + 1, "ranks are competition ranks (1, 1, 3)"


def mutations(event: Mapping[str, Any], n: int) -> Iterator[dict]:
    """Events near a real one: a wrong actor, a changed field, a missing field."""
    yield {**event, "do": "no_such_event"}
    yield {**event, "by": n}
    yield {**event, "by": "nobody"}
    for seat in range(n):
        yield {**event, "by": seat}
    yield {**event, "by": CHANCE}
    for key, value in event.items():
        if key in ("by", "do"):
            continue
        yield {k: v for k, v in event.items() if k != key}
        if isinstance(value, bool):
            yield {**event, key: not value}
        elif isinstance(value, int):
            for delta in (-1, 1, 7, -100):
                yield {**event, key: value + delta}
            yield {**event, key: str(value)}
        elif isinstance(value, str):
            yield {**event, key: value + "x"}
            yield {**event, key: 3}
        elif isinstance(value, list):
            if value:
                yield {**event, key: value[:-1]}
                yield {**event, key: [*value, value[0]]}
            yield {**event, key: "not-a-list"}
            yield {**event, key: [None]}
        elif isinstance(value, dict):
            yield {**event, key: {}}
        else:
            yield {**event, key: [value]}


def check_illegal_refused(
    engine: Engine, state: Any, pool: list[dict], rng: random.Random, step: int
) -> None:
    """Any event not in legal_events is refused with a reason code, and changes nothing."""
    n = engine.num_players(state)
    before = canonical(engine.view(state, None))
    frozen = copy.deepcopy(state)
    candidates = list(mutations(pool[step], n))
    for other in rng.sample(pool, min(10, len(pool))):
        candidates.append(copy.deepcopy(other))
        candidates.extend(list(mutations(other, n))[:6])
    legal = {s: engine.legal_events(state, s) for s in range(n) if s in engine.to_move(state)}
    for candidate in candidates:
        actor = candidate.get("by")
        expected_legal = isinstance(actor, int) and candidate in legal.get(actor, [])
        refusal = _refusal(engine, state, candidate)
        if refusal is None:
            if actor != CHANCE:
                assert expected_legal, (
                    f"step {step}: accepted an event missing from legal_events: {candidate}"
                )
        else:
            assert not expected_legal, f"step {step}: legal event refused: {candidate} ({refusal})"
            assert isinstance(refusal.code, str), "a refusal carries a reason code"
            assert refusal.code, "a refusal carries a reason code"
            assert refusal.message
    assert canonical(engine.view(state, None)) == before, "a refused event changed the state"
    assert canonical(engine.view(frozen, None)) == before


def _refusal(engine: Engine, state: Any, event: dict) -> IllegalEvent | None:
    """The IllegalEvent ``apply`` raises for ``event``, or None if it is accepted.

    Any other exception (a KeyError, a bare GameError) propagates and fails the test.
    """
    try:
        engine.apply(state, event)
    except IllegalEvent as exc:
        return exc
    return None
