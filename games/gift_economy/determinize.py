"""Gift Economy states one seat cannot tell from the real one (determinization).

The view shows the seat its own hand and set-aside cards, the discard pile and the
deal on the table, and of every other seat only how many cards it holds. The seat
knows more than that from its history, and the sample keeps it:

* a card laid out in an offer or a counter is in its owner's hand, and a completed
  deal moves the laid-out cards to the other side, both in view of the table;
* a card the seat passed (a jack) is in its neighbour's hand;
* once a seat holding such a card sets cards aside or passes them on, the card may
  be in either place, so a known card is tracked as the set of places it may be in.

Every other card it has not seen is dealt anywhere hidden: the other hands, their
set-aside cards, the deck (in random order). A sample never hands anyone the goal
(12 points of each resource): the game would be over.
"""

from __future__ import annotations

import copy
import random

from games.base import SeatHistory
from games.determinize import deal_hidden
from games.gift_economy.cards import CARDS, totals
from games.gift_economy.state import CHOOSE, GOAL_TOTALS, OVER, RANDOM, SHUFFLE, State

# A hidden zone: ("hand", seat), ("pending", seat) or ("deck", 0).
Zone = tuple[str, int]
DECK: Zone = ("deck", 0)
RETRIES = 100


class GiftEconomyDeterminizer:
    """One seat's knowledge of a Gift Economy position, read from its history."""

    def __init__(self, history: SeatHistory) -> None:
        self.history = history
        self.seat = seat = history.seat
        self.n = history.num_players
        view = self.view = history.view
        where, public = _whereabouts(history)
        self.public = frozenset(public)
        players = view["players"]
        # Cards whose place the view shows.
        self.hands: list[list[str]] = [list(p.get("hand", [])) for p in players]
        offer = view.get("offer")
        if offer is not None:
            self.hands[offer["seat"]].extend(offer["cards"])
            for counter in view["counters"]:
                if "cards" in counter:
                    self.hands[counter["seat"]].extend(counter["cards"])
        self.hands[seat] = list(players[seat].get("hand", []))
        self.pending: list[list[str]] = [
            list(p["set_aside"]) if isinstance(p.get("set_aside"), list) else [] for p in players
        ]
        shown = set(view["discard"]) | {c for h in self.hands for c in h}
        shown |= {c for p in self.pending for c in p}
        self.shuffled = view["phase"] != SHUFFLE
        capacity: dict[Zone, int] = {}
        if self.shuffled:
            capacity[DECK] = view["deck_count"]
            for s, p in enumerate(players):
                if "hand" not in p:
                    capacity[("hand", s)] = p["cards"] - len(self.hands[s])
                if isinstance(p.get("set_aside"), int) and p["set_aside"]:
                    capacity[("pending", s)] = p["set_aside"]
        self.capacity = {z: c for z, c in capacity.items() if c > 0}
        unseen = [c for c in CARDS if c not in shown] if self.shuffled else []
        self.free: list[str] = []
        self.placed: dict[str, frozenset[Zone]] = {}
        for card in unseen:
            zones = where.get(card)
            if zones is None:
                self.free.append(card)
            else:
                self.placed[card] = frozenset(z for z in zones if z in self.capacity)
        self.known = frozenset(players[seat].get("hand", [])) | frozenset(where)

    def sample(self, rng: random.Random) -> State:
        view = self.view
        n = self.n
        hands = [list(h) for h in self.hands]
        pending = [list(p) for p in self.pending]
        deck: list[str] = list(CARDS) if not self.shuffled else []
        for _ in range(RETRIES):
            dealt = deal_hidden(self.capacity, self.free, self.placed, rng)
            goal = False
            for zone, cards in dealt.items():
                if zone[0] == "hand":
                    hand = self.hands[zone[1]] + cards
                    goal = goal or (len(hand) >= 8 and totals(hand) == GOAL_TOTALS)
            if not goal or view["phase"] == OVER:
                break
        for zone, cards in dealt.items():
            kind, s = zone
            if kind == "hand":
                hands[s] = self.hands[s] + cards
            elif kind == "pending":
                pending[s] = cards
            else:
                deck = cards
        choose = view.get("choose")
        new = State()
        new.n = n
        new.start = view["start_player"]
        new.phase = view["phase"]
        new.ranking = view["ranking"]
        new.deck, new.top = tuple(deck), 0
        new.hands = tuple(tuple(h) for h in hands)
        new.discard = tuple(view["discard"])
        new.active = view["active"]
        new.turn = view["turn"]
        new.deals_left = view["deals_left"]
        offer = view.get("offer")
        new.offer = tuple(offer["cards"]) if offer is not None else None
        new.responder = view.get("responder")
        new.counters = tuple(
            (c["seat"], None if c.get("declined") else tuple(c["cards"]))
            for c in (view.get("counters") or [])
        )
        new.last_deal = copy.deepcopy(view["last_deal"])
        new.played = view.get("special_played")
        new.choose_kind = choose["kind"] if choose else None
        new.direction = choose["direction"] if choose else 0
        new.need = tuple(
            p.get("still_to_choose", 0) if view["phase"] == CHOOSE else 0 for p in view["players"]
        )
        new.pending = tuple(tuple(p) for p in pending)
        new.target = view["target"] if view["phase"] == RANDOM else None
        new.public = self.public
        held = [frozenset(h) for h in hands]
        held[self.seat] = self.known
        new.held = tuple(held)
        new.end_reason = view.get("end_reason")
        return new


def _whereabouts(history: SeatHistory) -> tuple[dict[str, set[Zone]], set[str]]:
    """Cards the seat saw go into hidden places, each with the places it may be in now.

    Also every card laid out in an offer or a counter (the table has seen them).
    """
    seat, n = history.seat, history.num_players
    where: dict[str, set[Zone]] = {}
    public: set[str] = set()
    for k, event in enumerate(history.events):
        before, after = history.views[k], history.views[k + 1]
        kind, by = event.get("do"), event["by"]
        if kind in ("offer", "counter"):
            public.update(event["cards"])
            for card in event["cards"]:
                where[card] = {("hand", by)}
        elif kind == "accept":
            to = event["seat"]
            for card in before["offer"]["cards"]:
                where[card] = {("hand", to)}
            for counter in before["counters"]:
                if counter["seat"] == to:
                    for card in counter["cards"]:
                        where[card] = {("hand", by)}
        elif kind in ("pass_card", "discard"):
            if "card" in event:
                where[event["card"]] = {("pending", by)}
            else:  # hidden: any card it may hold may be the one set aside
                for zones in where.values():
                    if ("hand", by) in zones:
                        zones.add(("pending", by))
            if before["phase"] == CHOOSE and after["phase"] != CHOOSE:
                choose = before["choose"]
                for card, zones in list(where.items()):
                    if choose["kind"] == "pass_card":
                        where[card] = {
                            ("hand", (z[1] + choose["direction"]) % n) if z[0] == "pending" else z
                            for z in zones
                        }
                    else:
                        where[card] = {z for z in zones if z[0] != "pending"}
        # Cards the view places itself (own hand, the discard pile) need no tracking
        # until an event moves them again; the seat's own set-aside cards are tracked,
        # to follow them to its neighbour.
        located = set(after["discard"]) | set(after["players"][seat].get("hand", []))
        for card in located:
            where.pop(card, None)
    return where, public
