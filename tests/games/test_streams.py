"""Server-Sent Events against a real server process (uvicorn, the test database, Redis): each
event as /events/ shows it, resume without loss or repeat, heartbeats, the caller's own stream,
tickets, and the bad inputs. Waits are bounded; nothing here is timed."""

import pytest

from games.models import Game
from tests.live_server import Stream, game_stream, long_poll, user_stream

pytestmark = pytest.mark.django_db(transaction=True)


def play(server, player, game_id):
    """The player's first legal move, made through the server."""
    with server.client(player.token) as http:
        listed = http.get(f"/games/{game_id}/legal-moves/").json()
        answer = http.post(
            f"/games/{game_id}/moves/", json={"move": listed["moves"][0], "expected_version": listed["version"]}
        )
    assert answer.status_code == 201, answer.text
    return answer.json()["version"]


def events_as_seen_by(server, player, game_id, after=0):
    with server.client(player.token) as http:
        return http.get(f"/games/{game_id}/events/", params={"after": after, "limit": 1000}).json()["events"]


def mover(game_id, players):
    return players[Game.objects.get(pk=game_id).active_seats[0]]


def test_a_game_stream_sends_each_event_as_events_shows_it_then_the_news(server, alice, bob, carol, duel):
    streams = {who: game_stream(server, who.token, duel, after=0) for who in (alice, bob, carol)}
    for who, stream in streams.items():
        ready = stream.next()
        assert ready.event == "ready" and ready.data["version"] == 4 and ready.data["after"] == 0
        sent = stream.take(4)
        assert [m.id for m in sent] == ["1", "2", "3", "4"]
        assert [m.data["event"] for m in sent] == events_as_seen_by(server, who, duel)
    version = play(server, alice, duel)
    for who, stream in streams.items():
        news = stream.next()
        assert news.id == str(version) and news.data["version"] == version
        assert news.data["event"] == events_as_seen_by(server, who, duel, after=version - 1)[0]
        assert news.data["your_turn"] == (who is bob) and news.data["active_seats"] == [1]
        assert news.data["your_seat"] == {alice: 0, bob: 1, carol: None}[who]
        stream.close()


def test_without_a_cursor_a_stream_starts_at_the_present(server, alice, duel):
    stream = game_stream(server, alice.token, duel)
    assert stream.next().data["after"] == 4
    version = play(server, alice, duel)
    assert stream.next().id == str(version)
    stream.close()


def test_resuming_with_last_event_id_loses_and_repeats_nothing(server, alice, bob, duel):
    players = {0: alice, 1: bob}
    first = game_stream(server, bob.token, duel, after=0)
    first.take(1 + 4)
    play(server, mover(duel, players), duel)
    last = first.next()
    assert last.id == "5"
    first.close()
    for _ in range(3):  # moves while bob is away
        play(server, mover(duel, players), duel)
    again = game_stream(server, bob.token, duel, **{"Last-Event-ID": last.id})
    assert again.next().data["after"] == 5
    play(server, mover(duel, players), duel)
    got = again.take(4)
    assert [m.id for m in got] == ["6", "7", "8", "9"]
    assert [m.data["event"] for m in got] == events_as_seen_by(server, bob, duel, after=5)
    assert again.messages.empty()
    again.close()


def test_an_idle_stream_sends_heartbeat_comments(server, alice, duel):
    stream = game_stream(server, alice.token, duel)
    stream.next()
    assert stream.messages.empty()
    from tests.worker import wait_for

    assert wait_for(lambda: stream.comments >= 2, timeout=20)  # LIVE_HEARTBEAT_SECONDS=1 there
    stream.close()


