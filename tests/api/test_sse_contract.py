"""Server-Sent Events in the contract: each stream's response is a `oneOf` with one schema per
`event:` name, and the operation's `x-sse-events` maps every name to its schema
(docs/api-contract.md says why). Against a real server: every message two streams send (ready,
the log's events, chat, the user's games and notifications, end) has a documented name and the
data its schema says."""

import pytest

from tests.api.openapi import Contract, fetch_document
from tests.live_server import game_stream, user_stream

STREAM = "text/event-stream"


def streams(doc: dict):
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            content = operation.get("responses", {}).get("200", {}).get("content", {})
            if STREAM in content:
                yield f"{method.upper()} {path}", operation, content[STREAM]["schema"]


def component(doc: dict, ref: str) -> dict:
    return doc["components"]["schemas"][ref.rsplit("/", 1)[1]]


@pytest.mark.django_db
def test_every_stream_names_each_event_with_a_schema_of_its_own():
    doc = fetch_document()
    found = list(streams(doc))
    assert {name for name, _, _ in found} == {"GET /api/v1/games/{game_id}/stream/", "GET /api/v1/stream/"}
    for name, operation, schema in found:
        events = operation["x-sse-events"]
        assert {"ready", "end"} <= set(events), name
        refs = [event["$ref"] for event in events.values()]
        assert len(set(refs)) == len(refs), f"{name}: two event names share a schema"
        members = [member["$ref"] for member in component(doc, schema["$ref"])["oneOf"]]
        assert sorted(members) == sorted(refs), name
        for ref in refs:
            assert component(doc, ref)["type"] == "object", ref


@pytest.mark.django_db(transaction=True)
def test_what_the_streams_send_is_what_the_document_says(server, alice, bob, duel):
    contract = Contract(fetch_document())
    documented = {name.split()[1]: operation["x-sse-events"] for name, operation, _ in streams(contract.doc)}
    game = game_stream(server, alice.token, duel, after=0)
    mine = user_stream(server, bob.token)
    received = {"game": game.take(5), "user": [mine.next()]}  # ready and the four events so far
    with server.client(alice.token) as http:
        listed = http.get(f"/games/{duel}/legal-moves/").json()
        assert (
            http.post(
                f"/games/{duel}/moves/", json={"move": listed["moves"][0], "expected_version": listed["version"]}
            ).status_code
            == 201
        )
        assert http.post(f"/games/{duel}/chat/", json={"channel": "players", "text": "gg"}).status_code == 201
        received["game"] += game.until(lambda m: m.event == "chat")
        received["user"] += mine.until(lambda m: m.event == "notification")
        assert http.post("/accounts/logout/").status_code == 204  # the game stream's token: revoked
    received["game"] += game.until(lambda m: m.event == "end")
    game.close()
    mine.close()
    for stream, path in (("game", "/api/v1/games/{game_id}/stream/"), ("user", "/api/v1/stream/")):
        names = {m.event for m in received[stream]}
        assert {"ready", "end" if stream == "game" else "notification"} <= names
        for message in received[stream]:
            assert message.event in documented[path], f"{path}: `event: {message.event}` is undocumented"
            schema = documented[path][message.event]["$ref"].rsplit("/", 1)[1]
            errors = list(contract.component(schema).iter_errors(message.data))
            assert not errors, f"{path} `{message.event}`: {errors[0].message[:300]}"
