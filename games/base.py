"""The engine protocol every game implements.

An engine is a pure rules machine: no Django, no I/O, no randomness of its own.
The shape follows OpenSpiel's ``State`` and python-chess's ``Board``:

* ``setup(num_players, options)`` gives the state before any card is dealt.
  Invalid player counts or options raise :class:`InvalidSetup`.
* Events are plain JSON objects (``dict``), exactly as stored in a giftlog
  record: ``{"by": <seat int or "chance">, "do": <event type>, ...fields}``.
  Keeping the wire format as the engine's input means a record replays with
  no translation layer that could drift from the rules.
* ``apply(state, event)`` checks the event and returns the *new* state; the
  state given is never mutated, so callers may keep every intermediate state.
  A refused event raises :class:`IllegalEvent` with a stable reason code.
* Chance is an actor. Shuffles, deals and random picks are events by
  ``"chance"``; ``sample_chance(state, rng)`` proposes one for simulations
  and server-run games, but the engine itself never calls ``random``.
* ``to_move(state)`` lists every actor that may act now: one seat in a normal
  turn, several seats in a simultaneous phase (in any order), or ``"chance"``.
  A seat whose only legal events are of an ``interrupt_event_types`` type (a
  card playable "at any moment", like GiftTRAP's) is listed too, but nobody
  waits for it: bots and clients treat such events as optional.
* ``legal_events(state, seat)`` enumerates *every* legal event of that seat in
  canonical form; an event ``apply`` accepts is in that list. Chance events are
  not enumerated (a shuffle has too many outcomes): ``apply`` validates them.
* ``view(state, seat)`` is the only way a state leaves the engine: ``seat=None``
  shows everything (a finished game), a seat number shows what that seat may
  know. ``event_view(event, seat, before=state)`` does the same for an event,
  given the state it was applied to (a deal shows a seat only its own cards;
  a secret choice shows only that it was made, until the choices are revealed).
* ``describe(event, seat, before, after)`` tells an event in one sentence as
  that seat may know it, and ``label(event, seat, before)`` names a move not
  yet made ("Take Ben's 3rd face-down card"). Both are built *only* from
  ``event_view`` and ``view``, so a sentence can never say more than the seat
  could see. Seats appear as placeholders ``{p0}``, ``{p1}``... that the
  service fills with player names. ``card_catalog()`` gives every card's name,
  value, icon and colour, so pages draw cards without game code of their own.
* ``sample_state(history, rng)`` deals one full state consistent with all one
  seat has seen (its :class:`SeatHistory`): the determinization analysis judges
  a move by (docs/analysis.md). ``determinizer(history)`` reads the history once
  and samples many states from it.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Literal, Protocol, TypedDict

CHANCE: Final[Literal["chance"]] = "chance"

Actor = int | Literal["chance"]
Event = dict[str, Any]
JSON = Any


class GameError(ValueError):
    """Base of the errors an engine raises on bad input; always carries a code."""

    def __init__(self, code: str, message: str, **detail: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class InvalidSetup(GameError):
    """The player count or the options are not ones the rulebook allows."""


class ImpossibleResult(GameError):
    """A table's final scores that no game played by these rules can end with.

    Raised by a game's ``results.result_check`` (a result-only record has no
    events to replay, so this is the rules' check of the scores alone). The message
    numbers seats from 1, as players do; ``detail["seat"]``, when given, is the
    0-based index of the seat it is about.
    """


def seats_named(seats: Iterable[int]) -> str:
    """Seats as players number them, from 1: ``[0, 2]`` -> "seats 1 and 3"."""
    numbers = [str(seat + 1) for seat in seats]
    if len(numbers) == 1:
        return f"seat {numbers[0]}"
    return f"seats {', '.join(numbers[:-1])} and {numbers[-1]}"


class IllegalEvent(GameError):
    """An event that cannot be applied to this state.

    ``code`` is a stable reason (``not_your_turn``, ``card_not_in_hand``...)
    that clients can branch on; ``message`` is for a person at the table.
    ``step`` is filled by whoever knows the event's position in the log
    (see :func:`games.play.replay`); the engine itself does not count.
    """

    def __init__(self, code: str, message: str, *, step: int | None = None, **detail: Any):
        super().__init__(code, message, **detail)
        self.step = step


# Reason codes shared by every engine; engines add their own.
UNKNOWN_EVENT: Final = "unknown_event"
MALFORMED_EVENT: Final = "malformed_event"
GAME_OVER: Final = "game_over"
NOT_YOUR_TURN: Final = "not_your_turn"


@dataclass(frozen=True)
class Result:
    """The outcome in the one shape analytics reads for every game.

    ``ranks`` are 1-based competition ranks: tied seats share a rank and the
    next rank skips (scores 9, 9, 4 -> ranks 1, 1, 3).
    """

    scores: list[int]
    ranks: list[int]
    winners: list[int]
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
        }
        if self.details:
            data["details"] = self.details
        return data

    @classmethod
    def from_scores(
        cls,
        scores: Sequence[int],
        *,
        order: Sequence[Sequence[int]] | None = None,
        details: dict[str, Any] | None = None,
    ) -> Result:
        """Rank by score (higher is better), or by ``order`` if given.

        ``order`` is a list of keys per seat compared lexicographically (higher
        is better); use it when a tie-break beyond the score exists.
        """
        keys = [tuple(k) for k in order] if order is not None else [(s,) for s in scores]
        ranks = [1 + sum(1 for other in keys if other > mine) for mine in keys]
        winners = [seat for seat, rank in enumerate(ranks) if rank == 1]
        return cls(list(scores), ranks, winners, dict(details or {}))


class Engine(Protocol):
    """What every game module provides (see the module docstring)."""

    slug: str
    name: str
    min_players: int
    max_players: int
    event_types: frozenset[str]
    interrupt_event_types: frozenset[str]
    scores_public: bool
    options: tuple[Option, ...]

    def setup(self, num_players: int, options: Mapping[str, Any] | None = None) -> Any: ...
    def apply(self, state: Any, event: Mapping[str, Any]) -> Any: ...
    def apply_trusted(self, state: Any, event: Mapping[str, Any]) -> Any: ...
    def may_act(self, state: Any, actor: Actor) -> bool: ...
    def refuse_mover(self, state: Any, event: Mapping[str, Any], actor: Actor) -> None: ...
    def to_move(self, state: Any) -> list[Actor]: ...
    def legal_events(self, state: Any, seat: int) -> list[Event]: ...
    def sample_chance(self, state: Any, rng: random.Random) -> Event: ...
    def determinizer(self, history: SeatHistory) -> Determinizer: ...
    def sample_state(self, history: SeatHistory, rng: random.Random) -> Any: ...
    def view(self, state: Any, seat: int | None) -> dict[str, JSON]: ...
    def event_view(
        self, event: Mapping[str, Any], seat: int | None, before: Any = None
    ) -> Event: ...
    def is_over(self, state: Any) -> bool: ...
    def scores(self, state: Any) -> list[int]: ...
    def result(self, state: Any) -> Result: ...
    def num_players(self, state: Any) -> int: ...
    def card_multiset(self, state: Any) -> Counter[str]: ...
    def secrets(self, state: Any, seat: int) -> set[str]: ...
    def greedy_event(self, state: Any, seat: int, rng: random.Random) -> Event: ...
    def describe(
        self, event: Mapping[str, Any], seat: int | None, before: Any = None, after: Any = None
    ) -> str: ...
    def describe_each(
        self, events: Sequence[Mapping[str, Any]], seat: int | None, states: Sequence[Any]
    ) -> list[tuple[str, Event]]: ...
    def label(self, event: Mapping[str, Any], seat: int, before: Any) -> str: ...
    def labels(self, events: Sequence[Mapping[str, Any]], seat: int, before: Any) -> list[str]: ...
    def card_catalog(self) -> dict[str, CardInfo]: ...
    def score_bounds(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> tuple[int, int | None]: ...


@dataclass(frozen=True)
class SeatHistory:
    """Everything one seat has seen of a game so far, as its views showed it.

    ``views[k]`` is ``view(state_k, seat)`` after ``k`` events, and ``events[k]`` is
    ``event_view(event_k, seat, before=state_k)`` (so ``len(views) == len(events) + 1``).
    The table's ``options`` (resolved, every name present) are public, as is the player
    count. A current view alone is not enough in general: a card passed face down to
    another seat, or drawn from the discard pile, is no longer in the seat's view but
    the seat still knows where it went. :func:`games.play.seat_history` builds one from
    a log.
    """

    seat: int
    num_players: int
    options: Mapping[str, Any]
    views: tuple[dict[str, Any], ...]
    events: tuple[Event, ...]

    @property
    def view(self) -> dict[str, Any]:
        """The seat's view now."""
        return self.views[-1]

    def then(self, event: Event, view: dict[str, Any]) -> SeatHistory:
        """This history one event later (``event`` and ``view`` as the seat saw them)."""
        return SeatHistory(
            self.seat,
            self.num_players,
            self.options,
            (*self.views, view),
            (*self.events, event),
        )


