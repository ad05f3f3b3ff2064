"""What the table shows for a moment, over HTTP: a Photograph blurred shot's face is in the move's
answer, in the view and in the log until the next action, and never after."""

import random

from games.models import Event
from tests.conftest import start_game


def blurred_plays(event):
    record = event.data.get("record") or {}
    return [p for p in record.get("played", []) if p["blurred"]]


def test_a_blurred_shot_is_shown_when_played_and_not_in_later_reads_or_replays(alice, bob):
    players = [alice, bob]
    game_id = start_game(alice, [bob], kind="photograph")
    chooser = random.Random("moments")
    for _ in range(400):
        game = alice.game(game_id)
        seat = chooser.choice(game["active_seats"])
        moves = players[seat].get(f"/api/v1/games/{game_id}/legal-moves/").json()["moves"]
        answer = players[seat].move(game_id, chooser.choice(moves), game["version"])
        assert answer.status_code == 201, answer.content
        last = Event.objects.filter(game_id=game_id).order_by("-seq").first()
        if blurred_plays(last):
            break
    else:
        raise AssertionError("no blurred shot in 400 moves")
    play = blurred_plays(last)[0]
    colour, number = play["card"].rsplit("-", 1)
    face = {"seat": play["seat"], "colour": colour, "number": int(number)}
    assert face in answer.json()["state"]["shown"], "the move's answer shows the face"
    for viewer in players:
        assert face in viewer.game(game_id)["state"]["shown"]
        line = viewer.get(f"/api/v1/games/{game_id}/events/", after=last.seq - 1).json()["events"][0]
        assert {"seat": face["seat"], "colour": colour, "number": int(number)}.items() <= next(
            p for p in line["played"] if p["blurred"]
        ).items(), "the fresh log line shows it"
    # The next action: the face is turned down for good.
    game = alice.game(game_id)
    if game["status"] == "active":
        seat = game["active_seats"][0]
        moves = players[seat].get(f"/api/v1/games/{game_id}/legal-moves/").json()["moves"]
        assert players[seat].move(game_id, moves[0], game["version"]).status_code == 201
    for viewer in players:
        line = viewer.get(f"/api/v1/games/{game_id}/events/", after=last.seq - 1).json()["events"][0]
        assert all("number" not in p for p in line["played"] if p["blurred"]), "later log reads"
        replay = viewer.get(f"/api/v1/games/{game_id}/state/", at=last.seq).json()["state"]
        assert replay["shown"] == [], "replays of past states"
        if game["status"] == "active":
            assert face not in viewer.game(game_id)["state"]["shown"]
