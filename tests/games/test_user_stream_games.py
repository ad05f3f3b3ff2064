"""One stream per browser: the user's own stream (`/stream/`) carries the games it follows, each
frame as the game's own stream sends it (the game's id added, `game-` before its name, `id:`
`<game>:<seq>`), with the same resume per game. Games are followed by default (the user's own),
named on connect (`games=`), or added and dropped over HTTP against the open stream's id, through
any process. Against a real server process; waits are bounded, nothing is timed."""

import queue
import time

import pytest

from games.models import Invitation
from tests.games.test_streams import events_as_seen_by, mover, play
from tests.live_server import followed_stream, game_stream, user_stream
from tests.worker import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def frames_of(stream, game_id, event):
    return [m for m in stream.until(lambda m: m.event == event and m.data.get("game") == game_id)]


def test_my_stream_carries_my_games_events_as_their_own_streams_do(server, alice, bob, duel):
    mine = user_stream(server, bob.token)
    assert mine.next().event == "ready"
    own = game_stream(server, bob.token, duel)
    assert own.next().event == "ready"
    got = mine.until(lambda m: m.event == "game-ready")
    assert got[-1].data == {**own_ready(server, bob, duel), "game": duel}
    version = play(server, alice, duel)
    expected = own.next()
    news = mine.until(lambda m: m.event == "game-event")[-1]
    assert news.id == f"{duel}:{version}" and expected.id == str(version)
    assert news.data == {**expected.data, "game": duel}
    assert news.data["event"] == events_as_seen_by(server, bob, duel, after=version - 1)[0]
    mine.close()
    own.close()


def own_ready(server, who, game_id):
    """The `ready` a game's own stream sends `who` now."""
    stream = game_stream(server, who.token, game_id)
    ready = stream.next()
    stream.close()
    return ready.data


def test_a_spectator_names_a_game_on_connect_and_resumes_it_from_its_last_event(server, alice, bob, carol, duel):
    players = {0: alice, 1: bob}
    watching = followed_stream(server, carol.token, duel, after=0)
    ready = watching.next()
    assert ready.event == "ready" and ready.data["after"] == 0 and ready.data["your_seat"] is None
    first = watching.take(4)
    assert [m.id for m in first] == ["1", "2", "3", "4"]
    assert [m.data["event"] for m in first] == events_as_seen_by(server, carol, duel)
    play(server, mover(duel, players), duel)
    last = watching.next()
    assert last.id == "5"
    watching.close()
    for _ in range(3):  # moves while carol is away
        play(server, mover(duel, players), duel)
    # A browser's EventSource sends the last frame's id again: a game frame's names its game.
    again = followed_stream(server, carol.token, duel, **{"Last-Event-ID": f"{duel}:{last.id}"})
    assert again.next().data["after"] == 5
    play(server, mover(duel, players), duel)
    got = again.take(4)
    assert [m.id for m in got] == ["6", "7", "8", "9"]
    assert [m.data["event"] for m in got] == events_as_seen_by(server, carol, duel, after=5)
    assert again.pending() == []
    again.close()


