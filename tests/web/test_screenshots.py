"""Screenshots at 1280x800 and 390x844: every game mid-game, from the eyes of the seat whose turn it
is (a step of a move under way where the table offers one), and the other screens a player meets
(the front page without an account, the lobby, a create form, a finished game's result, its replay, settings, a profile, a game
against the computer and the computer's profile, a leaderboard, a rules page). They go to
tests/web/artifacts/screenshots/; with DARKROOM_SCREENSHOTS=docs they also replace
docs/screenshots/<name>-<desktop|phone>.png (checked by eye before a commit)."""

import os
import shutil
from pathlib import Path

from tests.web.conftest import ARTIFACTS
from tests.web.pages import SIZES, Seat, game, open_page, play

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def test_screenshots_of_every_game_on_a_desktop_and_a_phone(web, browser):
    ann, ben, cat, dan = (Seat(web, n) for n in ("ann", "ben", "cat", "dan"))
    made = {
        "pickpic": (game("pickpic", [ann, ben, cat], {"target": 12}), [ann, ben, cat], 6, None),
        "photograph": (game("photograph", [ann, ben]), [ann, ben], 14, None),
        "provence": (game("provence", [ann, ben]), [ann, ben], 6, None),
        "photoshoot": (
            game("photoshoot", [ann, ben, cat, dan], {"hourglass_seconds": 3600}),
            [ann, ben, cat, dan],
            4,
            {"ready", "mend"},
        ),
    }
    for game_id, seats, moves, only in made.values():
        play(game_id, seats, moves, only=only)
    play(made["photoshoot"][0], made["photoshoot"][1], 1, only={"swap"})
    out = ARTIFACTS / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    shots = []
    for kind, (game_id, seats, _, _) in made.items():
        viewer = next((s for s in seats if s.get(f"/games/{game_id}/legal-moves/")["moves"]), seats[0])
        for size_name, size in SIZES.items():
            context, page, errors = open_page(browser, web, viewer, f"#/games/{game_id}", size, "#table[data-render]")
            first = page.locator(
                "#table .cards [data-choice], #table .row-end[data-choice], #table .provence-hand [data-choice]"
            ).first
            if kind != "photoshoot" and first.count():
                first.click()  # a move under way: its next step highlighted
                page.wait_for_timeout(300)
            page.evaluate("window.scrollTo(0, 0)")
            if kind == "photoshoot" and size_name == "desktop":
                assert_on_the_first_screen(page, ".ps-grid", ".ps-objective", ".photoshoot-actions button")
            path = out / f"{kind}-{size_name}.png"
            page.screenshot(path=str(path), full_page=True)
            shots.append(path)
            context.close()
            assert not errors, errors
    publish(shots)
    assert len(shots) == 8


def assert_on_the_first_screen(page, *selectors: str) -> None:
    """Photoshoot is played against the hourglass: its square, objective and moves are all in view
    as the page opens, nothing to scroll to."""
    from playwright.sync_api import TimeoutError as NotInView

    for selector in selectors:
        # The page may draw the table again between two looks (news from its stream), detaching
        # what the last look found: each selector is judged in a single look inside the page,
        # looked at again until the table stands.
        try:
            page.wait_for_function(IN_VIEW, arg=selector, timeout=10_000)
        except NotInView:
            raise AssertionError((selector, page.evaluate(WHERE, selector))) from None


IN_VIEW = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return false;
  const r = el.getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight;
}"""
WHERE = """(selector) => {
  const el = document.querySelector(selector);
  const r = el && el.getBoundingClientRect();
  return { top: r && r.top, bottom: r && r.bottom, height: innerHeight };
}"""


def publish(shots: list[Path]) -> None:
    if os.environ.get("DARKROOM_SCREENSHOTS") == "docs":
        DOCS.mkdir(exist_ok=True)
        for path in shots:
            shutil.copy(path, DOCS / path.name)


def test_screenshots_of_the_screens_around_the_games(web, browser):
    eve, fay, gus = (Seat(web, n) for n in ("eve", "fay", "gus"))
    finished = game("pickpic", [eve, fay, gus], {"target": 3})
    play(finished, [eve, fay, gus], 200)
    assert eve.get(f"/games/{finished}/")["status"] == "finished"
    # A game against the computer, for the lobby's list and a bot's profile.
    against = fay.post("/games/", {"kind": "photograph", "seats": 2, "options": {}, "bots": [1]})
    bot = next(p["username"] for p in fay.get(f"/games/{against['id']}/")["players"] if p["bot"])
    screens = {
        "front": ("#/", "#play-now", None),
        "lobby": ("#/", "article[data-kind=photoshoot] .play-computer-now", None),
        "create": ("#/", "article[data-kind=photoshoot] .play-computer-now", "form[data-kind=photoshoot]"),
        "my-games": ("#/mine", "main h1", None),
        "result": (f"#/games/{finished}", "section.result", None),
        "replay": (f"#/games/{finished}/replay", "#table[data-at]", None),
        "settings": ("#/settings", "#notification-settings", None),
        "profile": ("#/players/eve", "table.ratings, main p", None),
        "bot-game": (f"#/games/{against['id']}", "#table[data-render]", None),
        "bot-profile": (f"#/players/{bot}", "main h1", None),
        "leaderboard": ("#/leaderboard/pickpic", "table.leaderboard, main p", None),
        "rules": ("#/rules/photoshoot", "ol.rules", None),
    }
    # A computer player is marked as one wherever its name is listed.
    marked = {
        "lobby": "section[aria-labelledby=lobby-watch]",
        "bot-game": ".game-head .players-bar",
        "bot-profile": "main h1",
    }
    out = ARTIFACTS / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    shots = []
    for name, (fragment, ready, part) in screens.items():
        for size_name, size in SIZES.items():
            context, page, errors = open_page(browser, web, None if name == "front" else eve, fragment, size, ready)
            # The test server's own kind (Duel) is no game of the site's: not in its pictures.
            page.add_style_tag(content="article[data-kind=duel] { display: none !important; }")
            if part:  # the create form is folded under "More options"
                page.locator(part).evaluate("f => { f.closest('details').open = true; }")
            page.evaluate("window.scrollTo(0, 0)")
            if name in marked:
                assert f"{bot} (bot)" in page.locator(marked[name]).inner_text(), name
            path = out / f"{name}-{size_name}.png"
            if part:
                page.locator(part).screenshot(path=str(path))
            else:
                page.screenshot(path=str(path), full_page=True)
            shots.append(path)
            context.close()
            assert not errors, (name, errors)
    publish(shots)
    assert len(shots) == 2 * len(screens)
