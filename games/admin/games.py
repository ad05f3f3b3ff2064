"""A game for staff: its event log, the full state at any event, and the review of a change drawn
by the web client's tables."""

from __future__ import annotations

import json
import uuid

from django.contrib import admin
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _, gettext_lazy as _lazy

from games.admin.common import ACCESSIBLE, as_json, needs, review_url, when
from games.play import review, store
from games.models import Event, Game


class EventInline(admin.TabularInline):
    model = Event
    fields = ("seq", "type", "actor", "user", "at", "state_link", "review_link", "shown_data")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("seq",)
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    def get_formset(self, request, obj=None, **kwargs):
        self._hide_seed = obj is not None and review.seed_hidden_from(obj, request.user)
        return super().get_formset(request, obj, **kwargs)

    @admin.display(description=_lazy("at"))
    def at(self, event):
        return when(event.created_at)

    @admin.display(description=_lazy("data"))
    def shown_data(self, event):
        data = review.without_seed(event.data) if getattr(self, "_hide_seed", True) else event.data
        return format_html("<code>{}</code>", as_json(data))

    @admin.display(description=_lazy("state after"))
    def state_link(self, event):
        url = reverse("admin:games_game_state", args=[event.game_id, event.seq])
        return format_html('<a href="{}">state #{}</a>', url, event.seq)

    @admin.display(description=_lazy("review"))
    def review_link(self, event):
        return format_html('<a href="{}">drawn, with changes</a>', review_url(event.game_id, event.seq - 1, event.seq))


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "status", "version", "creator", "created_at", "next_deadline")
    list_filter = ("kind", "status")
    # A reviewer looks a game up by any of its players, not only the one who created it.
    search_fields = ("=id", "creator__username", "seat_set__user__username")
    readonly_fields = [f.name for f in Game._meta.fields]
    inlines = [EventInline]
    media = property(lambda self: super(GameAdmin, self).media + ACCESSIBLE)

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_search_results(self, request, queryset, search_term):
        term = search_term.strip()
        try:
            return queryset.filter(pk=uuid.UUID(term)), False
        except ValueError:
            return super().get_search_results(request, queryset, search_term)

    def get_urls(self):
        extra = [
            path(
                "<uuid:game_id>/state/<int:seq>/", self.admin_site.admin_view(self.state_view), name="games_game_state"
            ),
            path("<uuid:game_id>/review/", self.admin_site.admin_view(self.review_view), name="games_game_review"),
        ]
        return extra + super().get_urls()

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        self._may_see_state(request)
        return super().changeform_view(request, object_id, form_url, extra_context)

    def changelist_view(self, request, extra_context=None):
        self._may_see_state(request)
        return super().changelist_view(request, extra_context)

    def _may_see_state(self, request) -> None:
        """A game's whole state (deck and hands) is for staff who may open the game's change page:
        the same model permission it asks (view or change game; docs/operations.md)."""
        if not self.has_view_or_change_permission(request):
            raise needs("games.view_game", _("Seeing a game and its state"))

    def state_view(self, request, game_id, seq):
        """The whole state (nothing hidden but, while the game is on, its seed) after event `seq`."""
        self._may_see_state(request)
        game = get_object_or_404(Game, pk=game_id)
        if not 0 <= seq <= game.version:
            return HttpResponse(_("no event %(seq)s in this game") % {"seq": seq}, status=404)
        hide = review.seed_hidden_from(game, request.user)
        shown = review.without_seed if hide else (lambda value: value)
        state = shown(store.replay_from_scratch(game, seq))
        events = [
            {
                "seq": e.seq,
                "type": e.type,
                "by": review.by_whom(e),
                "at": when(e.created_at),
                "data": as_json(shown(e.data)),
            }
            for e in Event.objects.filter(game=game, seq__lte=seq).select_related("user").order_by("seq")
        ]
        context = {
            **self.admin_site.each_context(request),
            "title": _("%(game)s after event %(seq)s") % {"game": game, "seq": seq},
            "game": game,
            "seq": seq,
            "state": json.dumps(state, indent=2, sort_keys=True),
            "events": events,
            "seed_hidden": hide,
        }
        return TemplateResponse(request, "admin/games/state.html", context)

    def review_view(self, request, game_id):
        """Two events drawn by the web client's tables for every seat, and what changed between
        them (the state diffed in the browser: web/static/web/admin/review.js)."""
        self._may_see_state(request)
        game = get_object_or_404(Game, pk=game_id)
        try:
            at = int(request.GET.get("at", game.version))
            since = int(request.GET.get("from", max(at - 1, 0)))
        except ValueError:
            return HttpResponse(_("from and at must be event numbers"), status=400)
        if not (0 <= at <= game.version and 0 <= since <= game.version):
            return HttpResponse(_("events run from 0 to %(version)s") % {"version": game.version}, status=404)
        # Opened from the eyes of the seat that made the event under review (the disputed move).
        seat = Event.objects.filter(game=game, seq=at).values_list("actor", flat=True).first()
        context = {
            **self.admin_site.each_context(request),
            "title": _("Review: %(game)s") % {"game": game},
            "game": game,
            "at": at,
            "since": since,
            "review": review.review(game, since, at, review.seed_hidden_from(game, request.user), seat),
        }
        return TemplateResponse(request, "admin/games/review.html", context)
