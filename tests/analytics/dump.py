"""Every derived row of the analytics app, in a form two computations can be compared by.

Generic on purpose: whatever models analytics grows (ratings, statistics, snapshots),
each row is read with its field values, leaving out what legitimately differs between
two computations of the same data: the auto primary key and automatic timestamps.
"""

from __future__ import annotations

import json
from typing import Any

from django.apps import apps
from django.db import models


def _compared_fields(model: type[models.Model]) -> list[str]:
    names = []
    for field in model._meta.concrete_fields:
        if field.primary_key and isinstance(field, models.AutoField | models.BigAutoField):
            continue
        if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
            continue
        names.append(field.attname)
    return names


def analytics_dump() -> dict[str, list[str]]:
    """``{model label: sorted rows as canonical JSON}`` for every analytics model."""
    dump: dict[str, list[str]] = {}
    for model in apps.get_app_config("analytics").get_models():
        fields = _compared_fields(model)
        rows: list[Any] = list(model.objects.values(*fields))
        dump[model._meta.label] = sorted(
            json.dumps(row, sort_keys=True, default=str) for row in rows
        )
    return dump


def analytics_row_count() -> int:
    return sum(model.objects.count() for model in apps.get_app_config("analytics").get_models())
