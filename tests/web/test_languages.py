"""The client in the player's language (docs/web.md, "Words on screen"). The pseudo-locale `en-XA`
(English accented and 40 % longer, made from the English catalog as the page loads) shows the
front page, the lobby, each game's table, the settings, a rules page, the tournaments, a ladder,
a finished game's result and replay, the inbox, my games, a profile and the create form at
1280x800 and 390x844: any visible word without an accent is a string left out of the catalogs,
and any word cut off or sideways scroll a layout that cannot take a longer language. A player
switches to French from the language menu and reads French on the lobby, a table and a rules page;
the choice outlives a reload and is saved on the server, and a player whose saved choice is
German, on a device that never chose, gets German; a visitor who chose German reads the server's
refusal in German. With DARKROOM_SCREENSHOTS=docs the French and German tables (every game) go
to docs/screenshots/ too."""

import httpx

from tests.loopback import TLS
from tests.web.conftest import ARTIFACTS
from tests.web.pages import SIZES, Seat, game, open_page, play
from tests.web.test_screenshots import publish

# Visible words the catalogs do not write: what the page shows as data (names, seeds, titles of
# the games) is marked translate="no", a date or time is Intl's (a <time>), words in another
# language say so (`lang`: Pick Pic's card titles), and what is not seen is not read (.sr-only,
# <option>s of a closed menu, a folded <details>, the document's <title>). The test server's own
# kind (Duel) is no game of the site's: its options have no words in the catalogs.
UNTRANSLATED = """() => {
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    // checkVisibility: not inside a folded <details> either.
    return el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  };
  const accented = /[\\u00C0-\\u024F\\u1E00-\\u1EFF]/;
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement, text = node.textContent.trim();
    if (!el || !/[A-Za-z]{3,}/.test(text) || accented.test(text)) continue;
    if (el.closest('[translate=no], .sr-only, script, style, title, noscript, option, defs, time, [data-kind=duel]') || !shown(el)) continue;
    if (el.closest('[lang]') !== document.documentElement) continue;   // said in another language, and marked so
    const where = el.closest('[id], [class]');
    found.push(`${text.slice(0, 60)} (in ${where ? where.tagName.toLowerCase() + (where.id ? '#' + where.id : '.' + where.className) : 'body'})`);
  }
  return found;
}"""


# Words cut off: an HTML box that hides what overflows it (a screen reader's .sr-only aside), or a
# text drawn past the edge of its picture (a card, a photo card, the square).
CLIPPED = """() => {
  const found = [];
  const hides = (v) => v === 'hidden' || v === 'clip';
  for (const el of document.querySelectorAll('body *:not(svg *)')) {
    if (el.closest('.sr-only') || !el.textContent.trim() || !el.checkVisibility()) continue;
    const st = getComputedStyle(el);
    if (st.clip === 'rect(0px, 0px, 0px, 0px)') continue;   // hidden to be read aloud only, as .sr-only
    if ((hides(st.overflowX) && el.scrollWidth > el.clientWidth + 1) || (hides(st.overflowY) && el.scrollHeight > el.clientHeight + 1)) {
      found.push(`${el.textContent.trim().slice(0, 40)} (a ${el.tagName.toLowerCase()} ${el.clientWidth} px wide)`);
    }
  }
  for (const text of document.querySelectorAll('svg text')) {
    if (!text.textContent.trim() || !text.checkVisibility()) continue;
    let root = text.ownerSVGElement;
    while (root.ownerSVGElement) root = root.ownerSVGElement;
    const r = text.getBoundingClientRect(), box = root.getBoundingClientRect();
    if (r.left < box.left - 1 || r.right > box.right + 1) found.push(`${text.textContent.trim().slice(0, 30)} (past its ${Math.round(box.width)} px picture)`);
  }
  return found;
}"""


