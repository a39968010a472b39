"""Statistics as additive counters: a record's contribution, merging, and the figures.

Pure Python (no Django). A snapshot's counters are sums of its records'
contributions, so the incremental update (add one record), the nightly fresh
computation (add them all) and a dashboard's merge of a few snapshots are the same
operation, and they agree exactly: every counter is an integer. A shared win is
worth ``WIN_UNIT / k`` to each of its ``k`` winners (840 is divisible by 1..8, the
largest table), so win shares are exact too.

Definitions and how to read them: docs/analytics.md, "Statistics".
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from typing import Any

WIN_UNIT = 840  # lcm(1..8): a win shared by k seats is 840 / k units each
DECISIVENESS_BINS = 10  # deciles of the game
Z95 = 1.959963984540054


def contribution(facts: Mapping[str, Any]) -> dict[str, Any]:
    """What one record adds to the counters of its scopes, in canonical form (:func:`canonical`).

    ``facts`` needs ``num_players``, ``scores``, ``winners`` and the derived facts of
    :func:`analytics.facts.record_facts_compute` (``length`` is None for a
    result-only record: it counts in outcomes and scores, not in duration or cards).

    Built canonical as it goes (keys sorted, no zero or empty entry) rather than built
    and then canonicalised: the generic pass walked every card of every record and was a
    fifth of a rebuild's time. The tests hold it equal to ``canonical`` of the plain
    counters (tests/analytics/test_statistics.py).
    """
    n = int(facts["num_players"])
    scores = [int(s) for s in facts["scores"]]
    winners = sorted({int(w) for w in facts["winners"]})
    share = WIN_UNIT // len(winners) if winners else 0
    units = [share if seat in winners else 0 for seat in range(n)]
    counters: dict[str, Any] = {"records": 1}
    if len(winners) > 1:
        counters["ties"] = 1
    if any(units):
        counters["seat_wins"] = units
    if n:
        counters["scores"] = [{str(scores[seat]): 1} for seat in range(n)]
    win_scores: dict[str, int] = {}
    for w in winners:  # tied winners may share a score: count each
        win_scores[str(scores[w])] = win_scores.get(str(scores[w]), 0) + 1
    if win_scores:
        counters["win_scores"] = dict(sorted(win_scores.items()))
    if facts.get("length") is not None:
        counters["logs"] = 1
        counters["length"] = {str(facts["length"]): 1}
        if facts.get("rounds") is not None:
            counters["rounds"] = {str(facts["rounds"]): 1}
        if facts.get("decisiveness") is not None:
            decile = min(
                int(float(facts["decisiveness"]) * DECISIVENESS_BINS), DECISIVENESS_BINS - 1
            )
            counters["decisive"] = {str(decile): 1}
            milli = round(float(facts["decisiveness"]) * 1000)
            if milli:
                counters["decisive_milli"] = milli
        if facts.get("lead_changes") is not None:
            counters["lead_changes"] = {str(facts["lead_changes"]): 1}
        event_counts = facts.get("event_counts") or {}
        events = {k: int(v) for k, v in sorted(event_counts.items()) if int(v)}
        if events:
            counters["events"] = events
        played = {k: 1 for k, v in sorted(event_counts.items()) if v}
        if played:
            counters["event_games"] = played
        cards: dict[str, list[int]] = {}
        held, ended = facts["cards_held"], facts["cards_ended"]
        for seat in range(n):
            won = units[seat]
            for name in held[seat]:
                row = cards.get(name)
                if row is None:
                    cards[name] = row = [0, 0, 0, 0]
                row[0] += 1
                row[1] += won
            for name in ended[seat]:
                row = cards.get(name)
                if row is None:
                    cards[name] = row = [0, 0, 0, 0]
                row[2] += 1
                row[3] += won
        if cards:
            counters["cards"] = dict(sorted(cards.items()))
        if n:
            counters["card_seat_games"] = n
        if any(units):
            counters["card_win_units"] = sum(units)
    return dict(sorted(counters.items()))


def _is_empty(value: Any) -> bool:
    if isinstance(value, dict):
        return not value
    if isinstance(value, list):
        return all(_is_empty(v) for v in value)
    return value == 0


def canonical(value: Any) -> Any:
    """Counters without zero entries, so equal sums compare equal however they were made."""
    return _canonical(value)[0]


def _canonical(value: Any) -> tuple[Any, bool]:
    # (canonical value, whether it is empty) in one pass: what ``_is_empty`` says of it.
    kind = value.__class__
    if kind is dict:
        out = {}
        for key in sorted(value):
            item, empty = _canonical(value[key])
            if not empty:
                out[key] = item
        return out, not out
    if kind is list:
        items = [_canonical(v) for v in value]
        return [item for item, _ in items], all(empty for _, empty in items)
    if isinstance(value, dict):
        return _canonical(dict(value))
    if isinstance(value, list):
        return _canonical(list(value))
    return value, value == 0


def counters_add(base: Mapping[str, Any] | None, delta: Mapping[str, Any], sign: int = 1) -> dict:
    """``base + sign * delta``, element by element (dicts by key, lists by position)."""

    def add(a: Any, b: Any) -> Any:
        if isinstance(b, dict):
            a = dict(a) if isinstance(a, dict) else {}
            for key, value in b.items():
                a[key] = add(a.get(key), value)
            return a
        if isinstance(b, list):
            a = list(a) if isinstance(a, list) else []
            a.extend([None] * (len(b) - len(a)))
            return [add(x, y) for x, y in zip(a, b, strict=False)] + a[len(b) :]
        return (a or 0) + sign * b

    return canonical(add(dict(base or {}), delta))


def counters_accumulate(total: dict[str, Any], delta: Mapping[str, Any], sign: int = 1) -> None:
    """``total += sign * delta`` in place, without canonicalising (a batch's sum per scope).

    Many contributions are summed this way and canonicalised once
    (:func:`canonical`): the same sum as :func:`counters_add` applied one by one,
    for a fraction of its cost.
    """
    for key, value in delta.items():
        kind = value.__class__
        if kind is int:
            total[key] = (total.get(key) or 0) + sign * value
        elif kind is dict:
            mine = total.get(key)
            if mine.__class__ is not dict:
                total[key] = mine = {}
            counters_accumulate(mine, value, sign)
        elif kind is list:
            mine = total.get(key)
            if mine.__class__ is not list:
                total[key] = mine = []
            _list_accumulate(mine, value, sign)
        else:
            total[key] = (total.get(key) or 0) + sign * value


def _list_accumulate(total: list[Any], delta: list[Any], sign: int) -> None:
    if len(total) < len(delta):
        total.extend([None] * (len(delta) - len(total)))
    for i, value in enumerate(delta):
        kind = value.__class__
        if kind is int:
            total[i] = (total[i] or 0) + sign * value
        elif kind is dict:
            if total[i].__class__ is not dict:
                total[i] = {}
            counters_accumulate(total[i], value, sign)
        elif kind is list:
            if total[i].__class__ is not list:
                total[i] = []
            _list_accumulate(total[i], value, sign)
        else:
            total[i] = (total[i] or 0) + sign * value


def counters_merge(many: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The sum of several snapshots' counters (what a dashboard shows for a filter)."""
    total: dict[str, Any] = {}
    for counters in many:
        total = _merge_into(total, counters)
    return total


def _merge_into(a: dict[str, Any], b: Mapping[str, Any]) -> dict[str, Any]:
    # The dashboard's hot path: in place, no canonicalising (sums of non-empty stay non-empty).
    for key, value in b.items():
        mine = a.get(key)
        if isinstance(value, dict):
            if mine is None:
                a[key] = mine = {}
            if key == "cards":
                for name, row in value.items():
                    have = mine.get(name)
                    mine[name] = (
                        [x + y for x, y in zip(have, row, strict=True)] if have else list(row)
                    )
            else:
                for k, v in value.items():
                    mine[k] = mine.get(k, 0) + v
        elif isinstance(value, list):
            if mine is None:
                a[key] = [dict(v) if isinstance(v, dict) else v for v in value]
            else:
                for i, v in enumerate(value):
                    if i >= len(mine):  # a larger table size than merged so far
                        mine.append(dict(v) if isinstance(v, dict) else v)
                    elif isinstance(v, dict):
                        slot = mine[i]
                        for k, c in v.items():
                            slot[k] = slot.get(k, 0) + c
                    else:
                        mine[i] += v
        else:
            a[key] = (mine or 0) + value
    return a


# -- figures -------------------------------------------------------------------------


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) with no trials.

    Accepts fractional successes (shared wins), for which it is the same formula.
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def difference_interval(
    wins_a: float, games_a: int, wins_b: float, games_b: int, z: float = Z95
) -> tuple[float, float] | None:
    """The 95% interval of rate A minus rate B (Newcombe's hybrid score method).

    Built from each rate's Wilson interval, so it behaves near 0 and 1 and with few
    games as the seat advantage's intervals do; None when either side has no games.
    """
    if games_a <= 0 or games_b <= 0:
        return None
    p_a, p_b = wins_a / games_a, wins_b / games_b
    low_a, high_a = wilson_interval(wins_a, games_a, z)
    low_b, high_b = wilson_interval(wins_b, games_b, z)
    diff = p_a - p_b
    low = diff - math.sqrt((p_a - low_a) ** 2 + (high_b - p_b) ** 2)
    high = diff + math.sqrt((high_a - p_a) ** 2 + (p_b - low_b) ** 2)
    return max(-1.0, low), min(1.0, high)


