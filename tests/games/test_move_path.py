"""A move runs downhill: played over HTTP and traced call by call (tests/move_trace.py
defines the measure), its path climbs back up to a higher layer at most 8 times, and the event
store (games.play.store) is entered from one module only."""

import pytest

from tests.move_trace import Layers, report, trace_move

pytestmark = pytest.mark.django_db(transaction=True)  # real commits: on_commit work is traced too


def test_a_move_runs_downhill_and_enters_the_event_store_from_one_place(make_player):
    trace = trace_move(make_player)
    layers = Layers()
    table = report(trace, layers)
    assert trace.calls, "nothing traced"
    assert len(trace.climbs(layers)) <= 8, table
    assert set(trace.store_entries()) == {"games.play.turns"}, table


def test_the_layers_come_from_the_import_contracts():
    layers = Layers()
    # The measure reads pyproject.toml: the API above the use cases above the store above engines.
    ranks = [
        layers.rank(m)
        for m in (
            "games.api.views",
            "games.play.moves",
            "games.play.turns",
            "games.play.store",
            "games.engines.pickpic",
            "accounts.models",
        )
    ]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)
    assert layers.climbs("games.play.store", "games.play.moves")
    assert not layers.climbs("games.play.moves", "games.play.store")
