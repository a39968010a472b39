"""Analysis of a finished game (games/analysis.py): move values judged from the mover's
view, marks, the win-share curve and its swings, reproducibility, the stored shape.

Settings are small so the file runs in seconds; the figures at the default settings are
the bench's (bench/analysis.py).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from games.analysis import (
    ANALYSIS_VERSION,
    BLUNDER,
    DEFAULT_SETTINGS,
    INACCURACY,
    MISTAKE,
    GameAnalysis,
    Settings,
    advice,
    analyse,
    analyse_decision,
    mark_for,
    skill_share,
)
from games.base import CHANCE
from games.play import greedy_bot, random_bot, replay_states, seat_history, self_play
from games.registry import all_engines, get_engine

SMALL = Settings(playouts=16, bots=("greedy",), max_moves=4, seed=3, screen=4, curve_playouts=4)


def game_log(slug: str, n: int, seed: int, bots=None) -> list[dict]:
    engine = get_engine(slug)
    events, _ = self_play(engine, n, rng=random.Random(seed), bots=bots or [greedy_bot] * n)
    return events


@pytest.fixture(scope="module")
def swap_game() -> tuple[list[dict], GameAnalysis]:
    events = game_log("gift_swap", 3, 5, [random_bot] * 3)
    return events, analyse("gift_swap", 3, None, events, SMALL)


def test_mark_thresholds() -> None:
    assert INACCURACY < MISTAKE < BLUNDER
    assert mark_for(0.0) is None
    assert mark_for(INACCURACY - 0.001) is None
    assert mark_for(INACCURACY) == "inaccuracy"
    assert mark_for(MISTAKE) == "mistake"
    assert mark_for(BLUNDER) == "blunder"
    assert mark_for(1.0) == "blunder"


def test_settings_round_trip_and_checks() -> None:
    assert Settings.from_json(SMALL.to_json()) == SMALL
    assert Settings.from_json(json.loads(json.dumps(DEFAULT_SETTINGS.to_json()))) == (
        DEFAULT_SETTINGS
    )
    assert Settings.from_json({"playouts": 5, "bots": ["random"], "max_moves": 3}).bots == (
        "random",
    )
    with pytest.raises(ValueError):
        Settings(playouts=10, bots=("nobody",), max_moves=3)
    with pytest.raises(ValueError):
        Settings(playouts=0, bots=("greedy",), max_moves=3)


def test_every_seat_event_with_a_choice_is_a_decision(swap_game) -> None:
    events, analysis = swap_game
    engine = get_engine("gift_swap")
    states = list(replay_states(engine, 3, None, events))
    steps = {d.step for d in analysis.decisions}
    for step, event in enumerate(events):
        if event["by"] == CHANCE:
            assert step not in steps
        elif len({json.dumps(e) for e in engine.legal_events(states[step], event["by"])}) == 1:
            assert step not in steps  # a forced move is no decision
    for d in analysis.decisions:
        assert d.seat == events[d.step]["by"]
        assert d.chosen.event == events[d.step]
        assert d.chosen in d.moves
        assert d.best in d.moves
        assert d.best.win == max(m.win for m in d.moves)
        assert d.loss == pytest.approx(d.best.win - d.chosen.win)
        assert d.loss >= 0
        assert d.mark == mark_for(d.loss)
        assert (advice(d) is None) == (d.mark is None)
        assert 2 <= len(d.moves) <= SMALL.max_moves
        assert len({m.label for m in d.moves}) == len(d.moves)
        for m in d.moves:
            assert 0 <= m.win <= 1
            assert 1 <= m.place <= 3
            assert m.win_se > 0
            assert SMALL.screen <= m.playouts <= SMALL.playouts
            assert m.label == engine.label(m.event, d.seat, states[d.step])


def test_curve_is_a_share_of_one_win_per_step(swap_game) -> None:
    events, analysis = swap_game
    assert len(analysis.curve) == len(events) + 1
    for row in analysis.curve:
        assert len(row) == 3
        assert all(0 <= x <= 1 for x in row)
        assert sum(row) == pytest.approx(1)
    # After the last event the curve is the game's result.
    engine = get_engine("gift_swap")
    final = list(replay_states(engine, 3, None, events))[-1]
    winners = engine.result(final).winners
    assert analysis.curve[-1] == [1 / len(winners) if p in winners else 0 for p in range(3)]


def test_swings_are_the_curve_changes_by_kind(swap_game) -> None:
    events, analysis = swap_game
    assert len(analysis.swings) == len(events)
    for step, swing in enumerate(analysis.swings):
        assert swing["step"] == step
        by = events[step]["by"]
        assert swing["kind"] == ("chance" if by == CHANCE else "decision")
        assert swing["seat"] == (None if by == CHANCE else by)
        assert swing["delta"] == pytest.approx(
            [analysis.curve[step + 1][p] - analysis.curve[step][p] for p in range(3)]
        )
        assert sum(swing["delta"]) == pytest.approx(0, abs=1e-9)
    # Luck is the sum of chance swings; summed with the decisions' swings it is the
    # whole change from the first estimate to the result.
    for seat, player in enumerate(analysis.players):
        chance = sum(s["delta"][seat] for s in analysis.swings if s["kind"] == "chance")
        decided = sum(s["delta"][seat] for s in analysis.swings if s["kind"] == "decision")
        assert player["luck"] == pytest.approx(chance)
        assert chance + decided == pytest.approx(analysis.curve[-1][seat] - analysis.curve[0][seat])
    assert any(s["kind"] == "chance" for s in analysis.swings)


def test_player_figures(swap_game) -> None:
    _, analysis = swap_game
    for seat, player in enumerate(analysis.players):
        mine = [d for d in analysis.decisions if d.seat == seat]
        assert player["decisions"] == len(mine)
        assert player["decision_quality"] == pytest.approx(
            sum(d.loss for d in mine) / len(mine) if mine else 0
        )
        for mark in ("inaccuracy", "mistake", "blunder"):
            assert player["marks"][mark] == sum(1 for d in mine if d.mark == mark)


def test_same_seed_same_analysis_and_round_trip(swap_game) -> None:
    events, analysis = swap_game
    again = analyse("gift_swap", 3, None, events, SMALL)
    data, other = analysis.to_json(), again.to_json()
    data.pop("seconds"), other.pop("seconds")
    assert data == other
    stored = json.loads(json.dumps(analysis.to_json()))
    assert GameAnalysis.from_json(stored) == analysis
    assert analysis.version == ANALYSIS_VERSION
    assert analysis.settings == SMALL
    assert analysis.playouts > 0
    assert analysis.seconds > 0
    different = analyse(
        "gift_swap", 3, None, events, Settings(**{**SMALL.__dict__, "seed": SMALL.seed + 1})
    )
    assert [d.chosen.win for d in different.decisions] != [d.chosen.win for d in analysis.decisions]


def test_progress_counts_every_seat_event() -> None:
    events = game_log("gift_swap", 3, 1)
    calls: list[tuple[int, int]] = []
    analyse("gift_swap", 3, None, events, SMALL, progress=lambda d, t: calls.append((d, t)))
    total = sum(1 for e in events if e["by"] != CHANCE)
    assert calls == [(k, total) for k in range(1, total + 1)]


def test_every_engine_analyses_a_short_game() -> None:
    tiny = Settings(playouts=4, bots=("greedy",), max_moves=3, screen=2, curve_playouts=2)
    for engine in all_engines():
        n = engine.min_players
        events = game_log(engine.slug, n, 0)[:40]
        analysis = analyse(engine.slug, n, None, events, tiny)
        assert analysis.decisions, engine.slug
        assert len(analysis.curve) == len(events) + 1
        assert all(sum(row) == pytest.approx(1) for row in analysis.curve)


def test_secret_choices_are_simultaneous_decisions() -> None:
    """GiftTRAP's GIVE and GET tokens are laid by every seat at once, in secret: they are
    decisions, flagged simultaneous; the revealer's turning over is one seat's alone."""
    tiny = Settings(playouts=4, bots=("greedy",), max_moves=3, screen=2, curve_playouts=1)
    events = game_log("gift_trap", 4, 2)[:60]
    analysis = analyse("gift_trap", 4, None, events, tiny)
    kinds = {(events[d.step]["do"], d.simultaneous) for d in analysis.decisions}
    assert ("give", True) in kinds
    assert ("get", True) in kinds
    assert all(simultaneous for kind, simultaneous in kinds if kind in ("give", "get"))


def _secret_santa_twin(seed: int) -> tuple[list[dict], list[dict], int]:
    """Two Secret Santa logs that seat 0 cannot tell apart up to its decision at the
    returned step: the deck of the first deal has two cards of one colour swapped
    between seat 1's and seat 2's hands (the backs show the colour, not the card)."""
    engine = get_engine("secret_santa")
    events = game_log("secret_santa", 3, seed)
    dealt = engine.apply(engine.setup(3), events[0])
    deck = list(events[0]["deck"])
    colour = engine.card_catalog()
    ones, twos = dealt.hands[1], dealt.hands[2]
    a, b = next(
        (x, y) for x in ones for y in twos if colour[x].get("colour") == colour[y].get("colour")
    )
    i, j = deck.index(a), deck.index(b)
    deck[i], deck[j] = deck[j], deck[i]
    twin = [{**events[0], "deck": deck}, *events[1:]]
    # The last decision of seat 0 before the two logs part for it.
    last = None
    for step in range(1, len(events)):
        if events[step]["by"] != 0:
            continue
        try:
            mine = seat_history(engine, 3, None, events[:step], 0)
            theirs = seat_history(engine, 3, None, twin[:step], 0)
        except Exception:  # the twin log is no longer legal
            break
        if mine != theirs:
            break
        last = step
    assert last is not None
    return events, twin, last


def test_move_values_use_only_the_movers_history() -> None:
    engine = get_engine("secret_santa")
    events, twin, step = _secret_santa_twin(seed=4)
    real = list(replay_states(engine, 3, None, events[: step + 1]))
    other = list(replay_states(engine, 3, None, twin[: step + 1]))
    # The premise: the true hidden cards differ, seat 0's history does not.
    assert real[step].hands != other[step].hands
    assert seat_history(engine, 3, None, events[:step], 0) == seat_history(
        engine, 3, None, twin[:step], 0
    )
    first = analyse("secret_santa", 3, None, events[: step + 1], SMALL)
    second = analyse("secret_santa", 3, None, twin[: step + 1], SMALL)
    mine = [d.to_json() for d in first.decisions if d.seat == 0]
    theirs = [d.to_json() for d in second.decisions if d.seat == 0]
    assert mine
    assert mine == theirs
    assert any(d["step"] == step for d in mine)
    # The curve is from the true state: it sees the difference.
    assert first.curve != second.curve


def test_skill_share() -> None:
    def fake(quality: list[float], final: list[float]) -> GameAnalysis:
        n = len(quality)
        players = [
            {"decision_quality": q, "decisions": 3, "luck": 0.0, "marks": {}} for q in quality
        ]
        return GameAnalysis("gift_swap", n, SMALL, ANALYSIS_VERSION, [final], [], [], players, 0, 0)

    games = [
        fake([0.01, 0.05, 0.09], [1, 0, 0]),  # the better decider won
        fake([0.02, 0.01, 0.09], [1, 0, 0]),  # the better decider lost
        fake([0.01, 0.01, 0.2, 0.3], [0.5, 0.5, 0, 0]),  # two best deciders tied for first
    ]
    figure = skill_share(games)
    assert figure["games"] == 3
    assert figure["share"] == pytest.approx((1 + 0 + 0.5) / 3)
    assert figure["baseline"] == pytest.approx((1 / 3 + 1 / 3 + 1 / 4) / 3)
    assert figure["lift"] == pytest.approx(figure["share"] - figure["baseline"])
    assert figure["by_players"]["3"]["share"] == pytest.approx(0.5)
    assert figure["by_players"]["4"] == {"games": 1, "share": 0.5, "baseline": 0.25, "lift": 0.25}
    # Stored results are read as they are, without rebuilding the analyses.
    assert skill_share([g.to_json() for g in games]) == figure
    # A game where a seat made no decision says nothing of skill: left out.
    idle = fake([0.01, 0.05, 0.09], [1, 0, 0])
    idle.players[2]["decisions"] = 0
    assert skill_share([*games, idle]) == figure
    assert skill_share([])["games"] == 0


POSITIONS = json.loads((Path(__file__).parent / "data" / "analysis_positions.json").read_text())


def _ends_in_a_win(engine, state, seat: int, rng: random.Random) -> bool:
    """Whether the game ends with ``seat`` alone first, by the rules alone: nothing but
    chance events and forced moves (one legal move) may come before the end."""
    for _ in range(500):
        if engine.is_over(state):
            return engine.result(state).winners == [seat]
        movers = engine.to_move(state)
        if CHANCE in movers:
            state = engine.apply(state, engine.sample_chance(state, rng))
            continue
        legal = [engine.legal_events(state, m) for m in movers]
        if any(len(moves) != 1 for moves in legal):
            return False
        state = engine.apply(state, legal[0][0])
    return False


@pytest.mark.parametrize(
    "position", POSITIONS, ids=[f"{p['game']}-{len(p['events'])}" for p in POSITIONS]
)
def test_a_clearly_better_move_is_valued_best_and_the_worse_one_marked(position) -> None:
    """Positions from seeded games (bots of both kinds), pinned as logs, where by the
    rules one move wins at once in (nearly) every state the mover cannot tell from the
    real one, and the move the log makes does not: the analysis must say so."""
    game, n, events = position["game"], position["num_players"], position["events"]
    engine = get_engine(game)
    step = len(events) - 1
    chosen, better = events[step], position["better"]
    seat = chosen["by"]
    history = seat_history(engine, n, None, events[:step], seat)
    dealer = engine.determinizer(history)
    samples = [dealer.sample(random.Random(i)) for i in range(20)]
    rng = random.Random(0)
    wins = sum(_ends_in_a_win(engine, engine.apply(s, better), seat, rng) for s in samples)
    assert wins >= 17, position["why"]  # the premise, by the rules
    assert not all(_ends_in_a_win(engine, engine.apply(s, chosen), seat, rng) for s in samples)

    # Every legal move valued (no cap): the better move must be found, not given.
    settings = Settings(playouts=48, bots=("greedy",), max_moves=40, seed=1, screen=8)
    decision = analyse_decision(game, n, None, events, step, settings)
    assert decision is not None
    assert decision.chosen.event == chosen
    value = next(m for m in decision.moves if m.label == engine_label(engine, n, events, better))
    assert value.win == decision.best.win
    assert value.win - decision.chosen.win >= MISTAKE
    assert decision.mark in ("mistake", "blunder")
    better_words = advice(decision)
    assert better_words is not None
    assert better_words.startswith(f"Better: {decision.best.label.rstrip('.')}: ")
    assert better_words.endswith(
        f"{decision.best.win:.0%} to win against {decision.chosen.win:.0%}."
    )


def engine_label(engine, n: int, events: list[dict], event: dict) -> str:
    before = list(replay_states(engine, n, None, events[:-1]))[-1]
    return engine.label(event, event["by"], before)


def test_one_decision_alone_is_valued_as_in_the_whole_game(swap_game) -> None:
    events, analysis = swap_game
    for decision in analysis.decisions[:3] + analysis.decisions[-2:]:
        alone = analyse_decision("gift_swap", 3, None, events, decision.step, SMALL)
        assert alone == decision
    chance = next(k for k, e in enumerate(events) if e["by"] == CHANCE)
    assert analyse_decision("gift_swap", 3, None, events, chance, SMALL) is None


def test_the_bot_mix_is_the_playout_policy() -> None:
    """Playouts by a mix of bots value moves otherwise than greedy playouts alone."""
    events = game_log("gift_swap", 3, 2)
    greedy = Settings(playouts=8, bots=("greedy",), max_moves=4, screen=4, curve_playouts=2)
    mixed = Settings(**{**greedy.__dict__, "bots": ("greedy", "random")})
    one = analyse("gift_swap", 3, None, events, greedy)
    two = analyse("gift_swap", 3, None, events, mixed)
    assert [d.step for d in one.decisions] == [d.step for d in two.decisions]
    assert [m.win for d in one.decisions for m in d.moves] != [
        m.win for d in two.decisions for m in d.moves
    ]
