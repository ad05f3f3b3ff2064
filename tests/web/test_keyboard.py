"""A whole game from the keyboard alone: Ann plays Pick Pic to the end with Tab and Enter only
(Ben and Cat play through the API). After every step the focus is on the table's next step, never
back on the page's body, so a move takes few key presses."""

import random

from tests.web.driver import SETTLED
from tests.web.pages import DESKTOP, Seat, game, open_page, play

ON_A_STEP = "() => !!document.activeElement && document.activeElement.matches('#table [data-choice]')"


def test_ann_plays_pick_pic_to_the_end_from_the_keyboard(web, browser):
    ann, ben, cat = Seat(web, "ann"), Seat(web, "ben"), Seat(web, "cat")
    game_id = game("pickpic", [ann, ben, cat], {"target": 3})
    context, page, errors = open_page(browser, web, ann, f"#/games/{game_id}", DESKTOP, "#table[data-render]")
    rng = random.Random(4)
    tabs = enters = 0
    for _ in range(400):
        if ann.get(f"/games/{game_id}/")["status"] == "finished":
            break
        if not ann.get(f"/games/{game_id}/legal-moves/")["moves"]:
            play(game_id, [ben, cat], 2, seed=rng.randrange(1000))
            page.wait_for_timeout(150)
            continue
        page.wait_for_function(
            "() => document.getElementById('table').dataset.yourTurn === 'true' && !document.getElementById('table').dataset.busy"
        )
        presses = 0
        while not page.evaluate(ON_A_STEP):
            page.keyboard.press("Tab")
            presses += 1
            assert presses < 80, "Tab never reached a step of the table"
        tabs += presses
        before = page.locator("#table").get_attribute("data-render")
        step = page.evaluate("document.activeElement.dataset.choice")
        page.keyboard.press("Enter")
        enters += 1
        page.wait_for_function(SETTLED, arg=before)
        assert page.evaluate("document.activeElement !== document.body"), (
            f"the focus fell back to the page's body after {step!r} (step {enters})"
        )
    page.locator(".result").wait_for()
    context.close()
    assert not errors
    assert enters > 10
    # Tab is hardly ever needed: the focus moves on to the next step by itself.
    assert tabs <= max(2, enters // 6), (tabs, enters)
