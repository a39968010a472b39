"""The game dashboard's statistics charts, from ``selectors.game_statistics`` figures.

Real play and simulated play are always drawn apart, in the same colours on every
chart (and named in every legend and hover text, never told by colour alone), so a
designer can put bot play beside a club's. Every chart goes through
``core.chartkit.chart``: a title, labelled axes, hover text in words, CSV.
"""

from __future__ import annotations

from typing import Any

from core.chartkit import chart

SIDES = (("real", "real play", "#8b1e2d"), ("simulated", "simulated play", "#3f6fa8"))
PERCENT_AXIS = {"tickformat": ".0%", "rangemode": "tozero"}
# The legend sits above the plot, under the title, so it never covers an axis title.
LEGEND = {
    "legend": {"orientation": "h", "x": 0, "xanchor": "left", "y": 1.0, "yanchor": "bottom"},
    "margin": {"t": 110},
}


def _layout(subtitle: str, **extra: Any) -> dict[str, Any]:
    """Legend above the plot; the game's name as the title's second line (short titles fit
    a phone)."""
    layout: dict[str, Any] = {**LEGEND, "margin": dict(LEGEND["margin"])}
    layout["title"] = {
        "subtitle": {"text": subtitle},
        "x": 0.01,
        "xanchor": "left",
        "y": 0.98,
        "yanchor": "top",
        "yref": "container",
    }
    for key, value in extra.items():
        if key == "margin":
            layout["margin"].update(value)
        else:
            layout[key] = value
    return layout


def _sides(figures: dict[str, Any]) -> list[tuple[str, str, str, dict[str, Any]]]:
    return [
        (key, words, colour, figures[key])
        for key, words, colour in SIDES
        if key in figures and figures[key]["records"]
    ]


def _multi(labels: list[tuple[str, str]]) -> list[list[str]]:
    """Two-level category labels (table size, then seat or play): Plotly's multicategory
    axis draws them flat, grouped under each table size, instead of rotating long labels."""
    return [[a for a, _ in labels], [b for _, b in labels]]


def _pct(value: float | None) -> str:
    return "no games" if value is None else f"{round(100 * value)}%"


def _points(value: float) -> str:
    """A difference of two rates in percentage points: "+12 points", "-3 points"."""
    return f"{round(100 * value):+d} points"


def words(name: str) -> str:
    """An event type as a person says it: ``play_special`` -> "play special"."""
    return name.replace("_", " ")


def games_by_players_chart(figures: dict[str, Any], game_name: str) -> dict[str, Any]:
    traces, rows = [], []
    for key, side_words, colour, side in _sides(figures):
        sizes = sorted(side["by_players"], key=int)
        counts = [side["by_players"][n]["records"] for n in sizes]
        traces.append(
            {
                "type": "bar",
                "name": side_words,
                "x": [f"{n} players" for n in sizes],
                "y": counts,
                "marker": {"color": colour},
                "hovertemplate": f"%{{y}} games of {side_words} at %{{x}}<extra></extra>",
            }
        )
        rows += [[n, key, c] for n, c in zip(sizes, counts, strict=True)]
    return chart(
        chart_id="games-by-players",
        title="Games by table size",
        traces=traces,
        x_title="table size",
        y_title="games",
        csv_header=["players", "play", "games"],
        csv_rows=rows,
        layout=_layout(game_name, barmode="group"),
        height=320,
        description="How many games were played at each table size.",
    )


