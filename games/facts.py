"""What one record says about its game, computed while its log is replayed.

Pure Python over the engines (no Django, no I/O), so a bulk import's worker
processes compute a record's facts in the same replay that checks its rules
(``replays.validation.log_validate_with_facts``), and the record is stored with
them: analytics never replays a log at ingest. The per-step work (running scores
for decisiveness and lead changes, the cards in front of each seat) is why these
facts are stored: a dashboard must never replay logs either.

Definitions (docs/analytics.md, "Statistics"):

- *leaders* after step k: the seats with the highest running score (``engine.scores``).
- *lead change*: a step after which the set of leaders differs from the set before it
  (Ludii's "Lead Change" counts the same thing, there divided by the number of moves).
- *decisive step*: the first step from which, to the end, the leaders are all eventual
  winners (no seat that did not win is level with the top); *decisiveness* is that step
  over the number of events (0 = the winner led from the start, 1 = decided by the last
  event). Ludii's "Decisiveness Moves" is the same fraction with a state evaluation in
  place of the running score.
- *cards held* by a seat: every catalog card that was in front of it (its hand, its
  row, its pile, its claimed gifts) after some step; *cards ended*: those in front of
  it after the last event. Cards on a shared table belong to nobody.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import compress
from operator import attrgetter, itemgetter
from typing import Any

from games.base import CHANCE, Engine, IllegalEvent, card_ids_in
from games.registry import get_engine

# Views hold per-seat things under these keys as plain per-seat lists (Gift Swap's rows).
_SEAT_INDEXED_KEYS = ("rows", "hands")

SeatCards = Callable[[Any, int], list[Iterable[str]]]


def seat_card_ids(
    view: Mapping[str, Any], num_players: int, catalog: Mapping[str, Any]
) -> list[set[str]]:
    """The catalog card ids in front of each seat in a full view (``view(state, None)``).

    Generic over the five views: a top-level list with one entry per seat (dicts with a
    ``seat`` field, or a list listed in ``_SEAT_INDEXED_KEYS``), plus anything with an
    ``owner`` seat (Gift Gift Gone's claimed gifts). Cards on a shared table belong to
    nobody and are not counted. The definition of "in front of a seat"; building the
    full view at every step is slow, so replays use :data:`SEAT_CARDS` (the same sets
    read from the state, proved equal over random games of every engine in the tests).
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


# --- the same sets read from each engine's state (what its full view shows per seat) ---


def _gift_swap_cards(state: Any, n: int) -> list[Iterable[str]]:
    seats: list[Iterable[str]] = list(state.rows)
    queue = state.queue
    # The view's pending tasks name a seat each; when there are exactly as many as
    # seats and none is a choice, the generic reading counts each task's card for its seat.
    if len(queue) == n and all(task[0] != "choose" for task in queue):
        seats = [list(cards) for cards in seats]
        for task in queue:
            if 0 <= task[1] < n:
                seats[task[1]].append(task[2])
    return seats


def _gift_gift_gone_cards(state: Any, n: int) -> list[Iterable[str]]:
    seats: list[list[str]] = [list(hand) for hand in state.hands]
    table = state.table
    for gift, owner in state.owner.items():
        if 0 <= owner < n:
            seats[owner].append(gift)
            seats[owner].extend(table[gift])
    return seats  # type: ignore[return-value]


def _gift_economy_cards(state: Any, n: int) -> list[Iterable[str]]:
    from games.gift_economy.state import CHOOSE

    if state.phase == CHOOSE:
        return [(*hand, *pending) for hand, pending in zip(state.hands, state.pending, strict=True)]
    return list(state.hands)


def _secret_santa_cards(state: Any, n: int) -> list[Iterable[str]]:
    return [(*hand, *pile) for hand, pile in zip(state.hands, state.piles, strict=True)]


def _gift_trap_cards(state: Any, n: int) -> list[Iterable[str]]:
    return []  # gifts lie on the shared grid; seats hold tokens and gift numbers, no cards


#: Per game, the cards in front of each seat read straight from a state (``[]``: none).
SEAT_CARDS: dict[str, SeatCards] = {
    "gift_swap": _gift_swap_cards,
    "gift_gift_gone": _gift_gift_gone_cards,
    "gift_economy": _gift_economy_cards,
    "secret_santa": _secret_santa_cards,
    "gift_trap": _gift_trap_cards,
}


#: Per game, the fields of a state its scores (``engine.scores``) are computed from.
#: States are copied shallowly and share every field an event leaves alone, so after
#: most events these compare equal at once (the very same objects) and the scores are
#: not read again. Gift Gift Gone's hands count in its scores only once the game is
#: over, when its ``end`` is set (its phase, set with it, changes at most events).
#: Proved against a reading at every step over random games of every engine in the
#: tests (tests/games/test_facts.py), as :data:`CARD_PARTS` is.
SCORE_FIELDS: dict[str, tuple[str, ...]] = {
    "gift_swap": ("final", "rows", "up"),
    "gift_gift_gone": ("end", "owner", "table"),
    "gift_economy": ("hands", "ranking"),
    "secret_santa": ("totals",),
    "gift_trap": ("give_pos", "get_pos"),
}


def _hands(state: Any, n: int) -> Sequence[Iterable[str]]:
    return state.hands


def _piles(state: Any, n: int) -> Sequence[Iterable[str]]:
    return state.piles


def _gift_gift_gone_owned(state: Any, n: int) -> list[Iterable[str]]:
    seats: list[list[str]] = [[] for _ in range(n)]
    table = state.table
    for gift, owner in state.owner.items():
        if 0 <= owner < n:
            seats[owner].append(gift)
            seats[owner].extend(table[gift])
    return seats  # type: ignore[return-value]


CardReading = Callable[[Any, int], Sequence[Iterable[str]]]


def _gift_economy_pending(state: Any, n: int) -> Sequence[Iterable[str]]:
    from games.gift_economy.state import CHOOSE

    return state.pending if state.phase == CHOOSE else ()


#: Per game, :data:`SEAT_CARDS` in parts: (the fields a part is read from, its reading per
#: seat). Held cards are a union over the steps, so each part is read again only after
#: its own fields changed, and a seat's part only added when it is another object than
#: the one added last (a hand an event left alone is the same tuple). The parts' union
#: at every state is :data:`SEAT_CARDS`'s reading (tested).
CARD_PARTS: dict[str, tuple[tuple[tuple[str, ...], CardReading], ...]] = {
    "gift_swap": ((("rows", "queue"), _gift_swap_cards),),
    "gift_gift_gone": ((("hands",), _hands), (("owner", "table"), _gift_gift_gone_owned)),
    "gift_economy": ((("hands",), _hands), (("phase", "pending"), _gift_economy_pending)),
    "secret_santa": ((("hands",), _hands), (("piles",), _piles)),
    "gift_trap": (),  # no cards in front of a seat: never read
}


_UNSEEN: Any = object()  # no key yet (or none to look at): the state is read


def _leaders(scores: Sequence[int]) -> tuple[int, ...]:
    """The seats with the highest score, in seat order."""
    return tuple(compress(range(len(scores)), map(max(scores).__eq__, scores)))


def _fields_key(fields: tuple[str, ...] | None) -> Callable[[Any], Any]:
    """What a state is compared by: its ``fields`` (None: unknown, so a new key each time)."""
    if fields is None:
        return _always_new
    if not fields:
        return _never_new
    return attrgetter(*fields) if len(fields) > 1 else attrgetter(fields[0], fields[0])


def _always_new(state: Any) -> Any:
    return object()


def _never_new(state: Any) -> Any:
    return None


_BY_DO = itemgetter("by", "do")


def event_counts(events: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """How many events of each type the seats played (chance's left out), sorted by type.

    Counted in C (``Counter`` over (actor, type) pairs), then folded by type: a third of
    the time a generator took. The events are a checked log's: each has both keys.
    """
    counts: Counter[str] = Counter()
    for (by, do), count in Counter(map(_BY_DO, events)).items():
        if by != CHANCE:
            counts[str(do)] += count
    return dict(sorted(counts.items()))


def facts_empty(num_players: int) -> dict[str, Any]:
    """The facts of a result-only record: only its result is known (no length, no cards)."""
    return {
        "length": None,
        "rounds": None,
        "decisiveness": None,
        "lead_changes": None,
        "event_counts": {},
        "cards_held": [[] for _ in range(num_players)],
        "cards_ended": [[] for _ in range(num_players)],
    }


class FactsRecorder:
    """Collects a log's facts from the states of a replay.

    Fed by whoever replays: :meth:`replay` runs the replay itself (the rules check of an
    upload, :func:`record_facts_compute`), :meth:`see` takes one state at a time. The
    facts cost no replay of their own; the winners are only needed at the end
    (:meth:`facts`), once the result is known.

    Why it is shaped so: the check of a long log is most of an import's time
    (docs/performance.md, "Import"), and the facts had more than doubled it. Now a step
    costs a look at the fields the facts read (:data:`SCORE_FIELDS`, :data:`CARD_PARTS`);
    the scores and the seats' cards are read only after an event that changed one of
    them, and the leaders are kept as runs (the step each new set of leaders began).
    """

    def __init__(self, engine: Engine, num_players: int) -> None:
        self.engine = engine
        self.num_players = num_players
        self.catalog = engine.card_catalog()
        self._seat_cards = SEAT_CARDS.get(engine.slug)
        self._scores = engine.scores
        known = self._seat_cards is not None
        self._score_key = _fields_key(SCORE_FIELDS.get(engine.slug) if known else None)
        known_parts = CARD_PARTS.get(engine.slug) if known else None
        parts: Sequence[tuple[tuple[str, ...] | None, CardReading]] = (
            known_parts
            if known_parts is not None
            else ((None, self._seat_cards_read),)  # unknown: the whole reading, every step
        )
        #: Per part: its key, its reading, and the objects last added per seat.
        self._parts = [
            (_fields_key(fields), read, list[Any]([None] * num_players)) for fields, read in parts
        ]
        self._card_key = _fields_key(
            tuple(f for fields, _ in known_parts for f in fields)
            if known_parts is not None
            else None
        )
        self._score_key_seen: Any = _UNSEEN
        self._card_key_seen: Any = _UNSEEN
        self._part_keys_seen: list[Any] = [_UNSEEN] * len(self._parts)
        self.steps = 0  # states seen
        #: (first step, leaders) each time the set of leaders changed (step 0 first).
        self.leader_runs: list[tuple[int, tuple[int, ...]]] = []
        self.held: list[set[str]] = [set() for _ in range(num_players)]
        self.last: Any = None

    def see(self, state: Any) -> None:
        """Count one state of the replay (the first is the state before any event)."""
        step = self.steps
        self.steps += 1
        self.last = state
        key = self._score_key(state)
        if key != self._score_key_seen:
            self._score_key_seen = key
            self._scores_changed(step, state)
        key = self._card_key(state)
        if key != self._card_key_seen:
            self._card_key_seen = key
            self._cards_changed(state)

    def replay(self, state: Any, events: Sequence[Mapping[str, Any]], apply: Any) -> Any:
        """Apply every event to ``state`` (the set-up), seeing each state; returns the last.

        ``apply`` is the engine's ``apply`` (an upload) or ``apply_trusted`` (a stored
        record). The loop of :func:`games.play.replay` with :meth:`see`'s looks inline:
        an :class:`IllegalEvent` is raised with its 0-based ``step``.
        """
        self.see(state)
        score_key, scores_changed = self._score_key, self._scores_changed
        card_key, cards_changed = self._card_key, self._cards_changed
        scores_seen, cards_seen = self._score_key_seen, self._card_key_seen
        step = 0
        try:
            if card_key is _never_new:  # no cards in front of a seat (GiftTRAP): scores only
                for step, event in enumerate(events):
                    state = apply(state, event)
                    key = score_key(state)
                    if key != scores_seen:
                        scores_seen = key
                        scores_changed(step + 1, state)
            else:
                for step, event in enumerate(events):
                    state = apply(state, event)
                    key = score_key(state)
                    if key != scores_seen:
                        scores_seen = key
                        scores_changed(step + 1, state)
                    key = card_key(state)
                    if key != cards_seen:
                        cards_seen = key
                        cards_changed(state)
        except IllegalEvent as exc:
            exc.step = step
            raise
        self._score_key_seen, self._card_key_seen = scores_seen, cards_seen
        self.steps += len(events)
        self.last = state
        return state

    def _scores_changed(self, step: int, state: Any) -> None:
        scores = self._scores(state)
        top = max(scores)
        leaders = tuple(compress(range(len(scores)), map(top.__eq__, scores)))
        runs = self.leader_runs
        if not runs or runs[-1][1] != leaders:
            runs.append((step, leaders))

    def _cards_changed(self, state: Any) -> None:
        seen = self._part_keys_seen
        for index, (key_of, read, added) in enumerate(self._parts):
            key = key_of(state)
            if key is not _UNSEEN and key == seen[index]:
                continue
            seen[index] = key
            cards = read(state, self.num_players)
            for seat, (held, ids) in enumerate(zip(self.held, cards, strict=False)):
                if ids is not added[seat]:
                    added[seat] = ids
                    held.update(ids)

    def _seat_cards_read(self, state: Any, n: int) -> Sequence[Iterable[str]]:
        if self._seat_cards is None:  # an engine without a reading of its own: its view
            return seat_card_ids(self.engine.view(state, None), n, self.catalog)
        return self._seat_cards(state, n)

    def _ended(self) -> list[set[str]]:
        if self._seat_cards is None:
            view = self.engine.view(self.last, None)
            return seat_card_ids(view, self.num_players, self.catalog)
        ended = [set(ids) for ids in self._seat_cards(self.last, self.num_players)]
        return ended + [set() for _ in range(self.num_players - len(ended))]

    def facts(
        self, *, events: Sequence[Mapping[str, Any]], result: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The facts (a JSON-ready dict), once every state was seen and the result is known."""
        if not events:
            return facts_empty(self.num_players)
        winners = frozenset(int(w) for w in result.get("winners", []))
        only_winners = winners.issuperset
        runs = self.leader_runs
        lead_changes = len(runs) - 1
        decisive_step = 0  # first step of the final run of "only winners lead"
        for index, (_first, leaders) in enumerate(runs):
            if not only_winners(leaders):  # this run ends before the next one's first step
                decisive_step = runs[index + 1][0] if index + 1 < len(runs) else self.steps
        catalog = self.catalog
        names = {card_id: info["name"] for card_id, info in catalog.items()}
        length = len(events)
        rounds = self.engine.view(self.last, None).get("round")
        details = result.get("details") or {}
        if isinstance(details, dict) and isinstance(details.get("rounds"), int):
            rounds = details["rounds"]
        return {
            "length": length,
            "rounds": rounds if isinstance(rounds, int) and not isinstance(rounds, bool) else None,
            "decisiveness": round(min(decisive_step, length) / length, 4),
            "lead_changes": lead_changes,
            "event_counts": event_counts(events),
            "cards_held": [sorted({names[i] for i in ids if i in names}) for ids in self.held],
            "cards_ended": [sorted({names[i] for i in ids if i in names}) for ids in self._ended()],
        }


def record_facts_compute(
    *,
    game: str,
    num_players: int,
    options: Mapping[str, Any] | None,
    events: Sequence[Mapping[str, Any]],
    result: Mapping[str, Any],
    checked: bool = True,
) -> dict[str, Any]:
    """The derived facts of one record (a JSON-ready dict), replaying its log.

    A result-only record (no events) has only what its result says: length, rounds,
    decisiveness and lead changes are ``None`` and no cards are known. ``checked=False``
    replays through the trusted path (a stored record, validated when it was stored).
    """
    if not events:
        return facts_empty(num_players)
    engine = get_engine(game)
    recorder = FactsRecorder(engine, num_players)
    apply = engine.apply if checked else engine.apply_trusted
    recorder.replay(engine.setup(num_players, options), events, apply)
    return recorder.facts(events=events, result=result)


__all__ = [
    "CARD_PARTS",
    "SCORE_FIELDS",
    "SEAT_CARDS",
    "FactsRecorder",
    "card_ids_in",
    "event_counts",
    "facts_empty",
    "record_facts_compute",
    "seat_card_ids",
]
