"""Nothing of someone else's shows through an id (docs/social.md): every route of
the OpenAPI document with a path parameter, called by a stranger with an id of another user's
object (a private game, a message they may not read, an invitation, a join link that seats no one
any more, a notification, a push subscription or device, a token, a webhook), answers exactly as
it does for an id that names nothing, whatever the body (none, of the wrong shape, not JSON), and
writes nothing."""

from __future__ import annotations

import json
import re
import secrets
import uuid
from dataclasses import dataclass, field

import pytest
from django.apps import apps
from django.test import Client

from accounts import tokens
from accounts.models import AuthToken
from games.community import ladders, tournament_lifecycle
from games.models import ChatMessage, Game, Invitation, Notification
from games.realtime import channels
from tests.api.openapi import fetch_document
from tests.games.test_push import subscribe
from tests.games.push_mobile.standins import IPHONE, register

pytestmark = [pytest.mark.django_db, pytest.mark.long]
BODIES = [
    None,
    {"bogus": 1},
    {
        "move": {"type": "x"},
        "expected_version": 0,
        "seq": 1,
        "seat": 1,
        "reason": "r",
        "channel": "players",
        "text": "hi",
        "invite": ["alice"],
    },
    "notjson",
]
# Path parameters that name nothing of anyone's: what they name is shown to everyone alike, so
# there is no one's object for a stranger to tell from a missing one.
PUBLIC = {
    "kind": "a game kind: the catalogue is the same for everyone",
    "username": "a public profile; the private games its history hides are tests/abuse/test_private_tables.py's",
}


@dataclass
class Secret:
    """One object a stranger may not see or touch: `param` names it, `context` fills the route's
    other parameters."""

    param: str
    value: str
    what: str
    context: dict[str, str] = field(default_factory=dict)


def missing(param: str) -> str:
    """An id of the parameter's kind that names nothing."""
    if param in ("game_id", "tournament_id"):
        return str(uuid.uuid4())
    if param == "code":
        return secrets.token_urlsafe(24)
    return str(10**9 + secrets.randbelow(10**6))  # beyond every row's id, within an int column


def answer(client: Client, method: str, path: str, body, token: str):
    kwargs = {"HTTP_AUTHORIZATION": f"Token {token}"}
    if body is not None:
        kwargs["data"] = body if isinstance(body, str) else json.dumps(body)
        kwargs["content_type"] = "application/json"
    response = getattr(client, method)(path, **kwargs)
    assert not getattr(response, "streaming", False), f"{method} {path} streamed to a stranger"
    return response.status_code, response.content


def everything(but_token: str) -> dict[str, list[dict]]:
    """Every row of every table, bar the `last_used_at` of the stranger's own token (using a token
    is what moves it)."""
    rows = {}
    for model in apps.get_models():
        values = list(model.objects.order_by("pk").values())
        if model is AuthToken:
            mine = AuthToken.objects.get(digest=but_token).pk
            values = [{**v, "last_used_at": None} if v["id"] == mine else v for v in values]
        rows[model._meta.label] = values
    return rows


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


