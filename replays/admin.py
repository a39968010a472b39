from django.contrib import admin

from replays.models import Announcement, Player, Record, Seat


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
admin.site.register(Announcement)
