"""What one record says about its game, computed once at ingest by replaying its log.

Pure Python over the engines (no Django), so it can be tested and benchmarked on its
own. The per-step work (running scores for decisiveness and lead changes, the full
view for the cards each seat held) is why these facts are stored: a dashboard must
never replay logs.

Definitions (docs/analytics.md, "Statistics"):

- *leaders* after step k: the seats with the highest running score (``engine.scores``).
- *lead change*: a step after which the set of leaders differs from the set before it
  (Ludii's "Lead Change" counts the same thing, there divided by the number of moves).
- *decisive step*: the first step from which, to the end, the leaders are all eventual
  winners (no seat that did not win is level with the top); *decisiveness* is that step
  over the number of events (0 = the winner led from the start, 1 = decided by the last
  event). Ludii's "Decisiveness Moves" is the same fraction with a state evaluation in
  place of the running score.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games.base import CHANCE, card_ids_in
from games.play import replay_states
from games.registry import get_engine

# Views hold per-seat things under these keys as plain per-seat lists (Gift Swap's rows).
_SEAT_INDEXED_KEYS = ("rows", "hands")


def seat_card_ids(
    view: Mapping[str, Any], num_players: int, catalog: Mapping[str, Any]
) -> list[set[str]]:
    """The catalog card ids in front of each seat in a full view (``view(state, None)``).

    Generic over the five views: a top-level list with one entry per seat (dicts with a
    ``seat`` field, or a list listed in ``_SEAT_INDEXED_KEYS``), plus anything with an
    ``owner`` seat (Gift Gift Gone's claimed gifts). Cards on a shared table belong to
    nobody and are not counted.
    """
    seats: list[set[str]] = [set() for _ in range(num_players)]
    for key, value in view.items():
        if not isinstance(value, list) or not value:
            continue
        if len(value) == num_players and all(
            isinstance(item, dict) and isinstance(item.get("seat"), int) for item in value
        ):
            for item in value:
                if 0 <= item["seat"] < num_players:
                    seats[item["seat"]] |= card_ids_in(item, catalog)
        elif key in _SEAT_INDEXED_KEYS and len(value) == num_players:
            for seat, item in enumerate(value):
                seats[seat] |= card_ids_in(item, catalog)
        else:
            for item in value:
                owner = item.get("owner") if isinstance(item, dict) else None
                if isinstance(owner, int) and 0 <= owner < num_players:
                    seats[owner] |= card_ids_in(item, catalog)
    return seats


def _leaders(scores: Sequence[int]) -> frozenset[int]:
    top = max(scores)
    return frozenset(seat for seat, score in enumerate(scores) if score == top)


def record_facts_compute(
    *,
    game: str,
    num_players: int,
    options: Mapping[str, Any] | None,
    events: Sequence[Mapping[str, Any]],
    result: Mapping[str, Any],
) -> dict[str, Any]:
    """The derived facts of one record (a JSON-ready dict).

    A result-only record (no events) has only what its result says: length, rounds,
    decisiveness and lead changes are ``None`` and no cards are known.
    """
    winners = sorted(int(w) for w in result.get("winners", []))
    facts: dict[str, Any] = {
        "length": None,
        "rounds": None,
        "decisiveness": None,
        "lead_changes": None,
        "event_counts": {},
        "cards_held": [[] for _ in range(num_players)],
        "cards_ended": [[] for _ in range(num_players)],
    }
    if not events:
        return facts
    engine = get_engine(game)
    catalog = engine.card_catalog()
    names = {card_id: info["name"] for card_id, info in catalog.items()}
    winner_set = frozenset(winners)
    held: list[set[str]] = [set() for _ in range(num_players)]
    previous: frozenset[int] | None = None
    lead_changes = 0
    decisive_step = 0  # first step of the final run of "only winners lead"
    view: Mapping[str, Any] = {}
    for step, state in enumerate(replay_states(engine, num_players, options, events)):
        leaders = _leaders(engine.scores(state))
        if previous is not None and leaders != previous:
            lead_changes += 1
        previous = leaders
        if not leaders <= winner_set:
            decisive_step = step + 1
        view = engine.view(state, None)
        for seat, ids in enumerate(seat_card_ids(view, num_players, catalog)):
            held[seat] |= ids
    ended = seat_card_ids(view, num_players, catalog)
    length = len(events)
    rounds = view.get("round")
    details = result.get("details") or {}
    if isinstance(details, dict) and isinstance(details.get("rounds"), int):
        rounds = details["rounds"]
    facts.update(
        {
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
    )
    return facts
