"""Chat moderation: reported messages first; hiding keeps the message."""

from __future__ import annotations


from django import forms
from django.contrib import admin, messages
from django.db.models import Count
from django.http import HttpResponseRedirect
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _lazy

from games.community import chat
from games.errors import DomainError
from games.models import ChatMessage


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
    readonly_fields = (
        "game",
        "channel",
        "author",
        "text",
        "created_at",
        "report_list",
        "hidden",
        "hidden_by",
        "hidden_at",
    )
    fields = readonly_fields + ("hidden_reason", "hide")

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(report_count=Count("reports")).order_by("-report_count", "-id")

    @admin.display(description=_lazy("reports"), ordering="report_count")
    def reports(self, message):
        return message.report_count

    @admin.display(description=_lazy("reported by"))
    def report_list(self, message):
        return (
            format_html_join(
                mark_safe("<br>"),
                "{} ({}): {}",
                (
                    (r.reporter.username if r.reporter_id else "deleted account", r.created_at, r.reason or "-")
                    for r in message.reports.select_related("reporter")
                ),
            )
            or "-"
        )

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
