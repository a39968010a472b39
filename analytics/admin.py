"""The Django admin's view of analytics: the records whose ingest failed, and the
analyses of games (to see what is queued, running or failed, and why).

Everything else in analytics is derived and rebuilt, not edited by hand; a
quarantined record is what an operator must see and act on (fix the record,
then retry it here or with ``manage.py analytics_quarantine --retry``).
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from analytics.models import IngestQuarantine, RecordAnalysis
from analytics.services import quarantine_retry


@admin.register(IngestQuarantine)
class IngestQuarantineAdmin(admin.ModelAdmin):
    list_display = [
        "record_link",
        "game",
        "error_short",
        "attempts",
        "first_failed_at",
        "last_failed_at",
        "next_retry_at",
    ]
    list_select_related = ["record"]
    readonly_fields = [
        "record",
        "error",
        "attempts",
        "first_failed_at",
        "last_failed_at",
        "next_retry_at",
    ]
    search_fields = ["error", "record__game"]
    actions = ["retry"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # rows come from failed ingests only

    @admin.display(description="record", ordering="record_id")
    def record_link(self, obj: IngestQuarantine) -> str:
        url = reverse("admin:replays_record_change", args=[obj.record_id])
        return format_html('<a href="{}">{}</a>', url, obj.record_id)

    @admin.display(description="game", ordering="record__game")
    def game(self, obj: IngestQuarantine) -> str:
        return obj.record.game

    @admin.display(description="error")
    def error_short(self, obj: IngestQuarantine) -> str:
        return obj.error if len(obj.error) <= 160 else obj.error[:159] + "…"

    @admin.action(description="Retry the ingest of the selected records now")
    def retry(self, request: HttpRequest, queryset: QuerySet[IngestQuarantine]) -> None:
        outcome = quarantine_retry(record_ids=list(queryset.values_list("record_id", flat=True)))
        failing = ", ".join(map(str, outcome.quarantined))
        text = f"{outcome.ingested} ingested, {len(outcome.quarantined)} still failing"
        if failing:
            self.message_user(request, f"{text} (records {failing}).", messages.WARNING)
        else:
            self.message_user(request, f"{text}.", messages.SUCCESS)


@admin.register(RecordAnalysis)
class RecordAnalysisAdmin(admin.ModelAdmin):
    """Read-only: a job is asked for on the replay page or the API, never made here."""

    list_display = ["id", "record_id", "status", "done", "total", "version", "created_at"]
    list_filter = ["status"]
    search_fields = ["record__id", "version"]
    exclude = ["result"]  # thousands of numbers: the API shows them
    readonly_fields = [
        "record",
        "version",
        "analysis_settings",
        "settings_hash",
        "seed",
        "status",
        "done",
        "total",
        "error",
        "requested_by",
        "created_at",
        "started_at",
        "finished_at",
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
