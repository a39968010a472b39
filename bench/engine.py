"""Engine throughput: checked and trusted replay against python-chess, events per second.

    .venv/bin/python bench/engine.py [--seconds 4] [--logs 200] [--game gift_trap] [--json]
    .venv/bin/python bench/engine.py --self-play [--seconds 3] [--game secret_santa]

The default prints, per game, how fast a stored log replays on the *checked* path
(``games.play.replay``: every event goes through ``engine.apply``, exactly what
``replays.services.record_validate`` runs for an upload) and on the *trusted* path
(``replay_states(..., checked=False)``, what the replay pages use for a record that was
validated when it was stored), each next to python-chess measured in the same run and
interleaved with it: ``board.is_legal(move)`` + ``board.push(move)`` for the checked path,
``board.push(move)`` alone for the trusted one (python-chess's own trusted path). The
ratio is what the performance issue sets a target for (checked: at least 4x).

The logs are bot games generated once per run with a fixed seed, the way
``manage.py simulate`` makes them (mixed random and greedy bots, every table size in
turn, GiftTRAP capped at 30 rounds), then passed through JSON like a stored record.
The chess games are random legal games, also from a fixed seed. Measurements alternate
between a game and its reference in slices of about 50 ms, so load from other
processes falls on both alike; on a shared machine read the ratio, not the rates.

``--self-play`` prints the older table: random self-play (the bots' ``legal_events`` on
every step) and checked replay per table size, without a reference.

Needs the ``bench`` extra (``pip install -e '.[bench]'``) for python-chess.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.base import Engine
from games.play import BOTS, replay, replay_states, self_play
from games.registry import all_engines, get_engine

#: The issue's target for the checked path, as a multiple of python-chess.
CHECKED_TARGET = 4.0
LOG_SEED = 2026
CHESS_SEED = 1852
CHESS_GAMES = 40
SLICE_SECONDS = 0.05
# As replays.simulation.SIMULATION_OPTIONS (not imported: that module needs Django).
SIMULATION_OPTIONS: dict[str, dict[str, Any]] = {"gift_trap": {"max_rounds": 30}}


@dataclass
class Log:
    num_players: int
    options: dict[str, Any]
    events: list[dict[str, Any]]


def simulated_logs(engine: Engine, count: int, seed: int = LOG_SEED) -> list[Log]:
    """``count`` bot games of ``engine``, table sizes in turn, as stored (JSON) logs."""
    rng = random.Random(f"{seed}:{engine.slug}")
    sizes = range(engine.min_players, engine.max_players + 1)
    options = SIMULATION_OPTIONS.get(engine.slug, {})
    logs = []
    for index in range(count):
        n = sizes[index % len(sizes)]
        bots = [BOTS[rng.choice(("random", "greedy", "greedy"))] for _ in range(n)]
        events, _ = self_play(engine, n, options=options, rng=rng, bots=bots)
        logs.append(Log(n, dict(options), json.loads(json.dumps(events))))
    return logs


def chess_games(count: int = CHESS_GAMES, seed: int = CHESS_SEED) -> list[list[Any]]:
    """``count`` random legal chess games (lists of ``chess.Move``), played to their end."""
    try:
        import chess
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise SystemExit(
            "bench/engine.py needs python-chess: .venv/bin/pip install -e '.[bench]'"
        ) from exc
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        board = chess.Board()
        moves = []
        while not board.is_game_over():
            move = rng.choice(list(board.legal_moves))
            moves.append(move)
            board.push(move)
        games.append(moves)
    return games


def _chess_checked(moves: Sequence[Any]) -> int:
    import chess

    board = chess.Board()
    is_legal, push = board.is_legal, board.push
    for move in moves:
        if not is_legal(move):
            raise AssertionError(f"the reference game is illegal at {move}")
        push(move)
    return len(moves)


def _chess_trusted(moves: Sequence[Any]) -> int:
    import chess

    board = chess.Board()
    push = board.push
    for move in moves:
        push(move)
    return len(moves)


def _checked(engine: Engine, log: Log) -> int:
    replay(engine, log.num_players, log.options, log.events)
    return len(log.events)


def _trusted(engine: Engine, log: Log) -> int:
    for _ in replay_states(engine, log.num_players, log.options, log.events, checked=False):
        pass
    return len(log.events)


@dataclass
class _Meter:
    """Runs its units in turn (cycling), adding up what they count and the time taken."""

    run: Callable[[Any], int]
    units: Sequence[Any]
    rates: list[float] = field(default_factory=list)  # one per slice
    cursor: int = 0

    def slice(self, budget: float) -> None:
        clock = time.perf_counter
        started = clock()
        count = 0
        while True:
            count += self.run(self.units[self.cursor % len(self.units)])
            self.cursor += 1
            if clock() - started >= budget:
                break
        self.rates.append(count / (clock() - started))

    @property
    def rate(self) -> float:
        return statistics.median(self.rates)

    def ratio(self, reference: _Meter) -> float:
        """The median over rounds of this meter's rate over the reference's in that round.

        Slices of one round run back to back, so a burst of load from another
        process mostly hits both; the median drops the rounds where it did not.
        """
        return statistics.median(
            mine / theirs for mine, theirs in zip(self.rates, reference.rates, strict=True)
        )


def _interleave(meters: Sequence[_Meter], seconds: float) -> None:
    """Slices of every meter in turn until ``seconds`` have gone by (each runs at least once)."""
    gc.collect()
    started = time.perf_counter()
    while True:
        for meter in meters:
            meter.slice(SLICE_SECONDS)
        if time.perf_counter() - started >= seconds:
            return


_LOGS: dict[tuple[str, int, int], list[Log]] = {}
_CHESS: list[list[Any]] = []


def checked_replay_figures(
    seconds: float = 4.0,
    *,
    games: Sequence[str] | None = None,
    logs_per_game: int = 200,
) -> list[dict[str, Any]]:
    """Checked and trusted replay events/s per game, each against python-chess.

    ``seconds`` is the measuring time per game, shared by the four interleaved
    measurements (checked replay, ``is_legal`` + ``push``, trusted replay, ``push``);
    generating the logs comes on top (once per process: the logs are kept for later
    calls). ``games`` limits the slugs measured (default: every registered game).

    One dict per game, JSON-ready: ``game``, ``logs``, ``events`` (in the whole log
    set), ``checked_events_per_s``, ``chess_checked_moves_per_s``, ``checked_ratio``,
    ``trusted_events_per_s``, ``chess_push_moves_per_s``, ``trusted_ratio``,
    ``rounds``, ``target_ratio`` (the checked target, 4) and ``meets_target`` (checked
    ratio >= 4). Rates are medians over slices of about 50 ms; a ratio is the median,
    over rounds, of the game's rate over the reference's measured right after it.
    """
    engines = [get_engine(slug) for slug in games] if games else all_engines()
    if not _CHESS:
        _CHESS.extend(chess_games())
    figures = []
    for engine in engines:
        key = (engine.slug, logs_per_game, LOG_SEED)
        if key not in _LOGS:
            _LOGS[key] = simulated_logs(engine, logs_per_game)
        logs = _LOGS[key]
        checked = _Meter(lambda log, e=engine: _checked(e, log), logs)
        chess_checked = _Meter(_chess_checked, _CHESS)
        trusted = _Meter(lambda log, e=engine: _trusted(e, log), logs)
        chess_push = _Meter(_chess_trusted, _CHESS)
        _interleave([checked, chess_checked, trusted, chess_push], seconds)
        checked_ratio = checked.ratio(chess_checked)
        figures.append(
            {
                "game": engine.slug,
                "logs": len(logs),
                "events": sum(len(log.events) for log in logs),
                "checked_events_per_s": round(checked.rate),
                "chess_checked_moves_per_s": round(chess_checked.rate),
                "checked_ratio": round(checked_ratio, 2),
                "trusted_events_per_s": round(trusted.rate),
                "chess_push_moves_per_s": round(chess_push.rate),
                "trusted_ratio": round(trusted.ratio(chess_push), 2),
                "rounds": len(checked.rates),
                "target_ratio": CHECKED_TARGET,
                "meets_target": checked_ratio >= CHECKED_TARGET,
            }
        )
    return figures


def print_figures(figures: Sequence[dict[str, Any]]) -> None:
    print(
        f"{'game':<16}{'events':>8}{'checked ev/s':>14}{'chess legal+push':>18}{'ratio':>7}"
        f"{'trusted ev/s':>14}{'chess push':>12}{'ratio':>7}  target"
    )
    for row in figures:
        verdict = "met" if row["meets_target"] else f"below {row['target_ratio']:g}x"
        print(
            f"{row['game']:<16}{row['events']:>8}{row['checked_events_per_s']:>14,}"
            f"{row['chess_checked_moves_per_s']:>18,}{row['checked_ratio']:>6.2f}x"
            f"{row['trusted_events_per_s']:>14,}{row['chess_push_moves_per_s']:>12,}"
            f"{row['trusted_ratio']:>6.2f}x  {verdict}"
        )


def self_play_rates(
    engine: Engine, num_players: int, seconds: float
) -> tuple[int, int, float, float]:
    rng = random.Random(2026)
    logs = []
    games = events = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        log, _ = self_play(engine, num_players, rng=rng)
        logs.append(log)
        games += 1
        events += len(log)
    play_rate = events / (time.perf_counter() - started)
    started = time.perf_counter()
    for log in logs:
        replay(engine, num_players, {}, log)
    replay_rate = events / (time.perf_counter() - started)
    return games, events, play_rate, replay_rate


def print_self_play(engines: Sequence[Engine], seconds: float) -> None:
    print(
        f"{'game':<16}{'players':>8}{'games':>8}{'events/game':>13}"
        f"{'self-play ev/s':>16}{'replay ev/s':>13}"
    )
    for engine in engines:
        for n in range(engine.min_players, engine.max_players + 1):
            games, events, play_rate, replay_rate = self_play_rates(engine, n, seconds)
            print(
                f"{engine.slug:<16}{n:>8}{games:>8}{events / games:>13.1f}"
                f"{play_rate:>16,.0f}{replay_rate:>13,.0f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="measuring time per game")
    parser.add_argument("--logs", type=int, default=200, help="simulated logs per game")
    parser.add_argument("--game", action="append", help="only this engine slug (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--self-play", action="store_true", help="the self-play table instead")
    args = parser.parse_args()
    if args.self_play:
        engines = [get_engine(g) for g in args.game] if args.game else all_engines()
        print_self_play(engines, args.seconds)
        return
    figures = checked_replay_figures(args.seconds, games=args.game, logs_per_game=args.logs)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print_figures(figures)


if __name__ == "__main__":
    main()
