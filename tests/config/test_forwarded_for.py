"""Proxies are declared, never guessed: with no proxy declared (DJANGO_TRUSTED_PROXIES=0, the
default) a client's X-Forwarded-For is ignored, so rotating it buys no fresh throttle window, on
login, registration and every other throttle that counts anonymous callers by address. With a
proxy declared, the address it appended is the client's, and whatever the client put in front
of it is still ignored."""

import pytest
from django.core.cache import cache
from django.test import override_settings
from django.urls import URLPattern, URLResolver, get_resolver
from django.conf import settings
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

from games.api.accounts import GuestAddressThrottle, LoginAccountThrottle, LoginAddressThrottle
from config.throttling import AnonWindowThrottle, UserWindowThrottle

RATE = 3
# Every endpoint an anonymous caller reaches, one per throttle that counts by address: POST bodies
# need not be valid (a throttle counts a request before the view reads it), but registration and
# login send real ones, as a real client's would.
ENDPOINTS = {
    "registration": (
        "post",
        "/api/v1/accounts/register/",
        lambda n: {"username": f"spoofer{n}", "password": "correct horse battery"},
    ),
    "login": ("post", "/api/v1/accounts/token/", lambda n: {"username": f"nobody{n}", "password": "wrong password"}),
    "password reset": ("post", "/api/v1/accounts/password-reset/", lambda n: {"email": f"x{n}@example.org"}),
    "password reset confirm": ("post", "/api/v1/accounts/password-reset/confirm/", lambda n: {}),
    "anonymous read": ("get", "/api/v1/kinds/", lambda n: None),
    "guest": ("post", "/api/v1/accounts/guest/", lambda n: {}),
}
# The throttles that count by address (DRF's get_ident): the per-account login throttle counts
# by username and is the only other kind.
BY_ADDRESS = {ScopedRateThrottle, AnonWindowThrottle, UserWindowThrottle, LoginAddressThrottle, GuestAddressThrottle}


@pytest.fixture
def real_rates(monkeypatch):
    """The suite relaxes every rate (tests/settings.py); these tests need rates that bite.
    THROTTLE_RATES is read from the class when a throttle is made, once per request."""
    cache.clear()
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"anon": f"{RATE}/min", "user": f"{RATE}/min", "auth": f"{RATE}/min"}
    )
    yield
    cache.clear()


def send(anonymous, name: str, n: int, **headers):
    method, path, body = ENDPOINTS[name]
    if method == "get":
        return getattr(anonymous, method)(path, **headers)
    return getattr(anonymous, method)(path, body(n), format="json", **headers)


def test_no_proxy_is_trusted_by_default():
    assert api_settings.NUM_PROXIES == 0


@pytest.mark.parametrize("name", ENDPOINTS)
def test_a_rotating_forwarded_for_header_still_gets_429(anonymous, real_rates, name):
    codes = [send(anonymous, name, n, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}").status_code for n in range(RATE + 3)]
    assert 429 not in codes[:RATE], codes
    assert codes[RATE:] == [429] * 3, codes


@pytest.mark.parametrize("name", ["registration", "login", "anonymous read"])
def test_with_a_declared_proxy_its_clients_are_told_apart_by_the_address_it_wrote(anonymous, real_rates, name):
    with override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}):
        # Two clients behind the proxy (REMOTE_ADDR is the proxy's): each has a window of its own,
        # and one that writes addresses of its own in front of the proxy's gains nothing.
        first = [
            send(anonymous, name, n, HTTP_X_FORWARDED_FOR=f"10.9.9.{n}, 198.51.100.1").status_code
            for n in range(RATE + 1)
        ]
        second = send(anonymous, name, 99, HTTP_X_FORWARDED_FOR="198.51.100.2").status_code
    assert first[-1] == 429 and 429 not in first[:RATE], first
    assert second != 429


def test_wrong_logins_from_a_rotating_forwarded_for_share_one_account_and_address_window(anonymous, make_player):
    """LoginAddressThrottle counts per (account, address): a client naming a new address in each
    request's header is still one address, and the owner's limit bites all the same."""
    make_player("owner")
    cache.clear()
    with override_settings(THROTTLE_LOGIN_ACCOUNT_ADDRESS=f"{RATE}/hour"):
        codes = [
            anonymous.post(
                "/api/v1/accounts/token/",
                {"username": "owner", "password": "wrong"},
                format="json",
                HTTP_X_FORWARDED_FOR=f"203.0.113.{n}",
            ).status_code
            for n in range(RATE + 2)
        ]
    cache.clear()
    assert 429 not in codes[:RATE] and codes[RATE:] == [429] * 2, codes


def test_guests_minted_from_a_rotating_forwarded_for_share_one_address_window(anonymous):
    """GuestAddressThrottle counts guests per address: naming a new address in each request's
    header does not mint more guests (and so more per-user limits)."""
    cache.clear()
    with override_settings(THROTTLE_GUEST_ADDRESS=f"{RATE}/hour"):
        codes = [
            send(anonymous, "guest", n, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}").status_code for n in range(RATE + 2)
        ]
    cache.clear()
    assert 429 not in codes[:RATE] and codes[RATE:] == [429] * 2, codes


def test_every_throttle_an_anonymous_caller_meets_is_covered_above():
    """A new throttle that counts by address must join ENDPOINTS (and so this proof)."""
    found = set()
    for view in _api_views(get_resolver().url_patterns):
        for throttle in getattr(view, "throttle_classes", ()):
            found.add(throttle)
    assert found - {LoginAccountThrottle} <= BY_ADDRESS, found


def _api_views(patterns):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _api_views(pattern.url_patterns)
        elif isinstance(pattern, URLPattern) and hasattr(pattern.callback, "cls"):
            yield pattern.callback.cls
