"""Gift Swap rules engine (rulebook: seeds/000_50141e51f899c7e7.txt).

A turn is a small queue of tasks so that every decision is its own event:
the active player's ``swap`` opens a ``choose`` task (both seats pick Keep or
Open in secret, any order), which resolves into ``place`` tasks (where a
received card goes is public) and then ``effect`` tasks (active player
first). Effects can push new tasks to the front (a Regift asks Keep/Open
again). The turn ends when the queue empties. See docs/rules/gift_swap.md.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any, Final

from games.base import (
    CHANCE,
    JSON,
    MALFORMED_EVENT,
    Actor,
    BaseEngine,
    CardInfo,
    Event,
    IllegalEvent,
    InvalidSetup,
    Option,
    Result,
    check_player_count,
    field_int,
    field_str,
    options_resolve,
    require,
)
from games.gift_swap.cards import (
    ALL_IDS,
    BLUE,
    CARDS,
    GREEN,
    RED,
    REGIFT,
    REWRAP,
    TRADE,
    arrangements,
    is_ascending,
    score_cards,
    valid_positions,
)
from games.gift_swap.words import CATALOG, tell, tell_move

ASIDE: Final = "aside"
KEEP: Final = "keep"
OPEN: Final = "open"
EFFECT_EVENTS: Final = ("decline", REGIFT, REWRAP, TRADE)

# Reason codes of this game.
BAD_DEAL: Final = "bad_deal"
WRONG_STEP: Final = "wrong_step"
NOT_YOUR_CARDS: Final = "not_your_cards"
NOT_ASCENDING: Final = "not_ascending"
CARD_FACE_UP: Final = "card_face_up"
CARD_FACE_DOWN: Final = "card_face_down"
NOT_AN_OPPONENT: Final = "not_an_opponent"
OWN_ROW: Final = "own_row"
WRONG_EFFECT: Final = "wrong_effect"

FIELDS: Final[dict[str, frozenset[str]]] = {
    "deal": frozenset({"order"}),
    "arrange": frozenset({"order"}),
    "swap": frozenset({"card", "with_seat", "with_card"}),
    "choose": frozenset({"choice"}),
    "place": frozenset({"pos"}),
    "decline": frozenset(),
    REGIFT: frozenset({"row", "card"}),
    REWRAP: frozenset({"row", "card"}),
    TRADE: frozenset({"row", "card"}),
    "flip": frozenset({"card"}),
}

# Tasks: ("choose", ((seat, card), ...), ((seat, choice), ...), ((seat, card), ...))
#        ("place", seat, card)      ("effect", seat, card)
Task = tuple[Any, ...]


class State:
    """One position. Never changed once ``_apply`` returns it: ``copy`` then set fields.

    Every field holds an immutable value, so the shallow copy is a safe one. A plain
    class with a field-by-field ``copy`` rather than a NamedTuple rebuilt per event:
    mypyc compiles it to a struct (see ``games/build.py``), where a copy is a few
    native stores.
    """

    __slots__ = (
        "active",
        "arranged",
        "aside",
        "deck",
        "final",
        "flipped_any",
        "known",
        "last_choices",
        "n",
        "phase",
        "queue",
        "regift_own_row",
        "rows",
        "special",
        "start",
        "turn",
        "up",
    )

    n: int
    start: int
    phase: str  # deal, arrange, turn, special, over
    deck: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    aside: tuple[str, ...]
    up: frozenset[str]
    known: tuple[frozenset[str], ...]  # per seat: card ids it has seen
    arranged: tuple[bool, ...]
    turn: int  # normal turns completed
    active: int
    special: tuple[int, ...]  # seats still to flip under the special condition
    flipped_any: bool
    queue: tuple[Task, ...]
    last_choices: tuple[tuple[int, str], ...]
    final: tuple[int, ...] | None
    regift_own_row: bool  # option: a regift may take a face-down card of your own row

    def copy(self) -> State:
        """A shallow copy, spelled out field by field: it runs for every event."""
        new = State()
        new.n = self.n
        new.start = self.start
        new.phase = self.phase
        new.deck = self.deck
        new.rows = self.rows
        new.aside = self.aside
        new.up = self.up
        new.known = self.known
        new.arranged = self.arranged
        new.turn = self.turn
        new.active = self.active
        new.special = self.special
        new.flipped_any = self.flipped_any
        new.queue = self.queue
        new.last_choices = self.last_choices
        new.final = self.final
        new.regift_own_row = self.regift_own_row
        return new

    def _values(self) -> tuple[Any, ...]:
        return (
            self.n,
            self.start,
            self.phase,
            self.deck,
            self.rows,
            self.aside,
            self.up,
            self.known,
            self.arranged,
            self.turn,
            self.active,
            self.special,
            self.flipped_any,
            self.queue,
            self.last_choices,
            self.final,
            self.regift_own_row,
        )

    def __eq__(self, other: object) -> bool:
        """Equal positions are equal states (as they were when ``State`` was a NamedTuple)."""
        if not isinstance(other, State):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def _replace(self, **changes: Any) -> State:
        """A copy with some fields changed (as ``NamedTuple._replace``; tests use it)."""
        new = self.copy()
        for name, value in changes.items():
            setattr(new, name, value)
        return new


#: Every field an event of each type may have.
ALLOWED_FIELDS: Final[dict[str, frozenset[str]]] = {
    kind: frozenset({"by", "do"}) | fields for kind, fields in FIELDS.items()
}


def _check_fields(event: Mapping[str, Any]) -> None:
    if event.keys() <= ALLOWED_FIELDS[event["do"]]:
        return
    # Field names as ``object``: a caller's mapping may hold non-string keys, and
    # compiled code checks a ``str`` variable's type.
    names_given: Iterable[object] = event
    extra = set(names_given) - {"by", "do"} - FIELDS[event["do"]]
    if extra:
        names = ", ".join(sorted(str(name) for name in extra))
        raise IllegalEvent(MALFORMED_EVENT, f"Unexpected field(s): {names}.")


def _set(items: tuple, index: int, value: Any) -> tuple:
    """``items`` with ``items[index]`` replaced: through a list, the fastest way both
    interpreted and compiled (a tuple display with two starred slices builds more)."""
    changed = list(items)
    changed[index] = value
    return tuple(changed)


def _everyone_knows(state: State, card: str) -> tuple[frozenset[str], ...]:
    return tuple(k | {card} for k in state.known)


@cache
def row_score_range(size: int) -> tuple[int, int]:
    """Lowest and highest score of any ``size`` cards of the deck (see ``score_bounds``)."""
    totals = [score_cards(row)[0] for row in itertools.combinations(ALL_IDS, size)]
    return min(totals), max(totals)


class GiftSwapEngine(BaseEngine):
    slug = "gift_swap"
    name = "Gift Swap"
    min_players = 3
    max_players = 4
    event_types = frozenset(FIELDS)
    chance_event_types = frozenset({"deal"})
    options = (
        Option(
            name="start_player",
            kind="int",
            default=0,
            low=0,
            high=3,
            description=(
                "The seat that takes the first turn (and the Gift token); play then "
                "passes to the left (seat + 1). Must be a seat at the table."
            ),
            rulebook="",
            why=(
                "The rulebook's start player is whoever most recently received a gift, "
                "which is settled at the table and not known to the record; seat 0 is "
                "the plain choice, and the club enters another seat when it differs."
            ),
        ),
        Option(
            name="regift_own_row",
            kind="bool",
            default=True,
            description=(
                "Whether a Regift card (values 1 and 4) may be swapped with a face-down "
                "card in your own row. Nothing leaves your row, but you then Keep or "
                "Open that card, and opening it turns a second card of yours face up "
                "(its effect may fire, and your row may be all face up sooner). If "
                "false, a Regift must take a card from an opponent's row or from the "
                "set-aside cards."
            ),
            rulebook=(
                "You may swap this gift with any facedown gift "
                "(including the cards that were set aside)."
            ),
            why=(
                'The card says "any facedown gift" and names the set-aside cards as '
                "included, so it widens rather than narrows. Where the rulebook means "
                "opponents only, it says so: the turn's swap takes \"one of the facedown "
                "cards in one of your opponents' card row\". A swap within your own row "
                "is not idle either: you then Keep or Open the card, and Open flips it."
            ),
        ),
    )

    # -- setup ----------------------------------------------------------------
    def setup(self, num_players: int, options: Mapping[str, Any] | None = None) -> State:
        check_player_count(self, num_players)
        opts = options_resolve(self, options)
        start = opts["start_player"]
        if start >= num_players:
            raise InvalidSetup(
                "bad_option",
                f"start_player must be a seat number 0-{num_players - 1}.",
                option="start_player",
            )
        new = State()
        new.n = num_players
        new.start = start
        new.phase = "deal"
        new.deck = ALL_IDS
        new.rows = ((),) * num_players
        new.aside = ()
        new.up = frozenset()
        new.known = (frozenset(),) * num_players
        new.arranged = (False,) * num_players
        new.turn = 0
        new.active = start
        new.special = ()
        new.flipped_any = False
        new.queue = ()
        new.last_choices = ()
        new.final = None
        new.regift_own_row = opts["regift_own_row"]
        return new

    @staticmethod
    def hand_size(n: int) -> int:
        return 5 if n == 3 else 4

    # -- whose move -----------------------------------------------------------
    def may_act(self, state: State, actor: Actor) -> bool:
        phase = state.phase
        # A seat is an int, never equal to "chance": the (slow) comparison of an int
        # with a str is made only for something else.
        by_chance = not isinstance(actor, int) and actor == CHANCE
        if phase == "deal":
            return by_chance
        if by_chance or phase == "over" or not isinstance(actor, int):
            return False
        if phase == "arrange":
            return not state.arranged[actor]
        if state.queue:
            task = state.queue[0]
            if task[0] == "choose":
                return any(seat == actor for seat, _ in task[1]) and not any(
                    seat == actor for seat, _ in task[2]
                )
            return bool(task[1] == actor)
        return actor == state.active

    def to_move(self, state: State) -> list[Actor]:
        if state.phase == "over":
            return []
        if state.phase == "deal":
            return [CHANCE]
        if state.phase == "arrange":
            return [s for s in range(state.n) if not state.arranged[s]]
        if state.queue:
            task = state.queue[0]
            if task[0] == "choose":
                done = {seat for seat, _ in task[2]}
                return [seat for seat, _ in task[1] if seat not in done]
            return [task[1]]
        return [state.active]

    def step(self, state: State) -> str:
        """The kind of decision expected now (for views and dispatch)."""
        if state.phase in ("deal", "arrange", "over"):
            return state.phase
        if state.queue:
            return state.queue[0][0]
        return "swap" if state.phase == "turn" else "flip"

    # -- legal events ---------------------------------------------------------
    def legal_events(self, state: State, seat: Actor) -> list[Event]:
        if not isinstance(seat, int) or seat not in self.to_move(state):
            return []  # chance events are validated, not enumerated
        step = self.step(state)
        row = state.rows[seat]
        if step == "arrange":
            orders = arrangements(frozenset(row))
            return [{"by": seat, "do": "arrange", "order": list(p)} for p in orders]
        if step == "choose":
            return [{"by": seat, "do": "choose", "choice": c} for c in (KEEP, OPEN)]
        if step == "place":
            card = state.queue[0][2]
            rest = tuple(c for c in row if c != card)
            return [{"by": seat, "do": "place", "pos": p} for p in valid_positions(rest, card)]
        if step == "swap":
            return [
                {"by": seat, "do": "swap", "card": i, "with_seat": t, "with_card": j}
                for i, mine in enumerate(row)
                if mine not in state.up
                for t in range(state.n)
                if t != seat
                for j, theirs in enumerate(state.rows[t])
                if theirs not in state.up
            ]
        if step == "flip":
            return [
                {"by": seat, "do": "flip", "card": i}
                for i, c in enumerate(row)
                if c not in state.up
            ]
        # effect
        effect = CARDS[state.queue[0][2]].effect
        events: list[Event] = [{"by": seat, "do": "decline"}]
        for target, index, card in self._targets(state):
            face_up = card in state.up
            if effect == REWRAP and face_up:
                events.append({"by": seat, "do": REWRAP, "row": target, "card": index})
            elif effect == (TRADE if face_up else REGIFT) and (
                target != seat or (effect == REGIFT and state.regift_own_row)
            ):
                events.append({"by": seat, "do": effect, "row": target, "card": index})
        return events

    @staticmethod
    def _targets(state: State) -> list[tuple[int | str, int, str]]:
        out: list[tuple[int | str, int, str]] = []
        for seat, row in enumerate(state.rows):
            out.extend((seat, i, c) for i, c in enumerate(row))
        out.extend((ASIDE, i, c) for i, c in enumerate(state.aside))
        return out

    # -- applying -------------------------------------------------------------
    def _apply(self, state: State, event: Event, actor: Actor) -> State:
        kind = event["do"]
        if not event.keys() <= ALLOWED_FIELDS[kind]:
            _check_fields(event)
        # self.step(state), inlined: it runs for every event.
        phase = state.phase
        if phase in ("deal", "arrange", "over"):
            step = phase
        elif state.queue:
            step = state.queue[0][0]
        else:
            step = "swap" if phase == "turn" else "flip"
        if step == "effect":
            require(
                kind in EFFECT_EVENTS,
                WRONG_STEP,
                "Now the player decides whether to use the flipped card's effect.",
            )
        else:
            if kind != step:
                raise IllegalEvent(WRONG_STEP, f"Expected a {step!r} event now, not {kind!r}.")
        if kind == "deal":
            return self._deal(state, event)
        assert isinstance(actor, int)
        # An if-chain, most frequent first: compiled, each is a direct native call.
        if kind == "place":
            new = self._place(state, event, actor)
        elif kind == "choose":
            new = self._choose(state, event, actor)
        elif kind == "swap":
            new = self._swap(state, event, actor)
        elif kind == "flip":
            new = self._flip(state, event, actor)
        elif kind == "arrange":
            new = self._arrange(state, event, actor)
        else:
            new = self._effect(state, event, actor)
        if kind != "arrange" and new.phase in ("turn", "special") and not new.queue:
            new = self._end_step(new)
        return new

    def _deal(self, state: State, event: Event) -> State:
        order = event.get("order")
        require(
            isinstance(order, list)
            and all(isinstance(c, str) for c in order)
            and sorted(order) == sorted(ALL_IDS),
            BAD_DEAL,
            f"A deal lists each of the {len(ALL_IDS)} Gift Swap cards exactly once.",
        )
        assert isinstance(order, list)
        n, h = state.n, self.hand_size(state.n)
        rows = tuple(tuple(order[k] for k in range(n * h) if k % n == s) for s in range(n))
        new = state.copy()
        new.phase = "arrange"
        new.deck = ()
        new.rows = rows
        new.aside = tuple(order[n * h :])
        new.known = tuple(frozenset(r) for r in rows)
        return new

    def _arrange(self, state: State, event: Event, seat: int) -> State:
        order = event.get("order")
        require(
            isinstance(order, list) and all(isinstance(c, str) for c in order),
            MALFORMED_EVENT,
            '"order" must be a list of your card ids.',
        )
        assert isinstance(order, list)
        require(
            sorted(order) == sorted(state.rows[seat]),
            NOT_YOUR_CARDS,
            "The order must list each of your dealt cards exactly once.",
        )
        require(
            is_ascending(order),
            NOT_ASCENDING,
            "Cards must be in ascending order from left to right (Party Props anywhere).",
        )
        arranged = _set(state.arranged, seat, True)
        new = state.copy()
        new.rows = _set(state.rows, seat, tuple(order))
        new.arranged = arranged
        new.phase = "turn" if all(arranged) else "arrange"
        return new

    def _swap(self, state: State, event: Event, seat: int) -> State:
        mine = state.rows[seat]
        i = field_int(event, "card", 0, len(mine) - 1)
        other = field_int(event, "with_seat", 0, state.n - 1)
        require(other != seat, NOT_AN_OPPONENT, "Swap with an opponent's card, not your own.")
        theirs = state.rows[other]
        j = field_int(event, "with_card", 0, len(theirs) - 1)
        give, take = mine[i], theirs[j]
        require(give not in state.up, CARD_FACE_UP, "Choose one of your face-down cards.")
        require(take not in state.up, CARD_FACE_UP, "Choose an opponent's face-down card.")
        rows = _set(_set(state.rows, seat, _set(mine, i, take)), other, _set(theirs, j, give))
        task = ("choose", ((seat, take), (other, give)), (), ())
        new = state.copy()
        new.rows = rows
        new.queue = (task, *state.queue)
        return new

    def _choose(self, state: State, event: Event, seat: int) -> State:
        choice = field_str(event, "choice", (KEEP, OPEN))
        _, received, picks, extra = state.queue[0]
        picks = (*picks, (seat, choice))
        if len(picks) < len(received):
            new = state.copy()
            new.queue = (("choose", received, picks, extra), *state.queue[1:])
            return new
        chosen = dict(picks)
        up, known, flipped = state.up, list(state.known), state.flipped_any
        places: list[Task] = [("place", s, c) for s, c in (*received, *extra)]
        effects: list[Task] = []
        for s, card in received:
            if chosen[s] == OPEN:
                up = up | {card}
                known = [k | {card} for k in known]
                flipped = True
                if CARDS[card].effect:
                    effects.append(("effect", s, card))
            else:
                known[s] = known[s] | {card}
        new = state.copy()
        new.up = up
        new.known = tuple(known)
        new.flipped_any = flipped
        new.queue = (*places, *effects, *state.queue[1:])
        new.last_choices = tuple((s, chosen[s]) for s, _ in received)
        return new

    def _place(self, state: State, event: Event, seat: int) -> State:
        card = state.queue[0][2]
        row = state.rows[seat]
        if card in row:  # card ids are unique: the row without it
            at = row.index(card)
            rest = row[:at] + row[at + 1 :]
        else:
            rest = row
        pos = field_int(event, "pos", 0, len(rest))
        require(
            pos in valid_positions(rest, card),
            NOT_ASCENDING,
            "That position breaks the ascending order of the row.",
        )
        row = (*rest[:pos], card, *rest[pos:])
        new = state.copy()
        new.rows = _set(state.rows, seat, row)
        new.queue = state.queue[1:]
        return new

    def _flip(self, state: State, event: Event, seat: int) -> State:
        row = state.rows[seat]
        i = field_int(event, "card", 0, len(row) - 1)
        card = row[i]
        require(card not in state.up, CARD_FACE_UP, "Flip one of your face-down cards.")
        queue = (("effect", seat, card),) if CARDS[card].effect else ()
        new = state.copy()
        new.up = state.up | {card}
        new.known = _everyone_knows(state, card)
        new.flipped_any = True
        new.queue = queue + state.queue
        return new

    def _target(self, state: State, event: Event) -> tuple[int | str, int, str]:
        row_field = event.get("row")
        if row_field == ASIDE:
            cards = state.aside
        else:
            row_field = field_int(event, "row", 0, state.n - 1)
            cards = state.rows[row_field]
        index = field_int(event, "card", 0, len(cards) - 1)
        return row_field, index, cards[index]

    def _put(self, state: State, row: int | str, index: int, card: str) -> State:
        if row == ASIDE:
            new = state.copy()
            new.aside = _set(state.aside, index, card)
            return new
        assert isinstance(row, int)
        new = state.copy()
        new.rows = _set(state.rows, row, _set(state.rows[row], index, card))
        return new

    def _effect(self, state: State, event: Event, seat: int) -> State:
        kind = event["do"]
        own = state.queue[0][2]
        rest = state.queue[1:]
        if kind == "decline":
            new = state.copy()
            new.queue = rest
            return new
        effect = CARDS[own].effect
        if kind != effect:
            raise IllegalEvent(WRONG_EFFECT, f"This card's effect is {effect!r}, not {kind!r}.")
        row, index, target = self._target(state, event)
        # Cards losing their face (rewrap) or leaving their row (trade) forfeit
        # a pending effect: the rulebook's note on the non-active player's card.
        kept = tuple(t for t in rest if not (t[0] == "effect" and t[2] == target))
        if kind == REWRAP:
            require(target in state.up, CARD_FACE_DOWN, "Choose a face-up card to turn face down.")
            new = state.copy()
            new.up = state.up - {target}
            new.queue = kept
            return new
        if kind == REGIFT:
            require(
                row != seat or state.regift_own_row,
                OWN_ROW,
                "At this table a Regift must take a card outside your own row.",
            )
            require(target not in state.up, CARD_FACE_UP, "Choose a face-down card to swap with.")
            if row == seat:
                # Within your own row the swapped pair is rearranged at once, so the
                # Regift card stays in place and only the card you got is placed again.
                new = state.copy()
                new.queue = (("choose", ((seat, target),), (), ()), *rest)
                return new
            at = state.rows[seat].index(own)
            moved = self._put(self._put(state, seat, at, target), row, index, own)
            extra = ((row, own),) if row != ASIDE else ()
            task: Task = ("choose", ((seat, target),), (), extra)
            new = moved.copy()
            new.queue = (task, *rest)
            return new
        require(row != seat, OWN_ROW, "Trade with a card outside your own row.")
        require(target in state.up, CARD_FACE_DOWN, "Choose a face-up card to swap with.")
        at = state.rows[seat].index(own)
        moved = self._put(self._put(state, seat, at, target), row, index, own)
        places: tuple[Task, ...] = (("place", seat, target),)
        if row != ASIDE:
            places += (("place", row, own),)
        new = moved.copy()
        new.queue = places + kept
        return new

    def _end_step(self, state: State) -> State:
        """End of a turn (or of one special-condition flip): game end, then who is next."""
        if any(map(state.up.issuperset, state.rows)):  # a row is all face up
            every = frozenset(c for row in state.rows for c in row)
            final = tuple(score_cards(row)[0] for row in state.rows)
            state.phase = "over"
            state.up = state.up | every
            state.known = tuple(k | every for k in state.known)
            state.final = final
            return state
        n = state.n
        if state.phase == "turn":
            turn = state.turn + 1
            if turn == 2 * n and not state.flipped_any:
                order = tuple((state.start + k) % n for k in range(n))
                state.turn = turn
                state.phase = "special"
                state.special = order
                state.active = order[0]
                return state
            state.turn = turn
            state.active = (state.start + turn) % n
            return state
        left = state.special[1:]
        if left:
            state.special = left
            state.active = left[0]
            return state
        state.phase = "turn"
        state.special = ()
        state.active = (state.start + state.turn) % n
        return state

    # -- chance, scores, result -----------------------------------------------
    def sample_chance(self, state: State, rng: random.Random) -> Event:
        order = list(ALL_IDS)
        rng.shuffle(order)
        return {"by": CHANCE, "do": "deal", "order": order}

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def num_players(self, state: State) -> int:
        return state.n

    def scores(self, state: State) -> list[int]:
        """Final scores at the end; before that, the score of the face-up cards only."""
        if state.final is not None:
            return list(state.final)
        return [score_cards([c for c in row if c in state.up])[0] for row in state.rows]

    def result(self, state: State) -> Result:
        details = {
            "breakdown": [score_cards(row)[1] for row in state.rows] if state.final else []
        }
        return Result.from_scores(self.scores(state), details=details)

    def score_bounds(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> tuple[int, int | None]:
        """The worst and best score of any row of the game's size, over the whole deck.

        A row keeps its size all game (every swap, regift and trade is one card
        for one), and at the end exactly the row's cards are scored, so a final
        score is the score of some set of ``hand_size`` cards of the 18: every
        such set is tried (8,568 of five cards), which bounds exactly.
        """
        check_player_count(self, num_players)
        options_resolve(self, options)
        return row_score_range(self.hand_size(num_players))

    def card_multiset(self, state: State) -> Counter[str]:
        counter = Counter(state.deck)
        for row in state.rows:
            counter.update(row)
        counter.update(state.aside)
        return counter

    def secrets(self, state: State, seat: int) -> set[str]:
        everywhere = [*state.deck, *state.aside, *(c for row in state.rows for c in row)]
        return {c for c in everywhere if c not in state.up and c not in state.known[seat]}

    # -- views ----------------------------------------------------------------
    def _sees(self, state: State, seat: int | None, card: str) -> bool:
        return seat is None or card in state.up or card in state.known[seat]

    def _slot(self, state: State, seat: int | None, card: str) -> dict[str, Any]:
        return {"card": card if self._sees(state, seat, card) else None, "up": card in state.up}

    def _task_view(self, state: State, seat: int | None, task: Task) -> dict[str, Any]:
        if task[0] == "choose":
            data: dict[str, Any] = {
                "task": "choose",
                "seats": [s for s, _ in task[1]],
                "chosen": [s for s, _ in task[2]],
            }
            picks = dict(task[2])
            if seat is None:
                data["choices"] = {str(s): c for s, c in task[2]}
            elif seat in picks:
                data["my_choice"] = picks[seat]
            return data
        card = task[2]
        data = {"task": task[0], "seat": task[1]}
        data["card"] = card if self._sees(state, seat, card) else None
        if task[0] == "effect":
            data["effect"] = CARDS[card].effect
        return data

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.slug,
            "phase": state.phase,
            "step": self.step(state),
            "players": state.n,
            "start_player": state.start,
            "round": state.turn // state.n + 1,
            "turns_played": state.turn,
            "active": state.active,
            "to_move": list(self.to_move(state)),
            "deck_count": len(state.deck),
            "rows": [[self._slot(state, seat, c) for c in row] for row in state.rows],
            "set_aside": [self._slot(state, seat, c) for c in state.aside],
            "arranged": list(state.arranged),
            "queue": [self._task_view(state, seat, t) for t in state.queue],
            "last_choices": [{"seat": s, "choice": c} for s, c in state.last_choices],
            "flipped_any": state.flipped_any,
            "special_condition_left": list(state.special),
            "scores": self.scores(state),
        }
        if seat is not None:
            data["you"] = seat
            mine = [c for c in state.rows[seat] if c in state.known[seat] or c in state.up]
            data["my_known_score"] = score_cards(mine)[0]
        if state.final is not None:
            data["result"] = self.result(state).to_json()
        return data

    def event_view(
        self, event: Mapping[str, Any], seat: int | None, before: Any = None
    ) -> Event:
        """What ``seat`` learns from ``event``; ``before`` is the state it was applied to.

        * ``deal``: with ``before``, the seat's own dealt cards (``hand``, in
          dealt order), computed by applying the deal to ``before`` with the
          engine's own dealing; never another seat's cards nor the set-aside
          order. Without ``before`` (or with a deal ``before`` refuses): hidden.
        * ``choose``: its maker sees it. Others see it only when, per
          ``before``, it is the last missing choice of its task, since all of
          the task's choices are then revealed together (``last_choices``);
          the first of two simultaneous choices shows only that it was made.
          The event names no card, so it never shows a kept card.
        * ``arrange``: only its maker sees the order; the row is arranged
          secretly in hand (interpretations 8 and 10), so others learn only
          that it was done, with or without ``before``.
        * every other event names only positions, which are public.
        """
        if seat is None:
            return dict(event)
        kind, by = event.get("do"), event.get("by")
        if by == CHANCE:
            hidden: Event = {"by": CHANCE, "do": kind, "hidden": True}
            if kind != "deal" or not isinstance(before, State) or before.phase != "deal":
                return hidden
            if not 0 <= seat < before.n:
                return hidden
            try:
                dealt = self._deal(before, dict(event))
            except IllegalEvent:
                return hidden
            return {"by": CHANCE, "do": "deal", "hand": list(dealt.rows[seat])}
        if by == seat:
            return dict(event)
        if kind == "choose":
            if self._completes_choice(before, by):
                return {"by": by, "do": "choose", "choice": event.get("choice")}
            return {"by": by, "do": kind, "hidden": True}
        if kind == "arrange":
            return {"by": by, "do": kind, "hidden": True}
        return dict(event)

    @staticmethod
    def _completes_choice(before: Any, by: Any) -> bool:
        """Whether a choice by ``by`` applied to ``before`` is its task's last one."""
        if not isinstance(before, State) or not before.queue or before.queue[0][0] != "choose":
            return False
        _, received, picks, _ = before.queue[0]
        waiting = [s for s, _ in received if s not in {p for p, _ in picks}]
        return waiting == [by]

    # -- words ------------------------------------------------------------------
    def card_catalog(self) -> dict[str, CardInfo]:
        return CATALOG

    def tell(
        self,
        event: Event,
        seat: int | None,
        before: dict[str, JSON] | None,
        after: dict[str, JSON] | None,
    ) -> str:
        """See :mod:`games.gift_swap.words`: built from the views only."""
        return tell(event, seat, before, after)

    def tell_move(self, event: Event, seat: int, before: dict[str, JSON]) -> str:
        return tell_move(event, seat, before)

    # -- greedy bot -------------------------------------------------------------
    @staticmethod
    def _worth(card: str | None) -> float:
        if card is None:
            return 0.0
        c = CARDS[card]
        if c.color == RED:
            return c.icons
        if c.color == BLUE:
            return -c.icons
        return 2.5 if c.color == GREEN and not c.quirky else 1.5

    def greedy_event(self, state: State, seat: int, rng: random.Random) -> Event:
        """Give away the worst own card, take the best known one, always Open
        (it ends the game sooner when ahead and fires effects), and use an
        effect only when it trades up."""
        legal = self.legal_events(state, seat)
        step = self.step(state)
        known = state.known[seat] | state.up

        def seen(row: int | str, index: int) -> str | None:
            cards = state.aside if row == ASIDE else state.rows[row]  # type: ignore[index]
            return cards[index] if cards[index] in known else None

        if step == "swap":

            def gain(e: Event) -> float:
                give = state.rows[seat][e["card"]]
                take = seen(e["with_seat"], e["with_card"])
                return self._worth(take) - self._worth(give) + rng.random() * 0.1

            return max(legal, key=gain)
        if step == "choose":
            return {"by": seat, "do": "choose", "choice": OPEN}
        if step == "effect":
            own = self._worth(state.queue[0][2])
            best, best_gain = legal[0], 0.0
            for e in legal[1:]:
                if e["do"] == REWRAP or e["row"] == seat:
                    continue  # a Regift within your own row changes no score
                g = self._worth(seen(e["row"], e["card"])) - own
                if g > best_gain:
                    best, best_gain = e, g
            return best
        return rng.choice(legal)


ENGINE: Final = GiftSwapEngine()
