from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy

from accounts.models import AuthToken, Rating, RatingChange, User


@admin.register(User)
class DarkroomUserAdmin(UserAdmin):
    """Django's user admin, with the bot mark (docs/bots.md) shown, filterable and editable."""

    list_display = (*UserAdmin.list_display, "is_bot")
    list_filter = (*UserAdmin.list_filter, "is_bot")
    fieldsets = (
        *UserAdmin.fieldsets,
        (gettext_lazy("Computer player"), {"fields": ("is_bot", "bot_level")}),
        (gettext_lazy("Language"), {"fields": ("language",)}),
    )


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "rating", "mu", "sigma", "games", "updated_at")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    # Ratings follow from results (accounts.ratings); editing one by hand would desync the history.
    readonly_fields = ("user", "kind", "rating", "mu", "sigma", "games", "updated_at")


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "game", "place", "rating_before", "rating_after", "at")
    list_filter = ("kind",)
    search_fields = ("user__username",)

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(AuthToken)
class AuthTokenAdmin(admin.ModelAdmin):
    """Staff can see and revoke (delete) tokens; the keys themselves are nowhere to be seen."""

    list_display = ("user", "device", "prefix", "created_at", "last_used_at", "expires_at")
    search_fields = ("user__username", "device")
    readonly_fields = ("user", "digest", "prefix", "device", "created_at", "last_used_at", "expires_at")

    def has_add_permission(self, request):
        return False