def _impact_bounds(
    prefix: str, units: int, games: int, win_units: int, seat_games: int
) -> dict[str, float | None]:
    """``<prefix>_impact_low`` / ``_high``: the interval of (win rate with) - (without)."""
    bounds = difference_interval(
        units / WIN_UNIT, games, (win_units - units) / WIN_UNIT, seat_games - games
    )
    low, high = bounds if bounds is not None else (None, None)
    return {
        f"{prefix}_impact_low": None if low is None else round(low, 4),
        f"{prefix}_impact_high": None if high is None else round(high, 4),
    }


def hist_summary(hist: Mapping[str, int]) -> dict[str, float] | None:
    """Box-plot figures of a {value: count} histogram: quartiles (linear), fences, mean."""
    if not hist:
        return None
    pairs = sorted((float(k), int(c)) for k, c in hist.items() if c)
    if not pairs:
        return None
    values = [v for v, _ in pairs]
    cumulative = []
    total = 0
    for _, count in pairs:
        total += count
        cumulative.append(total)

    def at(rank: int) -> float:  # 0-based rank in the sorted multiset
        return values[bisect_right(cumulative, rank)]

    def quantile(p: float) -> float:
        h = (total - 1) * p
        low = math.floor(h)
        return at(low) + (h - low) * (at(min(low + 1, total - 1)) - at(low))

    q1, median, q3 = quantile(0.25), quantile(0.5), quantile(0.75)
    iqr = q3 - q1
    lower = min((v for v in values if v >= q1 - 1.5 * iqr), default=values[0])
    upper = max((v for v in values if v <= q3 + 1.5 * iqr), default=values[-1])
    mean = sum(v * c for v, c in pairs) / total
    return {
        "count": total,
        "min": values[0],
        "q1": round(q1, 3),
        "median": round(median, 3),
        "q3": round(q3, 3),
        "max": values[-1],
        "lowerfence": lower,
        "upperfence": upper,
        "mean": round(mean, 3),
    }


