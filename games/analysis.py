"""Analysis of a finished game: what each move was worth, judged from what its mover saw.

For every decision of a seat (every event whose actor is a seat, simultaneous secret
choices included), the seat's history up to that step is read by the engine's
``determinizer`` and full states the seat cannot tell from the real one are dealt. Each
candidate move is applied to each sampled state and the game is played out by the
service's bots; the mover's win share (1/k for a k-way tie for first) and placing,
averaged, are the move's value (information-set Monte Carlo). The true state is never
looked at for a move's value: only for the list of legal moves and their labels, which
the seat's own view determines (the determinization suite checks that a sample's legal
moves are the real ones).

The win-share curve over the game is the other half: from the *true* state after every
step, playouts estimate each seat's win share, and the change made by each event is a
swing, of chance (deals, draws) or of a decision. It uses the hidden cards, so it is for
finished games only (the service shows an analysis only once the game is stored).

Everything is reproducible from ``Settings.seed``: each decision's samples and playouts
are seeded by (seed, step, sample index) alone, so the same log and settings give the
same figures, and a decision's values do not depend on any other decision's.
docs/analysis.md explains the method, the marks' thresholds and the limits.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from games.base import CHANCE, Engine, Event, SeatHistory, options_resolve
from games.play import (
    BOTS,
    Bot,
    choose_mover,
    greedy_bot,
    replay,
    replay_states,
    seat_histories,
    waiting_for,
)
from games.registry import get_engine

#: Bump when the same input and settings would give different figures (the service
#: stores results keyed by this, the engine build and the settings).
ANALYSIS_VERSION: Final = "1"

#: Loss in win share (0..1) from which a move is marked. Reasoned in docs/analysis.md:
#: below 5 points a loss is within the playouts' noise (the target standard error);
#: a mistake costs about one game in eight, a blunder one game in five.
INACCURACY: Final = 0.05
MISTAKE: Final = 0.12
BLUNDER: Final = 0.20

#: A contender's value is sharpened until its standard error is under this (5 points).
TARGET_SE: Final = 0.05
#: A playout that has not ended after this many events is scored as it stands
#: (random play in a large GiftTRAP game can run very long; the greedy bots end).
PLAYOUT_LIMIT: Final = 5000


@dataclass(frozen=True)
class Settings:
    """How hard the analysis looks; part of a stored result's key.

    ``playouts`` is the most playouts any one candidate move of a decision gets (the
    chosen and the best move get up to this many, until their standard error is under
    ``target_se``); every candidate first gets ``screen`` of them. ``bots`` is the
    playout policy: at every playout move one of these bots (names of
    ``games.play.BOTS``) is picked at random, so ``("greedy", "greedy", "random")``
    plays a random move a third of the time. ``max_moves`` caps the candidates valued
    per decision (the chosen move always among them). ``curve_playouts`` are the
    playouts from the true state after each step for the win-share curve.
    """

    playouts: int = 120
    bots: tuple[str, ...] = ("greedy",)
    max_moves: int = 10
    seed: int = 0
    screen: int = 8
    curve_playouts: int = 16
    target_se: float = TARGET_SE

    def __post_init__(self) -> None:
        if not self.bots or any(name not in BOTS for name in self.bots):
            raise ValueError(f"bots must name some of: {', '.join(sorted(BOTS))}")
        if self.playouts < 1 or self.max_moves < 1 or self.screen < 1:
            raise ValueError("playouts, max_moves and screen must be positive")
        if self.curve_playouts < 1 or not 0 < self.target_se < 1:
            raise ValueError("curve_playouts must be positive and target_se in (0, 1)")

    def to_json(self) -> dict[str, Any]:
        return {
            "playouts": self.playouts,
            "bots": list(self.bots),
            "max_moves": self.max_moves,
            "seed": self.seed,
            "screen": self.screen,
            "curve_playouts": self.curve_playouts,
            "target_se": self.target_se,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Settings:
        """Settings from ``to_json``'s shape; missing fields take their defaults."""
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        if "bots" in known:
            known["bots"] = tuple(known["bots"])
        return cls(**known)


DEFAULT_SETTINGS: Final = Settings()


