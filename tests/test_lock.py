"""The lock files pin every dependency pyproject.toml names (bin/lock writes them)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def name_of(requirement: str) -> str:
    return re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def pins(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            found[name.lower().replace("_", "-")] = version
    return found


def test_every_dependency_is_pinned_and_both_locks_agree():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    run = pins(ROOT / "requirements.lock")
    test = pins(ROOT / "requirements-test.lock")
    for requirement in project["dependencies"]:
        assert name_of(requirement) in run, f"{requirement} is not in requirements.lock: bin/lock"
    for extra in ("test", "bench"):
        for requirement in project["optional-dependencies"][extra]:
            assert name_of(requirement) in test, f"{requirement}: run bin/lock"
    assert {name: version for name, version in test.items() if name in run} == run
