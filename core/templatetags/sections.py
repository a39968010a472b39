"""``{% sections "slot" key=value %}`` and ``{% section_stylesheets "slot" %}``: core.sections."""

from __future__ import annotations

from typing import Any

from django import template
from django.templatetags.static import static
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from core.sections import slot_render, slot_stylesheets

register = template.Library()


@register.simple_tag
def sections(slot: str, **values: Any) -> SafeString:
    """Render every section registered for ``slot`` with the page's values."""
    return slot_render(slot, **values)


@register.simple_tag
def section_stylesheets(*slots: str) -> SafeString:
    """The ``<link>`` tags the sections of ``slots`` need, for the page's ``head``."""
    return format_html_join(
        "\n",
        '<link rel="stylesheet" href="{}">',
        ((static(path),) for path in slot_stylesheets(*slots)),
    )
