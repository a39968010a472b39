"""Fast test corpora for the benchmarks: a few simulated games, many records.

Simulating a game costs about 30 ms (bots choose every event), so 10,000 or
100,000 records cannot be simulated in a benchmark run. Instead ``base_games``
simulates a few per game (cached on disk under ``bench/.cache``, keyed by the
seed) and ``records_corpus`` reuses each log with different player names:
the events stay legal (names play no part in the rules) and the digests differ,
so every line is a distinct game that the import must validate in full.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

CACHE = Path(__file__).resolve().parent / ".cache"
GAMES = ("gift_swap", "secret_santa", "gift_economy", "gift_gift_gone", "gift_trap")
NAME_POOL = tuple(f"player{i:03d}" for i in range(400))


def base_games(per_game: int = 20, *, seed: int = 12) -> list[dict[str, Any]]:
    """``per_game`` simulated documents of each game, simulated once and cached."""
    CACHE.mkdir(exist_ok=True)
    path = CACHE / f"base-{per_game}-{seed}.ndjson"
    if path.exists():
        return [orjson.loads(line) for line in path.read_bytes().splitlines() if line]
    from games.registry import get_engine
    from replays.simulation import simulated_document

    rng = random.Random(seed)
    documents = []
    for game in GAMES:
        engine = get_engine(game)
        for _ in range(per_game):
            players = rng.randint(engine.min_players, min(engine.max_players, 5))
            documents.append(simulated_document(game, num_players=players, rng=rng))
    path.write_bytes(b"".join(orjson.dumps(d) + b"\n" for d in documents))
    return documents


def records_corpus(count: int, *, per_game: int = 20, seed: int = 12) -> Iterator[dict]:
    """``count`` distinct valid documents: base games with fresh player names."""
    bases = base_games(per_game, seed=seed)
    rng = random.Random(seed)
    seen: set[tuple[int, tuple[str, ...]]] = set()
    made = 0
    for index in itertools.cycle(range(len(bases))):
        if made >= count:
            return
        base = bases[index]
        names = tuple(rng.sample(NAME_POOL, len(base["players"])))
        if (index, names) in seen:
            continue
        seen.add((index, names))
        made += 1
        yield {**base, "players": list(names), "meta": {"source": "bench"}}


def ndjson_write(path: Path, documents: Iterator[dict]) -> int:
    """Write documents as NDJSON; returns the number of bytes written."""
    size = 0
    with path.open("wb") as out:
        for document in documents:
            line = orjson.dumps(document) + b"\n"
            out.write(line)
            size += len(line)
    return size
