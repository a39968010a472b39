from django.contrib import admin

from replays.models import Announcement, ImportJob, Player, Record, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Record)
class RecordAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "num_events", "played_at", "created_at"]
    list_filter = ["game"]
    inlines = [SeatInline]
    readonly_fields = ["digest", "events", "result"]


admin.site.register(Player)


@admin.register(Announcement)
class AnnouncementAdmin(admin.ModelAdmin):
    """The outbox: rows with no "dispatched at" are still owed to analytics (the sweep
    sends them; ``manage.py backlog`` shows them too)."""

    list_display = [
        "id",
        "topic",
        "record",
        "created_at",
        "dispatched_at",
        "attempts",
        "last_error",
    ]
    list_filter = [("dispatched_at", admin.EmptyFieldListFilter), "topic"]


@admin.register(ImportJob)
class ImportJobAdmin(admin.ModelAdmin):
    """Import jobs: an unfinished one never sent (no "dispatched at") waits for the broker;
    the import sweep sends it when the broker is back."""

    list_display = [
        "id",
        "created_at",
        "chunks_done",
        "chunks",
        "stored",
        "refused",
        "dispatched_at",
        "progressed_at",
        "finished_at",
        "attempts",
        "last_error",
    ]
    list_filter = [("finished_at", admin.EmptyFieldListFilter)]
    readonly_fields = ["submitted_by", *(field for field in list_display if field != "id")]
