"""Form fields every app's pages share."""

from __future__ import annotations

import re
from typing import Any

from django import forms

from core.inputs import INT32_MAX

_WHOLE = re.compile(r"-?[0-9]+")


class WholeNumberField(forms.IntegerField):
    """Django's ``IntegerField``, ASCII digits only and at most a 32-bit column by default.

    Django reads the text with ``int()``, which takes ``"٣"`` (Arabic-Indic three) as a
    number; a value past the column it is stored in failed at the insert on
    PostgreSQL (a 500). See ``core.inputs``.
    """

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_value", INT32_MAX)
        kwargs.setdefault("min_value", -INT32_MAX - 1)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> int | None:
        if isinstance(value, str) and value.strip() and not _WHOLE.fullmatch(value.strip()):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)
