from django.contrib import admin

from clubs.models import AuditLog, Club, Invitation, League, Membership, Season, SeasonEntry


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["club", "user", "role", "joined_at"]
    list_filter = ["role", "club"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["club", "prefix", "role", "uses", "max_uses", "expires_at", "revoked_at"]
    readonly_fields = ["key_hash", "prefix", "uses"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "game", "tie_rule", "min_games"]
    list_filter = ["game", "club"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "starts_on", "ends_on"]


@admin.register(SeasonEntry)
class SeasonEntryAdmin(admin.ModelAdmin):
    list_display = ["season", "record", "submitted_by", "created_at", "voided_at"]
    raw_id_fields = ["record"]


@admin.register(AuditLog)
class AuditLogAdmin(admin.ModelAdmin):
    list_display = ["at", "actor", "action", "club", "target_type", "target_id"]
    list_filter = ["action"]
    readonly_fields = [f.name for f in AuditLog._meta.fields]
