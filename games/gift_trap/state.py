"""The GiftTRAP position, reason codes, event-field readers and who owes a choice.

``owes`` and ``trap_ok`` live here, not on the engine, because the rules
(``rules.py``), the views (``views.py``) and the bot (``bot.py``) all ask them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from games.base import MALFORMED_EVENT, IllegalEvent

# Reason codes of this game (the shared ones live in games.base).
WRONG_PHASE: Final = "wrong_phase"
NO_SUCH_SEAT: Final = "no_such_seat"
NO_SUCH_GIFT: Final = "no_such_gift"
PACK_NOT_IN_PLAY: Final = "pack_not_in_play"
BAD_DEAL: Final = "bad_deal"
GIVE_TO_SELF: Final = "give_to_self"
ALREADY_GIVEN: Final = "already_given"
TOKEN_USED: Final = "token_used"
GIVE_MORE_USED: Final = "give_more_used"
TOKEN_PLACED: Final = "token_placed"
GIFT_HAS_TOKEN: Final = "gift_has_token"
EXPERT_CARDS_OFF: Final = "expert_cards_off"
GET_MORE_DECIDED: Final = "get_more_decided"
GET_MORE_SELF: Final = "get_more_self"
NOT_REVEALER: Final = "not_revealer"
GETS_ALREADY_REVEALED: Final = "gets_already_revealed"
REVEAL_GETS_FIRST: Final = "reveal_gets_first"
NO_SUCH_TOKEN: Final = "no_such_token"
ALREADY_REVEALED: Final = "already_revealed"
GIFTTRAP_USED: Final = "gifttrap_used"
ALREADY_TRAPPED: Final = "already_trapped"

ROUND_PHASES: Final = ("give", "get", "reveal")


class State:
    """One position. Never mutated once returned: ``copy`` then replace fields.

    Every field holds an immutable value (int, str, tuple, or a dict that is
    replaced, never updated), so a shallow copy is a safe, cheap copy.
    """

    n: int  # players
    expert: bool  # Expert Strategy Cards in play
    packs: tuple[str, ...]  # packs in play (the others stay in the box)
    track: int
    zone_from: int  # first space of the Gifted Zone
    max_rounds: int | None  # None: no limit, the rulebook's game
    round: int
    dealer: int
    phase: str
    pack: str | None
    unseen: dict[str, tuple[str, ...]]  # never-dealt cards on top of each pack (sorted)
    queue: dict[str, tuple[str, ...]]  # cards put back under the pack, top first
    grid: tuple[tuple[str, str], ...]  # (card, face-up side) for gifts 1..n+1
    gives: tuple[tuple[int, ...], ...]  # gives[giver][receiver] = gift, 0 = none yet
    gives_left: int
    give_more: tuple[int, ...]  # receiver of each giver's Give More card, -1 = none
    gets: tuple[tuple[int, ...], ...]  # gets[seat][token index] = gift, 0 = not placed
    get_more: tuple[int | None, ...]  # giver chosen, -1 = kept in hand, None = undecided
    gets_left: int
    trap_used: tuple[bool, ...]
    trapped: tuple[int, ...]  # gifts under a GiftTRAP card this round
    trap_log: tuple[tuple[int, int, int, str], ...]
    step: int  # reveal: how many players have finished revealing
    gets_shown: tuple[bool, ...]
    shown: tuple[tuple[bool, ...], ...]  # shown[receiver][giver]: GIVE token turned over
    give_pos: tuple[int, ...]
    get_pos: tuple[int, ...]
    log: tuple[dict[str, Any], ...]  # scored gifts of the current (or last) round
    last_grid: tuple[tuple[str, str], ...]  # the last round's grid, shown beside its log
    ended_by: str | None  # "gifted" (someone in the Gifted Zone) or "round_limit"

    def copy(self) -> State:
        """A shallow copy, spelled out field by field.

        Runs for every event. ``__dict__`` tricks are out: the class is compiled by
        mypyc (see ``bin/compile_engines.py``), where it has no attribute dict and a
        field-by-field copy is a few native stores.
        """
        new = State()
        new.n = self.n
        new.expert = self.expert
        new.packs = self.packs
        new.track = self.track
        new.zone_from = self.zone_from
        new.max_rounds = self.max_rounds
        new.round = self.round
        new.dealer = self.dealer
        new.phase = self.phase
        new.pack = self.pack
        new.unseen = self.unseen
        new.queue = self.queue
        new.grid = self.grid
        new.gives = self.gives
        new.gives_left = self.gives_left
        new.give_more = self.give_more
        new.gets = self.gets
        new.get_more = self.get_more
        new.gets_left = self.gets_left
        new.trap_used = self.trap_used
        new.trapped = self.trapped
        new.trap_log = self.trap_log
        new.step = self.step
        new.gets_shown = self.gets_shown
        new.shown = self.shown
        new.give_pos = self.give_pos
        new.get_pos = self.get_pos
        new.log = self.log
        new.last_grid = self.last_grid
        new.ended_by = self.ended_by
        return new

    @property
    def revealer(self) -> int:
        return (self.dealer + self.step) % self.n


def set_at(row: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*row[:index], value, *row[index + 1:])


_EXPECTED_FIELDS: Final[dict[tuple[str, ...], frozenset[str]]] = {}


def check_fields(event: Mapping[str, Any], *names: str) -> None:
    """Refuse extra or missing fields so ``apply`` accepts exactly ``legal_events``."""
    expected = _EXPECTED_FIELDS.get(names)
    if expected is None:
        expected = _EXPECTED_FIELDS[names] = frozenset({"by", "do", *names})
    if event.keys() != expected:
        fields = ", ".join(f'"{k}"' for k in sorted(expected))
        raise IllegalEvent(
            MALFORMED_EVENT, f"A {event.get('do')!r} event has exactly the fields {fields}."
        )


def whole_field(event: Mapping[str, Any], name: str) -> int:
    value = event.get(name)
    if type(value) is not int and (not isinstance(value, int) or isinstance(value, bool)):
        raise IllegalEvent(MALFORMED_EVENT, f'"{name}" must be a whole number.')
    return value


def seat_field(state: State, event: Mapping[str, Any], name: str) -> int:
    value = whole_field(event, name)
    if not 0 <= value < state.n:
        raise IllegalEvent(
            NO_SUCH_SEAT, f'"{name}" must be a seat number from 0 to {state.n - 1}.'
        )
    return value


def gift_field(state: State, event: Mapping[str, Any]) -> int:
    value = whole_field(event, "gift")
    if not 1 <= value <= len(state.grid):
        raise IllegalEvent(
            NO_SUCH_GIFT,
            f"The gift grid holds gifts 1 to {len(state.grid)}; there is no gift {value}.",
        )
    return value


def check_phase(state: State, *phases: str) -> None:
    if state.phase not in phases:
        raise IllegalEvent(
            WRONG_PHASE,
            f"That is not done now: the game is in the {state.phase!r} step.",
        )


def trap_ok(s: State, seat: int) -> bool:
    """May ``seat`` play its GiftTRAP card now (expert cards, a round step, card unused)?"""
    return s.expert and s.phase in ROUND_PHASES and not s.trap_used[seat]


def owes(s: State, seat: int) -> bool:
    """Does ``seat`` still have a compulsory choice in this step?"""
    phase = s.phase
    if phase == "give":
        row = s.gives[seat]
        # A 0 (no gift yet) for another seat: one beyond the seat's own 0, if it has one.
        return row.count(0) > (row[seat] == 0)
    if phase == "get":
        return 0 in s.gets[seat] or (s.expert and s.get_more[seat] is None)
    if phase == "reveal":
        return seat == (s.dealer + s.step) % s.n
    return False
