"""Events ride the message: a write's message carries its events as stored and the game's new
head (news.ride), so a reader that heard every write since its last read renders from the
messages, each viewer's view made from them as from the database, and reads nothing from
PostgreSQL; a write it did not hear (a gap) sends it to the database. The database is shut
(pytest-django's blocker: any query raises) while the reader must not need it."""

import asyncio

import pytest

from games.api.streams.tails import tails
from games.models import Game
from games.play import selectors
from games.realtime import channels, hub as live_hub
from tests.games.test_live_hub import run, stop

pytestmark = pytest.mark.django_db(transaction=True)


def play(players, game_id) -> int:
    """The first legal move of whoever's turn it is, through the API (published after commit)."""
    from django.db import connections

    try:
        player = players[Game.objects.get(pk=game_id).active_seats[0]]
        listed = player.get(f"/api/v1/games/{game_id}/legal-moves/").json()
        answer = player.post(
            f"/api/v1/games/{game_id}/moves/", {"move": listed["moves"][0], "expected_version": listed["version"]}
        )
        assert answer.status_code == 201, answer.content
        return answer.json()["version"]
    finally:
        connections.close_all()  # this thread's own


def test_a_reader_that_heard_every_write_reads_nothing_from_the_database(alice, bob, carol, duel, django_db_blocker):
    players = {0: alice, 1: bob}

    async def scenario():
        hub = await live_hub.hub()
        name = channels.channel(duel)
        listener = hub.listen([name])
        assert await listener.ready()
        first = await tails.get(duel, 0, None)  # the database: nothing heard yet
        assert first.game.version == 4
        versions = []
        for _ in range(3):
            versions.append(await asyncio.to_thread(play, players, duel))
            while hub.versions.get(name) != versions[-1]:
                listener.clear()
                await listener.wait(10)
        with django_db_blocker.block():  # any query now raises
            ridden = await tails.get(duel, 4, versions[-1])
            views = {seat: ridden.entries(4, seat) for seat in (0, 1, None)}
        listener.close()
        await stop(hub)
        return ridden, views, versions

    ridden, views, versions = run(scenario)
    assert ridden.game.version == versions[-1] and ridden.complete
    game = Game.objects.get(pk=duel)
    assert (ridden.game.status, ridden.game.active_seats) == (game.status, game.active_seats)
    for seat, who in ((0, alice), (1, bob), (None, carol)):  # each viewer's view, as the database gives it
        assert views[seat] == selectors.log(game, who.user, 4)["events"], seat


def test_a_write_not_heard_is_a_gap_read_from_the_database(alice, bob, duel, django_db_blocker):
    players = {0: alice, 1: bob}

    async def scenario():
        hub = await live_hub.hub()
        name = channels.channel(duel)
        listener = hub.listen([name])
        assert await listener.ready()
        await tails.get(duel, 0, None)
        unheard = await asyncio.to_thread(play, players, duel)
        while hub.versions.get(name) != unheard:
            listener.clear()
            await listener.wait(10)
        hub.rides[name].pop(unheard)  # as if its message had been lost
        heard = await asyncio.to_thread(play, players, duel)
        while hub.versions.get(name) != heard:
            listener.clear()
            await listener.wait(10)
        with django_db_blocker.block():
            with pytest.raises(Exception, match="Database access not allowed"):
                await tails.get(duel, unheard - 1, heard)
        tail = await tails.get(duel, unheard - 1, heard)  # read from the database
        listener.close()
        await stop(hub)
        return tail, unheard, heard

    tail, unheard, heard = run(scenario)
    assert [r.seq for r in tail.rows if r.seq >= unheard] == [unheard, heard]