def _rate(units: float, games: int) -> float | None:
    return round(units / games, 4) if games else None


def size_figures(n: int, c: Mapping[str, Any]) -> dict[str, Any]:
    """The figures of one table size (one side: real or simulated)."""
    records = int(c.get("records", 0))
    seats = []
    wins_by_seat = list(c.get("seat_wins") or [0] * n) + [0] * n
    rates = []
    for seat in range(n):
        wins = wins_by_seat[seat] / WIN_UNIT
        low, high = wilson_interval(wins, records)
        rate = wins / records if records else 0.0
        rates.append(rate)
        seats.append(
            {
                "seat": seat + 1,
                "games": records,
                "wins": round(wins, 4),
                "win_rate": round(rate, 4),
                "low": round(low, 4),
                "high": round(high, 4),
                "fair": round(1 / n, 4),
                "verdict": "above fair"
                if low > 1 / n
                else "below fair"
                if high < 1 / n
                else "fair",
            }
        )
    score_hists = c.get("scores") or []
    all_scores: dict[str, int] = {}
    for hist in score_hists:
        for k, v in hist.items():
            all_scores[k] = all_scores.get(k, 0) + v
    return {
        "players": n,
        "records": records,
        "ties": int(c.get("ties", 0)),
        "tie_rate": _rate(c.get("ties", 0), records),
        "balance": round(1 - (max(rates) - min(rates)), 4) if records else None,
        "seats": seats,
        "scores": hist_summary(all_scores),
        "winning_scores": hist_summary(c.get("win_scores") or {}),
        "length": hist_summary(c.get("length") or {}),
        "rounds": hist_summary(c.get("rounds") or {}),
        "lead_changes": hist_summary(c.get("lead_changes") or {}),
        "decisiveness_mean": _rate(c.get("decisive_milli", 0) / 1000, int(c.get("logs", 0))),
    }


