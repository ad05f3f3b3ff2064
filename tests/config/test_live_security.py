"""`live`'s host check, HTTPS redirect and security headers (config/security.py), as `web` has
them from Django's CommonMiddleware and SecurityMiddleware, with the same settings."""

from __future__ import annotations

import pytest
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from config import live_settings
from config.security import LiveSecurityMiddleware


def chain():
    return LiveSecurityMiddleware(lambda request: HttpResponse("ok"))


def test_live_runs_it_where_web_runs_django_s_security_middleware():
    assert "config.security.LiveSecurityMiddleware" in live_settings.MIDDLEWARE
    assert "django.middleware.security.SecurityMiddleware" not in live_settings.MIDDLEWARE


@override_settings(
    SECURE_SSL_REDIRECT=True,
    SECURE_HSTS_SECONDS=31536000,
    SECURE_HSTS_INCLUDE_SUBDOMAINS=True,
    SECURE_REDIRECT_EXEMPT=[],
    ALLOWED_HOSTS=["darkroom.example"],
)
def test_plain_http_is_sent_to_https_and_https_gets_hsts():
    answer = chain()(RequestFactory().get("/api/v1/stream/", HTTP_HOST="darkroom.example"))
    assert answer.status_code == 301 and answer["Location"] == "https://darkroom.example/api/v1/stream/"
    secure = chain()(RequestFactory().get("/api/v1/stream/", HTTP_HOST="darkroom.example", secure=True))
    assert secure.status_code == 200
    assert secure["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
    assert secure["X-Content-Type-Options"] == "nosniff"


@override_settings(ALLOWED_HOSTS=["darkroom.example"])
def test_a_host_not_allowed_is_refused():
    from django.core.exceptions import DisallowedHost

    with pytest.raises(DisallowedHost):  # Django's handler answers it 400
        chain()(RequestFactory().get("/api/v1/stream/", HTTP_HOST="evil.example"))
