"""Compile the rules engines with mypyc, in place: the speed-up checked replay needs.

    .venv/bin/python bin/compile_engines.py               # build now
    .venv/bin/python bin/compile_engines.py --if-changed  # what bin/setup runs
    .venv/bin/python bin/compile_engines.py --clean       # remove every built file

The pure-Python files in ``games/`` stay the one source of the rules: this compiles
those same files (``COMPILED`` below) into extension modules placed beside them
(``games/secret_santa/rules.cpython-311-x86_64-linux-gnu.so`` next to ``rules.py``,
their shared code in ``games/_compiled__mypyc.*.so``), which Python imports
in preference to the ``.py``. Nothing is generated that a person edits.
``GIFTBOX_COMPILE=0`` in the environment builds nothing and removes an earlier build
(and, at run time, makes ``games`` import the ``.py`` files even beside a build).

Why these modules: a class compiled by mypyc cannot be subclassed by an interpreted
one, so ``games/base.py`` and every engine built on it are compiled together: in every
game package (one shape, docs/architecture.md) the ``cards``, ``options``, ``state``,
``rules`` and ``views`` modules, which replay and the replay pages use on every event
and step, and the greedy bots (``bot.py``), the playout policy of the analysis
(``games/analysis.py``), which plays millions of their moves per game (docs/performance.md,
"Analysis"; tests/games/test_bots.py checks the compiled bots play the pure ones' games). The
sentences (``words.py``) are not on those paths and stay interpreted, as do
``play.py``, ``registry.py``, the ``determinize.py`` modules and the packages'
``__init__.py``.

A stale build is never imported: the build bakes the hash of the compiled sources
into one more extension module, ``games._native``, and ``games/__init__.py`` compares
it with the files on disk when the package is first imported; if they differ it
imports the ``.py`` files instead, with a warning. ``--if-changed`` rebuilds when the
sources, this recipe, the Python version or ``GIFTBOX_COMPILE`` changed since the
last build (a stamp in ``.venv``), or when the build is missing.

Needs mypy (the ``test`` extra, whose mypyc ships with it) and a C compiler: about a
minute on 2 cores.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import os
import sys
import sysconfig
import tempfile
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The modules compiled, as paths from the repository root (see the module docstring).
COMPILED: tuple[str, ...] = (
    "games/base.py",
    *(
        f"games/{game}/{module}.py"
        for game in ("secret_santa", "gift_economy", "gift_gift_gone", "gift_swap", "gift_trap")
        for module in ("cards", "options", "state", "rules", "views", "bot")
    ),
)
#: The module holding the hash of the sources a build was made from (only ever compiled).
HASH_MODULE = "games/_native.py"
#: The shared library mypyc puts the compiled code of every module in: inside the
#: package (``games/_compiled__mypyc.*.so``), so it is found wherever ``games`` is.
GROUP = "games._compiled"
#: The last build's ``stamp()`` (in the virtualenv, like bin/setup's own stamp).
STAMP = ROOT / ".venv" / ".giftbox-engines"


def source_hash(root: Path = ROOT) -> str:
    """The hash baked into a build: ``games.sources_hash`` over ``COMPILED``."""
    sys.path.insert(0, str(root))
    with warnings.catch_warnings():  # a stale build is expected here: it is being replaced
        warnings.simplefilter("ignore", RuntimeWarning)
        from games import sources_hash

    return sources_hash(root, COMPILED)


def stamp(root: Path = ROOT) -> str:
    """What a build depends on: the sources, this recipe, Python, ``GIFTBOX_COMPILE``."""
    recipe = hashlib.sha256((root / "bin" / "compile_engines.py").read_bytes()).hexdigest()
    mode = "pure" if os.environ.get("GIFTBOX_COMPILE", "1") == "0" else "compiled"
    return f"{mode} {source_hash(root)} {recipe} {sys.version.split()[0]}"


def built_files(root: Path = ROOT) -> list[Path]:
    """Every file a build leaves in the tree (for ``--clean`` and before a new build)."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return list((root / "games").rglob(f"*{suffix}"))


def clean(root: Path = ROOT) -> None:
    for path in built_files(root):
        path.unlink()
    (root / HASH_MODULE).unlink(missing_ok=True)


def build(root: Path = ROOT) -> None:
    """Compile ``COMPILED`` (and the hash module) in place; a few minutes on 2 cores."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    clean(root)
    hash_module = root / HASH_MODULE
    hash_module.write_text(
        '"""Written by bin/compile_engines.py and compiled; never kept as a .py file."""\n\n'
        f"MODULES = {COMPILED!r}\n"
        f'SOURCE_HASH = "{source_hash(root)}"\n'
    )
    previous = Path.cwd()
    try:
        os.chdir(root)
        with tempfile.TemporaryDirectory(prefix="giftbox-mypyc-") as work:
            # mypyc prints a warning per generator it builds as a list: shown on failure only.
            said = io.StringIO()
            try:
                with contextlib.redirect_stdout(said):
                    modules = mypycify(
                        [*COMPILED, HASH_MODULE],
                        opt_level="3",
                        debug_level="0",
                        group_name=GROUP,
                        target_dir=str(Path(work) / "c"),
                    )
            except BaseException:
                print(said.getvalue(), end="")
                raise
            dist = Distribution({"name": "giftbox-games", "ext_modules": modules})
            command = dist.get_command_obj("build_ext")
            command.inplace = True
            command.build_temp = str(Path(work) / "temp")
            command.parallel = os.cpu_count() or 1
            dist.run_command("build_ext")
    finally:
        os.chdir(previous)
        hash_module.unlink(missing_ok=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the built files")
    parser.add_argument(
        "--if-changed", action="store_true", help="build only if the stamp differs (bin/setup)"
    )
    args = parser.parse_args()
    if args.clean:
        clean()
        STAMP.unlink(missing_ok=True)
        return
    pure = os.environ.get("GIFTBOX_COMPILE", "1") == "0"
    want = stamp()
    present = any((ROOT / "games").glob("_native.*"))
    if args.if_changed and STAMP.is_file() and STAMP.read_text() == want and present != pure:
        return
    if pure:
        print("giftbox: GIFTBOX_COMPILE=0, the engines stay pure Python")
        clean()
    else:
        print("giftbox: compiling the engines with mypyc (bin/compile_engines.py)")
        build()
    if STAMP.parent.is_dir():
        STAMP.write_text(want)


if __name__ == "__main__":
    main()
