from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from accounts.models import ApiToken, SiteSettings
from core.errors import ServiceError
from replays.models import Player
from replays.services import player_merge


@admin.register(SiteSettings)
class SiteSettingsAdmin(admin.ModelAdmin):
    list_display = ["__str__", "signup_open"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return not SiteSettings.objects.exists()

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "prefix", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["name", "user__username", "prefix"]
    readonly_fields = ["prefix", "key_hash", "created_at", "last_used_at"]


# replays registers Player plainly; this admin adds the user link and the merge action.
if admin.site.is_registered(Player):
    admin.site.unregister(Player)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "display_name", "user"]
    search_fields = ["name", "display_name", "user__username"]
    raw_id_fields = ["user"]
    actions = ["merge_players"]

    @admin.action(description="Merge the selected players into the first one")
    def merge_players(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        """'First' is the first selected in the list's order (by handle)."""
        players = list(queryset.order_by("name"))
        if len(players) < 2:
            self.message_user(request, "Select at least two players to merge.", messages.WARNING)
            return
        keep, merge = players[0], players[1:]
        try:
            moved = player_merge(keep=keep, merge=merge)
        except ServiceError as exc:
            self.message_user(request, exc.message, messages.ERROR)
            return
        names = ", ".join(p.name for p in merge)
        self.message_user(
            request, f"Merged {names} into {keep.name}: {moved} seats moved, every record kept."
        )
