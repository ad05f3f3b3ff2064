"""A new player, with no docs, only the pages: registers, creates a game from a preset, invites a
friend with the link the page shows, and the two play it through to the result. The friend has
no account yet: the link asks them to register, then seats them, and the game starts itself;
the creator's inbox says who joined. axe-core checks every screen."""

import random

from tests.web import driver
from tests.web.table_helpers import PATIENCE_MS


def register(player) -> None:
    form = player.page.get_by_role("form", name="Register")
    form.get_by_label("User name").fill(player.name)
    form.get_by_label("Password", exact=True).fill(f"{player.name}-Kodachrome-64")
    form.get_by_role("button", name="Register").click()
    player.page.get_by_role("button", name="Log out").wait_for()
    player.token = player.page.evaluate("localStorage.getItem('darkroom.token')")  # for the API's own word


def test_a_new_player_registers_creates_a_preset_game_invites_a_friend_by_link_and_plays_it_through(players, web):
    (ann,) = players("ann", register=False)
    page = ann.page
    page.set_default_timeout(PATIENCE_MS)
    ann.goto("#/")
    page.get_by_role("link", name="Log in or register").click()  # a stranger chooses to register
    page.get_by_role("form", name="Log in").wait_for()
    ann.audit("a stranger")
    register(ann)
    page.get_by_role("heading", name="Lobby").wait_for()
    ann.audit()
    # A two-player game, the way a person would make it: the preset's words, "private" for a link.
    form = driver.create_form(page, "photograph")
    form.get_by_label("Correspondence: 3 days a move").check()
    form.get_by_label("private (invitation or link only)").check()
    form.get_by_role("button", name="Create a Photograph game").click()
    page.locator("[data-status=open]").wait_for()
    ann.audit("waiting for a friend")
    # The chat is open before the start: ann leaves a word for whoever comes.
    chat = page.get_by_role("region", name="Chat (players)")
    chat.get_by_label("Message").fill("Welcome! Take your time.")
    chat.get_by_role("button", name="Send").click()
    chat.locator("li").filter(has_text="Welcome! Take your time.").wait_for()
    game_id = page.evaluate("location.hash").rsplit("/", 1)[1]
    options = driver.api_view(web, ann, game_id)["options"]
    assert options["time_control"] == "per_move" and options["move_seconds"] == 3 * 86400
    # The link the page shows, copied with its button, is what the friend receives.
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=web.url)
    shown = page.get_by_label("Invite a friend with this link").input_value()
    page.get_by_role("button", name="Copy the link").click()
    link = page.evaluate("navigator.clipboard.readText()")
    assert link == shown and "#/join/" in link, (link, shown)

    (ben,) = players("ben", register=False)
    ben.page.set_default_timeout(PATIENCE_MS)
    ben.page.goto(link)
    ben.page.get_by_role("form", name="Register").wait_for()
    ben.audit("a friend's link, before an account")
    register(ben)
    # Ben took the last seat: nobody presses Start, the game starts itself on both pages.
    ben.page.locator("[data-status=active]").wait_for()
    assert ben.page.evaluate("location.hash") == f"#/games/{game_id}"
    ben.audit("seated by the link")
    ben.page.get_by_role("region", name="Chat (players)").locator("li").filter(
        has_text="ann: Welcome! Take your time."
    ).wait_for()
    page.locator("[data-status=active]").wait_for()
    # Ann's inbox tells her who joined.
    page.locator("#unread:text-matches('[1-9]')").wait_for()
    ann.goto("#/inbox")
    page.get_by_role("link", name="ben joined your game of Photograph").wait_for()
    ann.goto(f"#/games/{game_id}")
    page.locator("[data-status=active]").wait_for()
    seats = [ann, ben]
    driver.play_to_the_end(seats, random.Random(35))
    final = driver.api_view(web, ann, game_id)
    assert final["status"] == "finished"
    winners = [p["username"] for p in final["players"] if p["seat"] in final["result"]["winners"]]
    for player in seats:
        result = player.page.locator(".result")
        result.wait_for()
        assert all(name in result.locator("h2").inner_text() for name in winners)
        for seat, score in enumerate(final["result"]["scores"]):
            assert result.locator(f"tr[data-seat='{seat}'] .score").inner_text() == str(score)
    for player in seats:
        player.clean()
