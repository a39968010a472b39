"""Dealing the cards a seat has not seen: the part of determinization every game shares.

A game's ``determinize`` module reads one seat's history into *zones* (hidden places
with a number of card slots: another seat's hand, the deck, a face-down pile) and,
for each card the seat has not seen, the zones it may be in. :func:`deal_hidden`
then puts every such card in a zone, at random, so that every zone is exactly full
and every card is in a zone it may be in. Most cards may be anywhere hidden; a few
are known to be in one of a few zones (a card the seat passed to its neighbour, who
may have passed it on), and those are placed first, each only where the others
still fit (a bipartite matching: a sample never dead-ends).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

Zone = TypeVar("Zone", bound=Hashable)
GREEDY_TRIES = 3


class NoConsistentDeal(ValueError):
    """The zones and the cards' places contradict each other (a history that no game has)."""


def deal_hidden(
    capacity: Mapping[Zone, int],
    free: Sequence[str],
    placed: Mapping[str, frozenset[Zone]] | None = None,
    rng: random.Random | None = None,
) -> dict[Zone, list[str]]:
    """Every card put in a zone, each zone filled to its ``capacity``, in random order.

    ``free`` cards may be in any zone; a card of ``placed`` only in the zones given.
    The cards of each zone come in random order. Raises :class:`NoConsistentDeal`
    when the cards cannot fill the zones exactly.
    """
    assert rng is not None
    placed = placed or {}
    left = dict(capacity)
    if sum(left.values()) != len(free) + len(placed):
        raise NoConsistentDeal(
            f"{len(free) + len(placed)} hidden cards for {sum(left.values())} hidden places"
        )
    # The most constrained cards first; ties broken by the card id, then shuffled within
    # a group so that no card is favoured.
    pending = sorted(placed, key=lambda c: (len(placed[c]), c))
    rng.shuffle(pending)
    pending.sort(key=lambda c: len(placed[c]))
    # Cheap first: each card where it may go, with no look-ahead; nearly always enough.
    # When a card finds no room, again with every step checked to leave room for the rest.
    for _ in range(GREEDY_TRIES):
        out = _place_greedily(capacity, pending, placed, rng)
        if out is not None:
            left = {zone: capacity[zone] - len(cards) for zone, cards in out.items()}
            return _fill(capacity, out, left, free, rng)
    left = dict(capacity)
    out = {zone: [] for zone in capacity}
    for index, card in enumerate(pending):
        zones = [z for z in sorted(placed[card], key=repr) if left.get(z, 0) > 0]
        rest = pending[index + 1 :]
        while zones:
            zone = rng.choices(zones, weights=[left[z] for z in zones])[0]
            left[zone] -= 1
            if _fits([placed[c] for c in rest], left):
                out[zone].append(card)
                break
            left[zone] += 1
            zones.remove(zone)
        else:
            raise NoConsistentDeal(f"no place left for {card}")
    return _fill(capacity, out, left, free, rng)


def _place_greedily(
    capacity: Mapping[Zone, int],
    pending: Sequence[str],
    placed: Mapping[str, frozenset[Zone]],
    rng: random.Random,
) -> dict[Zone, list[str]] | None:
    """Each placed card in a zone it may be in, by weight of room left; None if one finds none."""
    left = dict(capacity)
    out: dict[Zone, list[str]] = {zone: [] for zone in capacity}
    for card in pending:
        zones = [z for z in sorted(placed[card], key=repr) if left.get(z, 0) > 0]
        if not zones:
            return None
        zone = zones[0] if len(zones) == 1 else rng.choices(zones, [left[z] for z in zones])[0]
        left[zone] -= 1
        out[zone].append(card)
    return out


def _fill(
    capacity: Mapping[Zone, int],
    out: dict[Zone, list[str]],
    left: Mapping[Zone, int],
    free: Sequence[str],
    rng: random.Random,
) -> dict[Zone, list[str]]:
    """The free cards into the room left, and every zone's cards in random order."""
    rest_free = list(free)
    rng.shuffle(rest_free)
    at = 0
    for zone in capacity:
        take = left[zone]
        out[zone].extend(rest_free[at : at + take])
        at += take
        rng.shuffle(out[zone])
    return out


def _fits(allowed: Sequence[frozenset[Zone]], capacity: Mapping[Zone, int]) -> bool:
    """Whether cards, each with its allowed zones, fit the zones' capacities.

    A b-matching by augmenting paths over groups of cards with the same allowed zones
    (a handful per game), so it stays cheap when called per placed card.
    """
    groups: dict[frozenset[Zone], int] = {}
    for zones in allowed:
        groups[zones] = groups.get(zones, 0) + 1
    if not groups:
        return True
    left = dict(capacity)
    flow: dict[frozenset[Zone], dict[Zone, int]] = {g: {} for g in groups}

    def augment(group: frozenset[Zone], seen: set[Zone]) -> bool:
        for zone in group:
            if zone in seen:
                continue
            seen.add(zone)
            if left.get(zone, 0) > 0:
                left[zone] -= 1
                flow[group][zone] = flow[group].get(zone, 0) + 1
                return True
            for other, used in flow.items():
                if used.get(zone, 0) > 0 and augment(other, seen):
                    used[zone] -= 1
                    flow[group][zone] = flow[group].get(zone, 0) + 1
                    return True
        return False

    for group, count in groups.items():
        for _ in range(count):
            if not augment(group, set()):
                return False
    return True
