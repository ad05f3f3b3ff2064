"""The tournament pages (docs/tournaments.md): the list, a tournament's page, registering from it,
the standings and rounds once it runs, your game a click away; axe-core finds no violation."""

from datetime import datetime, timedelta

import httpx

from games.realtime import channels
from tests.loopback import TLS
from tests.web.pages import Seat
from tests.worker import wait_for


def api_of(web, player) -> Seat:
    """The API as the page's player, to read what the page made."""
    seat = Seat.__new__(Seat)
    seat.client = httpx.Client(
        base_url=f"{web.url}/api/v1", headers={"Authorization": f"Token {player.token}"}, timeout=30, verify=TLS
    )
    return seat


def test_the_list_a_tournament_page_registering_and_your_game(players, web):
    (ann,) = players("ann")
    page = ann.page
    boss, cat = Seat(web, "boss"), Seat(web, "cat")
    made = boss.post(
        "/tournaments/", {"name": "Friday Swiss", "kind": "photograph", "format": "swiss", "table_size": 2, "rounds": 2}
    )
    cat.post(f"/tournaments/{made['id']}/register/")
    ann.goto("#/tournaments")
    row = page.locator(f"tr[data-tournament='{made['id']}']")
    row.wait_for()
    assert "1 of 64" in row.inner_text() and "Registration open" in row.inner_text()
    ann.audit()
    row.get_by_role("link", name="Friday Swiss").click()
    page.get_by_role("heading", name="Friday Swiss").wait_for()
    ann.audit()
    page.get_by_role("button", name="Register").click()
    page.get_by_text("You are registered.").wait_for()
    page.get_by_role("button", name="Withdraw").wait_for()
    boss.post(f"/tournaments/{made['id']}/start/")
    ann.goto(f"#/tournaments/{made['id']}")
    page.locator("table.standings tr[data-player=ann]").wait_for()
    page.get_by_role("heading", name="Round 1").wait_for()
    ann.audit()
    page.get_by_role("link", name="Your game in this round").click()
    page.locator("[data-status=active]").wait_for()
    ann.clean()


def test_a_ladder_page_joining_challenging_and_the_game(players, web):
    (ann,) = players("ann")
    page = ann.page
    bob = Seat(web, "bob")
    bob.post("/ladders/photograph/join/")
    ann.goto("#/tournaments")
    page.get_by_role("link", name="Photograph ladder").click()
    page.get_by_role("heading", name="Photograph ladder").wait_for()
    ann.audit()
    page.get_by_role("button", name="Join the ladder").click()
    page.get_by_text("Your place: 2.").wait_for()
    page.get_by_role("button", name="Challenge bob").click()
    page.get_by_text("Your challenge is sent.").wait_for()
    page.get_by_text("ann challenges bob").wait_for()
    ann.audit()
    (challenge,) = bob.get("/ladders/photograph/")["challenges"]
    bob.post(f"/ladders/challenges/{challenge['id']}/accept/")
    ann.goto("#/ladders/photograph")
    page.get_by_role("link", name="The game").click()
    page.locator("[data-status=active]").wait_for()
    ann.clean()


def test_the_create_form_makes_a_tournament_from_a_preset(players, web):
    (ann,) = players("ann")
    page = ann.page
    ann.goto("#/tournaments")
    form = page.get_by_role("form", name="Create a tournament")
    form.get_by_label("Kind of tournament").select_option("knockout")
    form.get_by_label("Tournament", exact=True).fill("Sunday knockout")
    form.get_by_label("Game", exact=True).select_option("photograph")
    ann.audit("the create form")
    form.get_by_role("button", name="Create").click()
    page.get_by_role("heading", name="Sunday knockout").wait_for()
    (one,) = api_of(web, ann).get("/tournaments/")["results"]
    assert one["format"] == "knockout" and one["options"]["move_seconds"] == 86400 and one["organiser"] == "ann"
    ann.clean()


