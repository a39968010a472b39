"""Serializers every app's API shares: the one error shape (for the schema), whole numbers."""

from __future__ import annotations

import re
from typing import Any

from rest_framework import serializers

from core.inputs import INT32_MAX

_WHOLE = re.compile(r"-?[0-9]+")


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    detail = serializers.DictField()


class WholeNumberField(serializers.IntegerField):
    """DRF's ``IntegerField``, ASCII digits only and at most a 32-bit column by default.

    DRF reads a string with ``int()``, which takes ``"٣"`` as 3 (and the
    ``isdigit()`` checks it replaces let ``"²"`` through to a 500); a value past the
    column it is stored in failed at the insert on PostgreSQL. See ``core.inputs``.
    """

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_value", INT32_MAX)
        kwargs.setdefault("min_value", -INT32_MAX - 1)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, str) and not _WHOLE.fullmatch(data.strip()):
            self.fail("invalid")
        return super().to_internal_value(data)
