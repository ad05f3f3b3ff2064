"""The lobby's "Play the computer": a game against bots, started at once, from a game's card:
in one click with the usual clock, or with the options and the level chosen under "More options"."""

import httpx
from tests.loopback import TLS
from tests.web.driver import create_form


def test_play_the_computer_from_a_lobby_card_starts_a_game_against_bots(players, web):
    (ann,) = players("cora")
    page = ann.page
    card = create_form(page, "photograph")
    card.get_by_label("Computer level").select_option("1")
    card.get_by_role("button", name="Play the computer with these options").click()
    page.wait_for_url("**/#/games/*")
    game_id = page.url.rsplit("/", 1)[-1]
    game = httpx.get(
        f"{web.url}/api/v1/games/{game_id}/",
        headers={"Authorization": f"Token {ann.token}"} if ann.token else {},
        verify=TLS,
    ).json()
    assert game["status"] == "active"
    assert [p["bot"] for p in game["players"]] == [None, 1]
    ann.clean()
