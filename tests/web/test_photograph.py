"""Photograph in the browser: two users play a whole game by clicking (take a row's end and how
far, wind a hand card to its place), a third watches; hidden hand cards never show their number."""

import random

from tests.web import driver


def assert_hands_as_the_api_shows(web, viewer, game_id):
    """Each hand card on the viewer's page shows a number only where the viewer's API view does,
    compared at the same version: a page hears of a move through its stream, so it may still be
    drawing the one before when the API already answers with the next."""
    for _ in range(20):
        view = driver.api_view(web, viewer, game_id)
        page = viewer.page.evaluate("""() => ({
            version: Number(document.querySelector('#table').dataset.version),
            drawn: [...document.querySelectorAll('#table [data-hand]')].map(e =>
                ({seat: Number(e.dataset.hand), pos: Number(e.dataset.pos), number: e.dataset.number ?? null,
                  text: e.textContent}))})""")
        if page["version"] == view["version"]:
            break
        if page["version"] < view["version"]:  # the page catches up, then both are looked at again
            viewer.page.wait_for_function(
                f"Number(document.querySelector('#table').dataset.version) >= {view['version']}"
            )
    else:
        raise AssertionError(f"{viewer.name}'s page never showed the API's version")
    if view["state"] is None or driver.finished(viewer):
        return
    for card in page["drawn"]:
        api = view["state"]["hands"][card["seat"]][card["pos"]]
        assert card["number"] == (str(api["number"]) if "number" in api else None), (viewer.name, card, api)
        if "number" not in api:
            assert api["range"] in card["text"] and not any(
                ch.isdigit() for ch in card["text"].replace(api["range"], "")
            ), card


def test_two_players_play_photograph_to_the_end_and_hidden_cards_stay_hidden(players, web, shoot):
    ann, ben, dan = players("ann", "ben", "dan")
    game_id = driver.create_game(ann, "photograph", 2)
    driver.join(ben, game_id)
    driver.start(ann, 2)
    seats = [ann, ben]
    for who in (ben, dan):
        driver.open_game(who, game_id)
    dan.page.get_by_text("you are spectating").wait_for()
    rng = random.Random(15)
    shoot(ann, "1-start")

    def after_turn(player, turns):
        if turns % 10 == 1:
            for viewer in (dan, *seats):
                assert_hands_as_the_api_shows(web, viewer, game_id)
        if turns in (2, 20, 40):
            shoot(player, f"2-move-{turns}")
            shoot(dan, f"2-move-{turns}-spectator")

    driver.play_to_the_end(seats, rng, after_turn)
    final = driver.api_view(web, ann, game_id)
    for player in [*seats, dan]:
        player.page.locator(".result").wait_for()
        assert player.page.locator("code.seed").inner_text() == final["seed"]
    shoot(ann, "9-result")
    shoot(dan, "9-result-spectator")
    replay_steps_through_the_past(web, dan, game_id)
    shoot(dan, "9-replay-spectator")
    for player in [*seats, dan]:
        player.clean()


def replay_steps_through_the_past(web, viewer, game_id):
    """The replay viewer draws `state?at=N` as the viewer may see it, one event at a time."""
    page = viewer.page
    page.get_by_role("link", name="Replay this game").click()
    table = page.locator("#table")
    last = int(page.locator("input[type=range]").get_attribute("max"))
    page.wait_for_function("n => document.getElementById('table')?.dataset.at === String(n)", arg=last)
    page.get_by_role("button", name="First event").click()
    page.wait_for_function("() => document.getElementById('table')?.dataset.at === '1'")
    page.get_by_role("button", name="Next event").click()
    page.wait_for_function("() => document.getElementById('table')?.dataset.at === '2'")
    page.get_by_role("button", name="Last event").click()
    for at in (last - 1, last - 2):
        page.get_by_role("button", name="Previous event").focus()
        page.keyboard.press("Enter")
        page.wait_for_function("n => document.getElementById('table')?.dataset.at === String(n)", arg=at)
    past = driver.api_at(web, viewer, game_id, last - 2)["state"]
    drawn = table.locator("[data-row]").evaluate_all(
        "els => els.map(e => [Number(e.dataset.row), Number(e.dataset.place), e.dataset.number ?? null])"
    )
    expected = [
        [r, i, str(c["number"]) if "number" in c else None]
        for r, row in enumerate(past["layout"])
        for i, c in enumerate(row)
        if c
    ]
    assert sorted(drawn) == sorted(expected)
