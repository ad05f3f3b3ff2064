"""Pick Pic in the browser: three players (each a user with a context of their own) play a whole
game through the page, a fourth watches; no page shows another seat's secrets."""

import random

import httpx
import pytest

from tests.web import driver
from tests.loopback import TLS


def secrets_of(view: dict) -> set[int]:
    """Card ids only this seat may see now: its hand, its gifts, its stack, its ranking."""
    you = view.get("you") or {}
    ids = set(you.get("hand", [])) | set(you.get("stack", []))
    ids |= {c for cards in (you.get("gifts") or {}).values() for c in cards}
    return ids | set((you.get("ranking") or {}).get("order", []))


@pytest.fixture(scope="module")
def titles(web):
    return {c["id"]: c["title"] for c in httpx.get(f"{web.url}/api/v1/kinds/pickpic/cards/", verify=TLS).json()}


def assert_no_leak(web, watcher, seats, game_id, titles):
    """Neither the spectator nor any seat's page draws, names or describes a card another seat
    keeps secret (its id as a drawn card, or its title anywhere in the text and labels)."""
    views = {p.name: driver.api_view(web, p, game_id)["state"] for p in seats}
    for viewer in [watcher, *seats]:
        drawn, text = driver.shown_cards(viewer), driver.table_text(viewer)
        assert drawn, f"{viewer.name}'s page draws no card at all"
        own = secrets_of(views[viewer.name]) if viewer.name in views else set()
        for owner in seats:
            if owner is viewer:
                continue
            secret = secrets_of(views[owner.name]) - own
            leaked = {c for c in secret if c in drawn or titles[c] in text}
            assert not leaked, f"{viewer.name}'s page shows {owner.name}'s secret cards {leaked}"


def assert_last_move_highlighted(mover, watcher) -> None:
    """The last move highlighted: the mover's line in the scores, on its page and the
    spectator's; on the mover's page the cards it just gave or ranked are ringed (unless its
    move ended the giving: then its new stack is what the page shows)."""
    mine = mover.page.locator(".pp-scores li.just-moved.you")
    mine.wait_for()
    said = mine.inner_text()
    assert "(last move)" in said
    watcher.page.locator(".pp-scores li.just-moved", has_text=mover.name).wait_for()
    if not ("just gave" in said and "ranking stacks" in mover.page.locator(".pp-status").inner_text()):
        mover.page.locator("g.card.just-moved").first.wait_for()
    for page in (mover.page, watcher.page):
        assert page.locator(".pp-scores li.just-moved").count() == 1


def test_three_players_play_pick_pic_to_the_end_and_the_spectator_sees_no_secret(players, web, shoot, titles):
    ann, ben, cat, dan = players("ann", "ben", "cat", "dan")
    game_id = driver.create_game(ann, "pickpic", 3, target=2)
    driver.join(ben, game_id)
    driver.join(cat, game_id)
    driver.start(ann, 3)
    seats = [ann, ben, cat]
    for who in (ben, cat, dan):
        driver.open_game(who, game_id)
    dan.page.get_by_text("you are spectating").wait_for()
    rng = random.Random(15)
    driver.my_turn(ann) or ann.page.locator("#table[data-your-turn=true]").wait_for()
    hand = driver.api_view(web, ann, game_id)["state"]["you"]["hand"]
    assert set(hand) <= driver.shown_cards(ann), "a seat's own hand is drawn on its page"
    shoot(ann, "1-give")

    def after_turn(player, moves):
        assert_last_move_highlighted(player, dan)
        assert_no_leak(web, dan, seats, game_id, titles)
        if moves in (2, 4, 6):  # shots 2, 3 and 4
            shoot(player, f"{moves // 2 + 1}-after-{moves}-moves")
            shoot(dan, f"{moves // 2 + 1}-spectator")

    driver.play_to_the_end(seats, rng, after_turn, limit=200)
    for player in [*seats, dan]:
        player.page.locator(".result").wait_for()
        player.page.locator("code.seed").wait_for()
    final = driver.api_view(web, ann, game_id)
    assert ann.page.locator("code.seed").inner_text() == final["seed"]
    winners = [p["username"] for p in final["players"] if p["seat"] in final["result"]["winners"]]
    assert all(w in ann.page.locator(".result h2").inner_text() for w in winners)
    shoot(ann, "9-result")
    shoot(dan, "9-result-spectator")
    for player in [*seats, dan]:
        player.clean()