def seat_advantage_chart(figures: dict[str, Any], game_name: str) -> dict[str, Any]:
    """Win rate by seat with 95% Wilson intervals, against the fair share 1/n per size."""
    traces: list[dict[str, Any]] = []
    rows = []
    fair_done: set[str] = set()
    for key, side_words, colour, side in _sides(figures):
        x, y, plus, minus, text = [], [], [], [], []
        for n, size in sorted(side["by_players"].items(), key=lambda kv: int(kv[0])):
            labels = [(f"{n} players", str(s["seat"])) for s in size["seats"]]
            if n not in fair_done:
                fair_done.add(n)
                traces.append(
                    {
                        "type": "scatter",
                        "mode": "lines",
                        "x": _multi(labels),
                        "y": [1 / int(n)] * len(labels),
                        "name": "fair share",
                        "legendgroup": "fair",
                        "showlegend": len(fair_done) == 1,
                        "line": {"color": "#333", "dash": "dash", "width": 2},
                        "hovertemplate": f"A fair share at {n} players: {_pct(1 / int(n))}"
                        "<extra></extra>",
                    }
                )
            for label, s in zip(labels, size["seats"], strict=True):
                x.append(label)
                y.append(s["win_rate"])
                plus.append(round(s["high"] - s["win_rate"], 4))
                minus.append(round(s["win_rate"] - s["low"], 4))
                text.append(
                    f"Seat {s['seat']} at {n}-player tables won {_pct(s['win_rate'])} of "
                    f"{s['games']} games of {side_words} (95% interval {_pct(s['low'])} to "
                    f"{_pct(s['high'])}); a fair share is {_pct(s['fair'])}: {s['verdict']}."
                )
                rows.append(
                    [
                        n,
                        s["seat"],
                        key,
                        s["games"],
                        s["wins"],
                        s["win_rate"],
                        s["low"],
                        s["high"],
                        s["fair"],
                    ]
                )
        traces.append(
            {
                "type": "bar",
                "name": side_words,
                "x": _multi(x),
                "y": y,
                "marker": {"color": colour},
                "error_y": {
                    "type": "data",
                    "array": plus,
                    "arrayminus": minus,
                    "color": "#222",
                    "thickness": 1.2,
                    "width": 3,
                },
                "hovertext": text,
                "hoverinfo": "text",
            }
        )
    return chart(
        chart_id="seat-advantage",
        title="Does the seat decide who wins?",
        traces=traces,
        x_title="seat (seat 1 starts), by table size",
        y_title="share of games won",
        csv_header=[
            "players",
            "seat",
            "play",
            "games",
            "wins",
            "win rate",
            "low 95%",
            "high 95%",
            "fair share",
        ],
        csv_rows=rows,
        layout=_layout(game_name, barmode="group", yaxis=PERCENT_AXIS),
        description=(
            "Each bar is how often a seat won; the whisker is the 95% range the true rate "
            "likely lies in. A whisker that stays clear of the dashed fair line means that "
            "seat really is favoured (or handicapped). A shared win counts as a share."
        ),
    )


def box_chart(
    figures: dict[str, Any],
    *,
    chart_id: str,
    key: str,
    game_name: str,
    title: str,
    y_title: str,
    unit: str,
    description: str,
) -> dict[str, Any] | None:
    """One box per (table size, real/simulated), side by side: no size hides another."""
    traces: list[dict[str, Any]] = []
    rows = []
    for side_key, side_words, colour, side in _sides(figures):
        stats = [
            (n, size[key])
            for n, size in sorted(side["by_players"].items(), key=lambda kv: int(kv[0]))
            if size.get(key)
        ]
        if not stats:
            continue
        x = [f"{n}p<br>{'real' if side_key == 'real' else 'sim.'}" for n, _ in stats]
        traces.append(
            {
                "type": "box",
                "name": side_words,
                "x": x,
                "q1": [s["q1"] for _, s in stats],
                "median": [s["median"] for _, s in stats],
                "q3": [s["q3"] for _, s in stats],
                "lowerfence": [s["lowerfence"] for _, s in stats],
                "upperfence": [s["upperfence"] for _, s in stats],
                "mean": [s["mean"] for _, s in stats],
                "marker": {"color": colour},
                "line": {"color": colour},
                "hoverinfo": "skip",
            }
        )
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "x": x,
                "y": [s["median"] for _, s in stats],
                "marker": {
                    "color": colour,
                    "size": 9,
                    "symbol": "diamond-wide",
                    "line": {"color": "white", "width": 1},
                },
                "showlegend": False,
                "name": side_words,
                "hovertext": [
                    f"{n} players, {side_words}: median {s['median']:g} {unit}, middle half "
                    f"{s['q1']:g} to {s['q3']:g}, range {s['min']:g} to {s['max']:g} "
                    f"({s['count']} values)"
                    for n, s in stats
                ],
                "hoverinfo": "text",
            }
        )
        rows += [
            [n, side_key, s["count"], s["min"], s["q1"], s["median"], s["q3"], s["max"], s["mean"]]
            for n, s in stats
        ]
    if not traces:
        return None
    # Real and simulated side by side within each table size.
    order = sorted(
        {label for trace in traces for label in trace["x"]},
        key=lambda label: (int(label.split("p<br>")[0]), label),
    )
    return chart(
        chart_id=chart_id,
        title=title,
        traces=traces,
        x_title="table size (3p = 3 players) and play (real or simulated)",
        y_title=y_title,
        csv_header=["players", "play", "values", "min", "q1", "median", "q3", "max", "mean"],
        csv_rows=rows,
        layout=_layout(
            game_name,
            showlegend=True,
            xaxis={"tickangle": 0, "categoryorder": "array", "categoryarray": order},
        ),
        description=description,
    )


