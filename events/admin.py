from django.contrib import admin

from events.models import Bye, Entry, Event, Round, Table, TableResult, TableSeat


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "game", "format", "starts_at", "status"]
    list_filter = ["status", "format", "game"]
    search_fields = ["name", "slug"]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["event", "player", "checked_in", "arrived_round", "dropped_after"]
    raw_id_fields = ["player", "user"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    raw_id_fields = ["record"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "status", "seed"]
    inlines = [TableInline]


admin.site.register(TableSeat)
admin.site.register(Bye)
admin.site.register(TableResult)
