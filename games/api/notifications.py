"""The in-app inbox and per-game mutes."""

from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.play import access
from games.api import params
from games.errors import NotFound
from games.api.serializers import ErrorOut, MutedOut, ReadAllOut, UnreadOut, kind_typed
from games.models import Mute, Notification


class NotificationOut(serializers.Serializer):
    id = serializers.IntegerField()
    type = serializers.CharField()
    title = serializers.CharField()
    game = serializers.UUIDField(source="game_id", allow_null=True)
    seq = serializers.IntegerField(allow_null=True)
    data = kind_typed("NotificationData")()
    collapsed = serializers.IntegerField(help_text="how many notices this one stands for")
    read = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    def get_read(self, note) -> bool:
        return note.read_at is not None


class NotificationsPageOut(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = NotificationOut(many=True)
    unread = serializers.IntegerField(help_text="all your unread notifications, not only this page's")


class NotificationsView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("unread", bool), *params.page_parameters()],
        responses=NotificationsPageOut,
        operation_id="notifications_list",
        summary="Your inbox, newest first",
    )
    def get(self, request):
        notes = Notification.objects.filter(user=request.user).order_by("-updated_at")
        if params.flag(request, "unread"):
            notes = notes.filter(read_at__isnull=True)
        paginator = params.Pagination()
        page = paginator.paginate_queryset(notes, request, view=self)
        response = paginator.get_paginated_response(NotificationOut(page, many=True).data)
        response.data["unread"] = Notification.objects.filter(user=request.user, read_at__isnull=True).count()
        return response


class UnreadCountView(APIView):
    @extend_schema(responses=UnreadOut, summary="How many unread notifications you have")
    def get(self, request):
        return Response({"unread": Notification.objects.filter(user=request.user, read_at__isnull=True).count()})


class ReadView(APIView):
    @extend_schema(request=None, responses=NotificationOut, summary="Mark one notification read")
    def post(self, request, notification_id):
        note = Notification.objects.filter(user=request.user, pk=notification_id).first()
        if note is None:
            raise NotFound(gettext("no such notification"))
        if note.read_at is None:
            note.read_at = timezone.now()
            note.save(update_fields=["read_at"])
        return Response(NotificationOut(note).data)


class ReadAllView(APIView):
    @extend_schema(request=None, responses=ReadAllOut, summary="Mark all your notifications read")
    def post(self, request):
        count = Notification.objects.filter(user=request.user, read_at__isnull=True).update(read_at=timezone.now())
        return Response({"marked": count, "unread": 0})


class MuteView(APIView):
    @extend_schema(
        request=None, responses={200: MutedOut, 403: ErrorOut}, summary="Mute a game: no notifications from it"
    )
    def post(self, request, game_id):
        game = access.get_game(game_id)
        access.require_player(game, request.user)
        Mute.objects.get_or_create(user=request.user, game=game)
        return Response({"muted": True})

    @extend_schema(responses={200: MutedOut}, summary="Unmute a game")
    def delete(self, request, game_id):
        game = access.get_game(game_id, user=request.user)
        access.require_visible(game, request.user)
        Mute.objects.filter(user=request.user, game=game).delete()
        return Response({"muted": False}, status=status.HTTP_200_OK)
