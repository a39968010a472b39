"""Reads that tell a game in words: the timeline of a record or live game, a step's moves.

Everything here goes through the engine's views (``describe`` and ``label`` are
built from them), so what one seat is told never holds another seat's secrets.
A record never changes, so its timeline for one viewer is cached by digest, and a long
record's is kept in the database too (``replays.replay_store``), for that viewer only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import orjson
from django.core.cache import cache

from core.api.renderers import ORJSONRenderer
from games.base import CHANCE, SEAT_PLACEHOLDER, Engine, and_list
from games.play import replay_states
from games.registry import get_engine
from replays import replay_store
from replays.models import Record
from replays.state_cache import WORDS_VERSION
from replays.tables import table_targeter, target_reads_view

CHANCE_NAME = "Chance"


def names_fill(text: str, players: Sequence[str]) -> str:
    """Put the players' names where a description says ``{p0}``, ``{p1}``...

    The viewer's own seat is never a placeholder in its own view: the words say "you".
    A placeholder past the table (never made by an engine) reads as a seat counted from 1.
    """

    def name(match: Any) -> str:
        seat = int(match.group(1))
        return players[seat] if 0 <= seat < len(players) else f"seat {seat + 1}"

    return SEAT_PLACEHOLDER.sub(name, text)


def actor_json(actor: Any, players: Sequence[str]) -> dict[str, Any]:
    if actor == CHANCE or not isinstance(actor, int):
        return {"seat": None, "name": CHANCE_NAME}
    return {"seat": actor, "name": players[actor]}


def scores_shown(engine: Engine, state: Any, seat: int | None) -> list[int] | None:
    """Running scores where the viewer may know them (Gift Economy's come from hidden hands)."""
    if seat is None or engine.scores_public or engine.is_over(state):
        return engine.scores(state)
    return None


def setup_sentence(engine: Engine, players: Sequence[str], seat: int | None = None) -> str:
    """Step 0 in words: the game and its players, the viewer marked "(you)" in its own view."""
    names = [f"{name} (you)" if index == seat else name for index, name in enumerate(players)]
    return f"{engine.name} for {len(players)} players: {and_list(names)}."


def timeline_entries(
    engine: Engine,
    players: Sequence[str],
    events: Sequence[dict[str, Any]],
    states: Sequence[Any],
    seat: int | None,
) -> list[dict[str, Any]]:
    """Step 0 (the set-up) and one entry per event: who, what in words, the event as seen."""
    entries: list[dict[str, Any]] = [
        {
            "step": 0,
            "actor": None,
            "text": setup_sentence(engine, players, seat),
            "event": None,
            "scores": scores_shown(engine, states[0], seat),
        }
    ]
    told = engine.describe_each(events, seat, states)
    for index, (event, (text, shown)) in enumerate(zip(events, told, strict=True)):
        entries.append(
            {
                "step": index + 1,
                "actor": actor_json(event.get("by"), players),
                "text": names_fill(text, players),
                "event": shown,
                "scores": scores_shown(engine, states[index + 1], seat),
            }
        )
    return entries


# A record's timelines are kept as long as the record's cached bodies may be: a long
# game's costs hundreds of milliseconds to tell (replays.viewer_warm tells it ahead).
TIMELINE_TIMEOUT = 24 * 3600


def record_states(record: Record, num_players: int) -> list[Any]:
    """The state before any event, then after each, of a stored record (trusted replay:
    a stored record was validated when it was stored)."""
    engine = get_engine(record.game)
    return list(replay_states(engine, num_players, record.options, record.events, checked=False))


def record_timeline(
    record: Record, *, players: list[str], seat: int | None, states: list[Any] | None = None
) -> dict[str, Any]:
    """Every step of a record at once, as everyone or one seat saw it.

    ``states`` (``record_states``) may be passed by a caller telling several viewers'
    timelines at once, so the log is replayed once for all of them. From the cache, else
    from the database (a long record's, ``replays.replay_store``), else told and kept in both.
    """
    known = record_timeline_known(record, players=players, seat=seat)
    return known if known is not None else _timeline_told(record, players, seat, states)[0]


def record_timeline_known(
    record: Record, *, players: list[str], seat: int | None
) -> dict[str, Any] | None:
    """The timeline if it was told already (kept in the cache or the database), else
    None: a long game's replay page does not wait for its telling (``replays.replay_page``)."""
    key = _timeline_key("timeline", record, players, seat)
    cached = cache.get(key)
    if cached is not None:
        return cached
    stored = _timeline_stored(record, players, seat)
    if stored is None:
        return None
    body: dict[str, Any] = orjson.loads(stored)
    cache.set(key, body, timeout=TIMELINE_TIMEOUT)
    return body


def _timeline_key(kind: str, record: Record, players: list[str], seat: int | None) -> str:
    # The names by fingerprint: eight long names made keys of 400 characters and more.
    names = replay_store.players_key(players)
    return f"{kind}:{WORDS_VERSION}:{record.pk}:{record.digest}:{seat}:{names}"


def _timeline_stored(record: Record, players: list[str], seat: int | None) -> bytes | None:
    """The timeline's JSON bytes kept in the database for this viewer (only ever this
    seat's, or everyone's), if the record is long enough to be kept there."""
    if not replay_store.worth_storing(record.num_events):
        return None
    return replay_store.timeline_read(
        record_id=record.pk,
        seat=seat,
        version=WORDS_VERSION,
        digest=record.digest,
        players=players,
    )


def _timeline_told(
    record: Record, players: list[str], seat: int | None, states: list[Any] | None
) -> tuple[dict[str, Any], bytes | None]:
    """Tell the timeline from the log (or ``states``), keep it in the cache, and keep its
    JSON bytes in the database for a long record; returns it and those bytes, if made."""
    engine = get_engine(record.game)
    if states is None:
        states = record_states(record, len(players))
    body = {
        "record": record.pk,
        "game": record.game,
        "game_name": engine.name,
        "players": players,
        "seat": seat,
        "last_step": record.num_events,
        "result": record.result,
        "steps": timeline_entries(engine, players, record.events, states, seat),
    }
    cache.set(_timeline_key("timeline", record, players, seat), body, timeout=TIMELINE_TIMEOUT)
    data = None
    if replay_store.worth_storing(record.num_events):
        data = ORJSONRenderer().render(body)
        replay_store.timeline_write(
            record_id=record.pk,
            seat=seat,
            version=WORDS_VERSION,
            digest=record.digest,
            players=players,
            body=data,
        )
    return body, data


def record_timeline_json(record: Record, *, players: list[str], seat: int | None) -> bytes:
    """The timeline as the API's JSON bytes, cached as bytes: a long game's timeline is
    large, and decoding a cached dict then encoding it again cost more than the bytes.
    From the cache, else the database, else the cached dict, else told (and kept)."""
    key = _timeline_key("timeline-json", record, players, seat)
    cached = cache.get(key)
    if cached is not None:
        return cached
    cached = _timeline_stored(record, players, seat)
    if cached is None:
        body = cache.get(_timeline_key("timeline", record, players, seat))
        if body is None:
            body, cached = _timeline_told(record, players, seat, None)
        if cached is None:
            cached = ORJSONRenderer().render(body)
    cache.set(key, cached, timeout=TIMELINE_TIMEOUT)
    return cached


def step_moves(
    engine: Engine,
    state: Any,
    seats: Sequence[int],
    players: Sequence[str],
    *,
    legal: Mapping[int, list[dict[str, Any]]] | None = None,
    targets: bool = True,
) -> list[dict[str, Any]]:
    """The legal moves of ``seats``, each named in words from its seat's own view,
    with the element of the drawn table it acts on (for clicking a card).

    ``legal``: each seat's ``engine.legal_events``, when the caller has them already.
    ``targets=False`` leaves the targets out (``None``): finding each seat's target asks
    for that seat's whole view (eight views for everyone's table of an 8-player game).
    """
    moves: list[dict[str, Any]] = []
    target = table_targeter(engine.slug) if targets else None
    reads_view = target is not None and target_reads_view(engine.slug)
    for seat, events, labels in _labelled(engine, state, seats, players, legal):
        if target is None:
            moves += [
                {"seat": seat, "event": event, "label": label, "target": None}
                for event, label in zip(events, labels, strict=True)
            ]
            continue
        view = engine.view(state, seat) if reads_view else {}
        moves += [
            {"seat": seat, "event": event, "label": label, "target": target(event, view)}
            for event, label in zip(events, labels, strict=True)
        ]
    return moves


def step_move_words(
    engine: Engine,
    state: Any,
    seats: Sequence[int],
    players: Sequence[str],
    *,
    legal: Mapping[int, list[dict[str, Any]]] | None = None,
    summary: Callable[[Sequence[Mapping[str, Any]]], str | None] | None = None,
) -> list[tuple[int, str]]:
    """``(seat, label)`` of each legal move of ``seats``, as ``step_moves`` labels them:
    what a drawn table lists. Why not ``step_moves``: the table needs neither the events
    nor their targets, and a dictionary per move was a third of labelling everyone's 459
    moves in an 8-player giving.

    ``summary``: the drawing module's ``moves_summary`` (``replays.tables.table_summarizer``),
    which may say all of a seat's moves in one sentence; that seat is then listed once,
    with the sentence, and its moves are not labelled one by one.
    """
    events = {s: legal[s] if legal is not None else engine.legal_events(state, s) for s in seats}
    told = {s: summary(events[s]) if summary is not None else None for s in seats}
    rest = [s for s in seats if told[s] is None]
    labelled = {s: labels for s, _events, labels in _labelled(engine, state, rest, players, events)}
    moves: list[tuple[int, str]] = []
    for seat in seats:
        sentence = told[seat]
        if sentence is None:
            moves += [(seat, label) for label in labelled[seat]]
        else:
            moves.append((seat, names_fill(sentence, players)))
    return moves


def _labelled(
    engine: Engine,
    state: Any,
    seats: Sequence[int],
    players: Sequence[str],
    legal: Mapping[int, list[dict[str, Any]]] | None,
) -> Iterator[tuple[int, list[dict[str, Any]], list[str]]]:
    """Each seat with its legal events and their labels, the names filled in."""
    # Labels repeat from seat to seat (every giver may give gift 3 to Ana): each is
    # filled with the names once.
    named: dict[str, str] = {}
    for seat in seats:
        events = legal[seat] if legal is not None else engine.legal_events(state, seat)
        labels = [
            named[label] if label in named else named.setdefault(label, names_fill(label, players))
            for label in engine.labels(events, seat, state)
        ]
        yield seat, events, labels
