"""Page sections: a lower app's page shows what a higher app computes, without importing it.

A club's player page and league page (``clubs``) show ratings, which ``analytics``
computes; ``clubs`` sits below ``analytics`` and must not import it. So the page names a
*slot* (``"player"``, ``"season"``) and renders whatever sections are registered there
(``{% load sections %}{% sections "player" player=player %}``), and analytics registers
its sections when it starts (``AnalyticsConfig.ready``). An app that is not installed
simply registers nothing: the page still renders. This is Django's own template-tag
idea turned the right way up: the dependency points from analytics down to ``core``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe


@dataclass(frozen=True)
class Section:
    """One registered section: a template, the function giving its context, its assets."""

    name: str
    template: str
    context: Callable[..., Mapping[str, Any] | None]  # None: nothing to show on this page
    stylesheets: tuple[str, ...] = ()  # static paths the section's markup needs


_SLOTS: dict[str, dict[str, Section]] = {}


def section_register(slot: str, section: Section) -> None:
    """Show ``section`` wherever a page renders ``slot``; registering a name again replaces it."""
    _SLOTS.setdefault(slot, {})[section.name] = section


def slot_sections(slot: str) -> list[Section]:
    """The sections registered for ``slot``, in registration order."""
    return list(_SLOTS.get(slot, {}).values())


def slot_render(slot: str, **values: Any) -> SafeString:
    """Every section of ``slot`` rendered with the page's ``values``, one after another."""
    parts = []
    for section in slot_sections(slot):
        context = section.context(**values)
        if context is not None:
            parts.append(render_to_string(section.template, dict(context)))
    return mark_safe("".join(parts))  # templates escape their own values


def slot_stylesheets(*slots: str) -> list[str]:
    """The stylesheets the sections of ``slots`` need, each once, in order.

    Charts in a section are drawn by ``core/charts.js`` with plotly.js, which the page
    loads itself (it knows whether it draws a chart of its own too).
    """
    styles: dict[str, None] = {}
    for slot in slots:
        for section in slot_sections(slot):
            styles.update(dict.fromkeys(section.stylesheets))
    return list(styles)
