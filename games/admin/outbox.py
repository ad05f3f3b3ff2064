"""The outbox (notifications and their deliveries): written by the server, read by staff."""

from __future__ import annotations


from django.contrib import admin

from games.models import Delivery, Notification


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