class Determinizer(Protocol):
    """One seat's knowledge read from its history, ready to deal states from."""

    def sample(self, rng: random.Random) -> Any:
        """A full state the seat cannot tell from the real one (see ``sample_state``)."""
        ...


class CardInfo(TypedDict, total=False):
    """How a page draws one card: what a person reads on its face.

    ``name`` and ``icon`` are required; ``value`` is the points printed on the
    card (``None`` when it has none); ``colour`` is its suit or back colour as a
    word (``"red"``), which pages always show together with text; ``text`` is the
    card's effect in a sentence; ``kind`` groups cards ("Party prop").
    """

    name: str
    icon: str
    value: int | None
    colour: str | None
    text: str
    kind: str


SEAT_PLACEHOLDER: Final = re.compile(r"\{p(\d+)\}")


def card_ids_in(value: Any, catalog: Mapping[str, Any]) -> set[str]:
    """Every card id of ``catalog`` anywhere in a JSON value (a view), as value or key.

    What a viewer may know of cards is exactly what its view holds: the pages draw
    these and the leak checks compare against them.
    """
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in catalog:
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
            stack.extend(k for k in item if isinstance(k, str))
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def and_list(words: Iterable[str]) -> str:
    """'Ana', 'Ana and Ben', 'Ana, Ben and Cy': how a sentence lists things."""
    return _listed(words, "and")


