from django.urls import path

from accounts import api, api_security

urlpatterns = [
    path("register/", api.RegisterView.as_view(), name="register"),
    path("token/", api.TokenView.as_view(), name="token"),
    path("me/", api.MeView.as_view(), name="me"),
    path("me/export/", api_security.ExportView.as_view(), name="export"),
    path("me/delete/", api_security.DeleteAccountView.as_view(), name="delete-account"),
    path("tokens/", api_security.TokensView.as_view(), name="tokens"),
    path("tokens/<int:token_id>/", api_security.TokenRevokeView.as_view(), name="token-revoke"),
    path("logout/", api_security.LogoutView.as_view(), name="logout"),
    path("password/", api_security.PasswordView.as_view(), name="password"),
    path("password-reset/", api_security.PasswordResetView.as_view(), name="password-reset"),
    path("password-reset/confirm/", api_security.PasswordResetConfirmView.as_view(), name="password-reset-confirm"),
    path("preferences/", api.PreferencesView.as_view(), name="preferences"),
    path("webhooks/", api.WebhooksView.as_view(), name="webhooks"),
    path("webhooks/<int:webhook_id>/", api.WebhookView.as_view(), name="webhook"),
    path("webhooks/<int:webhook_id>/deliveries/", api.WebhookDeliveriesView.as_view(), name="webhook-deliveries"),
    path("vacation/", api.VacationView.as_view(), name="vacation"),
]
