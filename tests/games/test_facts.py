"""A record's facts read from the states equal the facts read from full views.

``games.facts.SEAT_CARDS`` reads the cards in front of each seat straight from a
state; the definition is ``seat_card_ids`` over the full view (``view(state, None)``)
at every step, which analytics used to replay with. Random games of every engine and
every player count (GiftTRAP up to 8) must give the same facts both ways.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.base import CHANCE
from games.facts import (
    CARD_FIELDS,
    SCORE_FIELDS,
    SEAT_CARDS,
    FactsRecorder,
    facts_empty,
    record_facts_compute,
    seat_card_ids,
)
from games.play import BOTS, replay_states, self_play
from games.registry import all_engines, get_engine


def facts_by_views(*, game, num_players, options, events, result):
    """The facts as analytics computed them before: a full view at every step."""
    engine = get_engine(game)
    catalog = engine.card_catalog()
    names = {card_id: info["name"] for card_id, info in catalog.items()}
    winners = frozenset(int(w) for w in result.get("winners", []))
    held = [set() for _ in range(num_players)]
    previous = None
    lead_changes = decisive_step = 0
    view = {}
    for step, state in enumerate(replay_states(engine, num_players, options, events)):
        scores = engine.scores(state)
        leaders = frozenset(s for s, v in enumerate(scores) if v == max(scores))
        if previous is not None and leaders != previous:
            lead_changes += 1
        previous = leaders
        if not leaders <= winners:
            decisive_step = step + 1
        view = engine.view(state, None)
        for seat, ids in enumerate(seat_card_ids(view, num_players, catalog)):
            held[seat] |= ids
    ended = seat_card_ids(view, num_players, catalog)
    rounds = view.get("round")
    details = result.get("details") or {}
    if isinstance(details, dict) and isinstance(details.get("rounds"), int):
        rounds = details["rounds"]
    length = len(events)
    return {
        "length": length,
        "rounds": rounds if isinstance(rounds, int) and not isinstance(rounds, bool) else None,
        "decisiveness": round(min(decisive_step, length) / length, 4),
        "lead_changes": lead_changes,
        "event_counts": dict(
            sorted(Counter(str(e.get("do")) for e in events if e.get("by") != CHANCE).items())
        ),
        "cards_held": [sorted({names[i] for i in ids}) for ids in held],
        "cards_ended": [sorted({names[i] for i in ids}) for ids in ended],
    }


CASES = [
    (engine.slug, n)
    for engine in all_engines()
    for n in range(engine.min_players, engine.max_players + 1)
]


@pytest.mark.parametrize(("game", "num_players"), CASES)
def test_facts_from_states_equal_facts_from_full_views(game, num_players):
    engine = get_engine(game)
    assert game in SEAT_CARDS
    rng = random.Random(f"{game}-{num_players}")
    options = {"max_rounds": 30} if game == "gift_trap" else None  # as simulations play it
    for _ in range(3):
        bots = [BOTS[rng.choice(("random", "greedy"))] for _ in range(num_players)]
        events, state = self_play(engine, num_players, options=options, rng=rng, bots=bots)
        result = engine.result(state).to_json()
        fast = record_facts_compute(
            game=game, num_players=num_players, options=options, events=events, result=result
        )
        assert fast == facts_by_views(
            game=game, num_players=num_players, options=options, events=events, result=result
        )
        # Step by step too: the sets per seat are the view's at every state.
        catalog = engine.card_catalog()
        for state in list(replay_states(engine, num_players, options, events))[::7]:
            by_view = seat_card_ids(engine.view(state, None), num_players, catalog)
            by_state = [
                {c for c in cards if c in catalog} for cards in SEAT_CARDS[game](state, num_players)
            ] or [set() for _ in range(num_players)]
            assert by_state == by_view


def test_a_result_only_record_has_empty_facts():
    assert record_facts_compute(
        game="gift_trap", num_players=3, options=None, events=[], result={"winners": [0]}
    ) == facts_empty(3)


def test_an_engine_without_a_state_reading_falls_back_to_its_views(monkeypatch):
    engine = get_engine("secret_santa")
    events, state = self_play(engine, 3, rng=random.Random(5))
    result = engine.result(state).to_json()
    expected = record_facts_compute(
        game="secret_santa", num_players=3, options=None, events=events, result=result
    )
    monkeypatch.delitem(SEAT_CARDS, "secret_santa")
    recorder = FactsRecorder(engine, 3)
    for s in replay_states(engine, 3, None, events):
        recorder.see(s)
    assert recorder.facts(events=events, result=result) == expected


@pytest.mark.parametrize(("game", "num_players"), CASES)
def test_the_fields_the_recorder_looks_at_are_all_its_readings_depend_on(game, num_players):
    """After an event that left ``SCORE_FIELDS`` (``CARD_FIELDS``) equal, the scores (the
    seats' cards) are equal too: the recorder, which reads them only after a change of
    those fields, misses nothing."""
    engine = get_engine(game)
    rng = random.Random(f"fields-{game}-{num_players}")
    options = {"max_rounds": 30} if game == "gift_trap" else None
    changed = {"scores": 0, "cards": 0}
    for _ in range(2):
        events, _state = self_play(engine, num_players, options=options, rng=rng)
        before = None
        for state in replay_states(engine, num_players, options, events):
            if before is not None:
                for name, fields, read in (
                    ("scores", SCORE_FIELDS[game], engine.scores),
                    ("cards", CARD_FIELDS[game], lambda s: SEAT_CARDS[game](s, num_players)),
                ):
                    same = all(getattr(state, f) == getattr(before, f) for f in fields)
                    if same:
                        assert _plain(read(state)) == _plain(read(before)), (name, fields)
                    else:
                        changed[name] += 1
            before = state
    assert changed["scores"] > 0  # the fields do change: the check above was not vacuous
    if CARD_FIELDS[game]:
        assert changed["cards"] > 0


def _plain(values):
    return [value if isinstance(value, int) else sorted(value) for value in values]
