"""Every template's comments stay comments: Django's ``{# #}`` ends on its own line.

A ``{#`` whose ``#}`` comes on a later line is not a comment at all: the replay page
once showed its own note to every visitor. Longer notes take ``{% comment %}``.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_no_template_comment_runs_over_a_line():
    open_lines = []
    for template in sorted(ROOT.glob("*/templates/**/*.html")):
        for number, line in enumerate(template.read_text().splitlines(), start=1):
            if "{#" in line and "#}" not in line.split("{#", 1)[1]:
                open_lines.append(f"{template.relative_to(ROOT)}:{number}")
    assert open_lines == []
