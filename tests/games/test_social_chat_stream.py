"""Chat on the live channel, against a real server process: a new message reaches the game's
stream as `event: chat` (no id: it is not an event of the log), to the readers of its channel
only; a move still arrives as an event with its seq. Waits are bounded; nothing is timed."""

import queue

import pytest

from tests.live_server import game_stream

pytestmark = pytest.mark.django_db(transaction=True)


def say(server, player, game_id, channel, text):
    with server.client(player.token) as http:
        response = http.post(f"/games/{game_id}/chat/", json={"channel": channel, "text": text})
    assert response.status_code == 201, response.text
    return response.json()


def test_chat_reaches_the_streams_of_its_channel_as_its_own_message_type(server, alice, bob, carol, duel):
    streams = {who: game_stream(server, who.token, duel) for who in (alice, bob, carol)}
    for stream in streams.values():
        assert stream.next().event == "ready"
    said = say(server, alice, duel, "players", "<i>hello</i> bob")
    for who in (alice, bob):
        message = streams[who].next()
        assert (message.event, message.id) == ("chat", None)
        assert message.data == {**said, "created_at": message.data["created_at"]}
        assert message.data["text"] == "<i>hello</i> bob"
    kibitz = say(server, carol, duel, "spectators", "nice hand")
    seen = streams[carol].next()
    assert (seen.event, seen.data["id"], seen.data["channel"]) == ("chat", kibitz["id"], "spectators")
    # The players' channel never reached the spectator, nor the spectators' the players.
    with server.client(alice.token) as http:
        moves = http.get(f"/games/{duel}/legal-moves/").json()
        played = http.post(
            f"/games/{duel}/moves/", json={"move": moves["moves"][0], "expected_version": moves["version"]}
        )
    assert played.status_code == 201
    version = played.json()["version"]
    for who, stream in streams.items():
        news = stream.next()
        assert news.event != "chat" and news.id == str(version), who
        with pytest.raises(queue.Empty):
            stream.next(timeout=0.5)
        stream.close()
