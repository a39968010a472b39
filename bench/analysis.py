"""Analysis figures (issue 24): the time to analyse a typical game of each game at the
default settings on one process, the standard error reached, and playout speed against
bare engine replay of the same game.

    PYTHONPATH=. .venv/bin/python -m bench.analysis [--quick] [--games a,b] [--json out.json]

A typical game is the median-length one of five seeded greedy self-play games at 4
players. Compile the engines first (bin/compile_engines.py): analysis plays out with
the compiled engines, as a worker does. Pure Python, no database: ``python -m bench``
runs it as its group ``analysis``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.analysis import DEFAULT_SETTINGS, TARGET_SE, Settings, analyse  # noqa: E402
from games.base import Engine  # noqa: E402
from games.play import greedy_bot, replay, self_play  # noqa: E402
from games.registry import all_engines, get_engine  # noqa: E402

TARGET_SECONDS = 60.0
PLAYERS = 4


def typical_game(engine: Engine, n: int, tries: int = 5) -> list[dict[str, Any]]:
    """The median-length game of ``tries`` seeded greedy self-play games."""
    games = [
        self_play(engine, n, rng=random.Random(seed), bots=[greedy_bot] * n)[0]
        for seed in range(tries)
    ]
    games.sort(key=len)
    return games[len(games) // 2]


def replay_rate(engine: Engine, n: int, events: list[dict[str, Any]], checked: bool) -> float:
    """Events/s of ``games.play.replay`` of the game, repeated for about a second."""
    count, started = 0, time.perf_counter()
    while time.perf_counter() - started < 1.0:
        replay(engine, n, None, events, checked=checked)
        count += 1
    return count * len(events) / (time.perf_counter() - started)


def analysis_figures(
    slugs: list[str] | None = None, settings: Settings = DEFAULT_SETTINGS
) -> list[dict[str, Any]]:
    """One dict of figures per game (see the module docstring)."""
    out = []
    for engine in [get_engine(s) for s in slugs] if slugs else all_engines():
        n = PLAYERS if engine.min_players <= PLAYERS <= engine.max_players else engine.min_players
        events = typical_game(engine, n)
        analysis = analyse(engine.slug, n, None, events, settings)
        chosen = [d.chosen.win_se for d in analysis.decisions]
        best = [d.best.win_se for d in analysis.decisions]
        both = [max(d.chosen.win_se, d.best.win_se) for d in analysis.decisions]
        seconds = analysis.seconds
        figure = {
            "game": engine.slug,
            "players": n,
            "events": len(events),
            "decisions": len(analysis.decisions),
            "seconds": round(seconds, 1),
            "playouts": analysis.playouts,
            "playouts_per_s": round(analysis.playouts / seconds),
            "playout_events_per_s": round(analysis.playout_events / seconds),
            "replay_checked_events_per_s": round(replay_rate(engine, n, events, True)),
            "replay_trusted_events_per_s": round(replay_rate(engine, n, events, False)),
            "se_chosen_max": round(max(chosen, default=0), 3),
            "se_chosen_median": round(statistics.median(chosen), 3) if chosen else 0,
            "se_best_max": round(max(best, default=0), 3),
            "se_best_median": round(statistics.median(best), 3) if best else 0,
            "se_met_share": round(sum(1 for x in both if x < TARGET_SE) / len(both), 3)
            if both
            else 1.0,
            "marks": {
                mark: sum(p["marks"][mark] for p in analysis.players)
                for mark in ("inaccuracy", "mistake", "blunder")
            },
        }
        figure["meets_target"] = seconds < TARGET_SECONDS and figure["se_met_share"] == 1.0
        print(json.dumps(figure), file=sys.stderr, flush=True)
        out.append(figure)
    return out


def analysis_rows(quick: bool = False) -> list[dict[str, Any]]:
    """The figures as ``python -m bench`` rows (bench/figures.py ``row``)."""
    from bench.figures import row

    settings = Settings(playouts=24, screen=4, curve_playouts=4) if quick else DEFAULT_SETTINGS
    rows = []
    for f in analysis_figures(settings=settings):
        rows.append(
            row(
                f"analysis of a typical {f['players']}-player {f['game']} game",
                f["seconds"],
                "s",
                None,
                f"< {TARGET_SECONDS:.0f} s, SE < {TARGET_SE}",
                f["meets_target"],
                f"{f['decisions']} decisions, {f['playouts']:,} playouts "
                f"({f['playouts_per_s']:,}/s, {f['playout_events_per_s']:,} events/s against "
                f"checked replay {f['replay_checked_events_per_s']:,} events/s); SE chosen "
                f"max {f['se_chosen_max']} median {f['se_chosen_median']}, best max "
                f"{f['se_best_max']} median {f['se_best_median']}; "
                f"{f['se_met_share']:.0%} of decisions under {TARGET_SE}",
            )
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small settings (a smoke run)")
    parser.add_argument("--games", default="", help="comma-separated slugs (default: all)")
    parser.add_argument("--json", type=Path, help="write the figures here as JSON")
    args = parser.parse_args()
    settings = Settings(playouts=24, screen=4, curve_playouts=4) if args.quick else DEFAULT_SETTINGS
    load = os.getloadavg()
    figures = analysis_figures(list(filter(None, args.games.split(","))) or None, settings)
    columns = [
        "game", "players", "events", "decisions", "seconds", "playouts", "playouts_per_s",
        "playout_events_per_s", "replay_checked_events_per_s", "se_chosen_max",
        "se_chosen_median", "se_best_max", "se_best_median", "se_met_share", "meets_target",
    ]  # fmt: skip
    widths = [max(len(c), *(len(str(f[c])) for f in figures)) for c in columns]
    for line in [columns, *[[f[c] for c in columns] for f in figures]]:
        print(" | ".join(str(x).ljust(w) for x, w in zip(line, widths, strict=True)))
    after = os.getloadavg()
    print(f"settings {settings.to_json()}; load average before {load[0]:.2f}, after {after[0]:.2f}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
