"""Old engines against new ones: the same states, and the same refusal of every near miss.

    .venv/bin/python bench/compare_engines.py [--ref main] [--games 40] [--game gift_trap]

Speeding an engine up must not change a single rules decision. This takes ``games/`` as
it is at a git ref (``main`` by default), imports it beside the working tree's under the
name ``games_old``, and plays bot games (random and greedy seats, boolean options flipped
at random, GiftTRAP capped at 8 rounds) through both. At every step it compares the full
view, ``to_move`` and ``is_over``; at about one step in seven every seat's view and legal
events; and at about one step in twelve it sends both engines the conformance suite's
``mutations`` of the event, events from other steps of the game and malformed envelopes,
and compares the outcome: the same reason code, message and detail when refused, the same
state when accepted. Prints one line per game and exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import random
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.base import IllegalEvent  # noqa: E402
from games.play import BOTS, self_play  # noqa: E402
from games.registry import engine_slugs, get_engine  # noqa: E402
from tests.games.conformance import mutations  # noqa: E402

CAPS: dict[str, dict[str, Any]] = {"gift_trap": {"max_rounds": 8}}


def import_old(ref: str, into: Path) -> Any:
    """``games/`` at ``ref`` as the package ``games_old``; returns its registry module."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", ref, "games"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    (into / "games").rename(into / "games_old")
    for path in (into / "games_old").rglob("*.py"):
        text = path.read_text()
        text = re.sub(r"\b(from|import) games\.", r"\1 games_old.", text)
        path.write_text(text.replace('"games.', '"games_old.'))
    sys.path.insert(0, str(into))
    import games_old.base
    import games_old.registry

    return games_old.registry, games_old.base.IllegalEvent


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def outcome(engine: Any, state: Any, event: Any, refused: Any) -> tuple[Any, ...]:
    try:
        after = engine.apply(state, event)
    except refused as exc:
        return ("refused", exc.code, exc.message, canonical(exc.detail))
    except Exception as exc:  # both must fail alike
        return ("error", type(exc).__name__, str(exc))
    return ("ok", canonical(engine.view(after, None)), canonical(engine.to_move(after)))


def compare(slug: str, old_registry: Any, old_refusal: Any, games: int) -> int:
    old, new = old_registry.get_engine(slug), get_engine(slug)
    differences = steps = probes = 0
    for seed in range(games):
        rng = random.Random(seed)
        n = rng.randint(new.min_players, new.max_players)
        options = dict(CAPS.get(slug, {}))
        for option in new.options:
            if option.kind == "bool" and rng.random() < 0.4:
                options[option.name] = not option.default
        bots = [BOTS[rng.choice(("random", "greedy"))] for _ in range(n)]
        events, _ = self_play(new, n, options=options, rng=random.Random(seed), bots=bots)
        events = json.loads(json.dumps(events))
        a, b = old.setup(n, options), new.setup(n, options)
        for step, event in enumerate(events):
            steps += 1
            if (
                canonical(old.view(a, None)) != canonical(new.view(b, None))
                or old.to_move(a) != new.to_move(b)
                or old.is_over(a) != new.is_over(b)
            ):
                print(f"{slug} game {seed} step {step}: the states differ")
                differences += 1
                break
            if rng.random() < 0.15:
                for seat in range(n):
                    if old.legal_events(a, seat) != new.legal_events(b, seat) or canonical(
                        old.view(a, seat)
                    ) != canonical(new.view(b, seat)):
                        print(f"{slug} game {seed} step {step}: seat {seat} differs")
                        differences += 1
            if rng.random() < 0.08:
                candidates: list[Any] = list(mutations(event, n))
                for other in rng.sample(events, min(8, len(events))):
                    candidates.append(copy.deepcopy(other))
                    candidates.extend(list(mutations(other, n))[:8])
                candidates += [{}, [], "x", {"do": event["do"]}, {"by": event["by"]}]
                candidates += [{**event, "by": True}, {**event, "by": 1.0}]
                for candidate in candidates:
                    probes += 1
                    was = outcome(old, a, candidate, old_refusal)
                    now = outcome(new, b, candidate, IllegalEvent)
                    if was != now:
                        print(f"{slug} game {seed} step {step}: {candidate} {was[:3]} {now[:3]}")
                        differences += 1
            a, b = old.apply(a, event), new.apply(b, event)
        if canonical(old.result(a).to_json()) != canonical(new.result(b).to_json()):
            print(f"{slug} game {seed}: the results differ")
            differences += 1
        for candidate in events[:3]:  # the game is over: refused alike
            probes += 1
            if outcome(old, a, candidate, old_refusal) != outcome(new, b, candidate, IllegalEvent):
                print(f"{slug} game {seed}: an event after the end is answered differently")
                differences += 1
    print(f"{slug}: {games} games, {steps} steps, {probes} near misses, {differences} differences")
    return differences


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="main", help="git ref of the old engines")
    parser.add_argument("--games", type=int, default=40, help="games per engine")
    parser.add_argument("--game", action="append", help="only this engine slug (repeatable)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old_registry, old_refusal = import_old(args.ref, Path(tmp))
        total = sum(
            compare(slug, old_registry, old_refusal, args.games)
            for slug in (args.game or engine_slugs())
        )
    sys.exit(1 if total else 0)


if __name__ == "__main__":
    main()
