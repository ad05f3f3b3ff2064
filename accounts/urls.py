from django.urls import path

from accounts import api

urlpatterns = [
    path("register/", api.RegisterView.as_view(), name="register"),
    path("token/", api.TokenView.as_view(), name="token"),
    path("me/", api.MeView.as_view(), name="me"),
    path("preferences/", api.PreferencesView.as_view(), name="preferences"),
    path("webhooks/", api.WebhooksView.as_view(), name="webhooks"),
    path("webhooks/<int:webhook_id>/", api.WebhookView.as_view(), name="webhook"),
    path("webhooks/<int:webhook_id>/deliveries/", api.WebhookDeliveriesView.as_view(), name="webhook-deliveries"),
    path("vacation/", api.VacationView.as_view(), name="vacation"),
]
