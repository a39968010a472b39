"""Rules engines for the five gift games: pure Python, no Django, no I/O.

Use :func:`games.registry.get_engine` to look an engine up by slug, and
:mod:`games.play` to replay a log or let bots play a game.

The engines' hot modules may also be compiled by mypyc (``bin/compile_engines.py``,
run by ``bin/setup``): the same files, built into extension modules beside them, which
Python then imports instead. The ``.py`` files stay the one source of the rules. This
package's import makes sure a build is used only when it was made from the sources on
disk (see :func:`_use_source_when_stale`), and ``GIFTBOX_COMPILE=0`` in the
environment imports the pure-Python modules even where a build is present.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: Set by :func:`_use_source_when_stale`: "compiled", "pure" (no build, or opted out)
#: or "stale" (a build from other sources, not used).
ENGINE_BUILD = "pure"


def sources_hash(root: Path, paths: Sequence[str]) -> str:
    """The hash a build bakes in: every compiled source's path and bytes, in order.

    ``bin/compile_engines.py`` computes it the same way when it builds.
    """
    digest = hashlib.sha256()
    for name in paths:
        digest.update(name.encode() + b"\0" + (root / name).read_bytes() + b"\0")
    return digest.hexdigest()


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Finds the ``.py`` file of each listed module, passing over an extension beside it."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        return None if file is None else importlib.util.spec_from_file_location(fullname, file)


def _use_source_when_stale() -> str:
    """Import the pure-Python modules when a build is stale or opted out of.

    Python prefers an extension module to the ``.py`` beside it, so a build left from
    older sources would otherwise run rules that are no longer the source's. The build
    carries the hash of the sources it was made from (``games._native``); when it does
    not match the files on disk (or the build cannot load), a finder placed first on
    ``sys.meta_path`` serves the ``.py`` files instead, with a warning to run
    ``bin/setup``. Costs one hash of the compiled sources (about 0.4 MB) per process.
    """
    root = Path(__file__).resolve().parent.parent
    # Every extension module with a .py beside it, whatever build left it.
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    here = root / "games"
    files = {
        ".".join(("games", *built.relative_to(here).parts))[: -len(suffix)]: source
        for built in here.rglob(f"*{suffix}")
        if (source := built.with_name(built.name[: -len(suffix)] + ".py")).is_file()
    }
    if not files:
        return "pure"  # no build: the .py files
    opted_out = os.environ.get("GIFTBOX_COMPILE", "1") == "0"
    if not opted_out:
        try:
            native = importlib.import_module("games._native")  # only ever an extension
        except ImportError:
            native = None  # a build that cannot load here (another Python, a partial one)
        paths: Sequence[str] | None = getattr(native, "MODULES", None)
        if paths is not None and sources_hash(root, paths) == getattr(native, "SOURCE_HASH", ""):
            return "compiled"
        warnings.warn(
            "games: the compiled engines were not built from these sources; "
            "using the pure-Python modules (run bin/setup to rebuild them).",
            RuntimeWarning,
            stacklevel=2,
        )
    sys.meta_path.insert(0, _SourceFirst(files))
    return "pure" if opted_out else "stale"


ENGINE_BUILD = _use_source_when_stale()