@pytest.mark.parametrize(
    "path, headers, status, code",
    [
        ("/games/{game}/stream/", {}, 401, "not_authenticated"),
        ("/games/{game}/stream/", {"Authorization": "Token nonsense"}, 401, "authentication_failed"),
        ("/games/{game}/stream/?token={token}", {}, 401, "not_authenticated"),  # never a token in a URL
        ("/games/{game}/stream/?ticket=made-up", {}, 401, "authentication_failed"),
        ("/games/00000000-0000-0000-0000-000000000000/stream/", "auth", 404, "not_found"),
        ("/games/not-a-uuid/stream/", "auth", 404, "not_found"),
        ("/games/{game}/stream/?after=x", "auth", 400, "invalid"),
        ("/games/{game}/stream/?after=-1", "auth", 400, "invalid"),
        ("/games/{game}/stream/", {"Last-Event-ID": "7.5"}, 400, "invalid"),
        ("/stream/", {}, 401, "not_authenticated"),
        ("/stream/?after=x", "auth", 400, "invalid"),
    ],
)
def test_bad_stream_requests_get_a_clear_error(server, alice, duel, path, headers, status, code):
    auth = {"Authorization": f"Token {alice.token}"}
    if headers == "auth":
        headers = auth
    elif "Last-Event-ID" in headers:
        headers = {**auth, **headers}
    with server.client() as http:
        answer = http.get(f"{server.url}/api/v1{path.format(game=duel, token=alice.token)}", headers=headers)
    assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text


def test_a_ticket_opens_one_stream_once(server, alice, bob, duel):
    with server.client(bob.token) as http:
        issued = http.post("/stream-tickets/")
    assert issued.status_code == 201 and 0 < issued.json()["expires_in"] <= 60
    ticket = issued.json()["ticket"]
    stream = Stream(
        f"{server.url}/api/v1/games/{duel}/stream/?after=4&ticket={ticket}",
        {"Accept": "text/event-stream", "Cache-Control": "no-cache"},
    ).open()  # as EventSource
    assert stream.status == 200 and stream.next().data["your_seat"] == 1  # the ticket is bob's
    version = play(server, alice, duel)
    assert stream.next().id == str(version)
    stream.close()
    reused = Stream(f"{server.url}/api/v1/games/{duel}/stream/?ticket={ticket}", {"Accept": "text/event-stream"}).open()
    assert (reused.status, "authentication_failed" in reused.body) == (401, True)
    with server.client() as http:
        anonymous = http.post("/stream-tickets/")
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, "not_authenticated")


def test_a_ticket_lives_in_redis_with_its_time_to_live(server, bob, settings):
    from games.realtime import channels

    with server.client(bob.token) as http:
        ticket = http.post("/stream-tickets/").json()["ticket"]
    ttl = channels.client().ttl(channels.key("ticket", ticket))
    assert 0 < ttl <= settings.STREAM_TICKET_SECONDS


def test_my_stream_tells_of_my_games_starting_my_turn_notices_and_the_end(server, alice, bob):
    stream = user_stream(server, bob.token, own=False)  # the games' own events: test_user_stream_games
    assert stream.next().event == "ready"
    with server.client(alice.token) as http:
        game_id = http.post("/games/", json={"kind": "duel", "options": {"hand_size": 1}}).json()["id"]
    with server.client(bob.token) as http:
        assert http.post(f"/games/{game_id}/join/").status_code == 200
    joined = stream.next()
    assert (joined.event, joined.data["game"], joined.data["status"], joined.data["your_seat"]) == (
        "game",
        game_id,
        "open",
        1,
    )
    with server.client(alice.token) as http:
        assert http.post(f"/games/{game_id}/start/").status_code == 200
    started = stream.next()
    assert (started.data["status"], started.data["your_turn"]) == ("active", False)
    play(server, alice, game_id)
    got = stream.until(lambda m: m.event == "notification")
    turn = [m for m in got if m.event == "game"][-1]
    assert turn.data["your_turn"] is True
    assert got[-1].data["type"] == "your_turn" and got[-1].data["game"] == game_id
    players = {0: alice, 1: bob}
    while Game.objects.get(pk=game_id).status == "active":
        play(server, mover(game_id, players), game_id)
    got = stream.until(lambda m: m.event == "notification" and m.data["type"] == "finished", timeout=30)
    assert any(m.event == "game" and m.data["status"] == "finished" for m in got)
    notice = got[-1]
    stream.close()
    again = user_stream(server, bob.token, own=False, **{"Last-Event-ID": str(int(notice.id) - 1)})
    resumed = again.until(lambda m: m.event == "notification")
    assert resumed[-1].id == notice.id and resumed[-1].data == notice.data
    again.close()