def or_list(words: Iterable[str]) -> str:
    """'1', '1 or 2', '1, 2 or 3': how a sentence offers a choice."""
    return _listed(words, "or")


def _listed(words: Iterable[str], last: str) -> str:
    items = list(words)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th... 11th, 12th, 13th, 21st."""
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def seat_ref(seat: int) -> str:
    """The placeholder a description uses for a seat: the service puts the name there."""
    return f"{{p{seat}}}"


class BaseEngine:
    """Shared checks in the fixed order boardgame.io uses.

    Subclasses implement ``_apply`` (which receives an event already known to
    be a dict with a known type, from an actor allowed to move now) and the
    other protocol methods. The order of checks is part of the contract, so
    every game answers a late or malformed event with the same code.
    """

    slug: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    event_types: ClassVar[frozenset[str]]
    chance_event_types: ClassVar[frozenset[str]] = frozenset()
    # Events a seat may make at any moment without being waited for.
    interrupt_event_types: ClassVar[frozenset[str]] = frozenset()
    # Whether scores() before the end uses only what the whole table can see.
    # A game whose running score is computed from hidden hands sets this False,
    # and seats are then shown only what their own view says.
    scores_public: ClassVar[bool] = True
    # The game's typed options (house rules and set-up choices), see Option.
    options: ClassVar[tuple[Option, ...]] = ()

    def __init__(self) -> None:
        # The class's event types, read for every event: as instance attributes they
        # are one native load once compiled (see bin/compile_engines.py), where a class
        # attribute read through ``self`` is a dictionary look-up.
        self._kinds: frozenset[str] = self.event_types
        self._chance_kinds: frozenset[str] = self.chance_event_types

    # -- checked entry point -------------------------------------------------
    def apply(self, state: Any, event: Mapping[str, Any]) -> Any:
        actor = self.check_envelope(state, event)
        # ``_apply`` never mutates the event (see there), so a plain dict, which is
        # what a parsed record holds, is passed as it is; other mappings are copied.
        return self._apply(state, event if type(event) is dict else dict(event), actor)

    # -- trusted entry point ---------------------------------------------------------
    def apply_trusted(self, state: Any, event: Mapping[str, Any]) -> Any:
        """Apply an event of a log this engine has already validated (a stored record).

        Like python-chess's ``push()`` next to ``push_san()``: the envelope checks
        (event type, actor, game over, whose turn) are skipped, and engines may skip
        more, so an event that was never validated can raise anything or build a
        state the rules do not allow. The state returned for a valid event is the
        one ``apply`` returns. Never use it for an upload or a live event.
        """
        return self._apply(state, event, event["by"])  # type: ignore[arg-type]

    def check_envelope(self, state: Any, event: Mapping[str, Any]) -> Actor:
        """The checks every game makes first, in a fixed order; returns the actor.

        Runs for every event of every upload, so the common case (a dict from a
        seat in range that may act) costs a few comparisons: ``may_act`` answers
        "is the actor in ``to_move``" without building the list, which is built
        only to word a refusal.
        """
        if type(event) is not dict and not isinstance(event, Mapping):
            raise IllegalEvent(MALFORMED_EVENT, "An event must be a JSON object.")
        # Typed as a dict so that compiled code reads it with the dict's own look-ups.
        fields: dict[str, Any] = event if isinstance(event, dict) else dict(event)
        kind = fields.get("do")
        if not isinstance(kind, str) or kind not in self._kinds:
            known = ", ".join(sorted(self.event_types))
            raise IllegalEvent(
                UNKNOWN_EVENT, f"Unknown event type {kind!r}; this game knows: {known}."
            )
        actor = fields.get("by")
        # A plain int in range is the common case, tested first: comparing an int with
        # "chance" is a slow comparison of unlike types. The isinstance checks run only
        # for anything else.
        if type(actor) is int and 0 <= actor < self.num_players(state):
            by_chance = False
        elif actor == CHANCE:
            by_chance = True
        else:
            n = self.num_players(state)
            if not isinstance(actor, int) or isinstance(actor, bool) or not 0 <= actor < n:
                raise IllegalEvent(
                    MALFORMED_EVENT,
                    f'"by" must be a seat index, 0 (seat 1) to {n - 1} (seat {n}), or "chance".',
                )
            by_chance = False
        chance_kind = kind in self._chance_kinds
        # The common case first: an actor that may move now (so the game is not over,
        # see may_act) making an event of its kind. Otherwise the refusal, in the order
        # the checks are documented in: game over, then who makes this kind, then turn.
        if chance_kind == by_chance and self.may_act(state, actor):
            return actor
        if self.is_over(state):
            raise IllegalEvent(GAME_OVER, "The game is already over.")
        if chance_kind != by_chance:
            who = "chance" if chance_kind else "a seat"
            raise IllegalEvent(NOT_YOUR_TURN, f"A {kind!r} event is made by {who}.")
        self.refuse_mover(state, event, actor)
        movers = self.to_move(state)
        waiting = ", ".join("chance" if m == CHANCE else f"seat {m + 1}" for m in movers)
        raise IllegalEvent(
            NOT_YOUR_TURN, f"It is not {_actor_name(actor)}'s turn; waiting for {waiting}."
        )

    def refuse_mover(self, state: Any, event: Mapping[str, Any], actor: Actor) -> None:
        """Called when ``actor`` may not move now, before ``not_your_turn`` is raised.

        An engine raises a more telling refusal here when it has one (GiftTRAP says
        a second GiftTRAP card is ``gifttrap_used``); by default it does nothing.
        """

    def may_act(self, state: Any, actor: Actor) -> bool:
        """``actor in self.to_move(state)``; engines answer it without building the list.

        ``actor`` is ``"chance"`` or a seat number of the table (the envelope has
        checked that). An engine's answer must equal the default's in every state
        (the conformance suite compares them); in particular it is False once the
        game is over, as ``to_move`` is then empty: the envelope relies on that.
        """
        return actor in self.to_move(state)

    def _apply(self, state: Any, event: Event, actor: Actor) -> Any:
        """The game's own checks and the new state. Never mutates ``event`` nor ``state``."""
        raise NotImplementedError

    # -- implemented by every engine (see Engine) ---------------------------------------
    def num_players(self, state: Any) -> int:
        raise NotImplementedError

    def is_over(self, state: Any) -> bool:
        raise NotImplementedError

    def to_move(self, state: Any) -> list[Actor]:
        raise NotImplementedError

    def legal_events(self, state: Any, seat: int) -> list[Event]:
        raise NotImplementedError

    def view(self, state: Any, seat: int | None) -> dict[str, JSON]:
        raise NotImplementedError

    # -- defaults ------------------------------------------------------------
    def event_view(self, event: Mapping[str, Any], seat: int | None, before: Any = None) -> Event:
        """By default seat events are public and chance events are hidden.

        ``before`` is the state the event was applied to, when the caller has it
        (replays and live games always pass it). Engines override this to show
        a seat the part of a deal it receives, or a secret choice once the
        event completes the reveal; without ``before`` they must stay on the
        safe side and hide.
        """
        if seat is None or event.get("by") != CHANCE:
            return dict(event)
        return {"by": CHANCE, "do": event.get("do"), "hidden": True}

    def greedy_event(self, state: Any, seat: int, rng: random.Random) -> Event:
        return rng.choice(self.legal_events(state, seat))

    # -- determinization ------------------------------------------------------
    def determinizer(self, history: SeatHistory) -> Determinizer:
        """The seat's knowledge, read once from ``history``; each game has its own."""
        raise NotImplementedError

    def sample_state(self, history: SeatHistory, rng: random.Random) -> Any:
        """A full state consistent with everything ``history.seat`` has seen.

        Its view for that seat is the seat's view now; every hidden card is one the
        seat has not seen elsewhere, put where the seat's history allows; others'
        secret choices not yet shown are drawn at random. The same ``rng`` state gives
        the same sample. To sample many states at one step, call ``determinizer`` once
        and its ``sample`` many times.
        """
        return self.determinizer(history).sample(rng)

    # -- telling events in words -----------------------------------------------
    def describe(
        self, event: Mapping[str, Any], seat: int | None, before: Any = None, after: Any = None
    ) -> str:
        """One sentence telling ``event`` as ``seat`` may know it (``None``: everyone).

        ``before`` is the state the event was applied to and ``after`` the state
        it made (computed here when only ``before`` is given). The engine's
        :meth:`tell` sees nothing but views of them, so the sentence keeps every
        secret the views keep: "{p0} takes one of {p1}'s face-down cards" for the
        table, "{p0} takes {p1}'s Tea pot (3 points)" for the taker.
        """
        shown = self.event_view(event, seat, before=before)
        before_view = self.view(before, seat) if before is not None else None
        if after is None and before is not None:
            after = self.apply(before, event)
        after_view = self.view(after, seat) if after is not None else None
        return self.tell(shown, seat, before_view, after_view)

    def describe_each(
        self, events: Sequence[Mapping[str, Any]], seat: int | None, states: Sequence[Any]
    ) -> list[tuple[str, Event]]:
        """``describe`` and ``event_view`` of each of ``events`` in a row, ``states[k]``
        the state before ``events[k]`` and ``states[k + 1]`` the one after it.

        Each state's view is built once: ``describe`` built the views before and after
        its event, so a timeline built every view twice (most of telling a game: 250 ms
        for the 4,620 events of an 8-player GiftTRAP game, a replay page's first visit).
        """
        told: list[tuple[str, Event]] = []
        before_view = self.view(states[0], seat) if events else None
        for index, event in enumerate(events):
            shown = self.event_view(event, seat, before=states[index])
            after_view = self.view(states[index + 1], seat)
            told.append((self.tell(shown, seat, before_view, after_view), shown))
            before_view = after_view
        return told

    def label(self, event: Mapping[str, Any], seat: int, before: Any) -> str:
        """A move ``seat`` may make now, in the imperative, for a button.

        Only the seat's view *before* the move is used: a label never shows what
        the move would reveal (the face of a card not yet taken).
        """
        shown = self.event_view(event, seat, before=before)
        return self.tell_move(shown, seat, self.view(before, seat))

    def labels(self, events: Sequence[Mapping[str, Any]], seat: int, before: Any) -> list[str]:
        """``label`` of each of ``events``, all moves of ``seat`` from the same state.

        The seat's view is built once for all of them: a table lists every legal move,
        63 of them for each of eight players in GiftTRAP's giving, and ``label`` built
        the view again for each (most of the cost of a step's first visit there).
        """
        view = self.view(before, seat)
        return [
            self.tell_move(self.event_view(event, seat, before=before), seat, view)
            for event in events
        ]

    def tell(
        self,
        event: Event,
        seat: int | None,
        before: dict[str, JSON] | None,
        after: dict[str, JSON] | None,
    ) -> str:
        """Engines override: the sentence for an event view, given the views around it."""
        raise NotImplementedError

    def tell_move(self, event: Event, seat: int, before: dict[str, JSON]) -> str:
        """Engines override: the imperative label of a legal event, from the seat's view."""
        raise NotImplementedError

    def card_catalog(self) -> dict[str, CardInfo]:
        raise NotImplementedError

    def score_bounds(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> tuple[int, int | None]:
        """The lowest and highest final score one seat can have, or ``None`` for no highest.

        Why: a game played at a real table is recorded with its final scores only
        (a result-only record), and nothing replays it, so these bounds are the
        rules' only check of a score typed in by hand. They are derived from the
        rulebook (card values, track length, targets) and must be *honest*: loose
        is fine, but a score a legal game can reach is never outside them. A game
        whose length has no limit and whose scores grow with it (Secret Santa
        goes on while the best total is tied) has no highest score: ``None``.
        ``options`` are the game's options (defaults filled in when missing);
        an invalid player count or option raises :class:`InvalidSetup`.
        """
        raise NotImplementedError


def _actor_name(actor: Actor) -> str:
    return "chance" if actor == CHANCE else f"seat {actor + 1}"


def require(condition: bool, code: str, message: str, **detail: Any) -> None:
    """Raise :class:`IllegalEvent` unless ``condition`` holds."""
    if not condition:
        raise IllegalEvent(code, message, **detail)


def field_int(event: Mapping[str, Any], name: str, low: int, high: int) -> int:
    """Read an integer field in ``[low, high]`` or refuse the event as malformed."""
    value = event.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise IllegalEvent(
            MALFORMED_EVENT, f'"{name}" must be a whole number from {low} to {high}.'
        )
    return value


def field_str(event: Mapping[str, Any], name: str, allowed: Sequence[str] | None = None) -> str:
    """Read a string field (optionally one of ``allowed``) or refuse the event."""
    value = event.get(name)
    if not isinstance(value, str) or (allowed is not None and value not in allowed):
        choices = f" (one of: {', '.join(allowed)})" if allowed is not None else ""
        raise IllegalEvent(MALFORMED_EVENT, f'"{name}" must be a string{choices}.')
    return value


def check_player_count(engine: Any, num_players: int) -> None:
    if (
        not isinstance(num_players, int)
        or isinstance(num_players, bool)
        or not engine.min_players <= num_players <= engine.max_players
    ):
        raise InvalidSetup(
            "bad_player_count",
            f"{engine.name} is played by {engine.min_players} to {engine.max_players} "
            f"players, not {num_players}.",
        )


@dataclass(frozen=True)
class Option:
    """One named house rule or set-up choice of a game, typed and documented.

    ``kind`` is the JSON type: ``"bool"``, ``"int"`` (within ``low``..``high``),
    ``"choice"`` (one of ``choices``), ``"int_or_none"`` (``null`` or an int in
    range) or ``"list"`` (distinct items of ``choices``). ``rulebook`` quotes the
    sentence the option interprets ("" for a plain set-up choice) and ``why``
    says why the default reads it best. The default set is what a record
    without options means; records store their options in full, so changing a
    default never changes what an old record replays to.
    """

    name: str
    kind: Literal["bool", "int", "choice", "int_or_none", "list"]
    default: Any
    description: str
    rulebook: str = ""
    why: str = ""
    choices: tuple[Any, ...] = ()
    low: int | None = None
    high: int | None = None
    # How the option speaks to players, on the house-rules picker (``core/house_rules.py``)
    # and the rules page (``replays/house_rules.py``, which adds only the longer
    # explanations): a short label (the page's title), one line of help, the short words
    # of each value (a "choice" or "list" option's in ``choices``' order, a "bool"
    # option's for true then false: "Allowed", "Not allowed"), and whether the number is
    # a seat (shown numbered from 1).
    label: str = ""
    hint: str = ""
    choice_words: tuple[str, ...] = ()
    seat: bool = False

    def allowed(self) -> str:
        """The allowed values in words, for errors and docs."""
        if self.kind == "bool":
            return "true or false"
        if self.kind in ("choice", "list"):
            listed = ", ".join(json_repr(c) for c in self.choices)
            return f"one of {listed}" if self.kind == "choice" else f"a list of: {listed}"
        bounds = f"a whole number from {self.low} to {self.high}"
        return bounds if self.kind == "int" else f"null (no limit) or {bounds}"

    def check(self, value: Any) -> None:
        """Raise :class:`InvalidSetup` naming this option if ``value`` is not allowed."""
        if not self._accepts(value):
            raise InvalidSetup(
                "bad_option",
                f'Option "{self.name}" must be {self.allowed()}, not {json_repr(value)}.',
                option=self.name,
            )

    def _accepts(self, value: Any) -> bool:
        if self.kind == "bool":
            return isinstance(value, bool)
        if self.kind == "choice":
            return any(value == c and type(value) is type(c) for c in self.choices)
        if self.kind == "list":
            return (
                isinstance(value, list)
                and bool(value)
                and len(set(map(json_repr, value))) == len(value)
                and all(any(v == c and type(v) is type(c) for c in self.choices) for v in value)
            )
        if value is None:
            return self.kind == "int_or_none"
        return (
            isinstance(value, int)
            and not isinstance(value, bool)
            and (self.low is None or value >= self.low)
            and (self.high is None or value <= self.high)
        )

    def canonical(self, value: Any) -> Any:
        """The one spelling of ``value``: a list option's items in declaration order.

        A list option is a set (GiftTRAP's ``packs``: ``["red", "blue"]`` and
        ``["blue", "red"]`` are the same rules), so its items are put in the order of
        ``choices``; anything else is returned as it is. Items that are not choices
        (an old record's) keep their order after the declared ones, so this never
        refuses: checking is :meth:`check`'s job.
        """
        if self.kind != "list" or not isinstance(value, list):
            return value
        declared = [c for c in self.choices if any(v == c and type(v) is type(c) for v in value)]
        others = [v for v in value if not any(v == c and type(v) is type(c) for c in declared)]
        return declared + others

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "type": self.kind,
            "default": self.default,
            "allowed": self.allowed(),
            "description": self.description,
            "rulebook": self.rulebook,
            "why_default": self.why,
        }
        if self.choices:
            data["choices"] = list(self.choices)
        if self.low is not None:
            data["min"] = self.low
        if self.high is not None:
            data["max"] = self.high
        return data