def pseudo_pages(web):
    ann, ben, cat = Seat(web, "ann"), Seat(web, "ben"), Seat(web, "cat")
    tables = {
        "photograph": game("photograph", [ann, ben]),
        "provence": game("provence", [ann, ben]),
        "photoshoot": game("photoshoot", [ann, ben], {"hourglass_seconds": 3600}),
        "pickpic": game("pickpic", [ann, ben, cat]),
    }
    play(tables["photograph"], [ann, ben], 5)
    play(tables["provence"], [ann, ben], 5)
    play(tables["photoshoot"], [ann, ben], 2, only={"ready", "mend"})
    play(tables["pickpic"], [ann, ben, cat], 6)  # a round evaluated
    pages = [("front", None, "#/", "#play-now"), ("lobby", ann, "#/", "article.kind-box")]
    for kind, table in tables.items():
        viewer = next((s for s in (ann, ben, cat) if s.get(f"/games/{table}/legal-moves/")["moves"]), ann)
        pages.append((f"{kind} table", viewer, f"#/games/{table}", "#table[data-render]"))
    return pages + [
        ("settings", ann, "#/settings", "#notification-settings"),
        ("rules", None, "#/rules/photoshoot", "ol.rules"),
        ("tournaments", ann, "#/tournaments", "main h1"),
        ("a ladder", ann, "#/ladders/photograph", "main h1"),
    ]


def players_pages(web):
    """The screens around the games: a finished game's result and replay, the inbox its notices
    fill, my games, a profile, and the create form (unfolded from under "More options")."""
    eve, fay, gus = Seat(web, "eve"), Seat(web, "fay"), Seat(web, "gus")
    finished = game("pickpic", [eve, fay, gus], {"target": 3})
    play(finished, [eve, fay, gus], 200)
    assert eve.get(f"/games/{finished}/")["status"] == "finished"
    game("photograph", [eve, fay])  # one in progress too, for my games
    return [
        ("result", eve, f"#/games/{finished}", "section.result"),
        ("replay", eve, f"#/games/{finished}/replay", "#table[data-at]"),
        ("inbox", eve, "#/inbox", "main h1"),
        ("my games", eve, "#/mine", "main h1"),
        ("profile", eve, "#/players/eve", "table.ratings, main p"),
        ("create form", eve, "#/", "article[data-kind=photoshoot] .play-computer-now"),
    ]


def pseudo_problems(browser, web, pages) -> list[str]:
    """What the pseudo-locale finds on each page at each size: words outside the catalogs, words
    cut off, sideways scroll."""
    problems = []
    for name, seat, fragment, ready in pages:
        for size_name, size in SIZES.items():
            context, page, errors = open_page(browser, web, seat, fragment, size, ready, language="en-XA")
            try:
                if name == "create form":  # folded under "More options": unfolded to be read
                    page.locator("form[data-kind=photoshoot]").evaluate("f => { f.closest('details').open = true; }")
                assert page.evaluate("document.documentElement.lang") == "en-XA"
                assert "ẋ" in page.locator("main").inner_text(), f"{name}: not in the pseudo-locale"
                left = page.evaluate(UNTRANSLATED)
                if left:
                    problems.append(f"{size_name} {name}: words outside the catalogs: {sorted(set(left))[:12]}")
                clipped = page.evaluate(CLIPPED)
                if clipped:
                    problems.append(f"{size_name} {name}: cut off: {clipped[:8]}")
                width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
                if width[0] > width[1]:
                    problems.append(f"{size_name} {name}: {width[0]} px wide on a {width[1]} px screen")
                assert not errors, errors
            finally:
                context.close()
    return problems


def test_the_pseudo_locale_finds_no_hard_coded_word_no_word_cut_off_and_no_overflow(web, browser):
    problems = pseudo_problems(browser, web, pseudo_pages(web))
    assert not problems, "\n".join(problems)