def decisiveness_chart(figures: dict[str, Any], game_name: str) -> dict[str, Any] | None:
    traces, rows = [], []
    labels = [f"{10 * i}-{10 * (i + 1)}%" for i in range(10)]
    for key, side_words, colour, side in _sides(figures):
        logs = side["logs"]
        if not logs:
            continue
        shares = [round(c / logs, 4) for c in side["decisiveness_deciles"]]
        traces.append(
            {
                "type": "bar",
                "name": side_words,
                "x": labels,
                "y": shares,
                "marker": {"color": colour},
                "hovertemplate": f"In %{{y:.0%}} of {side_words} games the winner took the lead "
                "for good %{x} of the way through<extra></extra>",
            }
        )
        rows += [
            [label, key, c] for label, c in zip(labels, side["decisiveness_deciles"], strict=True)
        ]
    if not traces:
        return None
    return chart(
        chart_id="decisiveness",
        title="When is the game decided?",
        traces=traces,
        x_title="point in the game where the winner took the lead for good",
        y_title="share of games",
        csv_header=["stretch of the game", "play", "games"],
        csv_rows=rows,
        layout=_layout(game_name, barmode="group", yaxis=PERCENT_AXIS),
        height=340,
        description=(
            "Bars on the left: the winner led early and stayed ahead (little suspense). Bars on "
            "the right: the game stayed open until the end."
        ),
    )


def event_types_chart(figures: dict[str, Any], game_name: str) -> dict[str, Any] | None:
    names: list[str] = []
    for _, _, _, side in _sides(figures):
        names += [e["type"] for e in side["event_types"] if e["type"] not in names]
    if not names:
        return None
    names.reverse()  # most used at the top of a horizontal bar chart
    traces, rows = [], []
    for key, side_words, colour, side in _sides(figures):
        per_game = {e["type"]: e for e in side["event_types"]}
        traces.append(
            {
                "type": "bar",
                "orientation": "h",
                "name": side_words,
                "y": [words(n) for n in names],
                "x": [per_game[n]["per_game"] if n in per_game else 0 for n in names],
                "marker": {"color": colour},
                "hovertemplate": f'"%{{y}}": %{{x:.1f}} times per game of {side_words}'
                "<extra></extra>",
            }
        )
        rows += [
            [words(n), key, e["uses"], e["per_game"], e["games_share"]] for n, e in per_game.items()
        ]
    return chart(
        chart_id="event-types",
        title="Which moves do players make?",
        traces=traces,
        x_title="times per game",
        y_title="move",
        csv_header=["move", "play", "uses", "per game", "share of games using it"],
        csv_rows=rows,
        layout=_layout(game_name, barmode="group"),
        height=max(260, 90 + 26 * len(names) * len(traces)),
        description="How often each kind of move is made in a game, on average.",
    )


