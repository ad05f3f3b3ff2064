"""Legible and accessible at every size, on every page a player sees: the log-in page, the lobby
and its create forms with every setting shown, each game mid-game (as a seat with moves to make),
a replay, a finished game's result, settings, a profile, a leaderboard, each game's rules, the
inbox, my games, an open game with its join link, a join link followed and a dead one. At
1280x800 and at 390x844 axe-core finds no violation, no text is rendered below 12 CSS px, no page
scrolls sideways, and on the phone every control is at least 44x44 px. Text drawn inside a
picture (a card's art) is held to the same 12 px as the page's own. Photoshoot's objective and
moves sit beside its square on a desktop, in view with it."""

import pytest

from tests.web.pages import SIZES, Seat, axe_violations, game, measure, open_page, play

MIN_TEXT, MIN_TARGET = 12, 44
RULES = ("pickpic", "photograph", "provence", "photoshoot")


def games(web):
    ann, ben, cat, dan = (Seat(web, n) for n in ("ann", "ben", "cat", "dan"))
    made = {}
    made["pickpic"] = game("pickpic", [ann, ben, cat])
    play(made["pickpic"], [ann, ben, cat], 6)  # a whole round: the evaluation shows
    made["photograph"] = game("photograph", [ann, ben])
    play(made["photograph"], [ann, ben], 12)
    made["provence"] = game("provence", [ann, ben])
    play(made["provence"], [ann, ben], 5)
    made["photoshoot"] = game("photoshoot", [ann, ben], {"hourglass_seconds": 3600})
    play(made["photoshoot"], [ann, ben], 2, only={"ready", "mend"})  # the hourglass runs: actions
    made["finished"] = game("pickpic", [ann, ben, cat], {"target": 2})
    play(made["finished"], [ann, ben, cat], 60)
    assert ann.get(f"/games/{made['finished']}/")["status"] == "finished"
    private = ann.post("/games/", {"kind": "photograph", "seats": 3, "private": True})
    assert private["join_code"]
    made["private"], made["join_code"] = private["id"], private["join_code"]
    return ann, ben, dan, made


def seat_with_moves(seats, game_id):
    return next((s for s in seats if s.get(f"/games/{game_id}/legal-moves/")["moves"]), seats[0])


def every_setting_shown(page) -> None:
    """Each create form as a player choosing every setting sees it: custom, with a time bank (the
    clock with the most fields), unfolded from under "More options"."""
    folded = page.locator("details.more-options:not([open]) > summary")
    while folded.count():
        folded.first.click()
    for form in page.locator("form.create").all():
        form.get_by_label("Custom: choose every setting").check()
        clock = form.locator("[name='option:time_control']")
        if clock.count():
            clock.select_option("bank")


def pages_of(ann, ben, dan, made):
    """(name, viewer, fragment, what shows once drawn, what the viewer does first)."""
    pages = [
        ("front", None, "#/", "#play-now", None),
        ("login", None, "#/login", "form", None),
        ("lobby", ann, "#/", "article.kind-box", None),
        ("create form", ann, "#/", "article.kind-box", every_setting_shown),
    ]
    for kind in RULES:
        viewer = seat_with_moves([ann, ben], made[kind])
        pages.append((kind, viewer, f"#/games/{made[kind]}", "#table[data-render]", None))
    pages += [
        ("replay", ann, f"#/games/{made['photograph']}/replay", "#table[data-at]", None),
        ("result", ann, f"#/games/{made['finished']}", ".result", None),
        ("settings", ann, "#/settings", "#notification-settings", None),
        ("profile", ann, "#/players/ann", "tr[data-kind=pickpic]", None),
        ("leaderboard", ann, "#/leaderboard/pickpic", "tr[data-player=ann]", None),
    ]
    pages += [(f"rules {kind}", ann, f"#/rules/{kind}", "ol.rules", None) for kind in RULES]
    pages += [
        ("inbox", ann, "#/inbox", "ul.inbox", None),
        ("my games", ann, "#/mine", "ul.games", None),
        ("open game with its join link", ann, f"#/games/{made['private']}", "#join-link", None),
        ("join link followed", dan, f"#/join/{made['join_code']}", ".lobby-actions button", None),
        ("dead join link", dan, "#/join/no-such-code", "text=This link does not open a game", None),
    ]
    return pages


@pytest.mark.parametrize("size_name", SIZES)
def test_every_page_a_player_sees_is_legible_and_accessible(web, browser, size_name):
    size = SIZES[size_name]
    problems, smallest = [], {}
    for name, seat, fragment, ready, prepare in pages_of(*games(web)):
        context, page, errors = open_page(browser, web, seat, fragment, size, ready)
        try:
            if prepare:
                prepare(page)
                page.wait_for_timeout(100)
            found = measure(page)
            assert not errors, errors
            font, target = found["fonts"][0], found["targets"][0] if found["targets"] else (999, "")
            smallest[name] = (font[0], target[0])
            if font[0] < MIN_TEXT:
                problems.append(
                    f"{size_name} {name}: text at {font[0]} px: {[f for f in found['fonts'] if f[0] < MIN_TEXT][:5]}"
                )
            if found["scroll"] > found["width"]:
                problems.append(f"{size_name} {name}: {found['scroll']} px wide on a {found['width']} px screen")
            if size_name == "phone" and target[0] < MIN_TARGET:
                problems.append(
                    f"{size_name} {name}: controls under 44 px: {[t for t in found['targets'] if t[0] < MIN_TARGET][:6]}"
                )
            problems += [f"{size_name} {name}: axe: {v}" for v in axe_violations(page)]
            if name == "photoshoot" and size_name == "desktop":
                problems += beside_the_square(page)
        finally:
            context.close()
    print("smallest (text px, control px):", smallest)
    assert not problems, "\n".join(problems)


def test_text_drawn_inside_card_pictures_is_legible(web, browser):
    # Pick Pic's cards are pictures (SVG files under <image>), cropped to their photograph and
    # drawn 96 to 150 px wide: whatever text their art leaves in view must read at 12 px too.
    ann, _ben, _dan, made = games(web)
    problems, seen = [], 0
    for size_name, size in SIZES.items():
        for name, fragment, ready in (
            ("pickpic", f"#/games/{made['pickpic']}", "#table[data-render]"),
            ("result", f"#/games/{made['finished']}", ".result"),
        ):
            context, page, errors = open_page(browser, web, ann, fragment, size, ready)
            try:
                page.locator("#table image").first.wait_for()
                found = measure(page)
                assert not errors, errors
            finally:
                context.close()
            seen += found["pictures"]
            small = [f for f in found["pictured"] if f[0] < MIN_TEXT]
            if small:
                problems.append(f"{size_name} {name}: text inside pictures at {small[0][0]} px: {small[:4]}")
    assert seen, "no card picture measured"
    assert not problems, "\n".join(problems)


def beside_the_square(page) -> list[str]:
    page.locator(".ps-grid").scroll_into_view_if_needed()
    box = page.evaluate("""() => {
        const r = (q) => document.querySelector(q)?.getBoundingClientRect().toJSON();
        return { grid: r('.ps-grid'), objective: r('.ps-objective'), move: r('.photoshoot-actions button'), height: innerHeight };
    }""")
    grid, out = box["grid"], []
    for part in ("objective", "move"):
        rect = box[part]
        if rect is None:
            out.append(f"photoshoot: no {part}")
        elif rect["left"] < grid["right"] or rect["bottom"] > box["height"] or rect["top"] < 0:
            out.append(f"photoshoot: the {part} is not beside the square in view: {rect} (square {grid})")
    return out