def test_the_pseudo_locale_over_a_result_a_replay_the_inbox_my_games_a_profile_and_the_create_form(web, browser):
    problems = pseudo_problems(browser, web, players_pages(web))
    assert not problems, "\n".join(problems)


def test_a_player_switches_to_french_and_reads_it_on_the_lobby_a_table_and_the_rules(players, web):
    (ann,) = players("ann")
    page = ann.page
    # The menu at the foot of every screen, each language named in its own words.
    menu = page.locator("footer select#language")
    assert page.locator("footer label").inner_text().startswith("Language")
    assert menu.locator("option").all_inner_texts() == ["English", "Français", "Deutsch"]
    menu.select_option("fr")
    page.get_by_role("heading", level=1, name="Salon").wait_for()
    assert page.evaluate("document.documentElement.lang") == "fr"
    # Saved on the server too: its own words (errors, notices, emails, pushes) follow.
    prefs = httpx.get(
        f"{web.url}/api/v1/accounts/preferences/", headers={"Authorization": f"Token {ann.token}"}, verify=TLS
    ).json()
    assert prefs["language"] == "fr"
    assert page.get_by_role("link", name="Mes parties").is_visible()
    box = page.locator("article.kind-box[data-kind=photograph]")
    assert box.get_by_role("button", name="Jouer contre l'ordinateur à Photograph").is_visible()
    ann.audit("the lobby in French")
    # A table: its sections, the game's state and the players bar in French.
    box.get_by_role("button", name="Jouer contre l'ordinateur à Photograph").click()
    page.locator("#table[data-render]").wait_for()
    page.get_by_role("heading", name="L'étalage").wait_for()
    assert page.get_by_role("heading", name="Votre main").is_visible()
    status = page.locator("[data-status=active]").inner_text()
    assert status == "À vous de jouer" or status.startswith("Au tour de"), status
    assert "(ordinateur)" in page.locator(".players-bar").inner_text()
    assert "cartes dans la pioche" in page.locator(".ph-status").inner_text()
    ann.audit("a table in French")
    # Remembered on this device: a reload stays in French.
    page.reload()
    page.get_by_role("heading", name="L'étalage").wait_for()
    # The rules page in French.
    ann.goto("#/rules/photograph")
    page.get_by_role("heading", level=1, name="Comment jouer à Photograph").wait_for()
    assert "pellicule" in page.locator("ol.rules").inner_text()
    # And back to English from the same menu.
    assert page.locator("footer label").inner_text().startswith("Langue")
    page.locator("footer select#language").select_option("en")
    page.get_by_role("heading", level=1, name="How to play Photograph").wait_for()
    assert page.evaluate("document.documentElement.lang") == "en"
    ann.clean()


def test_a_visitor_who_chose_german_reads_the_servers_refusal_in_german(players, web):
    (visitor,) = players("visitor", register=False)
    page = visitor.page
    visitor.goto("#/login")
    page.locator("footer select#language").select_option("de")
    form = page.get_by_role("form", name="Anmelden")
    form.get_by_label("Benutzername").fill("nobody")
    form.get_by_label("Passwort", exact=True).fill("not-the-password")
    form.get_by_role("button", name="Anmelden").click()
    # The server answers in the language the menu chose, not the browser's (English).
    page.locator("#flash .error").get_by_text("unbekannter Benutzername oder falsches Passwort").wait_for()
    visitor.errors[:] = [e for e in visitor.errors if "status of 401" not in e and "status of 400" not in e]
    visitor.clean()


def test_a_device_that_never_chose_speaks_the_language_saved_on_the_server(web, browser):
    ann = Seat(web, "ann")
    answer = ann.client.put("/accounts/preferences/", json={"language": "de"})
    assert answer.status_code == 200, answer.text
    context, page, errors = open_page(browser, web, ann, "#/", SIZES["desktop"], "article.kind-box")
    try:
        page.get_by_role("heading", level=1, name="Lobby").wait_for()  # German's lobby is a Lobby too
        page.get_by_role("heading", name="Deine Partien").wait_for()
        assert page.evaluate("document.documentElement.lang") == "de"
        assert page.locator("footer select#language").input_value() == "de"
        assert not errors, errors
    finally:
        context.close()


