"""Walking in Provence through the pages only: two players place a card and walk every round to
the result; a spectator's page never shows a hand or a choice not yet revealed."""

from __future__ import annotations

import re
import shutil

import pytest

from tests.web.table_helpers import api, click_until, new_game, screenshots_on_failure, seated

# The server process reads the test database: transactional tests, so it sees what they write.
pytestmark = pytest.mark.django_db(transaction=True)


def summary(player, round_no: int, phase: str):
    return player.page.locator(f".provence-summary[data-round='{round_no}'][data-phase='{phase}']")


def place(player, round_no: int, rotate: bool) -> None:
    page = player.page
    summary(player, round_no, "scene").wait_for()
    if rotate:
        page.get_by_test_id("rotate").click()
    page.locator("circle.spot").first.wait_for()
    count = int(re.search(r"\d+", page.get_by_test_id("spot-count").inner_text()).group())
    assert count == page.locator("circle.spot").count() > 0
    # Keyboard play: the spot takes Enter like a click (again if a live update re-drew it).
    click_until(page, page.locator("circle.spot").first, page.get_by_test_id("preview"), key="Enter")
    player.audit("a placement previewed")
    # Waiting for the others, or (the last to choose) already walking.
    click_until(
        page,
        page.get_by_test_id("confirm-place"),
        page.get_by_test_id("pending").or_(summary(player, round_no, "walking")),
    )


def walk(player, round_no: int, move_drone: bool) -> None:
    page = player.page
    summary(player, round_no, "walking").wait_for()
    if move_drone:
        page.get_by_test_id("pick-drone").click()
        page.locator("rect.walk-target").first.click()
    player.audit("a walk under way" if move_drone else "")
    confirm = page.get_by_test_id("confirm-walk")
    if not confirm.is_enabled():
        page.get_by_role("button", name="Reset").click()
    click_until(
        page,
        page.get_by_test_id("confirm-walk"),
        page.get_by_text("Your walk is chosen").or_(
            page.locator(f".provence-summary:not([data-round='{round_no}']), .provence-result")
        ),
    )


def hidden_strings(web, seated, game_id) -> list[str]:
    """What each seat's own view holds that the spectator's does not: hand card ids, a pending
    choice's card, the card passed face down."""
    found = []
    for player in seated:
        you = api(web, player, f"/games/{game_id}/")["state"]["you"]
        found += [card["id"] for card in you["hand"]]
        if you["pending"] and you["pending"].get("card"):
            found.append(you["pending"]["card"])
        if you["passed"]:
            found.append(you["passed"])
    return found


def spectator_sees_no_secret(web, cy, seated, game_id, round_no) -> None:
    assert "you" not in api(web, cy, f"/games/{game_id}/")["state"]
    cy.page.reload()
    cy.page.locator(f".provence-summary[data-round='{round_no}']").wait_for()
    cy.audit()
    html = cy.page.content()
    secrets = hidden_strings(web, seated, game_id)
    assert secrets and all(secret not in html for secret in secrets), secrets
    assert cy.page.locator(".provence-hand, .provence-walk, circle.spot").count() == 0


def last_move_highlighted(web, player, game_id, what: str) -> None:
    """The last move highlighted on every landscape: the card each seat just placed (its
    top-left square, as the API has it), or the squares its photographer and drone just walked to."""
    page = player.page
    if what == "placed":
        marks = page.locator(".landscape rect.just-placed")
        marks.nth(1).wait_for()
        assert marks.count() == 2
        lands = api(web, player, f"/games/{game_id}/")["state"]["landscapes"]
        for seat, land in enumerate(lands):
            mark = page.locator(f".landscape[data-seat='{seat}'] rect.just-placed")
            last = land["cards"][-1]
            assert (mark.get_attribute("data-x"), mark.get_attribute("data-y")) == (str(last["x"]), str(last["y"]))
    else:
        marks = page.locator(".landscape rect.just-walked")
        marks.nth(3).wait_for()
        assert marks.count() == 4 and page.locator(".landscape rect.just-placed").count() == 0


def test_two_players_play_provence_to_the_result_and_a_spectator_sees_no_secret(players, web, shoot):
    ann, ben, cy = seated(players, "ann", "ben", "cy")
    with screenshots_on_failure(shoot, ann, ben, cy):
        game_id = new_game("provence", ann, [ben])
        shoot(ann, "start")
        cy.goto(f"#/games/{game_id}")
        cy.page.locator(".provence-summary").wait_for()
        for round_no in range(1, 11):
            place(ann, round_no, rotate=round_no % 2 == 0)
            if round_no == 1:
                # Ann's choice is made, Ben's not: the spectator sees neither hand nor Ann's card.
                spectator_sees_no_secret(web, cy, [ann, ben], game_id, round_no)
                assert all(secret in ann.page.content() for secret in hidden_strings(web, [ann], game_id))
                shoot(ann, "round-1-placed")
            place(ben, round_no, rotate=False)
            if round_no in (1, 3):
                last_move_highlighted(web, ann, game_id, "placed")
            if round_no == 2:
                # Walking: the cards passed face down are secret; Ben has walked, Ann not yet.
                walk(ben, round_no, move_drone=False)
                spectator_sees_no_secret(web, cy, [ann, ben], game_id, round_no)
            if round_no == 5:
                shoot(ben, "round-5-walking")
            walk(ann, round_no, move_drone=round_no == 1)
            if round_no != 2:
                walk(ben, round_no, move_drone=round_no == 3)
            if round_no == 1:
                summary(ann, 2, "scene").wait_for()
                last_move_highlighted(web, ann, game_id, "walked")
        for player in (ann, ben, cy):
            player.page.get_by_role("heading", name=re.compile("^Result")).wait_for()
            player.page.locator(".provence-result").wait_for()
        final = api(web, ann, f"/games/{game_id}/")
        assert final["status"] == "finished"
        scores = final["state"]["result"]["scores"]
        rows = ann.page.locator(".provence-result tr[data-seat]")
        assert rows.count() == 2
        for seat, score in enumerate(scores):
            assert rows.nth(seat).locator("td").nth(-2).inner_text() == str(score)  # the total column
        path = shoot(ann, "result")
        ann.page.locator("#table").screenshot(path=str(path.with_name("table-ann.png")))
        shutil.copy(path.with_name("table-ann.png"), path.with_name("provence.png"))
    for player in (ann, ben, cy):
        # A move sent with a version the other seat had just passed is refused (409) and the
        # shell refreshes: expected in simultaneous phases; nothing else may reach the console.
        player.errors[:] = [e for e in player.errors if "409 (Conflict)" not in e]
        player.clean()
