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
    CARD_PARTS,
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
    """After an event that left ``SCORE_FIELDS`` equal, the scores are equal; after one that
    left a part's fields (``CARD_PARTS``) equal, that part's cards are; and the parts
    together are the seats' cards (``SEAT_CARDS``) at every state. The recorder, which
    reads them only after a change of those fields, misses nothing."""
    engine = get_engine(game)
    rng = random.Random(f"fields-{game}-{num_players}")
    options = {"max_rounds": 30} if game == "gift_trap" else None
    readings = [("scores", SCORE_FIELDS[game], engine.scores)]
    readings += [
        (f"cards {fields}", fields, lambda s, read=read: read(s, num_players))
        for fields, read in CARD_PARTS[game]
    ]
    changed = dict.fromkeys([name for name, _, _ in readings], 0)
    for _ in range(2):
        events, _state = self_play(engine, num_players, options=options, rng=rng)
        before = None
        for state in replay_states(engine, num_players, options, events):
            seats = [set() for _ in range(num_players)]
            for _fields, read in CARD_PARTS[game]:
                for seat, ids in enumerate(read(state, num_players)):
                    seats[seat] |= set(ids)
            whole = SEAT_CARDS[game](state, num_players)
            assert seats == [set(ids) for ids in whole] + [set()] * (num_players - len(whole))
            if before is not None:
                for name, fields, read in readings:
                    if all(getattr(state, f) == getattr(before, f) for f in fields):
                        assert _plain(read(state)) == _plain(read(before)), name
                    else:
                        changed[name] += 1
            before = state
    assert all(changed.values()), changed  # the fields do change: the checks were not vacuous


def _plain(values):
    return [value if isinstance(value, int) else sorted(value) for value in values]