def test_waiting_clients_share_a_few_pooled_connections(server, alice, bob, carol, duel):
    """30 streams and 30 long-polls on one process (pool of 4 there): it never holds more than its
    pool's connections, though all of them hear the move. (Django's ASGI handler gives each request
    a thread for its sync parts, parked while the request waits: it holds no connection.)"""
    import threading
    import time

    from tests.live_server import web_connections

    from django.db import connections

    peak, done = [0], threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], web_connections())
            done.wait(0.02)
        connections.close_all()

    sampler = threading.Thread(target=sample)
    sampler.start()
    answers, polls = [], []

    def poll():
        with server.client(bob.token) as http:
            answers.append(http.get(f"/games/{duel}/events/", params={"after": 4, "wait": 25}))

    streams = []
    for count in (3, 27):
        streams += [game_stream(server, carol.token, duel) for _ in range(count)]
        for stream in streams[-count:]:
            stream.next()
        polls += [threading.Thread(target=poll) for _ in range(count)]
        for thread in polls[-count:]:
            thread.start()
        time.sleep(1)  # most long-polls are asleep by now
    version = play(server, alice, duel)
    for stream in streams:
        assert stream.next().id == str(version)
        stream.close()
    for thread in polls:
        thread.join(30)
    done.set()
    sampler.join()
    assert [len(a.json()["events"]) for a in answers] == [1] * 30
    assert 0 < peak[0] <= 4


def test_every_middleware_of_the_live_process_can_run_async():
    """One sync-only middleware makes Django run the chain, and the view, on a thread: each
    stream and long-poll would then hold one while it waits. `live` runs none (WhiteNoise, the
    site's only one, serves static files, which live has none of)."""
    from django.utils.module_loading import import_string

    from config import live_settings

    sync_only = [m for m in live_settings.MIDDLEWARE if not getattr(import_string(m), "async_capable", False)]
    assert sync_only == []


def test_a_deleted_token_stops_opening_long_polls_and_streams_at_once(server, bob, duel):
    """Each server process remembers tokens for its long-polls and streams (LIVE_AUTH_CACHE_SECONDS,
    30 s); deleting one is heard by every process through Redis, well before that."""
    from accounts.models import AuthToken
    from accounts.tokens import digest
    from tests.worker import wait_for

    with server.client(bob.token) as http:
        assert http.get(f"/games/{duel}/events/", params={"after": 4, "wait": 1}).status_code == 200
        assert http.get(f"/games/{duel}/events/", params={"after": 4, "wait": 1}).status_code == 200  # cached
        AuthToken.objects.get(digest=digest(bob.token)).delete()  # as revoking it does
        assert wait_for(lambda: http.get(f"/games/{duel}/events/", params={"after": 4}).status_code == 401, timeout=10)
        answer = http.get(f"/games/{duel}/stream/")
    assert (answer.status_code, answer.json()["code"]) == (401, "authentication_failed")


def test_a_notifying_move_reaches_the_game_s_readers_and_the_players_it_notifies(server, alice, bob, carol):
    """The last give of Pickpic starts the ranking: the two others are told it is their turn. A
    long-poll and a stream waiting on the game, and the told players' own streams, all hear of it."""
    import time

    from tests.conftest import start_game

    game_id = start_game(alice, [bob, carol], kind="pickpic")
    players = {p.user.pk: p for p in (alice, bob, carol)}
    by_seat = {s.number: players[s.user_id] for s in Game.objects.get(pk=game_id).seat_set.all()}
    for seat in (0, 1):
        before = play(server, by_seat[seat], game_id)
    told = [by_seat[0], by_seat[1]]
    own = {who: user_stream(server, who.token) for who in told}
    for stream in own.values():
        assert stream.next().event == "ready"
    watching = game_stream(server, carol.token, game_id)
    assert watching.next().data["after"] == before
    answers = []
    poller = long_poll(server, alice, game_id, after=before, wait=25, into=answers)
    time.sleep(1)  # the long-poll is asleep by now: it must be woken, not find the move there

    version = play(server, by_seat[2], game_id)

    assert watching.next().id == str(version)
    poller.join(30)
    assert [e["seq"] for e in answers[0].json()["events"]] == [version]
    for who, stream in own.items():
        turn = stream.until(lambda m: m.event == "game" and m.data["version"] == version)[-1]
        assert (turn.data["game"], turn.data["your_turn"]) == (game_id, True), who.user.username
        stream.close()
    watching.close()
    assert Game.objects.get(pk=game_id).active_seats == [0, 1, 2]
