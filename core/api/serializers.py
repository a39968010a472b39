"""Serializers every app's API shares: the one error shape (for the schema), whole
numbers, and text fields that take only text."""

from __future__ import annotations

import re
from typing import Any

from django.db import models
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.inputs import INT32_MAX
from games.registry import engine_slugs

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


# Text without NUL (refused in any text field), with a character that is not white space
# in JavaScript's sense and Python's (which also trims U+001C to U+001F and U+0085).
NO_NUL = r"^[^\x00]*$"
NOT_BLANK = r"^[^\x00]*[^\s\x00\x1c-\x1f\x85][^\x00]*$"


class StrictCharField(serializers.CharField):
    """A text field that refuses a number: ``{"name": 0}`` is a 400, not the name "0".

    DRF's own field turns numbers into text, which the schema (``type: string``)
    does not allow; a client sending a number for a name has made a mistake.
    """

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharFieldExtension(OpenApiSerializerFieldExtension):
    """In the schema, a text field holds no NUL, and one the server refuses blank has a
    character that is not white space (the server trims it first, so " " is blank too)."""

    target_class = StrictCharField
    match_subclasses = True

    def map_serializer_field(self, auto_schema, direction):
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        if direction == "request":
            schema.setdefault("pattern", NO_NUL if self.target.allow_blank else NOT_BLANK)
        return schema


class StrictSlugField(serializers.SlugField):
    """A slug that refuses a number, as :class:`StrictCharField` does."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictModelSerializer(serializers.ModelSerializer):
    """A model serializer whose text columns take only text (see :class:`StrictCharField`)."""

    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.CharField: StrictCharField,
        models.TextField: StrictCharField,
        models.SlugField: StrictSlugField,
    }


@extend_schema_field({"type": "string", "enum": engine_slugs()})
class GameSlugField(StrictCharField):
    """A game by its slug (``gift_swap``): the schema lists them; the service checks it."""
