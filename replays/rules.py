"""The rules of each game as pages: how to play, for players; the notes, for the curious.

A game's page (``/rules/<slug>/``) is written for the people at the table: setup, a turn,
how it ends, scoring (``replays/rulebooks/<slug>.md``, from the rulebook), then every
house rule the engine declares, explained in ``replays.house_rules``. The maintainers'
document (``docs/rules/<slug>.md``: the engine's vocabulary and every numbered
interpretation with its reason) stays the one source for them, and is shown as it is at
``/rules/<slug>/notes/`` for anyone curious how the service reads the rulebook.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import markdown
from django.conf import settings
from django.utils.safestring import SafeString, mark_safe

NOTES_DIR = Path(settings.BASE_DIR) / "docs" / "rules"
RULEBOOKS_DIR = Path(__file__).resolve().parent / "rulebooks"
_EXTENSIONS = ["tables", "fenced_code", "toc", "sane_lists"]


def _render(path: Path, slug: str, missing: str) -> SafeString:
    if not re.fullmatch(r"[a-z_]+", slug) or not path.is_file():
        return mark_safe(f"<p>{missing}</p>")
    html = markdown.markdown(path.read_text(encoding="utf-8"), extensions=_EXTENSIONS)
    # Wide tables scroll inside their own box on a phone instead of the whole page.
    html = html.replace("<table>", '<div class="scroll-x"><table>').replace(
        "</table>", "</table></div>"
    )
    return mark_safe(html)  # our own files, never user input


@cache
def how_to_play_html(slug: str) -> SafeString:
    """How to play the game, in a player's words (our own file: safe to mark safe)."""
    return _render(RULEBOOKS_DIR / f"{slug}.md", slug, "No rules written for this game yet.")


@cache
def rules_notes_html(slug: str) -> SafeString:
    """The maintainers' rules document as HTML: the engine's reading of the rulebook."""
    return _render(NOTES_DIR / f"{slug}.md", slug, "No notes for this game yet.")
