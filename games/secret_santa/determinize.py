"""Secret Santa states one seat cannot tell from the real one (determinization).

What a seat knows is all in its view now: its own hand and face-down pile, the
guest's face-up cards, the cards it once held that others have taken
(``face_down_known``) and, after a round's reveal, every pile; and the colour on
the back of every card (I16). A deal starts every round afresh, so nothing
earlier in the history matters, except who took from the guest last (the seat
whose turn goes on after a give). Every card the view does not show is dealt into
a hidden place of its own back colour: another seat's hand, an unknown card of a
face-down pile, the guest's face-down cards.
"""

from __future__ import annotations

import random

from games.base import SeatHistory
from games.determinize import deal_hidden
from games.secret_santa.cards import CARDS, COLOUR, COLOUR_NAMES
from games.secret_santa.state import DEAL_PHASE, GIVE_PHASE, OVER_PHASE, TAKE_PHASE, State

_COLOUR_OF_NAME = {name: index for index, name in enumerate(COLOUR_NAMES)}

# A hidden place: (where, seat, position); "hand"/"pile" of a seat, or the guest's.
Slot = tuple[str, int, int]


class SecretSantaDeterminizer:
    """One seat's knowledge of a Secret Santa position, read from its history."""

    def __init__(self, history: SeatHistory) -> None:
        view = history.view
        self.seat = seat = history.seat
        self.n = history.num_players
        self.options = dict(history.options)
        self.view = view
        self.phase: str = view["phase"]
        self.taker = next((e["by"] for e in reversed(history.events) if e.get("do") == "take"), 0)
        hands: list[list[str | None]] = []
        piles: list[list[str | None]] = []
        slots: dict[int, list[Slot]] = {colour: [] for colour in range(len(COLOUR_NAMES))}
        seen: set[str] = set(view["guest"]["face_up"])
        for s, info in enumerate(view["players"]):
            if s == seat:
                hand: list[str | None] = list(info["hand"])
            else:
                hand = [None] * info["hand_size"]
                for k, back in enumerate(info["hand_backs"]):
                    slots[_COLOUR_OF_NAME[back]].append(("hand", s, k))
            if "face_down" in info:
                pile: list[str | None] = list(info["face_down"])
            else:
                pile = _embed(info["face_down_known"], info["face_down_backs"])
                for k, card in enumerate(pile):
                    if card is None:
                        slots[_COLOUR_OF_NAME[info["face_down_backs"][k]]].append(("pile", s, k))
            seen.update(c for c in hand if c is not None)
            seen.update(c for c in pile if c is not None)
            hands.append(hand)
            piles.append(pile)
        for k, back in enumerate(view["guest"]["face_down_backs"]):
            slots[_COLOUR_OF_NAME[back]].append(("guest", 0, k))
        self.hands, self.piles = hands, piles
        self.slots = slots
        # Before the first deal every card is in the box: nothing is hidden anywhere.
        self.box = CARDS if self.phase == DEAL_PHASE and view["round"] == 1 else ()
        unseen = [c for c in CARDS if c not in seen and not self.box]
        self.unseen = {colour: [c for c in unseen if COLOUR[c] == colour] for colour in slots}
        # What the seat has looked at this round, as its view shows it.
        self.known = frozenset(
            c
            for s, info in enumerate(view["players"])
            for c in (
                info.get("hand", []) + info.get("face_down", [])
                if s == seat
                else info.get("face_down_known", [])
            )
        )

    def sample(self, rng: random.Random) -> State:
        hands = [list(h) for h in self.hands]
        piles = [list(p) for p in self.piles]
        guest: list[str | None] = [None] * len(self.view["guest"]["face_down_backs"])
        for colour, places in self.slots.items():
            dealt = deal_hidden({0: len(places)}, self.unseen[colour], rng=rng)[0]
            for (where, s, k), card in zip(places, dealt, strict=True):
                if where == "hand":
                    hands[s][k] = card
                elif where == "pile":
                    piles[s][k] = card
                else:
                    guest[k] = card
        view = self.view
        new = State()
        new.n = self.n
        new.options = self.options
        new.phase = self.phase
        new.round = view["round"]
        new.first = view["first_player"]
        if self.phase == TAKE_PHASE:
            new.active = view["active"]
        elif self.phase == DEAL_PHASE:
            new.active = new.first
        else:  # give (the seat that took from the guest) or over (the last taker)
            new.active = self.taker
        new.giver = view["giver"] if self.phase == GIVE_PHASE else None
        new.box = self.box
        new.hands = tuple(tuple(_full(h)) for h in hands)
        new.piles = tuple(tuple(_full(p)) for p in piles)
        new.guest_up = tuple(view["guest"]["face_up"])
        new.guest_down = tuple(_full(guest))
        known = [frozenset(new.hands[s]) | frozenset(new.piles[s]) for s in range(self.n)]
        known[self.seat] = self.known
        new.known = tuple(known)
        new.totals = tuple(view["totals"])
        new.round_scores = tuple(tuple(r) for r in view["round_scores"])
        last = view["last_round"]
        new.last_breakdown = tuple(dict(b) for b in last) if last else None
        assert new.phase in (DEAL_PHASE, TAKE_PHASE, GIVE_PHASE, OVER_PHASE)
        return new


def _embed(known: list[str], backs: list[str]) -> list[str | None]:
    """A pile's known cards put, in order, at positions of their back colour; None elsewhere."""
    out: list[str | None] = [None] * len(backs)
    at = 0
    for card in known:
        while COLOUR_NAMES[COLOUR[card]] != backs[at]:
            at += 1
        out[at] = card
        at += 1
    return out


def _full(cards: list[str | None]) -> list[str]:
    assert all(c is not None for c in cards)
    return [c for c in cards if c is not None]
