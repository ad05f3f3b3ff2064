"""Hidden information on streams is exactly that of /events/: every game played whole through a
real server while every seat and a spectator watch its stream; what each stream carried must be,
entry for entry, what /events/ shows the same viewer at that moment (whose redaction the engines'
and the API's own tests check phase by phase). A stream opened mid-game must agree too. The same
holds of the game followed on each viewer's own stream (`/stream/?games=`), which carries it
frame for frame as the game's stream does."""

import random

import pytest

from games.models import Event, Game
from tests.conftest import start_game
from tests.live_server import followed_stream, game_stream

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.long]

KINDS = [("duel", 2), ("pickpic", 3), ("photograph", 2), ("provence", 2)]


def caught_up(viewers, streams, game_id, server, after, version):
    """Each stream's messages up to `version`, beside what /events/ shows the same viewer now:
    both read before anyone acts again, so what may be shown only for a moment (Photograph's
    blurred faces) is shown by both or by neither."""
    for i, (viewer, stream) in enumerate(zip(viewers, streams)):
        got = stream.until(lambda m: int(m.id) >= version, timeout=60) if version > after[i] else []
        with server.client(viewer.token) as http:
            log = http.get(f"/games/{game_id}/events/", params={"after": after[i], "limit": 1000}).json()
        assert [m.data["event"] for m in got] == log["events"], (viewer, after[i], version)
        assert [int(m.id) for m in got] == list(range(after[i] + 1, version + 1))
        assert all(m.data["your_seat"] == log["your_seat"] for m in got)
        after[i] = version
        yield from got


@pytest.mark.parametrize("open_stream", [game_stream, followed_stream], ids=["game-stream", "user-stream"])
@pytest.mark.parametrize("kind, players", KINDS)
def test_each_viewer_stream_shows_what_events_shows_them_through_a_whole_game(
    server, make_player, kind, players, open_stream
):
    seats = [make_player() for _ in range(players)]
    spectator = make_player()
    game_id = start_game(seats[0], seats[1:], kind=kind)
    viewers = [*seats, spectator]
    streams = [open_stream(server, v.token, game_id, after=0) for v in viewers]
    for stream in streams:
        assert stream.next().event == "ready"
    after = [0] * len(streams)  # per stream, the last seq compared
    chooser = random.Random(kind)
    clients = [server.client(p.token) for p in seats]
    seen = []
    try:
        seen += caught_up(viewers, streams, game_id, server, after, Game.objects.get(pk=game_id).version)
        for step in range(2000):
            game = Game.objects.get(pk=game_id)
            if game.status != "active":
                break
            if step == 10:  # a spectator who joins the stream mid-game, from the present
                late = open_stream(server, spectator.token, game_id)
                ready = late.next()
                assert ready.event == "ready" and ready.data["after"] == game.version
                viewers.append(spectator)
                streams.append(late)
                after.append(ready.data["after"])
            seat = chooser.choice(game.active_seats)
            listed = clients[seat].get(f"/games/{game_id}/legal-moves/").json()
            answer = clients[seat].post(
                f"/games/{game_id}/moves/",
                json={"move": chooser.choice(listed["moves"]), "expected_version": listed["version"]},
            )
            assert answer.status_code == 201, answer.text
            seen += caught_up(viewers, streams, game_id, server, after, answer.json()["version"])
        assert Game.objects.get(pk=game_id).status == "finished"
        assert step > 10 and set(after) == {Game.objects.get(pk=game_id).version}
        # the seed shows in GameFinished only; before it, in no message
        seed = Event.objects.get(game_id=game_id, seq=1).data["seed"]
        assert not any(seed in str(m.data) for m in seen if m.data["event"]["type"] != "GameFinished")
        if kind == "photograph":  # the moment's reveal reached the streams: the case compared above
            shown = [p for m in seen for p in m.data["event"].get("played", []) if p["blurred"]]
            assert any("number" in p for p in shown), shown[:3]
    finally:
        for client in clients:
            client.close()
        for stream in streams:
            stream.close()