def card_impact_chart(
    figures: dict[str, Any], game_name: str, *, ended: bool, min_games: int = 5, most: int = 8
) -> dict[str, Any] | None:
    """Win rate with a card minus win rate without it, per card name (percentage points).

    The chart shows the ``most`` cards that helped most and the ``most`` that helped
    least (by the first side shown); the CSV has every card.
    """
    field = "ended" if ended else "held"
    verb = "ended the game with" if ended else "held at some point"
    cards: dict[str, dict[str, dict[str, Any]]] = {}
    for key, _, _, side in _sides(figures):
        for card in side["cards"]:
            if card[f"{field}_games"] >= min_games and card[f"not_{field}_win_rate"] is not None:
                cards.setdefault(card["card"], {})[key] = card
    if not cards:
        return None

    def impact(card: dict[str, Any]) -> float:
        return round(card[f"{field}_win_rate"] - card[f"not_{field}_win_rate"], 4)

    def bounds(card: dict[str, Any]) -> tuple[float, float] | None:
        """The 95% interval of the impact (figures counted before it was kept: none)."""
        low, high = card.get(f"{field}_impact_low"), card.get(f"{field}_impact_high")
        return None if low is None or high is None else (low, high)

    def interval_words(card: dict[str, Any]) -> str:
        found = bounds(card)
        if found is None:
            return ""
        low, high = found
        sign = (
            "likely" if low > 0 or high < 0 else "could be chance: the range includes no difference"
        )
        return f" The difference is {_points(low)} to {_points(high)} (95% range): {sign}."

    first = next(k for k, *_ in _sides(figures) if any(k in v for v in cards.values()))
    names = sorted(cards, key=lambda n: impact(cards[n][first]) if first in cards[n] else 0)
    drawn = names if len(names) <= 2 * most else names[:most] + names[-most:]
    traces, rows = [], []
    for key, side_words, colour, _ in _sides(figures):
        shown = [n for n in drawn if key in cards[n]]
        if not shown:
            continue
        traces.append(
            {
                "type": "bar",
                "orientation": "h",
                "name": side_words,
                "y": shown,
                "x": [impact(cards[n][key]) for n in shown],
                "marker": {"color": colour},
                "hovertext": [
                    f"Players who {verb} {n} won {_pct(cards[n][key][f'{field}_win_rate'])} of "
                    f"{cards[n][key][f'{field}_games']} {side_words} games; the others won "
                    f"{_pct(cards[n][key][f'not_{field}_win_rate'])}."
                    + interval_words(cards[n][key])
                    for n in shown
                ],
                "hoverinfo": "text",
            }
        )
        found = [bounds(cards[n][key]) for n in shown]
        if any(b is not None for b in found):
            values = traces[-1]["x"]
            traces[-1]["error_x"] = {
                "type": "data",
                "array": [
                    0 if b is None else round(b[1] - v, 4)
                    for b, v in zip(found, values, strict=True)
                ],
                "arrayminus": [
                    0 if b is None else round(v - b[0], 4)
                    for b, v in zip(found, values, strict=True)
                ],
                "color": "#222",
                "thickness": 1.2,
                "width": 3,
            }
        rows += [
            [
                n,
                key,
                cards[n][key][f"{field}_games"],
                cards[n][key][f"{field}_win_rate"],
                cards[n][key][f"not_{field}_win_rate"],
                cards[n][key].get(f"{field}_impact_low"),
                cards[n][key].get(f"{field}_impact_high"),
            ]
            for n in names
            if key in cards[n]
        ]
    trimmed = (
        f", and only the {most} strongest each way are drawn (the CSV has every card)"
        if len(names) > 2 * most
        else ""
    )
    return chart(
        chart_id=f"card-impact-{field}",
        title=("Cards at the end and winning" if ended else "Cards held and winning"),
        traces=traces,
        x_title="win rate with the card minus win rate without it",
        y_title="card",
        csv_header=[
            "card",
            "play",
            "seat-games with it",
            "win rate with",
            "win rate without",
            "difference low 95%",
            "difference high 95%",
        ],
        csv_rows=rows,
        layout=_layout(
            game_name,
            barmode="group",
            xaxis={"tickformat": "+.0%", "zeroline": True, "zerolinewidth": 2},
        ),
        height=max(300, 130 + 16 * len(drawn) * len(traces)),
        description=(
            f"Bars to the right: players who {verb} this card won more often than those who "
            f"did not; the whisker is the 95% range the true difference likely lies in (a "
            f"whisker across the zero line: it may be chance). It shows association, not "
            f"cause; cards seen in fewer than {min_games} "
            f"seat-games are left out{trimmed}."
        ),
    )
