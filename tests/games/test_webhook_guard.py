"""The webhook URL guard: no address that reaches a private network, however it is spelled; one
DNS lookup per delivery, whose checked address is the one connected to."""

import ipaddress
import socket
import ssl
import subprocess
import threading

import pytest
from django.test import override_settings

from accounts import webhooks
from games.errors import Invalid
from tests.games.test_webhooks import Receiver, bob_gets_a_turn, register  # noqa: F401

EMBEDDED_LOOPBACK = [
    "http://[::127.0.0.1]:9/",
    "http://[64:ff9b::7f00:1]/",
    "http://[2002:7f00:1::]/",
    "http://[::ffff:0:7f00:1]/",
    "http://[fec0::1]/",
    "http://[::ffff:127.0.0.1]/",
]
OTHER_PRIVATE = [
    "http://[64:ff9b::a00:1]/",  # NAT64 of 10.0.0.1
    "http://[2002:c0a8:1::1]/",  # 6to4 of 192.168.0.1
    "http://[2002:a9fe:a9fe::1]/",  # 6to4 of the metadata address
    "http://[::ffff:169.254.169.254]/",
    "http://[fd00::1]/",
    "http://[fe80::1]/",
    "http://[2001:db8::1]/",
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",  # Teredo
    "http://[ff02::1]/",
    "http://[::]/",
    "http://100.64.0.1/",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://127.1/",
    "http://[64:ff9b:1::a00:1]/",
]
PUBLIC = [
    "http://8.8.8.8/hook",
    "http://[2606:4700:4700::1111]/",
    "http://[64:ff9b::808:808]/",
    "http://[2002:808:808::1]/",
    "http://[::ffff:8.8.8.8]/",
]


@pytest.mark.parametrize("url", EMBEDDED_LOOPBACK + OTHER_PRIVATE)
def test_addresses_that_reach_a_private_network_are_refused_at_registration(bob, url):
    with override_settings(WEBHOOKS_ALLOW_PRIVATE=False):
        response = bob.post("/api/v1/accounts/webhooks/", {"url": url})
    assert (response.status_code, response.json()["code"]) == (400, "invalid"), response.content
    assert bob.get("/api/v1/accounts/webhooks/").json() == []


@pytest.mark.parametrize("url", PUBLIC)
def test_public_addresses_including_nat64_and_6to4_of_public_ones_are_accepted(url):
    with override_settings(WEBHOOKS_ALLOW_PRIVATE=False):
        target = webhooks.resolve(url)
    assert all(webhooks.is_public(ipaddress.ip_address(a)) for a in target.addresses)


def fake_dns(monkeypatch, answers):
    """A resolver answering `answers` (lists of addresses), one list per lookup, counting lookups."""
    calls = []

    def getaddrinfo(host, port, *args, **kwargs):
        addresses = answers[min(len(calls), len(answers) - 1)]
        calls.append(host)
        return [
            (socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in addresses
        ]

    monkeypatch.setattr(webhooks.socket, "getaddrinfo", getaddrinfo)
    return calls


def test_every_resolved_address_is_checked_and_none_is_named(bob, monkeypatch):
    fake_dns(monkeypatch, [["93.184.216.34", "10.0.0.7"]])
    with override_settings(WEBHOOKS_ALLOW_PRIVATE=False):
        response = bob.post("/api/v1/accounts/webhooks/", {"url": "https://hooks.example.org/x"})
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert "10.0.0.7" not in response.content.decode()
    assert "93.184.216.34" not in response.content.decode()


def test_a_name_for_loopback_is_refused_without_saying_what_it_resolved_to(bob):
    with override_settings(WEBHOOKS_ALLOW_PRIVATE=False):
        response = bob.post("/api/v1/accounts/webhooks/", {"url": "http://localhost:9/"})
    body = response.content.decode()
    assert response.status_code == 400
    assert "127.0.0.1" not in body and "::1" not in body


def test_a_delivery_connects_to_the_address_it_checked_with_one_lookup(alice, bob, duel, monkeypatch):
    """DNS rebinding: the second answer would point elsewhere; the delivery never asks twice."""
    receiver = Receiver()
    try:
        port = receiver.server.server_address[1]
        fake_dns(monkeypatch, [["127.0.0.1"]])
        register(bob, f"http://hooks.example.test:{port}/hook")
        delivery = bob_gets_a_turn(alice, duel)
        calls = fake_dns(monkeypatch, [["127.0.0.1"], ["192.0.2.1"]])
        outcome = webhooks.post(delivery.webhook.url, "secret", delivery.pk, {"x": 1})
        assert outcome.ok, (outcome.error, calls, receiver.url)
        assert calls == ["hooks.example.test"]
        headers, _ = receiver.requests[0]
        assert headers["Host"] == f"hooks.example.test:{port}"
    finally:
        receiver.close()


def test_a_refused_address_at_delivery_sends_nothing_and_names_nothing(alice, bob, duel, monkeypatch):
    receiver = Receiver()
    try:
        register(bob, receiver.url)
        delivery = bob_gets_a_turn(alice, duel)
        with override_settings(WEBHOOKS_ALLOW_PRIVATE=False):
            outcome = webhooks.post(receiver.url, "secret", delivery.pk, {"x": 1})
        assert not outcome.ok and receiver.requests == []
        assert "non-public" in outcome.error and "127.0.0.1" not in outcome.error
    finally:
        receiver.close()


def test_https_keeps_the_host_name_for_sni_and_the_certificate_check(tmp_path, monkeypatch):
    """TLS to the pinned address still names the URL's host: the server sees it as SNI, and a
    certificate for another name (here a self-signed one) fails the check."""
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=other.test",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    names = []
    context.sni_callback = lambda sock, name, ctx: names.append(name)
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def serve():
        conn, _ = server.accept()
        try:
            context.wrap_socket(conn, server_side=True).close()
        except (ssl.SSLError, OSError):
            pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    fake_dns(monkeypatch, [["127.0.0.1"]])
    with override_settings(WEBHOOKS_ALLOW_PRIVATE=True):
        outcome = webhooks.post(f"https://hooks.example.test:{port}/x", "secret", 1, {})
    thread.join(5)
    server.close()
    assert names == ["hooks.example.test"]
    assert not outcome.ok and "certificate" in outcome.error.lower()


def test_a_redirect_is_not_followed(alice, bob, duel):
    receiver = Receiver(status=302)
    try:
        outcome = webhooks.post(receiver.url, "secret", 1, {})
        assert (outcome.ok, outcome.status_code, outcome.error) == (False, 302, "HTTP 302")
        assert len(receiver.requests) == 1
    finally:
        receiver.close()


def test_the_guard_rejects_a_bad_port_and_an_unresolvable_name_as_invalid():
    with pytest.raises(Invalid):
        webhooks.resolve("http://example.org:99999/")
    with pytest.raises(Invalid, match="does not resolve"):
        webhooks.resolve("http://no-such-host.invalid/")
