"""Dispute review for staff: a game's event log, the full state at any event, and decisions that
are appended to the log as events (a rollback is a new event; history keeps everything)."""
from __future__ import annotations

import json

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from games.community import chat
from games.play import review, services, store
from games.errors import DomainError
from games.models import ChatMessage, Delivery, Dispute, Event, Game, Notification


class EventInline(admin.TabularInline):
    model = Event
    fields = ("seq", "type", "actor", "user", "created_at", "state_link", "review_link", "data")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("seq",)
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description="state after")
    def state_link(self, event):
        url = reverse("admin:games_game_state", args=[event.game_id, event.seq])
        return format_html('<a href="{}">state #{}</a>', url, event.seq)

    @admin.display(description="review")
    def review_link(self, event):
        return format_html('<a href="{}">drawn, with changes</a>', review_url(event.game_id, event.seq - 1, event.seq))


def review_url(game_id, since: int, at: int) -> str:
    return reverse("admin:games_game_review", args=[game_id]) + f"?from={max(since, 0)}&at={at}"


# The stock admin pages, made accessible through the admin's documented options: a log-in page
# with a heading, and breadcrumbs that are not told apart by colour alone (web/admin/admin.css).
admin.site.login_template = "admin/darkroom_login.html"
ACCESSIBLE = forms.Media(css={"all": ["web/admin/admin.css"]})


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "status", "version", "creator", "created_at", "next_deadline")
    list_filter = ("kind", "status")
    search_fields = ("id", "creator__username")
    readonly_fields = [f.name for f in Game._meta.fields]
    inlines = [EventInline]
    media = property(lambda self: super(GameAdmin, self).media + ACCESSIBLE)

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_urls(self):
        extra = [path("<uuid:game_id>/state/<int:seq>/", self.admin_site.admin_view(self.state_view),
                      name="games_game_state"),
                 path("<uuid:game_id>/review/", self.admin_site.admin_view(self.review_view),
                      name="games_game_review")]
        return extra + super().get_urls()

    def _may_see_state(self, request) -> None:
        """A game's whole state (deck and hands) is for staff who may open the game's change page:
        the same model permission it asks (view or change game; docs/operations.md)."""
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied("you may not see games' states")

    def state_view(self, request, game_id, seq):
        """The whole state (nothing hidden: staff judge disputes) after event `seq`, replayed."""
        self._may_see_state(request)
        game = get_object_or_404(Game, pk=game_id)
        if not 0 <= seq <= game.version:
            return HttpResponse(f"no event {seq} in this game", status=404)
        state = store.replay_from_scratch(game, seq)
        context = {**self.admin_site.each_context(request), "title": f"{game} after event {seq}",
                   "game": game, "seq": seq, "state": json.dumps(state, indent=2, sort_keys=True),
                   "events": Event.objects.filter(game=game, seq__lte=seq).order_by("seq")}
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
            return HttpResponse("from and at must be event numbers", status=400)
        if not (0 <= at <= game.version and 0 <= since <= game.version):
            return HttpResponse(f"events run from 0 to {game.version}", status=404)
        context = {**self.admin_site.each_context(request), "title": f"Review: {game}",
                   "game": game, "at": at, "since": since, "review": review.review(game, since, at)}
        return TemplateResponse(request, "admin/games/review.html", context)


class DisputeForm(forms.ModelForm):
    DECISIONS = [("", "keep open"), ("dismiss", "dismiss"), ("uphold", "uphold"),
                 ("rollback", "uphold and roll the game back to just before the event")]
    decision = forms.ChoiceField(choices=DECISIONS, required=False)

    class Meta:
        model = Dispute
        fields = ("resolution",)


@admin.register(Dispute)
class DisputeAdmin(admin.ModelAdmin):
    form = DisputeForm
    list_display = ("id", "game", "seq", "status", "raised_by", "created_at")
    media = property(lambda self: super(DisputeAdmin, self).media + ACCESSIBLE)
    list_filter = ("status",)
    readonly_fields = ("game_link", "seq", "reason", "raised_by", "status", "resolved_by", "created_at", "resolved_at")
    fields = readonly_fields + ("resolution", "decision")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="game")
    def game_link(self, dispute):
        return format_html('<a href="{}">{}</a> · <a href="{}">review: drawn, with changes</a> · '
                           '<a href="{}">state before</a> · <a href="{}">state after</a>',
                           reverse("admin:games_game_change", args=[dispute.game_id]), dispute.game_id,
                           review_url(dispute.game_id, dispute.seq - 1, dispute.seq),
                           reverse("admin:games_game_state", args=[dispute.game_id, dispute.seq - 1]),
                           reverse("admin:games_game_state", args=[dispute.game_id, dispute.seq]))

    def save_model(self, request, obj, form, change):
        decision = form.cleaned_data.get("decision")
        if not decision:
            if obj.status == Dispute.Status.OPEN:
                super().save_model(request, obj, form, change)
            return
        try:
            services.resolve_dispute(obj.pk, request.user, uphold=decision != "dismiss",
                                     resolution=form.cleaned_data.get("resolution", ""),
                                     roll_back=decision == "rollback")
        except DomainError as error:
            messages.error(request, error.detail)
            request._dispute_refused = True  # response_change must not claim success

    def response_change(self, request, obj):
        if getattr(request, "_dispute_refused", False):
            # Back to the form with only the refusal, instead of Django's "changed successfully".
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)

    def log_change(self, request, obj, message):
        if not getattr(request, "_dispute_refused", False):
            super().log_change(request, obj, message)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Written by the server only (the outbox): staff look, never add, edit or delete."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin):
    list_display = ("id", "user", "type", "title", "collapsed", "updated_at", "read_at")
    list_filter = ("type",)
    readonly_fields = [f.name for f in Notification._meta.fields]


@admin.register(Delivery)
class DeliveryAdmin(ReadOnlyAdmin):
    list_display = ("id", "channel", "status", "attempts", "next_attempt_at", "last_error")
    list_filter = ("channel", "status")
    readonly_fields = [f.name for f in Delivery._meta.fields]


class ChatMessageForm(forms.ModelForm):
    hide = forms.BooleanField(required=False, help_text="hide the message from everyone but staff")

    class Meta:
        model = ChatMessage
        fields = ("hidden_reason",)


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """Moderation: reported messages first; hiding keeps the message, with who hid it and why.
    The text is shown as Django shows any value, escaped: chat is plain text, never HTML."""

    form = ChatMessageForm
    list_display = ("id", "game", "channel", "author", "text", "reports", "hidden", "created_at")
    list_filter = ("hidden", "channel")
    search_fields = ("text", "author__username")
    readonly_fields = ("game", "channel", "author", "text", "created_at", "report_list", "hidden", "hidden_by",
                       "hidden_at")
    fields = readonly_fields + ("hidden_reason", "hide")

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(report_count=Count("reports")).order_by("-report_count", "-id")

    @admin.display(description="reports", ordering="report_count")
    def reports(self, message):
        return message.report_count

    @admin.display(description="reported by")
    def report_list(self, message):
        return format_html_join(mark_safe("<br>"), "{} ({}): {}", (
            (r.reporter.username if r.reporter_id else "deleted account", r.created_at, r.reason or "-")
            for r in message.reports.select_related("reporter"))) or "-"

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        if form.cleaned_data.get("hide") and not obj.hidden:
            try:
                chat.hide(obj.pk, request.user, form.cleaned_data.get("hidden_reason", ""))
            except DomainError as error:
                messages.error(request, error.detail)
                request._chat_refused = True

    def response_change(self, request, obj):
        if getattr(request, "_chat_refused", False):
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)