def test_screenshots_of_every_table_in_french_and_in_german(web, browser):
    """Each game mid-game, as docs/screenshots/<kind>-<language>-<size>.png shows it: the tables'
    own headings in each language, from the eyes of the seat whose turn it is (a step of a move
    under way where the table offers one), as the English screenshots are taken."""
    ann, ben, cat, dan = (Seat(web, n) for n in ("ann", "ben", "cat", "dan"))
    made = {
        "photograph": (game("photograph", [ann, ben]), [ann, ben], 14, None),
        "provence": (game("provence", [ann, ben]), [ann, ben], 6, None),
        "photoshoot": (
            game("photoshoot", [ann, ben, cat, dan], {"hourglass_seconds": 3600}),
            [ann, ben, cat, dan],
            4,
            {"ready", "mend"},
        ),
        "pickpic": (game("pickpic", [ann, ben, cat], {"target": 12}), [ann, ben, cat], 6, None),
    }
    for table, seats, moves, only in made.values():
        play(table, seats, moves, only=only)
    play(made["photoshoot"][0], made["photoshoot"][1], 1, only={"swap"})
    # A heading each table draws, in each language: the page is in it before the picture is taken.
    headings = {"photograph": {"fr": "L'étalage", "de": "Die Auslage"}}
    out = ARTIFACTS / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    shots = []
    for kind, (table, seats, _, _) in made.items():
        viewer = next((s for s in seats if s.get(f"/games/{table}/legal-moves/")["moves"]), seats[0])
        for language in ("fr", "de"):
            for size_name, size in SIZES.items():
                context, page, errors = open_page(
                    browser, web, viewer, f"#/games/{table}", size, "#table[data-render]", language=language
                )
                try:
                    assert page.evaluate("document.documentElement.lang") == language
                    if kind in headings:
                        page.get_by_role("heading", name=headings[kind][language]).wait_for()
                    first = page.locator(
                        "#table .cards [data-choice], #table .row-end[data-choice], #table .provence-hand [data-choice]"
                    ).first
                    if kind != "photoshoot" and first.count():
                        first.click()  # a move under way: its next step highlighted
                    page.wait_for_timeout(300)
                    page.evaluate("window.scrollTo(0, 0)")
                    path = out / f"{kind}-{language}-{size_name}.png"
                    page.screenshot(path=str(path), full_page=True)
                    shots.append(path)
                    assert not errors, errors
                finally:
                    context.close()
    publish(shots)
    assert len(shots) == 16 and all(path.stat().st_size > 10_000 for path in shots)


def test_a_photoshoot_verdict_reads_in_the_players_language(web, browser):
    """The engine judged the errors in English, as the recorded game keeps them; a French player
    reads every fault of the log in French."""
    from django.contrib.auth import get_user_model

    from tests.golden.test_golden import HERE, finished_game

    ann, _ = Seat(web, "ann"), Seat(web, "ben")
    users = [get_user_model().objects.get(username=name) for name in ("ann", "ben")]
    played, _ = finished_game(HERE / "photoshoot" / "v1-2p-a.json", users)
    ann.client.put("/accounts/preferences/", json={"language": "fr"}).raise_for_status()
    context, page, errors = open_page(
        browser, web, ann, f"#/games/{played.pk}", SIZES["desktop"], ".move-log-list li", language="fr"
    )
    try:
        log = page.locator(".move-log-list").inner_text()
        assert "seul Jo pousse, et seulement avec sa carte Effet" in log
        assert "only Jo pushes" not in log and 'Photo!" when' not in log
        assert not errors, errors
    finally:
        context.close()
