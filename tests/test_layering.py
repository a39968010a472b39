"""The floors of docs/architecture.md hold: in the code, in the templates, and in static files.

``bin/test`` runs ``lint-imports`` (the contracts in pyproject.toml) on the code; these
tests run it too, show that one wrong import breaks it (a contract that cannot fail
keeps nothing), and check what import-linter cannot see: a template that extends,
includes or loads tags from a higher floor, or a page that loads a higher floor's
static file.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.template import TemplateDoesNotExist
from django.template.loader import get_template

ROOT = Path(__file__).resolve().parent.parent
LINT = Path(sys.executable).with_name("lint-imports")

#: Floor of each package, lowest first; accounts and clubs share a floor and must not
#: reach each other.
FLOORS = {
    "games": 0,
    "core": 1,
    "replays": 2,
    "accounts": 3,
    "clubs": 3,
    "analytics": 4,
    "events": 5,
}
APPS = ("core", "replays", "accounts", "clubs", "analytics", "events")

TEMPLATE_REFERENCE = re.compile(r"""{%\s*(?:extends|include)\s+["']([^"']+)["']""")
STATIC_REFERENCE = re.compile(r"""{%\s*static\s+["']([^"']+)["']""")
LOAD = re.compile(r"{%\s*load\s+([^%]+?)\s*%}")


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT), "--config", str(root / "pyproject.toml"), "--no-cache"],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_import_contracts_hold():
    run = _lint(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("core/cache.py", "import replays.models", "Floors"),
        ("replays/outbox.py", "from analytics import tasks", "Floors"),
        ("clubs/selectors.py", "import accounts.models", "Floors"),
        ("analytics/services.py", "from config import settings", "Floors"),
        ("games/play.py", "import django", "rules engines are pure Python"),
        ("analytics/selectors.py", "import events.seating", "Floors"),
        ("events/seating.py", "import django", "events seating is pure Python"),
    ],
)
def test_one_wrong_import_breaks_a_contract(tmp_path, module, line, contract):
    """A copy of the code with one import that climbs a floor: lint-imports refuses it."""
    for package in (*FLOORS, "config"):
        shutil.copytree(
            ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("*.so", "*.c")
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / module
    target.write_text(target.read_text() + f"\n{line}  # the wrong import\n")
    run = _lint(tmp_path)
    assert run.returncode != 0, run.stdout
    broken = [text for text in run.stdout.splitlines() if text.endswith("BROKEN")]
    assert any(contract in text for text in broken), run.stdout


def _owner(root: Path, kind: str, name: str) -> str | None:
    """The app whose ``templates/`` or ``static/`` folder holds ``name`` (None: a library's)."""
    for app in APPS:
        if (root / app / kind / name).is_file():
            return app
    return None


def _library_template(name: str) -> bool:
    """A template of an installed library (drf-spectacular's Swagger page): no floor's."""
    try:
        origin = get_template(name).origin.name
    except TemplateDoesNotExist:
        return False
    return not any(Path(origin).is_relative_to(ROOT / app) for app in APPS)


def _wrong_references(app: str, root: Path = ROOT) -> list[str]:
    """Every template of ``app`` that extends, includes, loads or links a higher floor's."""
    libraries = {
        path.stem: owner
        for owner in APPS
        for path in (root / owner / "templatetags").glob("*.py")
        if path.stem != "__init__"
    }
    found: list[tuple[Path, str, str]] = []
    for template in sorted((root / app / "templates").rglob("*.html")):
        text = template.read_text()
        for name in TEMPLATE_REFERENCE.findall(text):
            owner = _owner(root, "templates", name)
            if owner is None and not _library_template(name):
                owner = "?"  # a template nobody has: a typo, or an app's that is gone
            if owner is not None:
                found.append((template, name, owner))
        for name in STATIC_REFERENCE.findall(text):
            if (owner := _owner(root, "static", name)) is not None:
                found.append((template, name, owner))
        for group in LOAD.findall(text):
            found.extend(
                (template, f"{{% load {library} %}}", libraries[library])
                for library in group.split()
                if library in libraries
            )
    return [
        f"{template.relative_to(root)} names {name} of {owner}"
        for template, name, owner in found
        if owner == "?" or (owner != app and FLOORS[owner] >= FLOORS[app])
    ]


@pytest.mark.parametrize("app", APPS)
def test_templates_reach_only_their_own_floor_and_below(app):
    wrong = _wrong_references(app)
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    ("line", "name", "owner"),
    [
        ('{% include "analytics/_records.html" %}', "analytics/_records.html", "analytics"),
        (
            "<link href=\"{% static 'analytics/ratings.css' %}\">",
            "analytics/ratings.css",
            "analytics",
        ),
        ('{% extends "accounts/login.html" %}', "accounts/login.html", "accounts"),
        ('{% include "nowhere/missing.html" %}', "nowhere/missing.html", "?"),
    ],
)
def test_the_template_check_refuses_a_reference_upwards(tmp_path, line, name, owner):
    for app in APPS:
        for kind in ("templates", "static", "templatetags"):
            if (ROOT / app / kind).is_dir():
                shutil.copytree(ROOT / app / kind, tmp_path / app / kind)
    assert _wrong_references("clubs", tmp_path) == []
    page = tmp_path / "clubs" / "templates" / "clubs" / "wrong.html"
    page.write_text(line)
    assert _wrong_references("clubs", tmp_path) == [
        f"clubs/templates/clubs/wrong.html names {name} of {owner}"
    ]