@pytest.fixture
def secrets_of_others(private_tables, alice, bob, duel):
    """bob's things, and alice's games with him, each as a stranger would name it."""
    lobby, playing = private_tables
    in_private = str(ChatMessage.objects.get(game_id=playing).pk)
    table_talk = alice.post(f"/api/v1/games/{duel}/chat/", {"channel": "players", "text": "psst"})
    assert table_talk.status_code == 201, table_talk.content
    over = alice.post("/api/v1/games/", {"kind": "duel", "private": True}).json()
    assert alice.post(f"/api/v1/games/{over['id']}/leave/").status_code == 200  # the creator: cancelled
    _, subscription = subscribe(bob, "http://127.0.0.1:9/push/bob")
    device = register(bob, "apns", IPHONE)
    hook = bob.post("/api/v1/accounts/webhooks/", {"url": "http://127.0.0.1:9/hook"})
    assert hook.status_code == 201, hook.content
    notice = Notification.objects.filter(user=bob.user).first()
    assert notice is not None
    # bob's open user stream, as the process holding it registers it (channels.stream_key).
    stream_id = uuid.uuid4().hex
    channels.client().hset(channels.stream_key(stream_id), mapping={"user": str(bob.user.pk), "games": "0"})
    channels.client().expire(channels.stream_key(stream_id), 300)
    # A private tournament of alice's, and a ladder challenge between alice and bob.
    cup = tournament_lifecycle.create(alice.user, "Private cup", "duel", "swiss", 2, rounds=3, private=True)
    ladders.join("duel", alice.user)
    ladders.join("duel", bob.user)
    challenged = ladders.challenge("duel", bob.user, alice.user.username)
    return [
        Secret("tournament_id", str(cup.pk), "alice's private tournament"),
        Secret("challenge_id", str(challenged.pk), "bob's challenge to alice"),
        Secret("game_id", lobby, "a private game's lobby", {"message_id": in_private}),
        Secret("game_id", playing, "a private game under way", {"message_id": in_private}),
        Secret("message_id", str(table_talk.json()["id"]), "the players' talk, to a spectator", {"game_id": duel}),
        Secret("invitation_id", str(Invitation.objects.get(game_id=lobby, invitee=bob.user).pk), "bob's invitation"),
        # An open game's link seats whoever holds it (that is what it is for); past the lobby it
        # seats no one, and then it is as good as no link.
        Secret("code", Game.objects.get(pk=playing).join_code, "the join link of a game under way"),
        Secret("code", over["join_code"], "the join link of a cancelled game"),
        Secret("notification_id", str(notice.pk), "bob's notification"),
        Secret("subscription_id", str(subscription["id"]), "bob's browser"),
        Secret("device_id", str(device["id"]), "bob's phone"),
        Secret("token_id", str(AuthToken.objects.filter(user=bob.user).first().pk), "bob's token"),
        Secret("webhook_id", str(hook.json()["id"]), "bob's webhook"),
        Secret("stream_id", stream_id, "bob's open stream", {"game_id": duel, "tournament_id": str(cup.pk)}),
    ]


def fill(template: str, values: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: values[m[1]], template)


def test_every_route_answers_a_stranger_as_for_an_id_that_names_nothing(secrets_of_others, make_player):
    stranger = make_player("stranger")
    before = everything(tokens.digest(stranger.token))
    walked, differing, uncovered, named = 0, [], [], set()
    for template, operations in fetch_document()["paths"].items():
        params = set(re.findall(r"\{(\w+)\}", template))
        if not params or params <= PUBLIC.keys():
            continue
        cases = [s for s in secrets_of_others if s.param in params and params <= {s.param, *s.context}]
        if not cases:
            uncovered.append(template)
            continue
        for method in operations:
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            for case in cases:
                named.add(case.what)
                values = {**case.context, case.param: case.value}
                seen_path = fill(template, values)
                unseen_path = fill(template, {**values, case.param: missing(case.param)})
                for body in BODIES if method != "get" else [None]:
                    walked += 1
                    seen = answer(Client(), method, seen_path, body, stranger.token)
                    unseen = answer(Client(), method, unseen_path, body, stranger.token)
                    if seen != unseen:
                        differing.append((method.upper(), template, case.what, body, seen, unseen))
    assert uncovered == [], (
        f"routes naming something no Secret stands for (add one, or say in PUBLIC why not): {uncovered}"
    )
    assert named == {s.what for s in secrets_of_others}, "a case no route of the document takes"
    assert walked > 150
    assert differing == [], "\n".join(
        f"{m} {t} ({w}) {b!r}: {s[0]} {s[1][:90]!r} vs {u[0]} {u[1][:90]!r}" for m, t, w, b, s, u in differing
    )
    assert everything(tokens.digest(stranger.token)) == before, "a stranger's call wrote something"


def test_an_invitee_who_declined_is_a_stranger_again(private_tables, bob):
    lobby = private_tables[0]
    invitation = Invitation.objects.get(game_id=lobby, invitee=bob.user)
    assert bob.post(f"/api/v1/invitations/{invitation.pk}/decline/").status_code == 200
    for path in ("", "events/", "chat/", "state/", "abort/", "disputes/"):
        seen = answer(Client(), "get", f"/api/v1/games/{lobby}/{path}", None, bob.token)
        unseen = answer(Client(), "get", f"/api/v1/games/{uuid.uuid4()}/{path}", None, bob.token)
        assert seen == unseen and seen[0] == 404, path
    assert Notification.objects.filter(user=bob.user).exists()  # the invitation notice stays his
