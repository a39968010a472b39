"""Gift Swap rules engine (rulebook: seeds/000_50141e51f899c7e7.txt).

The rules only: setup, whose move, the legal events, applying an event (one
handler per event type), the end, scores and results. The turn's task queue,
the state and the reason codes are in :mod:`games.gift_swap.state`; what a seat
sees is in :mod:`games.gift_swap.views`, the greedy bot in
:mod:`games.gift_swap.bot` and the words in :mod:`games.gift_swap.words`, to
which the engine's methods of those names delegate. See docs/rules/gift_swap.md.

The module runs past 500 lines because the protocol's methods and the handlers of
all ten event types belong to the one engine class (compiled, each is a direct call).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
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
    Result,
    SeatHistory,
    check_player_count,
    field_int,
    field_str,
    options_resolve,
    require,
)
from games.gift_swap import bot, determinize, views, words
from games.gift_swap.cards import (
    ALL_IDS,
    CARDS,
    REGIFT,
    REWRAP,
    TRADE,
    arrangements,
    is_ascending,
    row_score_range,
    score_cards,
    valid_positions,
)
from games.gift_swap.options import OPTIONS
from games.gift_swap.state import (
    ALLOWED_FIELDS,
    ASIDE,
    BAD_DEAL,
    CARD_FACE_DOWN,
    CARD_FACE_UP,
    EFFECT_EVENTS,
    FIELDS,
    KEEP,
    NOT_AN_OPPONENT,
    NOT_ASCENDING,
    NOT_YOUR_CARDS,
    OPEN,
    OWN_ROW,
    WRONG_EFFECT,
    WRONG_STEP,
    State,
    Task,
    check_fields,
)


def _set(items: tuple, index: int, value: Any) -> tuple:
    """``items`` with ``items[index]`` replaced: through a list, the fastest way both
    interpreted and compiled (a tuple display with two starred slices builds more)."""
    changed = list(items)
    changed[index] = value
    return tuple(changed)


def _everyone_knows(state: State, card: str) -> tuple[frozenset[str], ...]:
    return tuple(k | {card} for k in state.known)


class GiftSwapEngine(BaseEngine):
    slug = "gift_swap"
    name = "Gift Swap"
    min_players = 3
    max_players = 4
    event_types = frozenset(FIELDS)
    chance_event_types = frozenset({"deal"})
    options = OPTIONS

    # -- setup ----------------------------------------------------------------
    def setup(self, num_players: int, options: Mapping[str, Any] | None = None) -> State:
        check_player_count(self, num_players)
        opts = options_resolve(self, options)
        start = opts["start_player"]
        if start >= num_players:
            raise InvalidSetup(
                "bad_option",
                f"start_player must be a seat index, 0 (seat 1) to {num_players - 1} "
                f"(seat {num_players}).",
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
            check_fields(event)
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

    def determinizer(self, history: SeatHistory) -> determinize.GiftSwapDeterminizer:
        """See :mod:`games.gift_swap.determinize`."""
        return determinize.GiftSwapDeterminizer(history)

    def secrets(self, state: State, seat: int) -> set[str]:
        everywhere = [*state.deck, *state.aside, *(c for row in state.rows for c in row)]
        return {c for c in everywhere if c not in state.up and c not in state.known[seat]}

    # -- views, words, bot: delegated ---------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(self, state, seat)

    def event_view(self, event: Mapping[str, Any], seat: int | None, before: Any = None) -> Event:
        """See :func:`games.gift_swap.views.event_view`."""
        return views.event_view(self, event, seat, before)

    def card_catalog(self) -> dict[str, CardInfo]:
        return words.CATALOG

    def tell(
        self,
        event: Event,
        seat: int | None,
        before: dict[str, JSON] | None,
        after: dict[str, JSON] | None,
    ) -> str:
        """See :mod:`games.gift_swap.words`: built from the views only."""
        return words.tell(event, seat, before, after)

    def tell_move(self, event: Event, seat: int, before: dict[str, JSON]) -> str:
        return words.tell_move(event, seat, before)

    def greedy_event(self, state: State, seat: int, rng: random.Random) -> Event:
        """See :func:`games.gift_swap.bot.greedy_event`."""
        return bot.greedy_event(self, state, seat, rng)


ENGINE: Final = GiftSwapEngine()
