from django.urls import path

from accounts import api

urlpatterns = [
    path("register/", api.RegisterView.as_view(), name="register"),
    path("token/", api.TokenView.as_view(), name="token"),
    path("me/", api.MeView.as_view(), name="me"),
]
