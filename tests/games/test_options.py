"""Options are validated and normalised at create: a game that can never start cannot be made."""

import pytest

from games.models import Event, Game


def test_a_whole_float_target_is_stored_as_an_int_and_the_game_starts(alice, bob, carol):
    created = alice.post("/api/v1/games/", {"kind": "pickpic", "seats": 3, "options": {"target": 10.0}})
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    options = Game.objects.get(pk=game_id).options
    assert options["target"] == 10 and type(options["target"]) is int
    for player in (bob, carol):
        assert player.post(f"/api/v1/games/{game_id}/join/").status_code == 200
    started = alice.post(f"/api/v1/games/{game_id}/start/")
    assert started.status_code == 200, started.content
    assert started.json()["status"] == "active"


def test_whole_float_clock_options_are_stored_as_ints(alice):
    created = alice.post(
        "/api/v1/games/", {"kind": "duel", "options": {"time_control": "per_move", "move_seconds": 3600.0}}
    )
    assert created.status_code == 201, created.content
    assert type(Game.objects.get(pk=created.json()["id"]).options["move_seconds"]) is int


@pytest.mark.parametrize(
    "options, words",
    [
        ({"target": 10.5}, "target"),
        ({"target": True}, "target"),
        ({"target": "10"}, "target"),
        ({"target": 0}, "target"),
        ({"target": 1e300}, "target"),
        ({"move_seconds": 2.5}, "move_seconds"),
        ({"comments": 1}, "comments"),
        ({"surprise": 1}, "surprise"),
    ],
)
def test_options_no_start_could_accept_are_refused_and_nothing_is_written(alice, options, words):
    games, events = Game.objects.count(), Event.objects.count()
    response = alice.post("/api/v1/games/", {"kind": "pickpic", "seats": 3, "options": options})
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"
    assert words in response.json()["detail"]
    assert (Game.objects.count(), Event.objects.count()) == (games, events)


def test_options_an_engine_refuses_at_setup_are_refused_at_create(alice, monkeypatch):
    """Whatever the schema lets through, create sets the game up once: an engine's own refusal
    surfaces as a 400 now, not as a 500 at every start."""
    from games.play.kinds import get_engine

    engine = get_engine("duel")
    real_setup = engine.setup

    def picky(players, options, seed):
        if options.get("hand_size") == 5:
            raise ValueError("hand_size 5 is not dealt by this table")
        return real_setup(players, options, seed)

    monkeypatch.setattr(engine, "setup", picky)
    games = Game.objects.count()
    response = alice.post("/api/v1/games/", {"kind": "duel", "options": {"hand_size": 5}})
    assert response.status_code == 400, response.content
    assert response.json() == {"code": "invalid", "detail": "options: hand_size 5 is not dealt by this table"}
    assert Game.objects.count() == games
