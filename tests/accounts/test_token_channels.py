"""A revoked or expired token opens nothing, on every channel: the REST views, the long-poll, both
streams, stream tickets (bought with it before or after), against a real server process."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import tokens
from accounts.models import AuthToken
from tests.live_server import Stream, game_stream, user_stream
from tests.worker import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def revoke(key):
    AuthToken.objects.filter(digest=tokens.digest(key)).delete()


def expire(key):
    # Time cannot pass in a test, so the expiry moves back instead, through the model: the
    # streams' per-process token cache never outlives a token's expires_at, and hears of a changed
    # token through the save's signal (a bare UPDATE is a change no process could know of).
    token = AuthToken.objects.get(digest=tokens.digest(key))
    token.expires_at = timezone.now() - timedelta(seconds=1)
    token.save(update_fields=["expires_at"])


def refused_everywhere(server, key, game_id):
    with server.client(key) as http:
        # The server process remembers tokens while it hears revocations, which reach it through
        # Redis a moment after this process committed them: that moment, and no more.
        assert wait_for(lambda: http.get("/accounts/me/").status_code == 401, timeout=2)
        answers = [
            http.get("/accounts/me/"),
            http.get(f"/games/{game_id}/"),
            http.get(f"/games/{game_id}/events/", params={"after": 0, "wait": 1}),
            http.post("/stream-tickets/"),
        ]
    for answer in answers:
        assert (answer.status_code, answer.json()["code"]) == (401, "authentication_failed"), answer.text
    for stream in (game_stream(server, key, game_id), user_stream(server, key)):
        assert stream.status == 401 and "authentication_failed" in stream.body


@pytest.mark.parametrize("end", [revoke, expire])
def test_an_ended_token_is_refused_on_every_channel(server, alice, bob, duel, end):
    with server.client(alice.token) as http:
        ticket = http.post("/stream-tickets/").json()["ticket"]  # bought while the token was good
        assert http.get(f"/games/{duel}/events/", params={"after": 0}).status_code == 200
    opened = game_stream(server, alice.token, duel)
    assert opened.status == 200 and opened.next().event == "ready"
    opened.close()
    end(alice.token)
    refused_everywhere(server, alice.token, duel)
    late = Stream(f"{server.url}/api/v1/games/{duel}/stream/?ticket={ticket}", {"Accept": "text/event-stream"}).open()
    assert late.status == 401 and "authentication_failed" in late.body
    with server.client(bob.token) as http:  # the other player is untouched
        assert http.get(f"/games/{duel}/").status_code == 200


def test_a_logout_ends_the_token_on_the_streams_too(server, alice, duel):
    with server.client(alice.token) as http:
        assert http.post("/accounts/logout/").status_code == 204
    refused_everywhere(server, alice.token, duel)


@pytest.mark.parametrize("opened_with", ["header", "ticket"])
def test_an_open_stream_ends_when_its_token_is_revoked(server, alice, duel, opened_with):
    if opened_with == "header":
        streams = [game_stream(server, alice.token, duel), user_stream(server, alice.token)]
    else:
        with server.client(alice.token) as http:
            tickets = [http.post("/stream-tickets/").json()["ticket"] for _ in range(2)]
        streams = [
            Stream(
                f"{server.url}/api/v1/games/{duel}/stream/?ticket={tickets[0]}", {"Accept": "text/event-stream"}
            ).open(),
            Stream(f"{server.url}/api/v1/stream/?ticket={tickets[1]}", {"Accept": "text/event-stream"}).open(),
        ]
    for stream in streams:
        assert stream.status == 200 and stream.next().event == "ready"
    revoke(alice.token)
    for stream in streams:  # the server's heartbeat is 1 s: the check comes within a few
        ended = stream.until(lambda message: message.event == "end")
        assert "revoked" in ended[-1].data["reason"]
        assert stream.closed.wait(10)


def test_rest_requests_remember_the_token_while_the_process_hears_revocations(server, alice, duel):
    """A web process subscribed to live updates (it is from its start) looks a token up once per
    LIVE_AUTH_CACHE_SECONDS, not once per request: a change no process can hear of (a bare
    UPDATE) goes unseen, while a revocation, which every process hears, ends it at once."""
    with server.client(alice.token) as http:
        assert http.get(f"/games/{duel}/").status_code == 200
        AuthToken.objects.filter(digest=tokens.digest(alice.token)).update(
            expires_at=timezone.now() - timedelta(seconds=1)
        )
        assert http.get(f"/games/{duel}/").status_code == 200  # remembered
        revoke(alice.token)
        assert wait_for(lambda: http.get(f"/games/{duel}/").status_code == 401, timeout=2)
