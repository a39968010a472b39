"""The Dockerfile builds an image that can start: every app the settings install is in it."""

from __future__ import annotations

import re
from pathlib import Path

from config import settings

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def project_packages() -> set[str]:
    """The top-level packages of this project that the settings load (apps, config)."""
    tops = {name.split(".")[0] for name in settings.INSTALLED_APPS}
    tops.add(settings.ROOT_URLCONF.split(".")[0])
    return {top for top in tops if (ROOT / top / "__init__.py").is_file()}


def test_every_project_app_is_copied_into_the_image():
    copied = set(re.findall(r"^COPY (?:--from=\S+ )?(?:/app/)?(\w+) \./\1\s*$", DOCKERFILE, re.M))
    assert "events" in project_packages()
    assert project_packages() - copied == set()


def test_every_copied_package_is_compiled_to_bytecode_in_the_image():
    """``PYTHONDONTWRITEBYTECODE`` stops a container writing bytecode: it is made at build."""
    compiled = re.search(r"^RUN python -m compileall -q (.+)$", DOCKERFILE, re.M)
    assert compiled is not None
    assert project_packages() <= set(compiled.group(1).split())
