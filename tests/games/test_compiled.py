"""The compiled engines (bin/compile_engines.py): loaded when built, never when stale.

``bin/setup`` compiles the engines' hot modules with mypyc unless ``GIFTBOX_COMPILE=0``,
so CI (``bin/test`` runs ``bin/setup``) tests the compiled modules that ship. These
tests check that they are the ones imported, that the hash guarding against a stale
build agrees with the recipe, that a build older than its sources is passed over, and
that states still pickle (replay snapshots are pickled into the cache).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import pickle
import random
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import games
from games.play import BOTS, replay_states, self_play
from games.registry import all_engines

ROOT = Path(__file__).resolve().parents[2]
EXT = sysconfig.get_config_var("EXT_SUFFIX")
PURE = os.environ.get("GIFTBOX_COMPILE", "1") == "0"


def recipe():
    path = ROOT / "bin" / "compile_engines.py"
    spec = importlib.util.spec_from_file_location("compile_engines", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_compiled_modules_are_loaded_when_built():
    """What ships is tested: with a build present, every compiled module comes from it."""
    if PURE:
        pytest.skip("GIFTBOX_COMPILE=0: the engines run as pure Python")
    assert games.ENGINE_BUILD == "compiled", "no fresh build: run bin/setup"
    for path in recipe().COMPILED:
        name = path.removesuffix(".py").replace("/", ".")
        module = importlib.import_module(name)
        assert str(module.__file__).endswith(EXT), name


def test_the_recipe_and_the_package_hash_alike():
    assert recipe().source_hash(ROOT) == games.sources_hash(ROOT, recipe().COMPILED)


def test_opting_out_at_run_time_imports_the_sources():
    code = "import games, games.secret_santa.rules as m; print(games.ENGINE_BUILD, m.__file__)"
    env = {**os.environ, "GIFTBOX_COMPILE": "0"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out[0] == "pure"
    assert out[1].endswith("secret_santa/rules.py")


def test_a_stale_build_is_not_imported(tmp_path):
    """A build beside changed sources: the package imports the .py files and says so."""
    if games.ENGINE_BUILD != "compiled":
        pytest.skip("no build to make stale")
    shutil.copytree(
        ROOT / "games", tmp_path / "games", ignore=shutil.ignore_patterns("__pycache__")
    )
    changed = tmp_path / "games" / "secret_santa" / "rules.py"
    changed.write_text(changed.read_text() + "\n# changed after the build\n")
    code = (
        "import warnings; warnings.simplefilter('always')\n"
        "import games, games.secret_santa.rules as s, games.gift_swap.rules as g\n"
        "print(games.ENGINE_BUILD, s.__file__, g.__file__)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "GIFTBOX_COMPILE"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    build, santa, swap = done.stdout.split()
    assert build == "stale"
    assert santa == str(changed)
    assert swap.endswith("gift_swap/rules.py")  # every compiled module, not only the changed one
    assert "run bin/setup" in done.stderr


@pytest.mark.parametrize("engine", all_engines(), ids=lambda e: e.slug)
def test_states_pickle_and_copy(engine):
    """Snapshots pickle states (replays.state_cache): every state of a game round-trips."""
    rng = random.Random(7)
    n = engine.min_players
    bots = [BOTS["greedy"]] * n
    options = {"max_rounds": 3} if engine.slug == "gift_trap" else None
    events, _ = self_play(engine, n, options=options, rng=rng, bots=bots)
    events = json.loads(json.dumps(events))
    for step, state in enumerate(replay_states(engine, n, options, events)):
        again = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
        assert type(again) is type(state)
        assert engine.view(again, None) == engine.view(state, None), step
        if step < len(events):
            after = engine.apply(again, events[step])
            assert engine.view(after, None) == engine.view(engine.apply(state, events[step]), None)
