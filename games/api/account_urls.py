"""The accounts' endpoints (/api/v1/accounts/...): accounts.services behind them."""

from django.urls import path

from games.api import accounts, security

urlpatterns = [
    path("register/", accounts.RegisterView.as_view(), name="register"),
    path("guest/", accounts.GuestView.as_view(), name="guest"),
    path("guest/register/", accounts.GuestRegisterView.as_view(), name="guest-register"),
    path("token/", accounts.TokenView.as_view(), name="token"),
    path("me/", accounts.MeView.as_view(), name="me"),
    path("me/export/", security.ExportView.as_view(), name="export"),
    path("me/delete/", security.DeleteAccountView.as_view(), name="delete-account"),
    path("tokens/", security.TokensView.as_view(), name="tokens"),
    path("tokens/<int:token_id>/", security.TokenRevokeView.as_view(), name="token-revoke"),
    path("logout/", security.LogoutView.as_view(), name="logout"),
    path("password/", security.PasswordView.as_view(), name="password"),
    path("password-reset/", security.PasswordResetView.as_view(), name="password-reset"),
    path("password-reset/confirm/", security.PasswordResetConfirmView.as_view(), name="password-reset-confirm"),
    path("preferences/", accounts.PreferencesView.as_view(), name="preferences"),
    path("webhooks/", accounts.WebhooksView.as_view(), name="webhooks"),
    path("webhooks/<int:webhook_id>/", accounts.WebhookView.as_view(), name="webhook"),
    path("webhooks/<int:webhook_id>/deliveries/", accounts.WebhookDeliveriesView.as_view(), name="webhook-deliveries"),
    path("vacation/", accounts.VacationView.as_view(), name="vacation"),
]
