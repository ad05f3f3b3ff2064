"""A tournament followed live (docs/tournaments.md, "Following a tournament live"): a player's and
an organiser's own stream (`/stream/`) carry a `tournament` message for each tournament of theirs
on connect and at each change (a player in or out, the start, a game over, its places in the
standings, a new round), once more when they leave it, and none of others' tournaments. Anyone who
may see a tournament follows it on their stream on request (`POST /stream/{stream}/tournaments/`),
at most LIVE_STREAM_TOURNAMENTS of them; a private one only if they may see it. Against a real
server process; the messages are checked against the OpenAPI document."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from accounts.models import User
from games.community import tournament_staff
from games.models import TournamentRound
from tests.api.openapi import Contract, fetch_document
from tests.live_server import Server, user_stream

pytestmark = pytest.mark.django_db(transaction=True)


CUP = {"kind": "duel", "format": "swiss", "table_size": 2, "rounds": 1}


def call(server, who, method: str, path: str, body: dict | None = None) -> dict:
    with server.client(who.token) as http:
        answer = http.request(method, f"/tournaments/{path}", json=body)
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def news_of(stream, tournament: str) -> dict:
    """The next `tournament` message of this tournament (others' messages are passed over)."""
    return stream.until(lambda m: m.event == "tournament" and m.data["tournament"] == tournament)[-1].data


def test_a_players_stream_hears_each_change_of_their_tournament(server, alice, bob, carol):
    contract = Contract(fetch_document())
    schema = contract.component("UserStreamTournament")
    made = call(
        server, carol, "POST", "", {"name": "Cup", "kind": "duel", "format": "swiss", "table_size": 2, "rounds": 2}
    )
    t = made["id"]
    organiser = user_stream(server, carol.token)
    first = news_of(organiser, t)  # on connect: the organiser's own tournament
    assert first["status"] == "registering" and first["registered"] == 0
    mine = user_stream(server, alice.token)
    assert mine.next().event == "ready"

    call(server, alice, "POST", f"{t}/register/")
    heard = [news_of(mine, t)]
    assert heard[-1]["registered"] == 1 and news_of(organiser, t)["registered"] == 1
    call(server, bob, "POST", f"{t}/register/")
    heard.append(news_of(mine, t))
    assert heard[-1]["registered"] == 2

    call(server, carol, "POST", f"{t}/start/")
    heard.append(news_of(mine, t))
    assert heard[-1] == {**heard[-1], "status": "running", "current_round": 1, "games": 1, "games_over": 0}

    referee = User.objects.create_user("referee", password="x", is_staff=True)
    referee.user_permissions.add(Permission.objects.get(codename="change_tournament"))
    game = TournamentRound.objects.get(tournament=t, number=1).tables.get().game_id
    tournament_staff.settle_game(t, User.objects.get(pk=referee.pk), game, [1, 2])
    # The round's game over, its places in the standings, and the next round open.
    settled = news_of(mine, t)
    while settled["current_round"] < 2:  # the game's end may be told apart from the new round
        settled = news_of(mine, t)
    heard.append(settled)
    assert settled == {**settled, "current_round": 2, "games": 2, "games_over": 1, "results": 1}

    call(server, alice, "POST", f"{t}/withdraw/")
    left = news_of(mine, t)
    heard.append(left)
    assert left["registered"] == 1
    # No longer hers: the next change reaches the organiser's stream, and nothing of it hers
    # before her own next news (a tournament she organises).
    call(server, bob, "POST", f"{t}/withdraw/")
    organiser.until(lambda m: m.event == "tournament" and m.data["registered"] == 0)
    own = call(
        server, alice, "POST", "", {"name": "Hers", "kind": "duel", "format": "swiss", "table_size": 2, "rounds": 1}
    )["id"]
    seen = mine.until(lambda m: m.event == "tournament" and m.data["tournament"] == own)
    assert [m.data["tournament"] for m in seen if m.event == "tournament"] == [own]
    for data in heard:
        assert not list(schema.iter_errors(data)), data
    mine.close()
    organiser.close()


def test_a_stream_carries_no_tournament_its_user_is_not_in(server, alice, bob, carol):
    t = call(
        server, carol, "POST", "", {"name": "Cup", "kind": "duel", "format": "swiss", "table_size": 2, "rounds": 1}
    )["id"]
    other = user_stream(server, bob.token)
    assert other.next().event == "ready"
    call(server, alice, "POST", f"{t}/register/")
    # bob's own news after it: anything said of the tournament would have come first.
    mine = call(
        server, bob, "POST", "", {"name": "Bob's", "kind": "duel", "format": "swiss", "table_size": 2, "rounds": 1}
    )["id"]
    seen = other.until(lambda m: m.event == "tournament" and m.data["tournament"] == mine)
    assert [m.data["tournament"] for m in seen if m.event == "tournament"] == [mine]
    other.close()


def test_a_watcher_follows_a_tournament_on_request_up_to_the_limit_and_stops(server, alice, bob, carol):
    other = Server(LIVE_STREAM_TOURNAMENTS="2").start()  # a second process, with a small limit
    try:
        contract = Contract(fetch_document())
        schema = contract.component("UserStreamTournament")
        cups = [call(server, carol, "POST", "", {"name": f"Cup {n}", **CUP})["id"] for n in range(3)]
        watcher = user_stream(server, bob.token)
        stream_id = watcher.next().data["stream"]
        with other.client(bob.token) as http:
            added = http.post(f"/stream/{stream_id}/tournaments/", json={"tournament": cups[0]})
            assert added.status_code == 202, added.text
            assert added.json() == {"stream": stream_id, "tournament": cups[0]}
            first = news_of(watcher, cups[0])  # at once: what it is now
            assert first["status"] == "registering" and first["registered"] == 0
            assert http.post(f"/stream/{stream_id}/tournaments/", json={"tournament": cups[1]}).status_code == 202
            full = http.post(f"/stream/{stream_id}/tournaments/", json={"tournament": cups[2]})
            assert (full.status_code, full.json()["code"], full.json()["most"]) == (400, "invalid", 2), full.text
            again = http.post(f"/stream/{stream_id}/tournaments/", json={"tournament": cups[0]})
            assert again.status_code == 202  # one followed already takes no more room
        news_of(watcher, cups[1])

        call(server, alice, "POST", f"{cups[0]}/register/")
        registered = news_of(watcher, cups[0])
        assert registered["registered"] == 1 and not list(schema.iter_errors(registered))

        with other.client(bob.token) as http:
            assert http.delete(f"/stream/{stream_id}/tournaments/{cups[0]}/").status_code == 204
            assert http.post(f"/stream/{stream_id}/tournaments/", json={"tournament": cups[2]}).status_code == 202
        news_of(watcher, cups[2])  # the room the first one left
        # The first no longer followed: its next change is not carried, the third's is.
        call(server, alice, "POST", f"{cups[0]}/withdraw/")
        call(server, alice, "POST", f"{cups[2]}/register/")
        seen = watcher.until(lambda m: m.event == "tournament" and m.data["tournament"] == cups[2])
        assert [m.data["tournament"] for m in seen if m.event == "tournament"] == [cups[2]]
        assert seen[-1].data["registered"] == 1
        watcher.close()
    finally:
        other.stop()


def test_a_private_tournament_is_followed_only_by_those_who_may_see_it(server, alice, bob, carol):
    secret = call(server, carol, "POST", "", {"name": "Secret", "private": True, **CUP})
    public = call(server, carol, "POST", "", {"name": "Open", **CUP})["id"]
    watcher = user_stream(server, bob.token)
    stream_id = watcher.next().data["stream"]
    with server.client(bob.token) as http:
        hidden = http.post(f"/stream/{stream_id}/tournaments/", json={"tournament": secret["id"]})
        nowhere = http.post(
            f"/stream/{stream_id}/tournaments/", json={"tournament": "00000000-0000-4000-8000-000000000000"}
        )
        # Nothing told apart from a tournament that does not exist.
        assert (
            (hidden.status_code, hidden.json())
            == (nowhere.status_code, nowhere.json())
            == (
                404,
                {"code": "not_found", "detail": "no such tournament"},
            )
        )
        bad = http.post(f"/stream/{stream_id}/tournaments/", json={"tournament": "nope"})
        assert (bad.status_code, bad.json()["code"]) == (400, "invalid")
        assert http.delete(f"/stream/{stream_id}/tournaments/nope/").status_code == 404
        with server.client(alice.token) as theirs:  # only the stream's owner changes it
            stolen = theirs.post(f"/stream/{stream_id}/tournaments/", json={"tournament": public})
        assert (stolen.status_code, stolen.json()["code"]) == (404, "not_found")
    call(server, alice, "POST", f"{secret['id']}/register/", {"code": secret["join_code"]})
    with server.client(bob.token) as http:
        assert http.post(f"/stream/{stream_id}/tournaments/", json={"tournament": public}).status_code == 202
    seen = watcher.until(lambda m: m.event == "tournament")
    assert [m.data["tournament"] for m in seen if m.event == "tournament"] == [public]
    # Its registered players may see it: they follow it as anyone follows a public one.
    mine = user_stream(server, alice.token)
    her_stream = mine.next().data["stream"]
    news_of(mine, secret["id"])
    with server.client(alice.token) as http:
        assert http.post(f"/stream/{her_stream}/tournaments/", json={"tournament": secret["id"]}).status_code == 202
    watcher.close()
    mine.close()
