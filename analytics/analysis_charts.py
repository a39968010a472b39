"""What the pages show of analysed games: a player's decision quality over time, their
biggest mistakes as puzzles, and a game's skill figure (chartkit, drawn by charts.js).

Win shares are told as percentages and losses as points of win share ("lost 12 points"),
the words the replay page uses.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from core.chartkit import chart
from games.registry import get_engine

NONE_TEXT = "\u2013"  # an en dash: no value
MARK_SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def percent(value: float | None) -> str:
    """0.412 -> "41%"."""
    return NONE_TEXT if value is None else f"{round(100 * value)}%"


def points_lost(value: float | None) -> str:
    """A loss of win share in points: 0.123 -> "12.3"."""
    return NONE_TEXT if value is None else f"{100 * value:.1f}"


def puzzle_url(record_id: int, *, step: int, seat: int) -> str:
    """The replay at the position before the move, seen by its mover, as a puzzle: the
    page hides the analysis of that move until "Show the better move" is pressed."""
    return f"{reverse('record-replay', args=[record_id])}?puzzle=1#step={step}&seat={seat}"


def decision_quality_chart(games: list[dict[str, Any]], *, name: str) -> dict[str, Any] | None:
    """A point per analysed game, oldest first: the win share lost per decision (lower is
    better), a line per game played. None with no game of any decision."""
    by_game: dict[str, list[dict[str, Any]]] = {}
    for row in sorted(games, key=lambda r: (r["played"], r["record"].pk)):
        if row["decision_quality"] is None or not row["decisions"]:
            continue
        by_game.setdefault(row["record"].game, []).append(row)
    if not by_game:
        return None
    traces = []
    csv_rows: list[list[Any]] = []
    for game, rows in sorted(by_game.items(), key=lambda kv: get_engine(kv[0]).name):
        game_name = get_engine(game).name
        traces.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": game_name,
                "x": [r["played"].isoformat() for r in rows],
                "y": [round(100 * r["decision_quality"], 2) for r in rows],
                "hovertext": [
                    f"{game_name} #{r['record'].pk} on {r['played']:%d %b %Y}: "
                    f"{points_lost(r['decision_quality'])} points of win share lost per "
                    f"decision over {r['decisions']} decisions"
                    for r in rows
                ],
                "hoverinfo": "text",
            }
        )
        csv_rows.extend(
            [
                game_name,
                r["record"].pk,
                r["played"].isoformat(),
                r["decisions"],
                r["decision_quality"],
            ]
            for r in rows
        )
    return chart(
        chart_id="decision-quality-chart",
        title=f"{name}'s decisions over time",
        traces=traces,
        x_title="date played",
        y_title="win share lost per decision (points)",
        csv_header=["game", "record", "played at", "decisions", "win share lost per decision"],
        csv_rows=csv_rows,
        layout={
            "xaxis": {"type": "date", "tickformat": "%-d %b %Y"},
            "yaxis": {"rangemode": "tozero"},
            "height": 300,
        },
        description=(
            "Each point is one analysed game: how much of their chance to win the player's "
            "moves gave away on average, against the best move each time. Lower is better; "
            "0 means every move was the best one found."
        ),
    )


def mistake_rows(mistakes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The page's rows of a player's biggest mistakes, each a link to its puzzle."""
    rows = []
    for item in mistakes:
        record, decision = item["record"], item["decision"]
        rows.append(
            {
                "record": record,
                "game_name": get_engine(record.game).name,
                "played": record.played_at or record.created_at,
                "step": decision.step,
                "mark": decision.mark,
                "sign": MARK_SIGNS.get(decision.mark or "", ""),
                "lost": points_lost(decision.loss),
                "url": puzzle_url(record.pk, step=decision.step, seat=item["seat"]),
            }
        )
    return rows


def skill_rows(figures: list[Any]) -> list[dict[str, Any]]:
    """The dashboard's table of skill figures: per table size, real play then bot play."""
    rows = []
    for figure in figures:
        data = figure.figure or {}
        share, baseline = data.get("share"), data.get("baseline")
        rows.append(
            {
                "players": figure.num_players,
                "simulated": figure.simulated,
                "games": figure.games,
                "compared": data.get("games", 0),
                "share": percent(share) if isinstance(share, int | float) else NONE_TEXT,
                "baseline": percent(baseline) if isinstance(baseline, int | float) else NONE_TEXT,
            }
        )
    return rows