def test_games_are_added_and_dropped_on_an_open_stream_through_another_process(server, alice, bob, carol, duel):
    from tests.live_server import Server

    other = Server().start()  # a second process: the change reaches the stream's over Redis
    try:
        stream = user_stream(server, carol.token)
        ready = stream.next()
        assert ready.event == "ready"
        stream_id = ready.data["stream"]
        with other.client(carol.token) as http:
            added = http.post(f"/stream/{stream_id}/games/", json={"game": duel, "after": 2})
        assert added.status_code == 202, added.text
        assert added.json() == {"stream": stream_id, "game": duel, "after": 2}
        got = stream.until(lambda m: m.event == "game-event" and m.id == f"{duel}:4")
        assert [m.event for m in got] == ["game-ready", "game-event", "game-event"]
        assert [m.data["event"] for m in got[1:]] == events_as_seen_by(server, carol, duel, after=2)
        with other.client(carol.token) as http:
            assert http.delete(f"/stream/{stream_id}/games/{duel}/").status_code == 204
            # only the stream's owner changes it, and only an open stream
            with other.client(bob.token) as theirs:
                stolen = theirs.post(f"/stream/{stream_id}/games/", json={"game": duel})
            assert (stolen.status_code, stolen.json()["code"]) == (404, "not_found")
        time.sleep(1.5)  # the drop reaches the stream (heartbeats are 1 s there)
        play(server, alice, duel)
        with pytest.raises(queue.Empty):
            stream.until(lambda m: m.event.startswith("game-"), timeout=3)
        stream.close()
        assert stream.closed.wait(10)
        with server.client(carol.token) as http:
            # the closed stream's key is gone: nothing more to follow on it
            assert wait_for(
                lambda: http.post(f"/stream/{stream_id}/games/", json={"game": duel}).status_code == 404, timeout=10
            )
    finally:
        other.stop()


def test_a_private_game_is_followed_only_while_its_viewer_may_see_it(server, alice, bob, carol):
    game = alice.post("/api/v1/games/", {"kind": "duel", "private": True, "invite": ["bob"]}).json()
    stranger = followed_stream(server, carol.token, game["id"])
    assert stranger.status == 200
    end = stranger.next()
    assert end.event == "end" and end.data["game"] == game["id"]  # `game-end`, read as its stream's `end`
    assert "game" not in [m.event for m in stranger.others if m.event.startswith("game-")]
    stranger.close()
    invited = followed_stream(server, bob.token, game["id"])
    assert invited.next().event == "ready"
    invitation = Invitation.objects.get(game_id=game["id"], invitee=bob.user)
    assert bob.post(f"/api/v1/invitations/{invitation.pk}/decline/").status_code == 200
    assert carol.post(f"/api/v1/join/{game['join_code']}/").status_code == 200  # news bob may not see
    seen = invited.until(lambda m: m.event == "end")
    assert [m.event for m in seen] == ["end"], [(m.event, m.data) for m in seen]
    assert "no longer see" in seen[-1].data["reason"]
    invited.close()


@pytest.mark.parametrize(
    "query, headers, code",
    [
        ("?games=not-a-uuid", {}, "invalid"),
        ("?games={game}:x", {}, "invalid"),
        ("?games={game}:-1", {}, "invalid"),
        ("", {"Last-Event-ID": "{game}:x"}, "invalid"),
        ("?games=" + ",".join(["00000000-0000-0000-0000-%012d" % i for i in range(51)]), {}, "invalid"),
    ],
)
def test_bad_user_stream_requests_get_a_clear_error(server, alice, duel, query, headers, code):
    with server.client(alice.token) as http:
        answer = http.get(
            f"/stream/{query.format(game=duel)}", headers={k: v.format(game=duel) for k, v in headers.items()}
        )
    assert (answer.status_code, answer.json()["code"]) == (400, code), answer.text


def test_following_a_game_needs_a_visible_game_and_an_open_stream_of_ones_own(server, alice, bob, carol):
    game = alice.post("/api/v1/games/", {"kind": "duel", "private": True, "invite": ["bob"]}).json()
    stream = user_stream(server, carol.token)
    stream_id = stream.next().data["stream"]
    with server.client(carol.token) as http:
        hidden = http.post(f"/stream/{stream_id}/games/", json={"game": game["id"]})
        assert (hidden.status_code, hidden.json()["code"]) == (404, "not_found")
        bad = http.post(f"/stream/{stream_id}/games/", json={"game": "nope"})
        assert (bad.status_code, bad.json()["code"]) == (400, "invalid")
        unknown = http.post("/stream/0123/games/", json={"game": game["id"]})
        assert unknown.status_code == 404
    stream.close()
