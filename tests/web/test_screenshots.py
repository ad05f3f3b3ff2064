"""Screenshots of every game at 1280x800 and 390x844, mid-game, from the eyes of the seat whose
turn it is (a step of a move under way where the table offers one). They go to
tests/web/artifacts/screenshots/; with DARKROOM_SCREENSHOTS=docs they also replace
docs/screenshots/<kind>-<desktop|phone>.png (checked by eye before a commit)."""
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
        "photoshoot": (game("photoshoot", [ann, ben, cat, dan], {"hourglass_seconds": 3600}), [ann, ben, cat, dan], 4, {"ready", "mend"}),
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
            first = page.locator("#table .cards [data-choice], #table .row-end[data-choice], #table .provence-hand [data-choice]").first
            if kind != "photoshoot" and first.count():
                first.click()     # a move under way: its next step highlighted
                page.wait_for_timeout(300)
            page.evaluate("window.scrollTo(0, 0)")
            path = out / f"{kind}-{size_name}.png"
            page.screenshot(path=str(path), full_page=True)
            shots.append(path)
            context.close()
            assert not errors, errors
    if os.environ.get("DARKROOM_SCREENSHOTS") == "docs":
        DOCS.mkdir(exist_ok=True)
        for path in shots:
            shutil.copy(path, DOCS / path.name)
    assert len(shots) == 8
