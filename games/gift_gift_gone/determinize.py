"""Gift Gift Gone states one seat cannot tell from the real one (determinization).

The view shows the seat its own hand, the discard pile, the claimed gifts and how
many cards every other hand and the deck hold. The seat knows more from its
history, and the sample keeps it:

* a card drawn from the discard pile is in the drawer's hand; a card the seat
  handed over in a trade is in the asker's or the partner's hand;
* the discard pile below its top card, once reshuffled, is the deck;
* a seat that claimed or swapped with a gift holds no more of it, until it takes
  a card it was not shown;
* at the end the scores show what each hand is worth, and the sample's hands
  are worth just that.

Such a known card may move on unseen (a hand drawing or refilling from the deck, a
trade), so it is tracked as the set of places it may be in. Every card the seat has
never seen is dealt anywhere hidden. What a seat answering "yes" tells (it held the
asked gift) is not kept beyond the card it handed over.
"""

from __future__ import annotations

import random

from games.base import SeatHistory
from games.determinize import deal_hidden
from games.gift_gift_gone.cards import GIFT_OF, VALUE, cards_of
from games.gift_gift_gone.state import DEAL, OVER, PICK, State

Zone = tuple[str, int]
DECK: Zone = ("deck", 0)
REPAIR_STEPS = 2000
RETRIES = 20


class GiftGiftGoneDeterminizer:
    """One seat's knowledge of a Gift Gift Gone position, read from its history."""

    def __init__(self, history: SeatHistory) -> None:
        self.history = history
        self.seat = seat = history.seat
        self.n = history.num_players
        view = self.view = history.view
        self.gifts = tuple(g["gift"] for g in view["catalogue"])
        self.box = cards_of(self.gifts)
        self.dealt = view["phase"] != DEAL
        where, lacks = _whereabouts(history)
        mine = view["hands"][seat]["cards"]
        shown = set(mine) | set(view["discard"])
        shown.update(c for g in view["gifts"] for c in g["cards"])
        capacity: dict[Zone, int] = {}
        if self.dealt:
            capacity[DECK] = view["deck_count"]
            for s, hand in enumerate(view["hands"]):
                if s != seat and hand["count"]:
                    capacity[("hand", s)] = hand["count"]
        # While the partner picks, the asker's positions to pick from are its cards of
        # any gift but the one traded: so the table knows how many of that gift it holds.
        trade = view.get("trade")
        asked: tuple[int, str] | None = None
        if view["phase"] == PICK and trade is not None and "order" not in trade:
            asker = trade["asker"]
            asked = (asker, trade["gift"])
            count = view["hands"][asker]["count"]
            capacity[("hand", asker)] = trade["positions"]
            capacity[("gift", asker)] = count - trade["positions"]
        self.capacity = {z: c for z, c in capacity.items() if c > 0}
        unseen = [c for c in self.box if c not in shown] if self.dealt else []
        self.free: list[str] = []
        self.placed: dict[str, frozenset[Zone]] = {}
        for card in unseen:
            zones = where.get(card)
            allowed = set(capacity) if zones is None else {z for z in zones if z in capacity}
            allowed -= {("hand", s) for s in range(self.n) if GIFT_OF[card] in lacks[s]}
            if asked is not None:
                if GIFT_OF[card] == asked[1]:
                    if ("hand", asked[0]) in allowed:
                        allowed.add(("gift", asked[0]))
                    allowed.discard(("hand", asked[0]))
                else:
                    allowed.discard(("gift", asked[0]))
            allowed &= set(self.capacity)
            if len(allowed) == len(self.capacity):
                self.free.append(card)
            else:
                self.placed[card] = frozenset(allowed)
        # At the end each hand's worth is public: its points less its score.
        self.worth: dict[int, int] = {}
        if view["phase"] == OVER:
            for s in range(self.n):
                if s != seat:
                    self.worth[s] = view["points"][s] - view["scores"][s]

    def sample(self, rng: random.Random) -> State:
        view = self.view
        dealt = deal_hidden(self.capacity, self.free, self.placed, rng) if self.dealt else {}
        for _ in range(RETRIES):
            if not self.worth or _repair(dealt, self.worth, self.placed, rng):
                break
            dealt = deal_hidden(self.capacity, self.free, self.placed, rng)
        hands: list[tuple[str, ...]] = []
        for s, hand in enumerate(view["hands"]):
            if s == self.seat:
                hands.append(tuple(hand["cards"]))
            else:
                hands.append(tuple(dealt.get(("hand", s), []) + dealt.get(("gift", s), [])))
        options = self.history.options
        trade = view.get("trade")
        new = State()
        new.n = self.n
        new.gifts = self.gifts
        new.target = view["target"]
        new.box = self.box
        new.phase = view["phase"]
        new.deck = tuple(dealt.get(DECK, [])) if self.dealt else self.box
        new.discard = tuple(view["discard"])
        new.hands = tuple(hands)
        new.owner = {g["gift"]: g["owner"] for g in view["gifts"]}
        new.table = {g["gift"]: tuple(g["cards"]) for g in view["gifts"]}
        new.turn = view["turn"]
        new.draws = view["draws"]
        new.discards = view["discards"]
        new.asked = view["asked"]
        done = view["actions_done"]
        new.drawn, new.claimed, new.traded = "draw" in done, "claim" in done, "trade" in done
        new.ask_gift = trade["gift"] if trade else None
        new.partner = trade["partner"] if trade else None
        new.order = ()
        if view["phase"] == PICK:
            assert trade is not None
            if "order" in trade:
                new.order = tuple(trade["order"])
            else:
                order = sorted(c for c in hands[new.turn] if GIFT_OF[c] != new.ask_gift)
                rng.shuffle(order)
                new.order = tuple(order)
        new.shuffle_due = view["shuffle_due"]
        new.winner = view["winner"]
        new.end = view["end"]
        new.quiet = view["quiet_turns"]
        new.combine = options["turn_actions"] == "one_of_each"
        new.give_frozen = options["give_frozen_in_swap"]
        return new