def test_the_create_form_takes_every_setting_and_a_private_one_is_joined_by_its_link(players, web):
    """The form's settings beyond the preset: rounds (a Swiss only), start time, capacity, minimum
    rating, what a bye is worth, privacy; the organiser's page shows the join link, and a player
    who opens it registers and sees the tournament."""
    ann, ben = players("ann", "ben")
    page = ann.page
    ann.goto("#/tournaments")
    form = page.get_by_role("form", name="Create a tournament")
    form.get_by_label("Kind of tournament").select_option("knockout")
    assert not form.get_by_label("Rounds").is_visible()  # a knockout's rounds follow from the players
    form.get_by_label("Kind of tournament").select_option("swiss")
    form.get_by_label("Tournament", exact=True).fill("Members' Swiss")
    form.get_by_label("Game", exact=True).select_option("photograph")
    form.get_by_label("Rounds").fill("3")
    starts = (datetime.now() + timedelta(days=30)).replace(hour=18, minute=30, second=0, microsecond=0)
    form.get_by_label("Start time (empty: you start it)").fill(starts.strftime("%Y-%m-%dT%H:%M"))
    form.get_by_label("Most players (empty: 64)").fill("16")
    form.get_by_label("Minimum rating (empty: none)").fill("-500")
    form.get_by_label("A bye is worth (points; empty: the usual)").fill("0.5")
    form.get_by_label("Hours a round may last (empty: as long as its games)").fill("48")
    form.get_by_label("Private: players join by its link only").check()
    form.get_by_label("Computer level").select_option("3")
    form.get_by_label("Rated games").uncheck()
    ann.audit("the create form, every setting")
    form.get_by_role("button", name="Create").click()
    page.get_by_role("heading", name="Members' Swiss").wait_for()
    link = page.locator(".join-link code").inner_text()
    ann.audit("a private tournament's page")
    one = api_of(web, ann).get(f"/tournaments/{page.url.rsplit('/', 1)[1]}/")
    assert (
        one["format"],
        one["rounds"],
        one["capacity"],
        one["min_rating"],
        one["bye_points"],
        one["private"],
        one["bot_level"],
        one["rated"],
        one["round_hours"],
    ) == ("swiss", 3, 16, -500, 0.5, True, 3, False, 48)
    assert datetime.fromisoformat(one["starts_at"]) == starts.astimezone() and link.endswith(
        f"#/tournaments/{one['id']}/join/{one['join_code']}"
    )
    ben.goto("#" + link.split("#", 1)[1])
    ben.page.get_by_role("heading", name="A private tournament").wait_for()
    ben.audit("a private tournament's join link")
    ben.page.get_by_role("button", name="Register").click()
    ben.page.get_by_role("heading", name="Members' Swiss").wait_for()
    ben.page.get_by_role("button", name="Withdraw").wait_for()
    ann.clean()
    ben.clean()


def following(tournament_id: str) -> int:
    """How many open user streams follow the tournament on request (their Redis hashes)."""
    redis = channels.client()
    return sum(1 for name in redis.scan_iter(channels.stream_key("*")) if redis.hexists(name, f"t:{tournament_id}"))


def test_an_open_tournament_page_follows_the_tournament_as_it_changes(players, web):
    """No reload, and no poll: every page's timers are stopped (its clock paused), so only the
    stream can redraw it. A player's page is told by their own stream; a watcher's page (eve is not
    in the tournament) follows the tournament on hers while it is shown."""
    ann, eve = players("ann", "eve")
    boss, cat, dan = Seat(web, "boss"), Seat(web, "cat"), Seat(web, "dan")
    made = boss.post(
        "/tournaments/", {"name": "Live Swiss", "kind": "photograph", "format": "swiss", "table_size": 2, "rounds": 1}
    )
    cat.post(f"/tournaments/{made['id']}/register/")
    api_of(web, ann).post(f"/tournaments/{made['id']}/register/")
    for who in (ann, eve):
        who.page.clock.install()
        who.page.clock.pause_at(datetime.now() + timedelta(seconds=1))
        who.goto(f"#/tournaments/{made['id']}")
        who.page.get_by_text("Registered: cat, ann").wait_for()
    dan.post(f"/tournaments/{made['id']}/register/")
    for who in (ann, eve):
        who.page.get_by_text("Registered: cat, ann, dan").wait_for(timeout=30_000)
    boss.post(f"/tournaments/{made['id']}/start/")
    for who in (ann, eve):
        who.page.get_by_role("heading", name="Round 1").wait_for(timeout=30_000)
        who.page.locator("table.standings tr[data-player=dan]").wait_for()
    for who in (ann, eve):
        who.page.clock.resume()  # axe-core runs on timers
    ann.audit("a tournament page redrawn by its stream")
    eve.audit("a watcher's tournament page redrawn by the stream")
    # Only the watcher's stream follows it on request (ann's carries it as hers), until she leaves.
    assert following(made["id"]) == 1
    eve.goto("#/tournaments")
    assert wait_for(lambda: following(made["id"]) == 0, timeout=10)
    ann.clean()
    eve.clean()
