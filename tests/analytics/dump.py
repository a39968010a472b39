"""Every derived row of the analytics app, in a form two computations can be compared by.

Generic on purpose: whatever models analytics grows (ratings, statistics, snapshots),
each row is read with its field values, leaving out what legitimately differs between
two computations of the same data: the auto primary key,
automatic timestamps and bookkeeping counters.
"""

from __future__ import annotations

import json
from typing import Any

from django.apps import apps
from django.db import models

# Counters of how the figures were reached, not figures: a rating scope counts its
# recomputes (late records), which differ between an incremental and a fresh run.
BOOKKEEPING = {"recomputes"}


def _compared_fields(model: type[models.Model]) -> list[str]:
    names = []
    for field in model._meta.concrete_fields:
        if field.name in BOOKKEEPING:
            continue
        if field.primary_key and isinstance(field, models.AutoField | models.BigAutoField):
            continue
        if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
            continue
        names.append(field.attname)
    return names


def _rows(model: type[models.Model], cache: dict[str, dict[Any, str]]) -> dict[Any, str]:
    """``{pk: canonical JSON}`` of a model's rows.

    A foreign key to another analytics row (a rating scope, say) is compared by that
    row's content, not its id: a fresh computation gives the same rows new ids.
    """
    label = model._meta.label
    if label in cache:
        return cache[label]
    fields = _compared_fields(model)
    derived = {
        field.attname: field.related_model
        for field in model._meta.concrete_fields
        if field.is_relation
        and field.attname in fields
        and field.related_model._meta.app_label == "analytics"
    }
    out: dict[Any, str] = {}
    for row in model.objects.values("pk", *fields):
        pk = row.pop("pk")
        for attname, related in derived.items():
            if row[attname] is not None:
                row[attname] = _rows(related, cache)[row[attname]]
        out[pk] = json.dumps(row, sort_keys=True, default=str)
    cache[label] = out
    return out


def analytics_dump() -> dict[str, list[str]]:
    """``{model label: sorted rows as canonical JSON}`` for every analytics model."""
    cache: dict[str, dict[Any, str]] = {}
    return {
        model._meta.label: sorted(_rows(model, cache).values())
        for model in apps.get_app_config("analytics").get_models()
    }


def analytics_row_count() -> int:
    return sum(model.objects.count() for model in apps.get_app_config("analytics").get_models())
