"""Tournaments over HTTP (docs/tournaments.md, "The API"): the list, creating one, its page,
registering, withdrawing and the start; every bad input a `{code, detail}` with its status, never a
500, and nothing written."""

from __future__ import annotations

import pytest

from games.models import Game, Notification, Registration, Tournament, TournamentRound

pytestmark = pytest.mark.django_db

URL = "/api/v1/tournaments/"
SWISS = {"name": "Friday Swiss", "kind": "duel", "format": "swiss", "table_size": 2, "rounds": 3}


def error_of(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content[:300]
    body = response.json()
    assert body["code"] == code and isinstance(body["detail"], str) and body["detail"], body
    return body


def created(player, **body) -> dict:
    response = player.post(URL, {**SWISS, **body})
    assert response.status_code == 201, response.content
    return response.json()


def test_create_list_register_start_and_read_the_standings(alice, bob, carol):
    t = created(alice)
    assert t["status"] == "registering" and t["organiser"] == "alice" and t["seed"] is None
    assert len(t["seed_hash"]) == 64 and t["options"]["time_control"] == "per_move"
    assert t["you"] == {"registered": False, "withdrawn": False, "organiser": True, "game": None}
    listed = bob.get(URL).json()
    assert listed["count"] == 1 and listed["results"][0]["id"] == t["id"]
    assert listed["results"][0]["join_code"] is None
    for player in (bob, carol):
        mine = player.post(f"{URL}{t['id']}/register/")
        assert mine.status_code == 200, mine.content
        assert mine.json()["you"]["registered"] is True
    assert Notification.objects.filter(user=bob.user, type="tournament", data__event="registered").exists()
    started = alice.post(f"{URL}{t['id']}/start/")
    assert started.status_code == 200, started.content
    page = bob.get(f"{URL}{t['id']}/").json()
    assert page["status"] == "running" and page["current_round"] == 1
    assert [p["username"] for p in page["players"]] and len(page["standings"]) == 2
    (round1,) = page["played_rounds"]
    (table,) = round1["tables"]
    assert sorted(table["players"]) == ["bob", "carol"] and table["status"] == "active"
    assert page["you"]["game"] == table["game"]
    # The game is an ordinary game, readable by its players.
    assert bob.get(f"/api/v1/games/{table['game']}/").status_code == 200


def test_a_bye_is_worth_what_the_organiser_says_or_the_formats_own(alice, bob, carol, make_player):
    assert created(alice)["bye_points"] == 1  # a win
    assert created(carol)["round_hours"] is None and created(carol, round_hours=48)["round_hours"] == 48
    assert created(alice, bye_points=0.5)["bye_points"] == 0.5
    table_of_four = {"name": "Pick Pic", "kind": "pickpic", "format": "swiss", "table_size": 4, "rounds": 2}
    assert alice.post(URL, table_of_four).json()["bye_points"] == 3  # the average of 6/4/2/0
    t = created(bob, bye_points=0, rounds=1)
    for player in (alice, carol, make_player("dave")):
        assert player.post(f"{URL}{t['id']}/register/").status_code == 200
    bob.post(f"{URL}{t['id']}/start/")
    page = bob.get(f"{URL}{t['id']}/").json()
    (bye,) = page["played_rounds"][0]["byes"]
    assert next(row for row in page["standings"] if row["username"] == bye)["points"] == 0


def test_a_private_tournament_is_hidden_and_joined_by_its_code(alice, bob):
    t = created(alice, private=True)
    assert t["join_code"]
    assert bob.get(URL).json()["count"] == 0
    error_of(bob.get(f"{URL}{t['id']}/"), 404, "not_found")
    error_of(bob.post(f"{URL}{t['id']}/register/", {"code": "wrong"}), 404, "not_found")
    assert bob.post(f"{URL}{t['id']}/register/", {"code": t["join_code"]}).status_code == 200
    assert bob.get(f"{URL}{t['id']}/").json()["join_code"] is None  # the organiser's to share


BAD_BODIES = [
    ({**SWISS, "rounds": "3"}, "invalid"),  # a string is not a number
    ({**SWISS, "table_size": 2.5}, "invalid"),
    ({**SWISS, "name": ""}, "invalid"),
    ({**SWISS, "name": "x" * 101}, "invalid"),
    ({**SWISS, "kind": "chess"}, None),  # no such kind
    ({**SWISS, "format": "arena"}, "invalid"),
    ({**SWISS, "table_size": 3}, "invalid"),  # Duel is for two
    ({**SWISS, "rounds": None}, "invalid"),  # a Swiss needs its rounds
    ({**SWISS, "format": "knockout"}, "invalid"),  # only a Swiss has rounds set
    ({**SWISS, "options": {"time_control": "none"}}, "invalid"),  # a round needs clocks to end
    ({**SWISS, "options": {"hand_size": 99}}, "invalid"),
    ({**SWISS, "options": {"tournament": "x"}}, "invalid"),  # the server's to set
    ({**SWISS, "options": [1]}, "invalid"),
    ({**SWISS, "starts_at": "2001-01-01T00:00:00Z"}, "invalid"),  # in the past
    ({**SWISS, "starts_at": "tomorrow"}, "invalid"),
    ({**SWISS, "capacity": 1}, "invalid"),
    ({**SWISS, "capacity": 10**12}, "invalid"),
    ({**SWISS, "through": 2}, "invalid"),
    ({**SWISS, "bot_level": 7}, "invalid"),
    ({**SWISS, "private": "yes"}, "invalid"),
    ({**SWISS, "round_hours": 0}, "invalid"),
    ({**SWISS, "round_hours": 24 * 61}, "invalid"),
    ({**SWISS, "round_hours": "2"}, "invalid"),
    ({**SWISS, "bye_points": 1.5}, "invalid"),  # more than a win
    ({**SWISS, "bye_points": 0.3}, "invalid"),  # half points only
    ({**SWISS, "bye_points": -0.5}, "invalid"),
    ({**SWISS, "bye_points": "1"}, "invalid"),
    ({**SWISS, "bye_points": True}, "invalid"),
    (
        {"name": "Pick Pic", "kind": "pickpic", "format": "swiss", "table_size": 4, "rounds": 2, "bye_points": 7},
        "invalid",
    ),  # a table's winner scores 6
    ({**SWISS, "name": "a\x00b"}, None),
    ({"name": "Photoshoot", "kind": "photoshoot", "format": "swiss", "table_size": 2, "rounds": 2}, "invalid"),
    ({"name": "Photoshoot", "kind": "photoshoot", "format": "knockout", "table_size": 4}, "invalid"),
    ({"name": "Big", "kind": "duel", "format": "round_robin", "table_size": 2, "capacity": 200}, "invalid"),
    ([1, 2], None),
    ("text", None),
]


@pytest.mark.parametrize("body, code", BAD_BODIES, ids=range(len(BAD_BODIES)))
def test_a_bad_body_is_a_400_and_writes_nothing(alice, body, code):
    response = alice.post(URL, body)
    assert response.status_code == 400, response.content[:300]
    got = response.json()
    assert isinstance(got["detail"], str) and got["detail"] and (code is None or got["code"] == code), got
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("query", ["?status=nope", "?limit=abc", "?offset=-1", "?kind=chess", "?status=a&status=b"])
def test_a_bad_list_query_is_a_400(alice, query):
    error_of(alice.get(URL + query), 400, "invalid")


@pytest.mark.parametrize(
    "path",
    ["nope/", "00000000-0000-0000-0000-000000000000/", "nope/register/", "00000000-0000-0000-0000-000000000000/start/"],
)
def test_an_unknown_tournament_is_a_404(alice, path):
    method = alice.post if path.endswith(("register/", "start/")) else alice.get
    error_of(method(URL + path), 404, "not_found")


def test_refusals_around_registration_and_the_start_write_nothing(alice, bob, carol):
    t = created(alice)
    base = f"{URL}{t['id']}/"
    error_of(bob.post(base + "withdraw/"), 404, "not_found")  # not registered
    assert bob.post(base + "register/").status_code == 200
    error_of(bob.post(base + "register/"), 409, "already_joined")
    error_of(bob.post(base + "register/", {"code": 5}), 400, "invalid")
    error_of(bob.post(base + "start/"), 403, "forbidden")  # not the organiser
    error_of(alice.post(base + "start/"), 409, "wrong_player_count")  # one player
    assert Registration.objects.filter(tournament_id=t["id"]).count() == 1
    assert not TournamentRound.objects.exists() and not Game.objects.exists()
    assert bob.post(base + "withdraw/").status_code == 200
    assert bob.get(base).json()["you"] == {"registered": False, "withdrawn": False, "organiser": False, "game": None}
    assert carol.post(base + "register/").status_code == 200
    assert bob.post(base + "register/").status_code == 200
    assert alice.post(base + "start/").status_code == 200
    error_of(alice.post(base + "start/"), 409, "tournament_closed")
    rated = created(alice, min_rating=500)
    error_of(carol.post(f"{URL}{rated['id']}/register/"), 403, "forbidden")


def test_an_organiser_has_a_limit_of_tournaments_at_once(alice, settings):
    settings.TOURNAMENTS_PER_USER = 2
    created(alice)
    created(alice)
    body = error_of(alice.post(URL, SWISS), 429, "too_many_tournaments")
    assert Tournament.objects.count() == 2 and body["detail"]


def test_anonymous_callers_are_refused(anonymous):
    assert anonymous.get(URL).status_code == 401
    assert anonymous.post(URL, SWISS, format="json").status_code == 401


def test_a_finished_tournament_is_on_its_players_profiles_with_their_place(alice, bob, carol, make_player):
    from games.community import social, tournament_lifecycle
    from games.models import TournamentTable

    t = created(alice, rounds=1)
    private = created(alice, rounds=1, private=True)
    for made in (t, private):
        code = {"code": made["join_code"]} if made["join_code"] else {}
        for player in (bob, carol):
            assert player.post(f"{URL}{made['id']}/register/", code).status_code == 200
        assert alice.post(f"{URL}{made['id']}/start/").status_code == 200
        table = TournamentTable.objects.get(round__tournament_id=made["id"])
        social.resign(table.game_id, carol.user)
        tournament_lifecycle.games_finished([str(table.game_id)])
    profile = alice.get("/api/v1/players/bob/").json()
    # The organiser sees both; the private one is nobody else's business.
    assert sorted((r["name"], r["rank"], r["players"]) for r in profile["tournaments"]) == [
        ("Friday Swiss", 1, 2),
        ("Friday Swiss", 1, 2),
    ]
    stranger = [r["id"] for r in carol.get("/api/v1/players/bob/").json()["tournaments"]]
    assert sorted(stranger) == sorted([t["id"], private["id"]])  # carol played in both
    dan = make_player("dan")
    assert [r["id"] for r in dan.get("/api/v1/players/carol/").json()["tournaments"]] == [t["id"]]


def test_a_tournament_is_followed_by_asking_again_with_its_etag(alice, bob, carol):
    """Nothing changed: a 304 with no body. A registration, the start, a game's end: a new ETag."""
    t = created(alice)
    page = f"{URL}{t['id']}/"

    def asked(tag: str):
        return bob.client.get(page, HTTP_IF_NONE_MATCH=tag)

    tags = [bob.get(page)["ETag"]]
    same = asked(tags[0])
    assert same.status_code == 304 and not same.content and same["ETag"] == tags[0]

    def resign():
        game = bob.get(page).json()["you"]["game"]
        return carol.post(f"/api/v1/games/{game}/resign/")

    for change in (
        lambda: carol.post(f"{page}register/"),
        lambda: bob.post(f"{page}register/"),
        lambda: alice.post(f"{page}start/"),
        resign,
    ):
        assert change().status_code == 200
        again = asked(tags[-1])
        assert again.status_code == 200 and again["ETag"] not in tags
        tags.append(again["ETag"])
