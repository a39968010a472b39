"""The rules of each game as pages: rendered from ``docs/rules/<slug>.md``.

The docs are the one source: what the engine implements, with every numbered
interpretation. Rendering them (rather than copying them into templates) keeps
the site and the repository saying the same thing.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import markdown
from django.conf import settings
from django.utils.safestring import SafeString, mark_safe

RULES_DIR = Path(settings.BASE_DIR) / "docs" / "rules"


@cache
def rules_html(slug: str) -> SafeString:
    """The game's rules document as HTML (our own files only: safe to mark safe)."""
    path = RULES_DIR / f"{slug}.md"
    if not re.fullmatch(r"[a-z_]+", slug) or not path.is_file():
        return mark_safe("<p>No rules document for this game yet.</p>")
    text = path.read_text(encoding="utf-8")
    html = markdown.markdown(text, extensions=["tables", "fenced_code", "toc", "sane_lists"])
    # Wide tables scroll inside their own box on a phone instead of the whole page.
    html = html.replace("<table>", '<div class="scroll-x"><table>').replace(
        "</table>", "</table></div>"
    )
    return mark_safe(html)  # our own docs, never user input
