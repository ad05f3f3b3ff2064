"""Tournaments for staff."""

from __future__ import annotations


from django.contrib import admin, messages
from django.http import HttpResponse, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.translation import gettext as _, gettext_lazy as _lazy

from games.community import tournament_staff
from games.errors import DomainError
from games.models import Registration, Tournament


class RegistrationInline(admin.TabularInline):
    """The players, in their initial order; removing one goes through the tournament's use case
    (their games in progress are resigned), never by deleting the row."""

    model = Registration
    fields = ("number", "user", "rating", "created_at", "withdrawn_at", "removed")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Staff hold a tournament (no next round while paused), remove a player or settle a game,
    through the use cases (games.community.tournament_staff); everything else is the server's to
    write."""

    list_display = ("name", "kind", "format", "status", "paused", "current_round", "rounds", "organiser", "created_at")
    list_filter = ("status", "format", "kind", "paused")
    search_fields = ("name", "organiser__username")
    readonly_fields = [f.name for f in Tournament._meta.fields if f.name != "seed"]
    exclude = ("seed",)  # secret until the tournament is over; the hash is public
    inlines = [RegistrationInline]
    actions = ["pause", "unpause"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def _paused(self, request, queryset, paused: bool) -> None:
        for tournament in queryset:
            try:
                tournament_staff.set_paused(tournament.pk, request.user, paused)
            except DomainError as error:
                messages.error(request, error.detail)

    @admin.action(description=_lazy("Pause: no next round until unpaused"), permissions=["change"])
    def pause(self, request, queryset):
        self._paused(request, queryset, True)

    @admin.action(
        description=_lazy("Unpause (the next round opens at once if the last is over)"), permissions=["change"]
    )
    def unpause(self, request, queryset):
        self._paused(request, queryset, False)

    def get_urls(self):
        return [
            path(
                "<path:object_id>/remove/<int:user_id>/",
                self.admin_site.admin_view(self.remove_view),
                name="games_tournament_remove",
            ),
            path(
                "<path:object_id>/settle/<str:game_id>/",
                self.admin_site.admin_view(self.settle_view),
                name="games_tournament_settle",
            ),
        ] + super().get_urls()

    def settle_view(self, request, object_id, game_id):
        """POST only: end a game of the tournament with the places stated (`places`, one a seat,
        separated by commas) and a `reason`, both kept in the game's log."""
        if request.method != "POST":
            return HttpResponse(status=405)
        try:
            places = [int(p) for p in request.POST.get("places", "").split(",")]
        except ValueError:
            places = None
        try:
            tournament_staff.settle_game(object_id, request.user, game_id, places, request.POST.get("reason", ""))
            messages.success(request, _("The game was settled; the tournament moves on as if it had ended."))
        except DomainError as error:
            messages.error(request, error.detail)
        return HttpResponseRedirect(reverse("admin:games_tournament_change", args=[object_id]))

    def remove_view(self, request, object_id, user_id):
        """POST only: remove a player (as a withdrawal, marked removed)."""
        if request.method != "POST":
            return HttpResponse(status=405)
        try:
            tournament_staff.remove_player(object_id, request.user, user_id)
            messages.success(request, _("The player was removed; their games in progress were resigned."))
        except DomainError as error:
            messages.error(request, error.detail)
        return HttpResponseRedirect(reverse("admin:games_tournament_change", args=[object_id]))