def side_figures(by_size: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]:
    """Every figure of one side (real or simulated play), from its counters per table size."""
    total = counters_merge(by_size.values())
    records = int(total.get("records", 0))
    logs = int(total.get("logs", 0))
    events = [
        {
            "type": name,
            "uses": uses,
            "per_game": round(uses / logs, 3) if logs else None,
            "games_share": round(total.get("event_games", {}).get(name, 0) / logs, 4)
            if logs
            else None,
        }
        for name, uses in sorted((total.get("events") or {}).items(), key=lambda kv: -kv[1])
    ]
    seat_games = int(total.get("card_seat_games", 0))
    win_units = int(total.get("card_win_units", 0))
    cards = []
    for name, (held, held_units, ended, ended_units) in sorted((total.get("cards") or {}).items()):
        cards.append(
            {
                "card": name,
                "held_games": held,
                "held_win_rate": _rate(held_units / WIN_UNIT, held),
                "not_held_win_rate": _rate((win_units - held_units) / WIN_UNIT, seat_games - held),
                "ended_games": ended,
                "ended_win_rate": _rate(ended_units / WIN_UNIT, ended),
                "not_ended_win_rate": _rate(
                    (win_units - ended_units) / WIN_UNIT, seat_games - ended
                ),
                **_impact_bounds("held", held_units, held, win_units, seat_games),
                **_impact_bounds("ended", ended_units, ended, win_units, seat_games),
            }
        )
    decisive = total.get("decisive") or {}
    return {
        "records": records,
        "logs": logs,
        "by_players": {str(n): size_figures(n, by_size[n]) for n in sorted(by_size)},
        "tie_rate": _rate(total.get("ties", 0), records),
        "length": hist_summary(total.get("length") or {}),
        "rounds": hist_summary(total.get("rounds") or {}),
        "lead_changes": hist_summary(total.get("lead_changes") or {}),
        "decisiveness_mean": _rate(total.get("decisive_milli", 0) / 1000, logs),
        "decisiveness_deciles": [int(decisive.get(str(i), 0)) for i in range(DECISIVENESS_BINS)],
        "event_types": events,
        "cards": cards,
    }