def _repair(
    dealt: dict[Zone, list[str]],
    worth: dict[int, int],
    placed: dict[str, frozenset[Zone]],
    rng: random.Random,
) -> bool:
    """Swap hidden cards between hidden places until every hand has its known worth.

    A random local search from a deal that fits every other constraint: a swap is made
    only between places both cards may be in, and kept when it brings the hands nearer
    their worths (or leaves them as near). False if it found none in its budget.
    """
    totals = {z: sum(VALUE[GIFT_OF[c]] for c in cards) for z, cards in dealt.items()}

    def off(zone: Zone, total: int) -> int:
        return abs(total - worth[zone[1]]) if zone[0] == "hand" and zone[1] in worth else 0

    zones = [z for z in dealt if dealt[z]]
    current = sum(off(z, totals[z]) for z in zones)
    if len(zones) < 2:
        return current == 0
    for _ in range(REPAIR_STEPS):
        if current == 0:
            return True
        a, b = rng.sample(zones, 2)
        i, j = rng.randrange(len(dealt[a])), rng.randrange(len(dealt[b]))
        x, y = dealt[a][i], dealt[b][j]
        if (x in placed and b not in placed[x]) or (y in placed and a not in placed[y]):
            continue
        change = VALUE[GIFT_OF[y]] - VALUE[GIFT_OF[x]]
        before = off(a, totals[a]) + off(b, totals[b])
        after = off(a, totals[a] + change) + off(b, totals[b] - change)
        if after <= before:
            dealt[a][i], dealt[b][j] = y, x
            totals[a] += change
            totals[b] -= change
            current += after - before
    return current == 0


def _whereabouts(history: SeatHistory) -> tuple[dict[str, set[Zone]], list[set[str]]]:
    """Cards the seat saw go into hidden places, each with the places it may be in now;
    and, per seat, the gifts its hand is known to hold none of."""
    seat, n = history.seat, history.num_players
    where: dict[str, set[Zone]] = {}
    lacks: list[set[str]] = [set() for _ in range(n)]
    for k, event in enumerate(history.events):
        before, after = history.views[k], history.views[k + 1]
        kind, by = event.get("do"), event["by"]
        if kind == "reshuffle":
            for card in before["discard"][:-1]:
                where[card] = {DECK}
        elif kind == "draw" and event.get("from") == "discard":
            card = before["discard"][-1]
            where[card] = {("hand", by)}
            lacks[by].discard(GIFT_OF[card])
        elif kind in ("claim", "swap"):
            lacks[by].add(event["gift"])
        elif kind == "answer" and event.get("yes"):
            asker, gift = before["trade"]["asker"], before["trade"]["gift"]
            if by == seat:
                mine = sorted(c for c in before["hands"][seat]["cards"] if GIFT_OF[c] == gift)
                where[mine[0]] = {("hand", asker)}
            for zones in where.values():
                if ("hand", by) in zones:
                    zones.add(("hand", asker))
        elif kind == "pick":
            asker = before["trade"]["asker"]
            if "order" in before["trade"]:  # the seat is the asker: it sees what went
                where[before["trade"]["order"][event["position"]]] = {("hand", by)}
            else:
                for zones in where.values():
                    if ("hand", asker) in zones:
                        zones.add(("hand", by))
        # Cards off the deck: a draw's, or the refill of the hand whose turn ends (the
        # seat whose turn it was). Any card the deck may hold may now be in that hand,
        # which may now hold any gift; so may a hand a trade gave a card to.
        off = before["deck_count"] - after["deck_count"]
        if kind == "reshuffle":
            off += len(before["discard"]) - 1
        if off > 0 and before["phase"] != DEAL:
            to = by if kind == "draw" else before["turn"]
            for zones in where.values():
                if DECK in zones:
                    zones.add(("hand", to))
            lacks[to] = set()
        if kind == "pick":
            lacks[by] = set()
        elif kind == "answer" and event.get("yes"):
            lacks[before["trade"]["asker"]].discard(before["trade"]["gift"])
        if where:
            located = set(after["discard"])
            located.update(after["hands"][seat]["cards"])
            for gift in after["gifts"]:
                located.update(gift["cards"])
            for card in [c for c in where if c in located]:
                del where[card]
    return where, lacks
