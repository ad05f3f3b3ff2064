"""Around a game, through the page only (docs/social.md): a private game with an invitation that
only the invitee sees, chat between the seats shown as text (never as HTML), and resigning."""

import httpx

from tests.web.driver import create_form, open_game, start
from tests.loopback import TLS

HOSTILE = "hello <b>bob</b> <img src=x onerror=alert(1)>"


def test_invite_a_friend_to_a_private_game_chat_and_resign(players, web, shoot):
    ann, bob, cat = players("ann", "bob", "cat")
    for player in (ann, bob):
        player.page.on("dialog", lambda dialog: dialog.accept())

    # Ann creates a private Photograph game for two and invites Bob by name.
    ann.goto("#/")
    form = create_form(ann.page, "photograph")
    form.locator("input[name=seats]").fill("2")
    form.locator("input[name=invite]").fill("bob")
    form.get_by_role("button", name="Create a Photograph game").click()
    ann.page.locator("[data-status=open]").wait_for()
    game_id = ann.page.url.rsplit("/", 1)[1]
    detail = httpx.get(
        f"{web.url}/api/v1/games/{game_id}/", headers={"Authorization": f"Token {ann.token}"}, verify=TLS
    ).json()
    assert detail["private"] is True

    # Cat, neither seated nor invited, sees no trace of it: not in the lobby, 404 by its address.
    cat.goto("#/")
    cat.page.get_by_role("heading", name="Waiting for players").wait_for()
    assert cat.page.locator(f"li[data-game='{game_id}']").count() == 0
    assert (
        httpx.get(
            f"{web.url}/api/v1/games/{game_id}/", headers={"Authorization": f"Token {cat.token}"}, verify=TLS
        ).status_code
        == 404
    )

    # Bob finds the invitation in his lobby and accepts it: he is seated.
    bob.goto("#/")
    invitation = bob.page.get_by_role("region", name="Invitations").locator("li")
    assert "ann invites you to a game of Photograph" in invitation.inner_text()
    shoot(bob, "invitation")
    invitation.get_by_role("button", name="Accept").click()
    # Bob took the last seat: the game starts itself.
    bob.page.locator("[data-status=active]").wait_for()
    start(ann, 2)
    open_game(bob, game_id)
    bob.page.locator("[data-status=active]").wait_for()

    # Ann writes in the players' chat; Bob reads it as the very characters she typed.
    chat = ann.page.get_by_role("region", name="Chat (players)")
    chat.get_by_label("Message").fill(HOSTILE)
    chat.get_by_role("button", name="Send").click()
    heard = bob.page.get_by_role("region", name="Chat (players)").locator("li").filter(has_text="hello")
    heard.wait_for(timeout=30_000)
    assert heard.inner_text() == f"ann: {HOSTILE}"
    assert heard.locator("b, img").count() == 0  # shown as text, never made into elements
    shoot(bob, "chat")

    # Bob resigns: in a game for two the last seat in wins.
    bob.page.get_by_role("button", name="Resign").click()
    bob.page.locator("[data-status=finished]").wait_for()
    open_game(ann, game_id)
    ann.page.get_by_role("heading", name="Result: ann won").wait_for()
    shoot(ann, "resigned")
    ann.clean(), bob.clean(), cat.clean()
