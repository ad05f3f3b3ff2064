from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from accounts import players
from games.api import notifications, streams, views

urlpatterns = [
    path("accounts/", include("accounts.urls")),
    path("kinds/", views.KindsView.as_view(), name="kinds"),
    path("kinds/<str:kind>/", views.KindView.as_view(), name="kind"),
    path("kinds/<str:kind>/cards/", views.CardsView.as_view(), name="kind-cards"),
    path("kinds/<str:kind>/leaderboard/", players.LeaderboardView.as_view(), name="kind-leaderboard"),
    path("players/<str:username>/", players.PlayerView.as_view(), name="player"),
    path("games/", views.GamesView.as_view(), name="games"),
    path("games/<str:game_id>/", views.GameView.as_view(), name="game"),
    path("games/<str:game_id>/join/", views.JoinView.as_view(), name="game-join"),
    path("games/<str:game_id>/leave/", views.LeaveView.as_view(), name="game-leave"),
    path("games/<str:game_id>/start/", views.StartView.as_view(), name="game-start"),
    path("games/<str:game_id>/legal-moves/", views.LegalMovesView.as_view(), name="game-legal-moves"),
    path("games/<str:game_id>/moves/", views.MovesView.as_view(), name="game-moves"),
    # Async: a long-poll (?wait=) sleeps on the event loop, not on a thread (games.api.streams).
    path("games/<str:game_id>/events/", streams.asynchronous(views.EventsView), name="game-events"),
    path("games/<str:game_id>/stream/", streams.game_stream, name="game-stream"),
    path("stream/", streams.user_stream, name="stream"),
    path("stream-tickets/", streams.StreamTicketsView.as_view(), name="stream-tickets"),
    path("games/<str:game_id>/state/", views.StateAtView.as_view(), name="game-state"),
    path("games/<str:game_id>/disputes/", views.DisputesView.as_view(), name="game-disputes"),
    path("games/<str:game_id>/mute/", notifications.MuteView.as_view(), name="game-mute"),
    path("notifications/", notifications.NotificationsView.as_view(), name="notifications"),
    path("notifications/unread-count/", notifications.UnreadCountView.as_view(), name="notifications-unread"),
    path("notifications/read-all/", notifications.ReadAllView.as_view(), name="notifications-read-all"),
    path("notifications/<int:notification_id>/read/", notifications.ReadView.as_view(), name="notification-read"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
]