@dataclass
class MoveValue:
    """One candidate move of a decision and what it was worth to the mover."""

    event: Event
    label: str
    win: float
    win_se: float
    place: float
    place_se: float
    playouts: int

    def to_json(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "label": self.label,
            "win": self.win,
            "win_se": self.win_se,
            "place": self.place,
            "place_se": self.place_se,
            "playouts": self.playouts,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MoveValue:
        return cls(
            dict(data["event"]),
            data["label"],
            data["win"],
            data["win_se"],
            data["place"],
            data["place_se"],
            data["playouts"],
        )


@dataclass
class Decision:
    """A seat's move at ``step`` (index of the event in the log) against the best found."""

    step: int
    seat: int
    chosen: MoveValue
    best: MoveValue
    moves: list[MoveValue]
    loss: float
    mark: str | None
    simultaneous: bool

    def to_json(self) -> dict[str, Any]:
        # ``chosen`` and ``best`` are among ``moves``: stored by index, not twice.
        return {
            "step": self.step,
            "seat": self.seat,
            "chosen": self.moves.index(self.chosen),
            "best": self.moves.index(self.best),
            "moves": [m.to_json() for m in self.moves],
            "loss": self.loss,
            "mark": self.mark,
            "simultaneous": self.simultaneous,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Decision:
        moves = [MoveValue.from_json(m) for m in data["moves"]]
        return cls(
            data["step"],
            data["seat"],
            moves[data["chosen"]],
            moves[data["best"]],
            moves,
            data["loss"],
            data["mark"],
            data["simultaneous"],
        )


@dataclass
class GameAnalysis:
    """The analysis of one finished game (see the module docstring)."""

    game: str
    num_players: int
    settings: Settings
    version: str
    curve: list[list[float]]
    swings: list[dict[str, Any]]
    decisions: list[Decision]
    players: list[dict[str, Any]]
    playouts: int
    seconds: float
    playout_events: int = 0  # events applied in all playouts (what ``seconds`` went on)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "num_players": self.num_players,
            "settings": self.settings.to_json(),
            "version": self.version,
            "curve": self.curve,
            "swings": self.swings,
            "decisions": [d.to_json() for d in self.decisions],
            "players": self.players,
            "playouts": self.playouts,
            "seconds": self.seconds,
            "playout_events": self.playout_events,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameAnalysis:
        return cls(
            data["game"],
            data["num_players"],
            Settings.from_json(data["settings"]),
            data["version"],
            [list(row) for row in data["curve"]],
            [dict(s) for s in data["swings"]],
            [Decision.from_json(d) for d in data["decisions"]],
            [dict(p) for p in data["players"]],
            data["playouts"],
            data["seconds"],
            data.get("playout_events", 0),
        )


def mark_for(loss: float) -> str | None:
    """The mark a move losing ``loss`` of win share earns (thresholds above)."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def advice(decision: Decision) -> str | None:
    """The better move in words, for a marked decision: "Better: Open the gift: 41% to
    win against 28%." (``None`` when unmarked). The labels keep the engine's seat
    placeholders (``{p1}``) for the service to fill with names, as sentences do."""
    if decision.mark is None:
        return None
    best, chosen = decision.best, decision.chosen
    label = best.label.rstrip(".")
    return f"Better: {label}: {best.win:.0%} to win against {chosen.win:.0%}."


# -- playouts -------------------------------------------------------------------------


def _rng(*parts: int) -> random.Random:
    """A generator seeded by integers alone (never ``hash``, which varies per process)."""
    value = 0
    for part in parts:
        value = value * 1_000_003 + part + 1
    return random.Random(value)


def _outcome(engine: Engine, state: Any, n: int) -> tuple[list[float], list[int]]:
    """Each seat's win share (ties for first split) and placing (1 = first)."""
    if engine.is_over(state):
        result = engine.result(state)
        ranks = list(result.ranks)
        winners = result.winners
    else:  # cut short (PLAYOUT_LIMIT): ranked by the scores as they stand
        scores = engine.scores(state)
        ranks = [1 + sum(1 for o in scores if o > s) for s in scores]
        winners = [p for p in range(n) if ranks[p] == 1]
    share = 1.0 / len(winners)
    return [share if p in winners else 0.0 for p in range(n)], ranks


class _Playout:
    """Plays a state out to the end with the settings' bot mix, on the trusted path."""

    def __init__(self, engine: Engine, n: int, bots: Sequence[str]) -> None:
        self.engine = engine
        self.n = n
        self.bots: list[Bot] = [BOTS[name] for name in bots]
        self.events = 0  # events applied in all playouts so far (for the bench's rates)

    def run(self, state: Any, rng: random.Random) -> tuple[list[float], list[int]]:
        # The loop runs for every event of every playout (millions per game): the
        # engine's methods are looked up once, and an all-greedy mix calls the engine's
        # ``greedy_event`` itself (what ``greedy_bot`` does, without the extra call).
        engine = self.engine
        apply = engine.apply_trusted
        is_over = engine.is_over
        to_move = engine.to_move
        sample_chance = engine.sample_chance
        bots = self.bots
        one_bot = bots[0] if len(bots) == 1 else None
        greedy = engine.greedy_event if one_bot is greedy_bot else None
        played = 0
        while played < PLAYOUT_LIMIT:
            if is_over(state):
                break
            movers = to_move(state)
            if CHANCE in movers:
                event = sample_chance(state, rng)
            else:
                seats: list[int] = movers  # type: ignore[assignment]  # no chance among them
                seat = seats[0] if len(seats) == 1 else choose_mover(engine, state, seats, rng)
                if greedy is not None:
                    event = greedy(state, seat, rng)
                else:
                    bot = one_bot or rng.choice(bots)
                    event = bot(engine, state, seat, rng)
            state = apply(state, event)
            played += 1
        self.events += played
        return _outcome(engine, state, self.n)


class _Stats:
    """Running mean and variance of one move's win share and placing (Welford)."""

    __slots__ = ("n", "place", "place_m2", "win", "win_m2")

    def __init__(self) -> None:
        self.n = 0
        self.win = 0.0
        self.win_m2 = 0.0
        self.place = 0.0
        self.place_m2 = 0.0

    def add(self, win: float, place: float) -> None:
        self.n += 1
        d = win - self.win
        self.win += d / self.n
        self.win_m2 += d * (win - self.win)
        d = place - self.place
        self.place += d / self.n
        self.place_m2 += d * (place - self.place)

    def win_se(self) -> float:
        """The standard error of the mean win share, never below what a quarter of a
        pseudo-observation's variance gives: eight losses in eight playouts do not make
        a value certain (the plain estimate would say 0)."""
        if self.n == 0:
            return 1.0
        return math.sqrt((self.win_m2 + 0.25) / self.n / self.n)

    def place_se(self) -> float:
        if self.n < 2:
            return float(self.n == 0)
        return math.sqrt(self.place_m2 / (self.n - 1) / self.n)


def _dedupe(
    engine: Engine, legal: Sequence[Event], chosen: Event, seat: int, before: Any
) -> list[tuple[Event, str]]:
    """Legal moves with their labels, one per label: moves the mover words alike (the
    same gift on two cards of one kind) are alike to it. The chosen move stands for its
    group; the order is the engine's."""
    chosen_label, *labels = engine.labels([chosen, *legal], seat, before)
    out: list[tuple[Event, str]] = []
    seen: set[str] = set()
    for event, label in zip(legal, labels, strict=True):
        if event == chosen:
            label = chosen_label
        elif label == chosen_label:
            continue
        if label in seen:
            continue
        seen.add(label)
        out.append((event, label))
    if not any(event == chosen for event, _ in out):
        out = [(e, lab) for e, lab in out if lab != chosen_label] + [(dict(chosen), chosen_label)]
    return out


def _key(event: Mapping[str, Any]) -> str:
    return json.dumps(event, sort_keys=True, separators=(",", ":"))


def value_moves(
    engine: Engine,
    history: SeatHistory,
    candidates: Sequence[tuple[Event, str]],
    chosen: Event,
    settings: Settings,
    step: int,
    playout: _Playout | None = None,
) -> tuple[list[MoveValue], int]:
    """The value of each candidate move for ``history.seat``, from its history alone.

    Common random numbers: sample ``j`` (state and playout seed) is the same for every
    candidate, so the difference between two moves is measured on the same deals.
    Every candidate gets ``settings.screen`` playouts; then, in rounds of ``screen``,
    the chosen move and the best so far get more, until the standard error of each is
    under ``target_se`` or it has had ``settings.playouts``. Returns the
    values (in the candidates' order) and the playouts run.
    """
    seat = history.seat
    runner = playout or _Playout(engine, history.num_players, settings.bots)
    dealer = engine.determinizer(history)
    apply = engine.apply
    apply_trusted = engine.apply_trusted
    samples: list[Any] = []
    stats = [_Stats() for _ in candidates]
    chosen_key = _key(chosen)
    chosen_at = next(i for i, (e, _) in enumerate(candidates) if _key(e) == chosen_key)
    played = 0

    def sample(j: int) -> Any:
        while len(samples) <= j:
            samples.append(dealer.sample(_rng(settings.seed, step, len(samples), 1)))
        return samples[j]

    def run(i: int, upto: int) -> None:
        nonlocal played
        event = candidates[i][0]
        s = stats[i]
        while s.n < upto:
            j = s.n
            base = sample(j)
            # Checked on the first sample (a sample's legal moves are the real ones, and
            # one check per candidate costs little); then trusted, as playouts are.
            after = apply(base, event) if j == 0 else apply_trusted(base, event)
            win, place = runner.run(after, _rng(settings.seed, step, j, 2))
            s.add(win[seat], place[seat])
            played += 1

    screen = min(settings.screen, settings.playouts)
    for i in range(len(candidates)):
        run(i, screen)
    if len(candidates) > 1:
        # Sharpen the two values a mark compares: the chosen move's and the best's (the
        # best found so far, which may change as the playouts come in).
        while True:
            best = max(
                range(len(stats)), key=lambda i: (stats[i].win, i == chosen_at, stats[i].n, -i)
            )
            todo = [
                i
                for i in sorted({chosen_at, best})
                if stats[i].win_se() >= settings.target_se and stats[i].n < settings.playouts
            ]
            if not todo:
                break
            for i in todo:
                run(i, min(settings.playouts, stats[i].n + screen))
    values = [
        MoveValue(
            event=dict(event),
            label=label,
            win=s.win,
            win_se=s.win_se(),
            place=s.place,
            place_se=s.place_se(),
            playouts=s.n,
        )
        for (event, label), s in zip(candidates, stats, strict=True)
    ]
    return values, played


def _candidates(
    engine: Engine,
    state: Any,
    history: SeatHistory,
    chosen: Event,
    settings: Settings,
    step: int,
) -> list[tuple[Event, str]]:
    """The moves valued at a decision: every legal move (one per label), or, past
    ``max_moves``, the chosen move, the greedy bot's move in the decision's first
    sample (a strong move is rarely left out; the sample is dealt from the seat's
    history, as every sample is) and a reproducible random choice of the others."""
    seat = history.seat
    moves = _dedupe(engine, engine.legal_events(state, seat), chosen, seat, state)
    if len(moves) <= settings.max_moves:
        return moves
    keys = [_key(e) for e, _ in moves]
    keep = {keys.index(_key(chosen))}
    sample = engine.determinizer(history).sample(_rng(settings.seed, step, 0, 1))
    hint = _key(engine.greedy_event(sample, seat, _rng(settings.seed, step, 0, 5)))
    if hint in keys:
        keep.add(keys.index(hint))
    others = [i for i in range(len(moves)) if i not in keep]
    room = max(0, settings.max_moves - len(keep))
    keep |= set(_rng(settings.seed, step, 0, 3).sample(others, room))
    return [m for i, m in enumerate(moves) if i in keep]


# -- the whole game ---------------------------------------------------------------------


def analyse(
    game: str,
    num_players: int,
    options: Mapping[str, Any] | None,
    events: Sequence[Mapping[str, Any]],
    settings: Settings = DEFAULT_SETTINGS,
    progress: Callable[[int, int], None] | None = None,
) -> GameAnalysis:
    """Analyse a finished game's log (a stored record's ``game``, player count,
    ``options`` and ``events``): every decision's move values and marks, the win-share
    curve from the true state, its swings, and each player's figures.

    The log is replayed checked (an illegal event raises ``IllegalEvent`` with its
    step). ``progress(done, total)`` is called after each seat event (``total`` is the
    number of seat events; forced moves count as done at once).
    """
    started = time.perf_counter()
    engine = get_engine(game)
    resolved = options_resolve(engine, options)
    log: list[Event] = [e if type(e) is dict else dict(e) for e in events]
    states = list(replay_states(engine, num_players, resolved, log))
    n = num_players
    runner = _Playout(engine, n, settings.bots)
    total = sum(1 for e in log if e.get("by") != CHANCE)
    done = 0
    played = 0
    decisions: list[Decision] = []
    histories = [
        SeatHistory(seat, n, resolved, (engine.view(states[0], seat),), ()) for seat in range(n)
    ]
    for step, event in enumerate(log):
        before, after = states[step], states[step + 1]
        actor = event.get("by")
        if actor != CHANCE:
            seat = int(actor)  # type: ignore[arg-type]
            candidates = _candidates(engine, before, histories[seat], event, settings, step)
            if len(candidates) > 1:
                values, used = value_moves(
                    engine, histories[seat], candidates, event, settings, step, runner
                )
                played += used
                decisions.append(_decision(engine, before, step, seat, event, values))
            done += 1
            if progress is not None:
                progress(done, total)
        histories = [
            h.then(engine.event_view(event, h.seat, before=before), engine.view(after, h.seat))
            for h in histories
        ]
    curve, used = _curve(engine, states, settings, runner)
    played += used
    swings = [
        {
            "step": step,
            "kind": "chance" if event.get("by") == CHANCE else "decision",
            "seat": None if event.get("by") == CHANCE else event["by"],
            "delta": [curve[step + 1][p] - curve[step][p] for p in range(n)],
        }
        for step, event in enumerate(log)
    ]
    return GameAnalysis(
        game=engine.slug,
        num_players=n,
        settings=settings,
        version=ANALYSIS_VERSION,
        curve=curve,
        swings=swings,
        decisions=decisions,
        players=_players(n, decisions, swings),
        playouts=played,
        seconds=time.perf_counter() - started,
        playout_events=runner.events,
    )


def analyse_decision(
    game: str,
    num_players: int,
    options: Mapping[str, Any] | None,
    events: Sequence[Mapping[str, Any]],
    step: int,
    settings: Settings = DEFAULT_SETTINGS,
) -> Decision | None:
    """The one decision at ``step`` of a log, valued as :func:`analyse` values it (the
    same figures for the same settings); ``None`` for a chance event or a forced move.

    Only ``events[:step + 1]`` is read, so it serves a position of a game still being
    studied (a puzzle: "find the better move") as well as a finished one.
    """
    engine = get_engine(game)
    resolved = options_resolve(engine, options)
    log: list[Event] = [e if type(e) is dict else dict(e) for e in events[: step + 1]]
    if step >= len(log):
        raise IndexError(f"step {step} is past the log's {len(log)} events")
    event = log[step]
    if event.get("by") == CHANCE:
        return None
    seat = int(event["by"])
    history = None
    for history in seat_histories(engine, num_players, resolved, log[:step], seat):  # noqa: B007
        pass
    assert history is not None
    before = replay(engine, num_players, resolved, log[:step])
    engine.apply(before, event)  # the move itself must be legal there
    candidates = _candidates(engine, before, history, event, settings, step)
    if len(candidates) < 2:
        return None
    values, _ = value_moves(engine, history, candidates, event, settings, step)
    return _decision(engine, before, step, seat, event, values)


def _decision(
    engine: Engine, before: Any, step: int, seat: int, event: Event, values: list[MoveValue]
) -> Decision:
    chosen_key = _key(event)
    chosen = next(v for v in values if _key(v.event) == chosen_key)
    # As value_moves picks the best it sharpens: the chosen move on a tie, else the
    # move with the most playouts, so the best reported is one whose value was refined.
    best = max(values, key=lambda v: (v.win, v is chosen, v.playouts, -values.index(v)))
    loss = max(0.0, best.win - chosen.win)
    # A secret choice made in a simultaneous phase: other seats choose at the same time
    # (a GiftTRAP seat that may only play its card is not waited for), or the others do
    # not see what it chose (the last seat to lay its token chooses as blind as the first).
    waiting = [m for m in waiting_for(engine, before) if m != CHANCE]
    simultaneous = len(waiting) > 1 or any(
        engine.event_view(event, other, before=before) != event
        for other in range(engine.num_players(before))
        if other != seat
    )
    return Decision(step, seat, chosen, best, values, loss, mark_for(loss), simultaneous)


def _curve(
    engine: Engine, states: Sequence[Any], settings: Settings, runner: _Playout
) -> tuple[list[list[float]], int]:
    """Each seat's win share after every step, from the true state (finished games only).

    Playout ``j`` is seeded alike at every step, so neighbouring steps share their
    randomness where the game lets them, and a swing is less of the playouts' noise.
    """
    n = engine.num_players(states[0])
    curve: list[list[float]] = []
    played = 0
    for state in states:
        if engine.is_over(state):
            curve.append(_outcome(engine, state, n)[0])
            continue
        totals = [0.0] * n
        for j in range(settings.curve_playouts):
            win, _ = runner.run(state, _rng(settings.seed, -1, j, 4))
            for p in range(n):
                totals[p] += win[p]
        played += settings.curve_playouts
        curve.append([t / settings.curve_playouts for t in totals])
    return curve, played


def _players(
    n: int, decisions: Sequence[Decision], swings: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    out = []
    for seat in range(n):
        mine = [d for d in decisions if d.seat == seat]
        marks = {"inaccuracy": 0, "mistake": 0, "blunder": 0}
        for d in mine:
            if d.mark:
                marks[d.mark] += 1
        out.append(
            {
                "decision_quality": sum(d.loss for d in mine) / len(mine) if mine else 0.0,
                "decisions": len(mine),
                "luck": sum(s["delta"][seat] for s in swings if s["kind"] == "chance"),
                "marks": marks,
            }
        )
    return out


# -- the designer's figure --------------------------------------------------------------


def skill_share(analyses: Iterable[GameAnalysis | Mapping[str, Any]]) -> dict[str, Any]:
    """How often the better-deciding player won, against what chance alone gives.

    For each game with at least one decision per seat, the seat with the lowest average
    loss (``decision_quality``; ties shared) is looked up in the result (the curve's
    last row: each seat's win share of the finished game). ``share`` is the mean win
    share of those seats; ``baseline`` is the mean of 1/num_players over the same games
    (what it would be if decisions did not matter); ``lift`` is their difference and
    ``games`` counts the games used. ``by_players`` gives the same per table size (keys
    are the player counts as strings, as JSON has them). An analysis may be given as a
    :class:`GameAnalysis` or as its ``to_json()`` (only ``num_players``, ``players`` and
    the last row of ``curve`` are read), so stored results need not be rebuilt.
    """
    groups: dict[int, list[tuple[float, float]]] = {}
    for analysis in analyses:
        if isinstance(analysis, GameAnalysis):
            n, players, curve = analysis.num_players, analysis.players, analysis.curve
        else:
            n, players, curve = analysis["num_players"], analysis["players"], analysis["curve"]
        if not curve or any(p["decisions"] == 0 for p in players):
            continue
        final = curve[-1]
        best = min(p["decision_quality"] for p in players)
        tops = [s for s, p in enumerate(players) if p["decision_quality"] == best]
        groups.setdefault(n, []).append((sum(final[s] for s in tops) / len(tops), 1.0 / n))
    figure = _share([pair for pairs in groups.values() for pair in pairs])
    figure["by_players"] = {str(n): _share(groups[n]) for n in sorted(groups)}
    return figure


def _share(pairs: Sequence[tuple[float, float]]) -> dict[str, Any]:
    if not pairs:
        return {"games": 0, "share": None, "baseline": None, "lift": None}
    share = sum(p[0] for p in pairs) / len(pairs)
    baseline = sum(p[1] for p in pairs) / len(pairs)
    return {"games": len(pairs), "share": share, "baseline": baseline, "lift": share - baseline}


__all__ = [
    "ANALYSIS_VERSION",
    "BLUNDER",
    "DEFAULT_SETTINGS",
    "INACCURACY",
    "MISTAKE",
    "Decision",
    "GameAnalysis",
    "MoveValue",
    "Settings",
    "advice",
    "analyse",
    "analyse_decision",
    "mark_for",
    "skill_share",
    "value_moves",
]
