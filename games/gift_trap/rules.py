"""The GiftTRAP rules: setup, whose turn, legal events, applying them, scoring.

Rulebook: ``seeds/002_96452d4b254e46ec.txt``; interpretations are numbered in
``docs/rules/gift_trap.md`` and quoted here as (I1), (I2)...

Almost every decision is a simultaneous secret choice, so the state keeps
each seat's choices apart and ``view``/``event_view`` show another seat's
choice only once the stepped reveal has turned it over. The reveal is made of
seat events by the revealer (``reveal_gets`` then one ``reveal`` per GIVE
token) so a GiftTRAP card can be played between any two flips (I9).

What a seat sees is in ``views``, the greedy bot in ``bot`` and the sentences in
``words``: the engine's ``view``, ``event_view``, ``greedy_event``, ``card_catalog``,
``tell`` and ``tell_move`` are one-line delegations to them.
This module runs to about 600 lines, beyond the usual 500, because the engine
class holds a handler for each of GiftTRAP's eight event kinds, each checking its
event field by field in the documented order of the reason codes.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final

from games.base import (
    CHANCE,
    JSON,
    MALFORMED_EVENT,
    BaseEngine,
    CardInfo,
    Event,
    IllegalEvent,
    InvalidSetup,
    Result,
    SeatHistory,
    check_player_count,
    options_resolve,
    require,
)
from games.gift_trap import bot, determinize, views, words
from games.gift_trap.cards import (
    NO_MATCH_VALUE,
    PACK_CARDS,
    PACK_ORDER,
    SIDES,
    TOKEN_VALUE,
    TOKENS,
)
from games.gift_trap.options import OPTIONS
from games.gift_trap.state import (
    ALREADY_GIVEN,
    ALREADY_REVEALED,
    ALREADY_TRAPPED,
    BAD_DEAL,
    EXPERT_CARDS_OFF,
    GET_MORE_DECIDED,
    GET_MORE_SELF,
    GETS_ALREADY_REVEALED,
    GIFT_HAS_TOKEN,
    GIFTTRAP_USED,
    GIVE_MORE_USED,
    GIVE_TO_SELF,
    NO_SUCH_TOKEN,
    NOT_REVEALER,
    PACK_NOT_IN_PLAY,
    REVEAL_GETS_FIRST,
    ROUND_PHASES,
    TOKEN_PLACED,
    TOKEN_USED,
    State,
    check_fields,
    check_phase,
    gift_field,
    owes,
    seat_field,
    set_at,
    trap_ok,
)


class GiftTrapEngine(BaseEngine):
    slug = "gift_trap"
    name = "GiftTRAP"
    min_players = 3
    max_players = 8
    event_types = frozenset({
        "choose_pack", "deal", "give", "get", "get_more",
        "reveal_gets", "reveal", "gifttrap",
    })
    chance_event_types = frozenset({"deal"})
    interrupt_event_types = frozenset({"gifttrap"})
    options = OPTIONS

    # -- setup -----------------------------------------------------------------------
    def setup(self, num_players: int, options: Mapping[str, Any] | None = None) -> State:
        check_player_count(self, num_players)
        opts = options_resolve(self, options)
        n = num_players
        track = opts["track_length"]
        if opts["zone_size"] > track:
            raise InvalidSetup(
                "bad_option",
                f'Option "zone_size" must be at most the track length ({track}), '
                f'not {opts["zone_size"]}.',
                option="zone_size",
            )
        if opts["first_dealer"] >= n:
            raise InvalidSetup(
                "bad_option",
                f'Option "first_dealer" must be a seat number from 0 to {n - 1}, '
                f'not {opts["first_dealer"]}.',
                option="first_dealer",
            )

        s = State()
        s.n = n
        s.expert = opts["expert_cards"]
        s.packs = tuple(p for p in PACK_ORDER if p in opts["packs"])
        s.track = track
        s.zone_from = track - opts["zone_size"] + 1
        s.max_rounds = opts["max_rounds"]
        s.round = 1
        s.dealer = opts["first_dealer"]
        s.phase = "choose_pack"
        s.pack = None
        s.unseen = dict(PACK_CARDS)
        s.queue = dict.fromkeys(PACK_ORDER, ())
        s.grid = ()
        s.trap_used = (False,) * n
        s.trap_log = ()
        s.give_pos = (0,) * n
        s.get_pos = (0,) * n
        s.log = ()
        s.last_grid = ()
        s.ended_by = None
        self._reset_round(s)
        return s

    @staticmethod
    def _reset_round(s: State) -> None:
        n = s.n
        s.gives = ((0,) * n,) * n
        s.gives_left = n * (n - 1)
        s.give_more = (-1,) * n
        s.gets = ((0,) * 4,) * n
        s.get_more = (None,) * n
        s.gets_left = 4 * n + (n if s.expert else 0)
        s.trapped = ()
        s.step = 0
        s.gets_shown = (False,) * n
        s.shown = ((False,) * n,) * n

    # -- whose turn ------------------------------------------------------------------
    def num_players(self, state: State) -> int:
        return state.n

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def may_act(self, state: State, actor: Any) -> bool:
        """One seat's part of ``to_move``: whether it owes a choice or may play its card."""
        s = state
        phase = s.phase
        if phase in ROUND_PHASES:
            return actor != CHANCE and (
                owes(s, actor) or (s.expert and not s.trap_used[actor])
            )
        if phase == "deal":
            return actor == CHANCE
        return phase == "choose_pack" and actor == s.dealer

    def to_move(self, state: State) -> list[Any]:
        s = state
        if s.phase == "over":
            return []
        if s.phase == "deal":
            return [CHANCE]
        if s.phase == "choose_pack":
            return [s.dealer]
        return [p for p in range(s.n) if owes(s, p) or trap_ok(s, p)]

    def legal_events(self, state: State, seat: int) -> list[Event]:
        s = state
        if s.phase in ("over", "deal") or not isinstance(seat, int):
            return []
        if s.phase == "choose_pack":
            if seat != s.dealer:
                return []
            return [{"by": seat, "do": "choose_pack", "pack": p} for p in s.packs]
        out: list[Event] = []
        k = len(s.grid)
        if s.phase == "give":
            row = s.gives[seat]
            free = [g for g in range(1, k + 1) if g not in row]
            for r in range(s.n):
                if r == seat or row[r]:
                    continue
                for g in free:
                    if s.expert:
                        out.append({"by": seat, "do": "give", "to": r, "gift": g, "more": False})
                        if s.give_more[seat] < 0:
                            out.append(
                                {"by": seat, "do": "give", "to": r, "gift": g, "more": True}
                            )
                    else:
                        out.append({"by": seat, "do": "give", "to": r, "gift": g})
        elif s.phase == "get":
            row = s.gets[seat]
            for i, tok in enumerate(TOKENS):
                if row[i]:
                    continue
                for g in range(1, k + 1):
                    if g not in row:
                        out.append({"by": seat, "do": "get", "token": tok, "gift": g})
            if s.expert and s.get_more[seat] is None:
                out.extend(
                    {"by": seat, "do": "get_more", "from": p} for p in range(s.n) if p != seat
                )
                out.append({"by": seat, "do": "get_more", "from": None})
        elif s.phase == "reveal" and seat == s.revealer:
            if not s.gets_shown[seat]:
                out.append({"by": seat, "do": "reveal_gets"})
            else:
                shown = s.shown[seat]
                out.extend(
                    {"by": seat, "do": "reveal", "from": p}
                    for p in range(s.n)
                    if p != seat and not shown[p]
                )
        if trap_ok(s, seat):
            out.extend(
                {"by": seat, "do": "gifttrap", "gift": g}
                for g in range(1, k + 1)
                if g not in s.trapped
            )
        return out

    # -- applying events ------------------------------------------------------------
    def refuse_mover(self, state: State, event: Mapping[str, Any], actor: Any) -> None:
        """A refused GiftTRAP says why (I10).

        A seat whose card is played is no longer a possible mover, so the shared
        check would answer a second GiftTRAP with ``not_your_turn``; the player
        is told ``gifttrap_used`` (or ``expert_cards_off``, ``wrong_phase``) instead.
        """
        if event.get("do") == "gifttrap" and isinstance(actor, int):
            self._check_trap_card(state, actor)

    def _check_trap_card(self, s: State, by: int) -> None:
        check_phase(s, *ROUND_PHASES)
        require(s.expert, EXPERT_CARDS_OFF, "This game is played without Expert Strategy Cards.")
        require(not s.trap_used[by], GIFTTRAP_USED, "You have already played your GiftTRAP card.")

    def _apply(self, state: State, event: Event, actor: Any) -> State:
        kind = event["do"]
        # An if-chain, most frequent first: compiled, each is a direct native call.
        if kind == "give":
            return self._do_give(state, event, actor)
        if kind == "get":
            return self._do_get(state, event, actor)
        if kind == "reveal":
            return self._do_reveal(state, event, actor)
        if kind == "reveal_gets":
            return self._do_reveal_gets(state, event, actor)
        if kind == "get_more":
            return self._do_get_more(state, event, actor)
        if kind == "deal":
            return self._do_deal(state, event, actor)
        if kind == "choose_pack":
            return self._do_choose_pack(state, event, actor)
        if kind == "gifttrap":
            return self._do_gifttrap(state, event, actor)
        raise KeyError(kind)

    def _do_choose_pack(self, s: State, e: Event, by: int) -> State:
        check_phase(s, "choose_pack")
        check_fields(e, "pack")
        pack = e.get("pack")
        if not isinstance(pack, str):
            raise IllegalEvent(MALFORMED_EVENT, '"pack" must be the name of a pack.')
        require(
            pack in s.packs, PACK_NOT_IN_PLAY,
            f"{pack!r} is not a pack in this game; choose one of: {', '.join(s.packs)}.",
        )
        t = s.copy()
        t.pack = pack
        t.phase = "deal"
        t.log = ()  # the last round's reveal stays on view until the next pack is chosen
        t.last_grid = ()
        return t

    def _deal_size(self, s: State) -> int:
        return s.n + 1

    def _do_deal(self, s: State, e: Event, by: Any) -> State:
        check_phase(s, "deal")
        check_fields(e, "cards", "sides")
        k = self._deal_size(s)
        cards, sides = e.get("cards"), e.get("sides")
        if (
            not isinstance(cards, list) or len(cards) != k
            or not all(isinstance(c, str) for c in cards)
        ):
            raise IllegalEvent(MALFORMED_EVENT, f'"cards" must list {k} card ids.')
        if not isinstance(sides, list) or len(sides) != k or any(x not in SIDES for x in sides):
            raise IllegalEvent(MALFORMED_EVENT, f'"sides" must list {k} of "a" or "b".')
        assert s.pack is not None
        unseen, queue = s.unseen[s.pack], s.queue[s.pack]
        require(len(set(cards)) == k, BAD_DEAL, "A card cannot be dealt twice.")
        if len(unseen) >= k:
            require(
                all(c in unseen for c in cards), BAD_DEAL,
                f"The deal must be {k} cards from the unseen top of the {s.pack} pack.",
            )
            new_unseen = tuple(c for c in unseen if c not in cards)
            new_queue = queue
        else:
            u = len(unseen)
            require(
                set(cards[:u]) == set(unseen) and tuple(cards[u:]) == queue[:k - u], BAD_DEAL,
                f"The {s.pack} pack has {u} unseen cards on top of the returned ones; the "
                "deal must take those, then the returned cards in the order they went back.",
            )
            new_unseen = ()
            new_queue = queue[k - u:]
        t = s.copy()
        t.unseen = {**s.unseen, s.pack: new_unseen}
        t.queue = {**s.queue, s.pack: new_queue}
        t.grid = tuple(zip(cards, sides, strict=True))
        t.phase = "give"
        return t

    def _do_give(self, s: State, e: Event, by: int) -> State:
        check_phase(s, "give")
        if s.expert:
            check_fields(e, "to", "gift", "more")
        else:
            check_fields(e, "to", "gift")
        to = seat_field(s, e, "to")
        require(to != by, GIVE_TO_SELF, "You give a gift to each other player, not to yourself.")
        row = s.gives[by]
        if row[to]:
            raise IllegalEvent(ALREADY_GIVEN, f"You have already given seat {to + 1} a gift.")
        gift = gift_field(s, e)
        if gift in row:
            raise IllegalEvent(
                TOKEN_USED, f"Your GIVE token {gift} is already given: you have one token per gift."
            )
        more: object = False
        if s.expert:
            more = e.get("more")
            if not isinstance(more, bool):
                raise IllegalEvent(MALFORMED_EVENT, '"more" must be true or false.')
            require(
                not more or s.give_more[by] < 0, GIVE_MORE_USED,
                "Your Give More card is already on another gift this round.",
            )
        t = s.copy()
        t.gives = set_at(s.gives, by, set_at(row, to, gift))
        if more:
            t.give_more = set_at(s.give_more, by, to)
        t.gives_left = s.gives_left - 1
        if not t.gives_left:
            t.phase = "get"
        return t

    def _do_get(self, s: State, e: Event, by: int) -> State:
        check_phase(s, "get")
        check_fields(e, "token", "gift")
        token = e.get("token")
        if token not in TOKENS:
            raise IllegalEvent(MALFORMED_EVENT, '"token" must be one of: ' + ", ".join(TOKENS))
        index = TOKENS.index(token)
        row = s.gets[by]
        if row[index]:
            raise IllegalEvent(TOKEN_PLACED, f"Your {token} token is already on a gift.")
        gift = gift_field(s, e)
        if gift in row:
            raise IllegalEvent(GIFT_HAS_TOKEN, f"Gift {gift} already has one of your tokens.")
        t = s.copy()
        t.gets = set_at(s.gets, by, set_at(row, index, gift))
        return self._after_get(t)

    def _do_get_more(self, s: State, e: Event, by: int) -> State:
        check_phase(s, "get")
        require(s.expert, EXPERT_CARDS_OFF, "This game is played without Expert Strategy Cards.")
        check_fields(e, "from")
        require(
            s.get_more[by] is None, GET_MORE_DECIDED,
            "You have already decided about your Get More card this round.",
        )
        giver: int | None = None
        if e.get("from") is not None:
            giver = seat_field(s, e, "from")
            require(giver != by, GET_MORE_SELF, "Get More goes under a gift another player gave.")
        t = s.copy()
        t.get_more = set_at(s.get_more, by, -1 if giver is None else giver)
        return self._after_get(t)

    def _after_get(self, t: State) -> State:
        t.gets_left -= 1
        if not t.gets_left:
            t.phase = "reveal"
        return t

    def _do_reveal_gets(self, s: State, e: Event, by: int) -> State:
        check_phase(s, "reveal")
        if by != s.revealer:
            raise IllegalEvent(NOT_REVEALER, f"Seat {s.revealer + 1} is revealing now.")
        check_fields(e)
        require(
            not s.gets_shown[by], GETS_ALREADY_REVEALED, "Your GET tokens are already face up."
        )
        t = s.copy()
        t.gets_shown = set_at(s.gets_shown, by, True)
        return t

    def _do_reveal(self, s: State, e: Event, by: int) -> State:
        check_phase(s, "reveal")
        if by != s.revealer:
            raise IllegalEvent(NOT_REVEALER, f"Seat {s.revealer + 1} is revealing now.")
        check_fields(e, "from")
        require(
            s.gets_shown[by], REVEAL_GETS_FIRST, "Turn over your four GET tokens first."
        )
        giver = seat_field(s, e, "from")
        require(giver != by, NO_SUCH_TOKEN, "You hold no GIVE token from yourself.")
        if s.shown[by][giver]:
            raise IllegalEvent(
                ALREADY_REVEALED, f"The gift from seat {giver + 1} is already revealed."
            )
        t = s.copy()
        t.shown = set_at(s.shown, by, set_at(s.shown[by], giver, True))
        self._score(t, by, giver)
        row = t.shown[by]
        if row.count(False) == (not row[by]):  # every other seat's token is turned over
            t.step += 1
            if t.step == t.n:
                self._end_round(t)
        return t

    def _do_gifttrap(self, s: State, e: Event, by: int) -> State:
        check_phase(s, *ROUND_PHASES)
        require(s.expert, EXPERT_CARDS_OFF, "This game is played without Expert Strategy Cards.")
        check_fields(e, "gift")
        require(not s.trap_used[by], GIFTTRAP_USED, "You have already played your GiftTRAP card.")
        gift = gift_field(s, e)
        if gift in s.trapped:
            raise IllegalEvent(ALREADY_TRAPPED, f"Gift {gift} is already GiftTRAPped.")
        t = s.copy()
        t.trap_used = set_at(s.trap_used, by, True)
        t.trapped = (*s.trapped, gift)
        t.trap_log = (*s.trap_log, (s.round, by, gift, s.phase))
        return t

    # -- scoring ---------------------------------------------------------------------
    def _score(self, t: State, receiver: int, giver: int) -> None:
        """Score one revealed GIVE token for both giver and receiver (mutates ``t``)."""
        gift = t.gives[giver][receiver]
        if gift in t.trapped:
            match, value = "trapped", 0
        else:
            match, value = "no_match", NO_MATCH_VALUE
            row = t.gets[receiver]
            for i, tok in enumerate(TOKENS):
                if row[i] == gift:
                    match, value = tok, TOKEN_VALUE[tok]
        give_move = value * (2 if t.give_more[giver] == receiver else 1)
        get_move = value * (2 if t.get_more[receiver] == giver else 1)
        old_give, old_get = t.give_pos[giver], t.get_pos[receiver]
        new_give = min(t.track, max(0, old_give + give_move))
        new_get = min(t.track, max(0, old_get + get_move))
        t.give_pos = set_at(t.give_pos, giver, new_give)
        t.get_pos = set_at(t.get_pos, receiver, new_get)
        entry: dict[str, Any] = {
            "receiver": receiver, "giver": giver, "gift": gift, "match": match,
            "give_move": new_give - old_give, "get_move": new_get - old_get,
        }
        if t.expert:
            entry["give_more"] = t.give_more[giver] == receiver
            entry["get_more"] = t.get_more[receiver] == giver
        t.log = (*t.log, entry)

    def _qualified(self, s: State) -> list[int]:
        return [
            p for p in range(s.n) if s.give_pos[p] >= s.zone_from and s.get_pos[p] >= s.zone_from
        ]

    def _end_round(self, t: State) -> None:
        if self._qualified(t):
            t.phase, t.ended_by = "over", "gifted"
            return
        if t.max_rounds is not None and t.round >= t.max_rounds:  # a house limit (I7)
            t.phase, t.ended_by = "over", "round_limit"
            return
        assert t.pack is not None
        t.queue = {**t.queue, t.pack: t.queue[t.pack] + tuple(c for c, _ in t.grid)}
        t.last_grid = t.grid
        t.grid = ()
        t.pack = None
        t.round += 1
        t.dealer = (t.dealer + 1) % t.n
        t.phase = "choose_pack"
        self._reset_round(t)

    def score_bounds(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> tuple[int, int | None]:
        """0 to twice the track: a score is GIVE + GET position (I8).

        A marker never goes below GO (0) nor beyond GIFTED (``track_length``),
        whatever the number of rounds, so the bounds hold with or without
        ``max_rounds``.
        """
        check_player_count(self, num_players)
        opts = options_resolve(self, options)
        return 0, 2 * opts["track_length"]

    def scores(self, state: State) -> list[int]:
        return [g + h for g, h in zip(state.give_pos, state.get_pos, strict=True)]

    def result(self, state: State) -> Result:
        s = state
        qualified = self._qualified(s)
        totals = self.scores(s)
        order = [
            (1 if p in qualified else 0, totals[p], min(s.give_pos[p], s.get_pos[p]))
            for p in range(s.n)
        ]
        return Result.from_scores(totals, order=order, details={
            "give_track": list(s.give_pos),
            "get_track": list(s.get_pos),
            "gifted": qualified,
            "rounds": s.round,
            "ended_by": s.ended_by,
            "track_length": s.track,
            "zone_from": s.zone_from,
        })

    # -- chance ----------------------------------------------------------------------
    def sample_chance(self, state: State, rng: random.Random) -> Event:
        s = state
        if s.phase != "deal" or s.pack is None:
            raise ValueError("sample_chance is only asked for when a deal is due.")
        k = self._deal_size(s)
        unseen, queue = s.unseen[s.pack], s.queue[s.pack]
        if len(unseen) >= k:
            cards = rng.sample(unseen, k)
        else:
            cards = list(unseen)
            rng.shuffle(cards)
            cards += list(queue[:k - len(unseen)])
        return {
            "by": CHANCE, "do": "deal", "cards": cards,
            "sides": [rng.choice(SIDES) for _ in range(k)],
        }

    # -- cards and secrets -----------------------------------------------------------
    def card_multiset(self, state: State) -> Counter[str]:
        s = state
        cards: Counter[str] = Counter()
        for pack in PACK_ORDER:
            if pack in s.packs:
                cards.update(s.unseen[pack])
                cards.update(s.queue[pack])
            else:
                cards.update(PACK_CARDS[pack])  # left in the box
        cards.update(c for c, _ in s.grid)
        return cards

    def secrets(self, state: State, seat: int) -> set[str]:
        """Which cards lie unseen in the packs (their order is unknown to all)."""
        return {c for p in state.packs for c in state.unseen[p]}

    # -- views -----------------------------------------------------------------------
    def determinizer(self, history: SeatHistory) -> determinize.GiftTrapDeterminizer:
        """See :mod:`games.gift_trap.determinize`."""
        return determinize.GiftTrapDeterminizer(history)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(self, state, seat)

    def event_view(
        self, event: Mapping[str, Any], seat: int | None, before: Any = None
    ) -> Event:
        return views.event_view(self, event, seat, before)

    # -- the bot ---------------------------------------------------------------------
    def greedy_event(self, state: State, seat: int, rng: random.Random) -> Event:
        return bot.greedy_event(self, state, seat, rng)

    # -- words -----------------------------------------------------------------------
    def card_catalog(self) -> dict[str, CardInfo]:
        return words.CATALOG

    def tell(
        self,
        event: Event,
        seat: int | None,
        before: dict[str, JSON] | None,
        after: dict[str, JSON] | None,
    ) -> str:
        return words.tell(event, seat, before, after)

    def tell_move(self, event: Event, seat: int, before: dict[str, JSON]) -> str:
        return words.tell_move(event, seat, before)

    def labels(self, events: Sequence[Mapping[str, Any]], seat: int, before: Any) -> list[str]:
        """As ``BaseEngine.labels``, through ``words.move_labels`` (a giving's 63 moves
        a seat are labelled in one loop).

        A seat's own moves (its legal moves always are) are labelled as they are
        (``event_view`` shows them whole) from the grid's names alone
        (``views.grid_names``), all a label reads of a view: everyone's table of an
        8-player giving labels 459 gives, of a GET step 4 tokens on each gift for each
        seat, and each seat's view (built only for the names) and a copy of each event
        were a third of that."""
        if all(e.get("by") == seat for e in events):
            return words.labels_named(events, views.grid_names(before))
        shown = [self.event_view(event, seat, before=before) for event in events]
        return words.move_labels(shown, seat, self.view(before, seat))


ENGINE: Final = GiftTrapEngine()
