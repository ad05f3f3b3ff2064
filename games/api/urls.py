from django.urls import include, path, register_converter
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from games.api import players
from games.api import follows, ladders, notifications, push, social, tickets, tournaments, views
from games.api.streams.game import GameStreamView
from games.api.streams.user import UserStreamView


class TextConverter:
    """A path segment as `str` takes it, less NUL: PostgreSQL text cannot hold one, so a %00 in a
    game id, join code or name would reach a query as a DataError (a 500); without it the route
    does not match, a 404 like any unknown thing."""

    regex = "[^/\x00]+"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


register_converter(TextConverter, "text")

# The requests that wait, also all that the `live` process serves (games.api.live_urls). Async: a
# long-poll (?wait=) sleeps on the event loop, not on a thread (games.api.streams.views).
WAITING = [
    path("games/<text:game_id>/events/", views.EventsView.as_view(), name="game-events"),
    path("games/<text:game_id>/stream/", GameStreamView.as_view(), name="game-stream"),
    path("stream/", UserStreamView.as_view(), name="stream"),
]

urlpatterns = [
    path("accounts/", include("games.api.account_urls")),
    path("kinds/", views.KindsView.as_view(), name="kinds"),
    path("kinds/<text:kind>/", views.KindView.as_view(), name="kind"),
    path("kinds/<text:kind>/cards/", views.CardsView.as_view(), name="kind-cards"),
    path("kinds/<text:kind>/leaderboard/", players.LeaderboardView.as_view(), name="kind-leaderboard"),
    path("players/<text:username>/", players.PlayerView.as_view(), name="player"),
    path("games/", views.GamesView.as_view(), name="games"),
    path("tournaments/", tournaments.TournamentsView.as_view(), name="tournaments"),
    path("tournaments/<text:tournament_id>/", tournaments.TournamentView.as_view(), name="tournament"),
    path("tournaments/<text:tournament_id>/register/", tournaments.RegisterView.as_view(), name="tournament-register"),
    path("tournaments/<text:tournament_id>/withdraw/", tournaments.WithdrawView.as_view(), name="tournament-withdraw"),
    path("tournaments/<text:tournament_id>/start/", tournaments.StartView.as_view(), name="tournament-start"),
    path(
        "ladders/challenges/<int:challenge_id>/accept/", ladders.AcceptChallengeView.as_view(), name="challenge-accept"
    ),
    path(
        "ladders/challenges/<int:challenge_id>/decline/",
        ladders.DeclineChallengeView.as_view(),
        name="challenge-decline",
    ),
    path("ladders/<text:kind>/", ladders.LadderView.as_view(), name="ladder"),
    path("ladders/<text:kind>/join/", ladders.JoinLadderView.as_view(), name="ladder-join"),
    path("ladders/<text:kind>/leave/", ladders.LeaveLadderView.as_view(), name="ladder-leave"),
    path("ladders/<text:kind>/challenges/", ladders.ChallengesView.as_view(), name="ladder-challenges"),
    path("seeks/", social.SeeksView.as_view(), name="seeks"),
    path("spectate/", social.SpectateView.as_view(), name="spectate"),
    path("invitations/", social.InvitationsView.as_view(), name="invitations"),
    path("invitations/<int:invitation_id>/accept/", social.AcceptView.as_view(), name="invitation-accept"),
    path("invitations/<int:invitation_id>/decline/", social.DeclineView.as_view(), name="invitation-decline"),
    path("join/<text:code>/", social.JoinByCodeView.as_view(), name="join-by-code"),
    path("games/<text:game_id>/", views.GameView.as_view(), name="game"),
    path("games/<text:game_id>/join/", views.JoinView.as_view(), name="game-join"),
    path("games/<text:game_id>/leave/", views.LeaveView.as_view(), name="game-leave"),
    path("games/<text:game_id>/start/", views.StartView.as_view(), name="game-start"),
    path("games/<text:game_id>/legal-moves/", views.LegalMovesView.as_view(), name="game-legal-moves"),
    path("games/<text:game_id>/moves/", views.MovesView.as_view(), name="game-moves"),
    *WAITING,
    path("stream-tickets/", tickets.StreamTicketsView.as_view(), name="stream-tickets"),
    path("stream/<str:stream_id>/games/", follows.StreamGamesView.as_view(), name="stream-games"),
    path("stream/<str:stream_id>/games/<text:game_id>/", follows.StreamGameView.as_view(), name="stream-game"),
    path("stream/<str:stream_id>/tournaments/", follows.StreamTournamentsView.as_view(), name="stream-tournaments"),
    path(
        "stream/<str:stream_id>/tournaments/<text:tournament_id>/",
        follows.StreamTournamentView.as_view(),
        name="stream-tournament",
    ),
    path("games/<text:game_id>/state/", views.StateAtView.as_view(), name="game-state"),
    path("games/<text:game_id>/disputes/", views.DisputesView.as_view(), name="game-disputes"),
    path("games/<text:game_id>/resign/", social.ResignView.as_view(), name="game-resign"),
    path("games/<text:game_id>/abort/", social.AbortView.as_view(), name="game-abort"),
    path("games/<text:game_id>/claim-forfeit/", social.ClaimForfeitView.as_view(), name="game-claim-forfeit"),
    path("games/<text:game_id>/chat/", social.ChatView.as_view(), name="game-chat"),
    path(
        "games/<text:game_id>/chat/<int:message_id>/report/", social.ChatReportView.as_view(), name="game-chat-report"
    ),
    path("games/<text:game_id>/invitations/", social.GameInvitationsView.as_view(), name="game-invitations"),
    path("games/<text:game_id>/rematch/", social.RematchView.as_view(), name="game-rematch"),
    path("games/<text:game_id>/mute/", notifications.MuteView.as_view(), name="game-mute"),
    path("push/vapid-key/", push.VapidKeyView.as_view(), name="push-vapid-key"),
    path("push/subscriptions/", push.SubscriptionsView.as_view(), name="push-subscriptions"),
    path("push/subscriptions/unsubscribe/", push.UnsubscribeView.as_view(), name="push-unsubscribe"),
    path("push/subscriptions/<int:subscription_id>/", push.SubscriptionView.as_view(), name="push-subscription"),
    path("push/devices/", push.DevicesView.as_view(), name="push-devices"),
    path("push/devices/<int:device_id>/", push.DeviceView.as_view(), name="push-device"),
    path("notifications/", notifications.NotificationsView.as_view(), name="notifications"),
    path("notifications/unread-count/", notifications.UnreadCountView.as_view(), name="notifications-unread"),
    path("notifications/read-all/", notifications.ReadAllView.as_view(), name="notifications-read-all"),
    path("notifications/<int:notification_id>/read/", notifications.ReadView.as_view(), name="notification-read"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
]
