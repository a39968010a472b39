"""The records export, bounded: one answer is a page of records, and records cost budget.

An export of everything used to hold a web worker for as long as it took to
stream every record, and counted as one request in the rate limit. Now one
answer streams at most ``EXPORT_PAGE_RECORDS`` records, oldest first, and says
where to resume (``after=<last id>``); and each client (an account, or an
address without one) may export ``EXPORT_BUDGET_USER`` / ``EXPORT_BUDGET_ANON``
records per ``EXPORT_BUDGET_SECONDS``, counted in records actually answered
(``core.quotas``). Past the budget the export answers 429 ``quota_exceeded``
with ``Retry-After``; a page is cut to what is left of the budget, so a client
following the ``next`` links stops at the budget, not mid-page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.http import HttpRequest

from core.api.throttling import client_ident
from core.errors import BadRequest
from core.quotas import QuotaExceeded, budget_charge, budget_remaining
from replays.models import Record

BUDGET = "export"
MAX_RECORD_ID = 2**63 - 1


@dataclass(frozen=True)
class ExportClient:
    """Who is exporting, as the budget counts them: an account, or an address."""

    ident: str
    signed_in: bool

    @classmethod
    def of(cls, request: HttpRequest, user: Any) -> ExportClient:
        if user is not None and user.is_authenticated:
            return cls(ident=f"user:{user.pk}", signed_in=True)
        return cls(ident=f"addr:{client_ident(request)}", signed_in=False)

    @property
    def budget(self) -> int:
        return settings.EXPORT_BUDGET_USER if self.signed_in else settings.EXPORT_BUDGET_ANON


@dataclass(frozen=True)
class ExportPlan:
    """The records of this answer (a query, streamed later) and where the next one starts."""

    records: QuerySet[Record]
    count: int
    next_after: int | None


def whole_number(
    query: Mapping[str, str], name: str, low: int, high: int, *, default: int | None
) -> int | None:
    """An ASCII whole number ``low..high`` from the query string, or ``default`` if absent."""
    raw = query.get(name, "").strip()
    if not raw:
        return default
    if not (raw.isascii() and raw.isdigit()) or not low <= int(raw) <= high:
        raise BadRequest(
            "bad_filter",
            f"{name} must be a whole number from {low} to {high}.",
            field=name,
            value=raw,
        )
    return int(raw)


def export_plan(
    *, records: QuerySet[Record], after: int | None, limit: int | None, client: ExportClient
) -> ExportPlan:
    """Choose the page to stream and count it against the client's budget.

    Only ids are read here (one cheap query of at most a page and one); the records
    themselves are streamed by the caller. Raises :class:`QuotaExceeded` when the
    client has no budget left in this window.
    """
    period = settings.EXPORT_BUDGET_SECONDS
    budget = budget_remaining(BUDGET, client.ident, limit=client.budget, period=period)
    if budget.remaining <= 0:
        raise QuotaExceeded(
            f"This client has exported {budget.used} records in this window, its budget "
            f"of {budget.limit}; try again in {budget.retry_after} seconds"
            + ("." if client.signed_in else ", or sign in for a larger budget."),
            retry_after=budget.retry_after,
            budget=budget.limit,
            used=budget.used,
            period_seconds=period,
        )
    size = min(limit or settings.EXPORT_PAGE_RECORDS, settings.EXPORT_PAGE_RECORDS)
    size = min(size, budget.remaining)
    ordered = records.filter(id__gt=after or 0).order_by("id")
    ids = list(ordered.values_list("id", flat=True)[: size + 1])
    more = len(ids) > size
    ids = ids[:size]
    budget_charge(BUDGET, client.ident, len(ids), period=period)
    if not ids:
        return ExportPlan(records=ordered.none(), count=0, next_after=None)
    return ExportPlan(
        records=ordered.filter(id__lte=ids[-1]),
        count=len(ids),
        next_after=ids[-1] if more else None,
    )
