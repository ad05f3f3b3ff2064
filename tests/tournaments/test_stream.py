"""A tournament followed live (docs/tournaments.md, "Following a tournament live"): a player's and
an organiser's own stream (`/stream/`) carry a `tournament` message for each tournament of theirs
on connect and at each change (a player in or out, the start, a game over, its places in the
standings, a new round), once more when they leave it, and none of others' tournaments. Against
a real server process; the messages are checked against the OpenAPI document."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from accounts.models import User
from games.community import tournament_staff
from games.models import TournamentRound
from tests.api.openapi import Contract, fetch_document
from tests.live_server import user_stream

pytestmark = pytest.mark.django_db(transaction=True)


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