def json_repr(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def options_resolve(engine: Any, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The full option set a game is played under: defaults filled, every value checked.

    This is the canonical form every entry point stores and keys by (records, live
    games, leagues, the balance lab, the analytics variant): every declared option
    present (defaults filled, never dropped) and each value in its one spelling
    (:meth:`Option.canonical`), so two spellings of the same rules are one variant.

    Refuses an unknown name or a bad value with :class:`InvalidSetup` naming it
    (``detail["option"]``). Checks that depend on the player count (a seat
    number) stay in the engine's ``setup``.
    """
    declared: Sequence[Option] = getattr(engine, "options", ())
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise InvalidSetup("bad_options", "Options must be a JSON object.")
    known = {option.name: option for option in declared}
    # Names are typed ``object``: a JSON object's are strings, but a caller's mapping may
    # hold any key, and compiled code checks a ``str`` variable's type.
    names: Iterable[object] = options
    unknown = sorted(str(name) for name in names if name not in known)
    if unknown:
        raise InvalidSetup(
            "unknown_option",
            f"{engine.name} has no option {', '.join(map(repr, unknown))}; "
            f"known options: {', '.join(sorted(known)) or 'none'}.",
            option=unknown[0],
        )
    resolved: dict[str, Any] = {}
    for option in declared:
        value = options.get(option.name, option.default)
        option.check(value)
        resolved[option.name] = option.canonical(value)
    return resolved


def options_canonical(engine: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` in their one canonical spelling, without checking or filling anything.

    The form every stored set of options is keyed by (a record's variant, a league's
    rules): :func:`options_resolve` returns it for new input; this function rewrites
    what is already stored (a migration), so it accepts names and values today's
    declarations would refuse and leaves them as they are.
    """
    declared = {option.name: option for option in getattr(engine, "options", ())}
    return {
        name: declared[name].canonical(value) if name in declared else value
        for name, value in options.items()
    }


def check_options(
    engine: Any, options: Mapping[str, Any] | None, allowed: Mapping[str, Any]
) -> dict[str, Any]:
    """Fill defaults and refuse unknown option names.

    ``allowed`` maps option name to its default. Type and value checks of
    known options stay in the engine, where the rule is known.
    """
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise InvalidSetup("bad_options", "Options must be a JSON object.")
    options = dict(options)
    unknown = sorted(str(name) for name in set(options) - set(allowed))
    if unknown:
        raise InvalidSetup(
            "unknown_option",
            f"{engine.name} has no option {', '.join(map(repr, unknown))}; "
            f"known options: {', '.join(sorted(allowed)) or 'none'}.",
        )
    return {**allowed, **options}
