"""The dashboard's chart builders: what they draw from the statistics figures."""

from __future__ import annotations

import pytest

from analytics.stat_charts import card_impact_chart
from analytics.stats import WIN_UNIT, difference_interval, side_figures


def test_difference_interval_matches_newcombes_worked_example():
    # Newcombe (1998), method 10: 56/70 against 48/80, a difference of 0.2.
    low, high = difference_interval(56, 70, 48, 80)
    assert low == pytest.approx(0.0524, abs=1e-4)
    assert high == pytest.approx(0.3339, abs=1e-4)
    assert difference_interval(1, 0, 1, 4) is None


def _side(cards: dict[str, tuple[int, int, int, int]], seat_games: int, wins: int) -> dict:
    counters = {
        "records": seat_games // 3,
        "card_seat_games": seat_games,
        "card_win_units": wins * WIN_UNIT,
        "cards": cards,
    }
    return side_figures({3: counters})


@pytest.mark.parametrize("ended", [False, True], ids=["held", "ended"])
def test_card_charts_draw_the_95_percent_range_of_each_difference(ended):
    # 120 seat-games, 40 won. Party Prop: held in 60, won 30 (50% against 10/60).
    cards = {
        "Party Prop": (60, 30 * WIN_UNIT, 60, 30 * WIN_UNIT),
        "Polaroid": (30, 10 * WIN_UNIT, 30, 10 * WIN_UNIT),
    }
    figures = {"real": _side(cards, 120, 40)}
    card = next(c for c in figures["real"]["cards"] if c["card"] == "Party Prop")
    field = "ended" if ended else "held"
    low, high = difference_interval(30, 60, 10, 60)
    assert card[f"{field}_impact_low"] == round(low, 4)
    assert card[f"{field}_impact_high"] == round(high, 4)

    made = card_impact_chart(figures, "Gift Swap", ended=ended)
    trace = made["figure"]["data"][0]
    party = trace["y"].index("Party Prop")
    impact = trace["x"][party]
    assert impact == pytest.approx(0.3333, abs=1e-4)
    errors = trace["error_x"]
    assert errors["type"] == "data"
    assert impact + errors["array"][party] == pytest.approx(high, abs=1e-4)
    assert impact - errors["arrayminus"][party] == pytest.approx(low, abs=1e-4)
    hover = trace["hovertext"][party].replace("<br>", " ")
    assert f"{round(100 * low):+d} points to {round(100 * high):+d} points (95% range)" in hover
    assert made["csv"][0][-2:] == ["difference low 95%", "difference high 95%"]
    assert "95% range" in made["description"]


def test_card_chart_without_intervals_still_draws():
    """Figures made before the intervals were kept (a cached snapshot) draw plain bars."""
    figures = {"real": _side({"Party Prop": (60, 30 * WIN_UNIT, 60, 30 * WIN_UNIT)}, 120, 40)}
    for card in figures["real"]["cards"]:
        for key in [k for k in card if "impact" in k]:
            del card[key]
    made = card_impact_chart(figures, "Gift Swap", ended=False)
    assert "error_x" not in made["figure"]["data"][0]
