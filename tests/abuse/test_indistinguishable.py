"""A private game is indistinguishable from a missing one (issue 33 #7; docs/social.md): every
route and method of the OpenAPI document, called by a stranger with a private game's id, answers
exactly as it does for a random id, whatever the body (none, of the wrong shape, not JSON)."""
from __future__ import annotations

import json
import re
import uuid

import pytest
from django.test import Client

from games.models import ChatMessage, Invitation, Notification
from tests.api.openapi import fetch_document

pytestmark = pytest.mark.django_db
BODIES = [None, {"bogus": 1}, {"move": {"type": "x"}, "expected_version": 0, "seq": 1, "seat": 1,
                                   "reason": "r", "channel": "players", "text": "hi", "invite": ["alice"]},
          "notjson"]


def answer(client: Client, method: str, path: str, body, token: str):
    kwargs = {"HTTP_AUTHORIZATION": f"Token {token}"}
    if body is not None:
        kwargs["data"] = body if isinstance(body, str) else json.dumps(body)
        kwargs["content_type"] = "application/json"
    response = getattr(client, method)(path, **kwargs)
    assert not getattr(response, "streaming", False), f"{method} {path} streamed to a stranger"
    return response.status_code, response.content


@pytest.fixture
def private_tables(alice, bob):
    """Two private games of alice's with bob: one open, one active, a chat message and an
    invitation in them."""
    lobby = alice.post("/api/v1/games/", {"kind": "duel", "private": True, "invite": ["bob"]}).json()["id"]
    playing = alice.post("/api/v1/games/", {"kind": "duel", "private": True}).json()
    assert bob.post(f"/api/v1/join/{playing['join_code']}/").status_code == 200
    assert alice.post(f"/api/v1/games/{playing['id']}/start/").status_code == 200
    said = alice.post(f"/api/v1/games/{playing['id']}/chat/", {"channel": "players", "text": "hi"})
    assert said.status_code == 201
    return [lobby, playing["id"]]


def test_every_route_answers_a_stranger_as_for_a_game_that_does_not_exist(private_tables, make_player):
    stranger = make_player("stranger")
    message = ChatMessage.objects.first().pk
    ids = {"message_id": str(message)}
    doc = fetch_document()
    walked, differing = 0, []
    for template, operations in doc["paths"].items():
        if "{game_id}" not in template:
            continue
        for method in operations:
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            for game_id in private_tables:
                secret = re.sub(r"\{(\w+)\}", lambda m: game_id if m[1] == "game_id" else ids[m[1]], template)
                missing = secret.replace(game_id, str(uuid.uuid4()))
                for body in BODIES if method != "get" else [None]:
                    walked += 1
                    seen = answer(Client(), method, secret, body, stranger.token)
                    unseen = answer(Client(), method, missing, body, stranger.token)
                    if seen != unseen:
                        differing.append((method.upper(), template, body, seen, unseen))
    assert walked > 100
    assert differing == [], "\n".join(f"{m} {t} {b!r}: {s[0]} {s[1][:90]!r} vs {u[0]}" for m, t, b, s, u in differing)


def test_an_invitee_who_declined_is_a_stranger_again(private_tables, bob):
    lobby = private_tables[0]
    invitation = Invitation.objects.get(game_id=lobby, invitee=bob.user)
    assert bob.post(f"/api/v1/invitations/{invitation.pk}/decline/").status_code == 200
    for path in ("", "events/", "chat/", "state/", "abort/", "disputes/"):
        seen = answer(Client(), "get", f"/api/v1/games/{lobby}/{path}", None, bob.token)
        unseen = answer(Client(), "get", f"/api/v1/games/{uuid.uuid4()}/{path}", None, bob.token)
        assert seen == unseen and seen[0] == 404, path
    assert Notification.objects.filter(user=bob.user).exists()  # the invitation notice stays his
