"""Driving engines: replaying a log, and letting bots play.

Replay follows python-chess's PGN visitor idea in miniature: ``replay`` is
strict (the first illegal event raises, with its step number filled in), and
``replay_states`` yields every state so callers can stop where they need.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from games.base import CHANCE, Actor, Engine, Event, IllegalEvent, SeatHistory, options_resolve

Bot = Callable[[Engine, Any, int, random.Random], Event]


def replay_states(
    engine: Engine,
    num_players: int,
    options: Mapping[str, Any] | None,
    events: Sequence[Mapping[str, Any]],
    *,
    checked: bool = True,
) -> Iterator[Any]:
    """Yield the state before any event, then after each event in turn.

    The k-th state yielded (0-based) is the state after ``k`` events. An
    illegal event raises :class:`IllegalEvent` with ``step`` set to its
    0-based index in ``events``.

    ``checked=False`` replays through ``engine.apply_trusted`` (python-chess's
    ``push`` to the checked path's ``push_san``): only for a log this engine has
    already validated, such as a stored record. It gives the same states faster
    because it skips the checks a valid log always passes; on a log that was never
    validated it may raise anything or build a state the rules do not allow. Uploads
    and live events always take the checked path.
    """
    state = engine.setup(num_players, options)
    yield state
    if not checked:
        apply_trusted = engine.apply_trusted
        for event in events:
            state = apply_trusted(state, event)
            yield state
        return
    for step, event in enumerate(events):
        try:
            state = engine.apply(state, event)
        except IllegalEvent as exc:
            exc.step = step
            raise
        yield state


def replay(
    engine: Engine,
    num_players: int,
    options: Mapping[str, Any] | None,
    events: Sequence[Mapping[str, Any]],
    *,
    checked: bool = True,
) -> Any:
    """The state after every event of the log (strict: raises on the first illegal one).

    ``checked=False`` is the trusted path of :func:`replay_states`, for stored records only.
    """
    apply = engine.apply if checked else engine.apply_trusted
    state = engine.setup(num_players, options)
    step = 0
    try:
        for step, event in enumerate(events):  # noqa: B007
            state = apply(state, event)
    except IllegalEvent as exc:
        exc.step = step
        raise
    return state


def random_bot(engine: Engine, state: Any, seat: int, rng: random.Random) -> Event:
    return rng.choice(engine.legal_events(state, seat))


def greedy_bot(engine: Engine, state: Any, seat: int, rng: random.Random) -> Event:
    return engine.greedy_event(state, seat, rng)


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot}


INTERRUPT_CHANCE = 0.05


def waiting_for(
    engine: Engine, state: Any, legal: Mapping[int, list[Event]] | None = None
) -> list[Actor]:
    """The actors the game waits for: ``to_move`` less seats that may only interrupt.

    A seat holding an "any moment" card (GiftTRAP's) is in ``to_move`` all
    round long; clients and bots should not treat it as that seat's turn.
    ``legal``: seats' ``legal_events`` in ``state`` the caller has already (a step's
    view lists them; GiftTRAP's giving has 63 for each of eight seats).
    """
    movers = engine.to_move(state)
    if not engine.interrupt_event_types:
        return movers
    return [
        actor for actor in movers if actor == CHANCE or _waited_for(engine, state, actor, legal)
    ]


def _waited_for(
    engine: Engine, state: Any, seat: int, legal: Mapping[int, list[Event]] | None = None
) -> bool:
    interrupts = engine.interrupt_event_types
    events = legal.get(seat) if legal is not None else None
    if events is None:
        events = engine.legal_events(state, seat)
    return any(event["do"] not in interrupts for event in events)


def choose_mover(engine: Engine, state: Any, movers: Sequence[int], rng: random.Random) -> int:
    """The seat that acts next in self-play.

    A seat that may only interrupt (play an "any moment" card) is passed over
    most of the time, as a person would hold such a card back; seats the game
    waits for act first. Seats are looked at in random order, so simultaneous
    phases are played in every order.
    """
    if len(movers) == 1 or not engine.interrupt_event_types:
        return rng.choice(movers)
    order = list(movers)
    rng.shuffle(order)
    for seat in order:
        if rng.random() < INTERRUPT_CHANCE or _waited_for(engine, state, seat):
            return seat
    return order[0]


class GameTooLong(RuntimeError):
    """Self-play exceeded its event budget: an engine that does not end is a bug."""


def self_play(
    engine: Engine,
    num_players: int,
    *,
    options: Mapping[str, Any] | None = None,
    rng: random.Random,
    bots: Sequence[Bot] | None = None,
    max_events: int = 100_000,
) -> tuple[list[Event], Any]:
    """Play one game to the end; returns the events and the final state.

    ``bots`` gives one bot per seat (default: all random). When several seats
    may act at once, one of them is picked at random, so simultaneous phases
    are exercised in every order.
    """
    seat_bots = list(bots) if bots is not None else [random_bot] * num_players
    state = engine.setup(num_players, options)
    events: list[Event] = []
    while not engine.is_over(state):
        if len(events) >= max_events:
            raise GameTooLong(f"{engine.slug}: no end after {max_events} events")
        movers = engine.to_move(state)
        if CHANCE in movers:
            event = engine.sample_chance(state, rng)
        else:
            seat = choose_mover(engine, state, [m for m in movers if m != CHANCE], rng)
            event = seat_bots[seat](engine, state, seat, rng)
        state = engine.apply(state, event)
        events.append(event)
    return events, state


def seat_histories(
    engine: Engine,
    num_players: int,
    options: Mapping[str, Any] | None,
    events: Sequence[Mapping[str, Any]],
    seat: int,
) -> Iterator[SeatHistory]:
    """What ``seat`` has seen after 0, 1, ... ``len(events)`` events of a valid log.

    Each history is the previous one plus one event view and one view (see
    :class:`games.base.SeatHistory`): what :meth:`Engine.sample_state` reads.
    """
    resolved = options_resolve(engine, options)
    states = replay_states(engine, num_players, resolved, events)
    state = next(states)
    history = SeatHistory(seat, num_players, resolved, (engine.view(state, seat),), ())
    yield history
    for event, after in zip(events, states, strict=False):
        seen = engine.event_view(event, seat, before=state)
        history = history.then(seen, engine.view(after, seat))
        state = after
        yield history


def seat_history(
    engine: Engine,
    num_players: int,
    options: Mapping[str, Any] | None,
    events: Sequence[Mapping[str, Any]],
    seat: int,
) -> SeatHistory:
    """What ``seat`` has seen after every event of ``events`` (a valid log)."""
    history = None
    for history in seat_histories(engine, num_players, options, events, seat):  # noqa: B007
        pass
    assert history is not None
    return history
