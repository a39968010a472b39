from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from replays.models import Announcement, ImportJob, Player, Record, Seat
from replays.services import player_kind_set


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Record)
class RecordAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "num_events", "simulated", "played_at", "created_at"]
    list_filter = ["game", "simulated"]
    inlines = [SeatInline]
    readonly_fields = ["digest", "events", "result"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    """Players: people, guests and bots. Making a player a bot makes every game they sat
    in bot play (simulated), taken out of every rating, leaderboard and standing."""

    list_display = ["name", "display_name", "kind", "user", "created_at"]
    list_filter = ["kind"]
    search_fields = ["name", "display_name"]
    readonly_fields = ["kind"]  # changed by the actions, which also mark the games
    actions = ["make_bot", "make_person"]

    @admin.action(description="Mark as bots (their games become bot play)")
    def make_bot(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        games = sum(player_kind_set(player=p, kind=Player.Kind.BOT) for p in queryset)
        self.message_user(request, f"Marked as bots; {games} game(s) are bot play now.")

    @admin.action(description="Mark as people")
    def make_person(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        for player in queryset:
            player_kind_set(player=player, kind=Player.Kind.PERSON)
        self.message_user(request, "Marked as people (their games stay as they were).")


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
