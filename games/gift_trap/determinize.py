"""GiftTRAP states one seat cannot tell from the real one (determinization).

Every card GiftTRAP deals is dealt face up, so what lies in each pack (the cards
never dealt, and the ones put back under it in order) follows from the deals the
seat saw: the history is replayed for them. What a seat does not know are the
other seats' secret choices not yet turned over: which gift each GIVE token
names (and where a Give More card lies), which GET tokens are down and on which
gifts, and each Get More decision. The view tells how many of each are made; the
sample draws them at random within the rules (a seat's GIVE tokens name different
gifts, as do its GET tokens), keeping every token already turned over.
"""

from __future__ import annotations

import random

from games.base import SeatHistory
from games.gift_trap.cards import PACK_CARDS, PACK_ORDER, TOKENS
from games.gift_trap.state import State


class GiftTrapDeterminizer:
    """One seat's knowledge of a GiftTRAP position, read from its history."""

    def __init__(self, history: SeatHistory) -> None:
        self.history = history
        self.seat = history.seat
        self.n = history.num_players
        self.view = history.view
        self.unseen, self.queue = _packs(history)

    def sample(self, rng: random.Random) -> State:
        view, n, me = self.view, self.n, self.seat
        players = view["players"]
        expert = view["expert_cards"]
        k = len(view["grid"])
        gifts = range(1, k + 1)
        gives = [[0] * n for _ in range(n)]
        give_more = [-1] * n
        gets = [[0] * len(TOKENS) for _ in range(n)]
        get_more: list[int | None] = [None] * n
        for p, player in enumerate(players):
            hidden: list[int] = []
            for entry in player["gave"]:
                if "gift" in entry:
                    gives[p][entry["to"]] = entry["gift"]
                    if entry.get("give_more"):
                        give_more[p] = entry["to"]
                else:
                    hidden.append(entry["to"])
            if hidden:
                free = [g for g in gifts if g not in gives[p]]
                for to, gift in zip(hidden, rng.sample(free, len(hidden)), strict=True):
                    gives[p][to] = gift
                if expert and give_more[p] < 0:
                    # Give More lies on one of the unseen gifts, or is still in hand.
                    give_more[p] = rng.choice([-1, *hidden])
            if "get_tokens" in player:
                gets[p] = [player["get_tokens"][tok] or 0 for tok in TOKENS]
            else:
                placed = player["get_tokens_placed"]
                slots = rng.sample(range(len(TOKENS)), placed)
                for slot, gift in zip(slots, rng.sample(list(gifts), placed), strict=True):
                    gets[p][slot] = gift
            if expert:
                if "get_more" in player:
                    choice = player["get_more"]
                    get_more[p] = (
                        -1 if choice is None else (None if choice == "undecided" else choice)
                    )
                elif player["get_more_decided"]:
                    get_more[p] = rng.choice([-1, *(g for g in range(n) if g != p)])
        assert 0 <= me < n
        new = State()
        new.n = n
        new.expert = expert
        new.packs = tuple(view["packs"])
        new.track = view["track_length"]
        new.zone_from = view["gifted_zone_from"]
        new.max_rounds = view["max_rounds"]
        new.round = view["round"]
        new.dealer = view["dealer"]
        new.phase = view["phase"]
        new.pack = view["pack"]
        new.unseen = dict(self.unseen)
        new.queue = dict(self.queue)
        new.grid = tuple((g["card"], g["side"]) for g in view["grid"])
        new.gives = tuple(tuple(row) for row in gives)
        new.gives_left = n * (n - 1) - sum(1 for row in gives for g in row if g)
        new.give_more = tuple(give_more)
        new.gets = tuple(tuple(row) for row in gets)
        new.get_more = tuple(get_more)
        new.gets_left = sum(4 - sum(1 for g in row if g) for row in gets) + (
            sum(1 for c in get_more if c is None) if expert else 0
        )
        new.trap_used = tuple(p.get("gifttrap_played", False) for p in players)
        new.trap_log = tuple(
            (t["round"], t["seat"], t["gift"], t["during"]) for t in view["gifttraps"]
        )
        new.trapped = tuple(g for r, _, g, _ in new.trap_log if r == new.round)
        new.gets_shown = tuple(p["get_tokens_shown"] for p in players)
        new.shown = tuple(tuple(g in p["revealed_from"] for g in range(n)) for p in players)
        if view["phase"] == "reveal":
            new.step = (view["revealer"] - new.dealer) % n
        else:
            new.step = n if view["phase"] == "over" else 0
        new.give_pos = tuple(p["give_track"] for p in players)
        new.get_pos = tuple(p["get_track"] for p in players)
        new.log = tuple(dict(x) for x in view["round_log"])
        new.last_grid = tuple((g["card"], g["side"]) for g in view["last_grid"])
        result = view.get("result")
        new.ended_by = result["details"]["ended_by"] if result else None
        return new


def _packs(
    history: SeatHistory,
) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """Each pack's never-dealt cards and the cards put back under it, as the rules keep
    them: every deal is public, and a round's cards go back under their pack in grid
    order when the round ends."""
    unseen = dict(PACK_CARDS)
    queue: dict[str, tuple[str, ...]] = dict.fromkeys(PACK_ORDER, ())
    for k, event in enumerate(history.events):
        before, after = history.views[k], history.views[k + 1]
        if event.get("do") == "deal":
            pack = before["pack"]
            cards = event["cards"]
            left = unseen[pack]
            if len(left) >= len(cards):
                unseen[pack] = tuple(c for c in left if c not in cards)
            else:
                queue[pack] = queue[pack][len(cards) - len(left) :]
                unseen[pack] = ()
        if before["phase"] == "reveal" and after["phase"] == "choose_pack":
            pack = before["pack"]
            queue[pack] = queue[pack] + tuple(g["card"] for g in before["grid"])
    return unseen, queue
