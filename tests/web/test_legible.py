"""Legible and accessible at every size: axe-core finds no violation; on every game page (each kind, mid-game, as a seat with moves to make),
the lobby and the log-in page, at 1280x800 and at 390x844, no text is rendered below 12 CSS px,
no page scrolls sideways, and on the phone every control is at least 44x44 px. Photoshoot's
objective and moves sit beside its square on a desktop, in view with it."""
from tests.web.pages import SIZES, Seat, axe_violations, game, measure, open_page, play

MIN_TEXT, MIN_TARGET = 12, 44


def games(web):
    ann, ben, cat = (Seat(web, n) for n in ("ann", "ben", "cat"))
    made = {}
    made["pickpic"] = game("pickpic", [ann, ben, cat])
    play(made["pickpic"], [ann, ben, cat], 6)             # a whole round: the evaluation shows
    made["photograph"] = game("photograph", [ann, ben])
    play(made["photograph"], [ann, ben], 12)
    made["provence"] = game("provence", [ann, ben])
    play(made["provence"], [ann, ben], 5)
    made["photoshoot"] = game("photoshoot", [ann, ben], {"hourglass_seconds": 3600})
    play(made["photoshoot"], [ann, ben], 2, only={"ready", "mend"})   # the hourglass runs: actions
    return ann, ben, made


def seat_with_moves(seats, game_id):
    return next((s for s in seats if s.get(f"/games/{game_id}/legal-moves/")["moves"]), seats[0])


def test_every_page_is_legible_on_a_desktop_and_on_a_phone(web, browser):
    ann, ben, made = games(web)
    pages = [("login", None, "#/login", "form"), ("lobby", ann, "#/", "main h1")]
    for kind, game_id in made.items():
        viewer = seat_with_moves([ann, ben], game_id)
        pages.append((kind, viewer, f"#/games/{game_id}", "#table[data-render]"))
    pages.append(("replay", ann, f"#/games/{made['photograph']}/replay", "#table[data-at]"))
    problems, smallest = [], {}
    for size_name, size in SIZES.items():
        for name, seat, fragment, ready in pages:
            context, page, errors = open_page(browser, web, seat, fragment, size, ready)
            try:
                found = measure(page)
                assert not errors, errors
                font, target = found["fonts"][0], found["targets"][0] if found["targets"] else (999, "")
                smallest[(size_name, name)] = (font[0], target[0])
                if font[0] < MIN_TEXT:
                    problems.append(f"{size_name} {name}: text at {font[0]} px: {[f for f in found['fonts'] if f[0] < MIN_TEXT][:5]}")
                if found["scroll"] > found["width"]:
                    problems.append(f"{size_name} {name}: {found['scroll']} px wide on a {found['width']} px screen")
                if size_name == "phone" and target[0] < MIN_TARGET:
                    problems.append(f"{size_name} {name}: controls under 44 px: {[t for t in found['targets'] if t[0] < MIN_TARGET][:6]}")
                problems += [f"{size_name} {name}: axe: {v}" for v in axe_violations(page)]
                if name == "photoshoot" and size_name == "desktop":
                    problems += beside_the_square(page)
            finally:
                context.close()
    print("smallest (text px, control px):", smallest)
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
