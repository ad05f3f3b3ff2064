"""The tables read at a glance, in a player's words, at 1280x800 and 390x844.

- Standing: every table has a players bar with each player's name (never a seat number), the
  score so far as the server counts it from that viewer's view, the clocks and who is to play.
- Words: no seat numbers, Provence's rows and columns counted from 1, a finished game's state in
  plain words in the heading and the tab's title, the seed under "Fairness" below the table, a
  move on its way says "Sending…" and a failed one "Couldn't send" with a Retry that sends it.
- Provence: the player's landscape at least half a desktop's width, hand cards whose words stay
  inside them, placement dots only on the listed placements, no photo frame over the squares
  unless asked for.
- Photograph: your own hand first; the cards you may take wear a "take N" banner (more than a
  border's colour); winding shows a "here" drop target for each listed place.
- Phone: a header of at most 64 px, the Photograph layout near the top, Photoshoot's moves on the
  first screen in a round, each of its actions offered once; axe-core (with
  label-content-name-mismatch) finds nothing on the Photograph and Photoshoot tables.
"""

import re

from tests.web.pages import DESKTOP, PHONE, Seat, axe_violations, game, open_page, play

SEAT_NUMBER = re.compile(r"\bseat \d|\(seat|\bseats? [0-9]\b")


def bar(page) -> list[dict]:
    return page.evaluate("""() => [...document.querySelectorAll('.players-bar .side')].map((li) => ({
        names: [...li.querySelectorAll('.name')].map((n) => n.firstChild.textContent.trim()),
        score: li.querySelector('.score')?.dataset.score ?? null, text: li.innerText,
        toPlay: li.classList.contains('to-play'), clock: Boolean(li.querySelector('.clock')) }))""")


def rect(page, selector: str) -> dict:
    """An element's box, taken in one look inside the page once it stands (a live update may
    draw the table again between two looks from here)."""
    return page.wait_for_function(
        """(q) => { const el = document.querySelector(q);
        return el && el.isConnected && el.getBoundingClientRect().toJSON(); }""",
        arg=selector,
    ).json_value()


def main_text(page) -> str:
    return page.locator("main").inner_text()


def test_every_table_shows_each_sides_score_so_far_from_the_viewers_own_view(web, browser):
    ann, ben, cat = (Seat(web, n) for n in ("ann", "ben", "cat"))
    photograph = game("photograph", [ann, ben], {"time_control": "per_move", "move_seconds": 86400})
    play(photograph, [ann, ben], 16)
    provence = game("provence", [ann, ben])
    play(provence, [ann, ben], 8)
    for game_id in (photograph, provence):
        for viewer in (ann, ben, cat):
            detail = viewer.get(f"/games/{game_id}/")
            context, page, errors = open_page(
                browser, web, viewer, f"#/games/{game_id}", DESKTOP, "#table[data-render]"
            )
            try:
                shown = bar(page)
                assert [s["names"] for s in shown] == [["ann"], ["ben"]]
                # The scores are the server's, counted from this viewer's view of the game.
                assert [int(s["score"]) for s in shown] == [side["score"] for side in detail["standing"]]
                assert [s["toPlay"] for s in shown] == [seat in detail["active_seats"] for seat in (0, 1)]
                for side in shown:
                    assert re.search(r"-?\d+ points?\b", side["text"]), side
                assert not SEAT_NUMBER.search(main_text(page)), SEAT_NUMBER.search(main_text(page))
                assert not errors, errors
            finally:
                context.close()
    # A clock where the game has one, beside its player's name.
    context, page, _ = open_page(browser, web, ann, f"#/games/{photograph}", DESKTOP, "#table[data-render]")
    assert all(side["clock"] for side in bar(page))
    context.close()


def test_a_game_in_a_players_words(web, browser):
    ann, ben, cat = (Seat(web, n) for n in ("ann", "ben", "cat"))
    provence = game("provence", [ann, ben])
    play(provence, [ann, ben], 12)
    context, page, errors = open_page(browser, web, ann, f"#/games/{provence}", DESKTOP, "#table[data-render]")
    page.locator(".move-log-list li", has_text="column").first.wait_for()  # the story told
    text = main_text(page)
    # Rows and columns counted from 1 on each landscape: no negative or zero coordinates.
    assert not re.search(r"\b(row|column) (-|0\b)", text), re.search(r"\b(row|column) (-|0\b).{0,30}", text)
    assert re.search(r"\brow [1-9]\d*, column [1-9]", text)
    # The photo cards' markers carry a player's initial, never a seat number.
    markers = page.evaluate("() => [...document.querySelectorAll('.photo-card text.marker')].map((t) => t.textContent)")
    assert all(m in ("A", "B") for m in markers), markers
    assert not SEAT_NUMBER.search(text)
    assert "Abort (or vote to)" not in text
    page.get_by_role("button", name=re.compile(r"^(Abort|Vote to abort)$")).wait_for()
    # "1 point", never "1 points": the catalog's plurals.
    assert page.evaluate("async () => (await import('/static/web/i18n.js')).t('bar.points', { count: 1 })") == "1 point"
    assert (
        page.evaluate("async () => (await import('/static/web/i18n.js')).t('bar.points', { count: 2 })") == "2 points"
    )
    assert not errors, errors
    context.close()

    # A finished game: its state in plain words in the heading and the tab's title, the seed under
    # "Fairness" below the table and the result, never above them.
    done = game("pickpic", [ann, ben, cat], {"target": 2})
    play(done, [ann, ben, cat], 60)
    final = ann.get(f"/games/{done}/")
    assert final["status"] == "finished"
    context, page, errors = open_page(browser, web, ann, f"#/games/{done}", DESKTOP, ".result")
    status = page.locator("h1 [data-status=finished]").inner_text()
    won = 0 in final["result"]["winners"]
    assert status.startswith("Finished — "), status
    assert ("you won" in status or "you shared" in status) if won else "won" in status and "you won" not in status
    page.wait_for_function("() => document.title.includes('Finished')")
    text = main_text(page)
    assert not re.search(r"over · \w+'s turn|game over ·", text) and "Ties are broken by: forfeit" not in text
    assert not SEAT_NUMBER.search(text)
    fairness = page.get_by_role("heading", name="Fairness")
    seed = page.locator("code.seed")
    assert seed.inner_text() == final["seed"]
    assert fairness.count() == 1
    top = lambda selector: rect(page, selector)["y"]  # noqa: E731
    assert top("#fairness-title") > top("#table") and top("#fairness-title") > top(".result")
    assert top("code.seed-hash") > top("#table")
    assert not errors, errors
    context.close()


def test_a_move_on_its_way_says_sending_and_a_failed_one_offers_retry(web, browser):
    ann, ben = Seat(web, "ann"), Seat(web, "ben")
    photograph = game("photograph", [ann, ben])
    mover = next(s for s in (ann, ben) if s.get(f"/games/{photograph}/legal-moves/")["moves"])
    before = mover.get(f"/games/{photograph}/")["version"]
    context, page, errors = open_page(browser, web, mover, f"#/games/{photograph}", DESKTOP, "#table[data-render]")
    held = []
    page.route(
        "**/api/v1/games/*/moves/",
        lambda route: held.append(route) if route.request.method == "POST" else route.continue_(),
    )
    page.locator(".row-end[data-choice]").first.click()
    page.locator("#table .target[data-choice]").first.click()
    page.get_by_text("Sending…").wait_for()
    while not held:
        page.wait_for_timeout(50)
    held.pop().abort()
    page.get_by_text("Couldn't send").wait_for()
    assert mover.get(f"/games/{photograph}/")["version"] == before  # nothing was played
    page.unroute("**/api/v1/games/*/moves/")
    page.get_by_role("button", name="Retry").click()
    page.wait_for_function(f"() => Number(document.querySelector('#table').dataset.version) > {before}")
    page.wait_for_function("() => !document.querySelector('.send-status[data-state]')")
    assert mover.get(f"/games/{photograph}/")["version"] > before
    assert not errors, errors
    context.close()


def test_provence_reads_at_a_glance_on_a_desktop(web, browser):
    ann, ben = Seat(web, "ann"), Seat(web, "ben")
    provence = game("provence", [ann, ben])
    play(provence, [ann, ben], 4)  # round 3's scene phase: both seats place a card
    legal = ann.get(f"/games/{provence}/legal-moves/")["moves"]
    assert legal and legal[0]["type"] == "place"
    context, page, errors = open_page(browser, web, ann, f"#/games/{provence}", DESKTOP, "circle.spot")
    # The player's own landscape: at least half the desktop's width.
    # (judged in one look inside the page: a live update may draw the table again meanwhile)
    width = page.evaluate(
        "() => document.querySelector('.landscape.mine .landscape-frame').getBoundingClientRect().width"
    )
    assert width >= DESKTOP["width"] / 2, width
    # Hand cards large enough to read, every word inside its card.
    cards = page.evaluate("""() => [...document.querySelectorAll('.hand-card svg')].map((svg) => {
        const box = svg.getBoundingClientRect();
        const out = [...svg.querySelectorAll('text')].filter((t) => {
          const r = t.getBoundingClientRect();
          return r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5;
        }).map((t) => t.textContent);
        return { width: box.width, height: box.height, out };
    })""")
    assert cards and all(c["width"] >= 120 and c["height"] >= 80 and not c["out"] for c in cards), cards
    # A dot exactly where the chosen card may go (its listed placements), nowhere else.
    chosen = page.locator(".hand-card.chosen").get_attribute("data-card")
    spots = {
        (int(d["x"]), int(d["y"]))
        for d in page.evaluate(
            "() => [...document.querySelectorAll('circle.spot')].map((c) => ({ x: c.dataset.x, y: c.dataset.y }))"
        )
    }
    listed = {(m["x"], m["y"]) for m in legal if m["card"] == chosen and m["rotation"] == 0 and not m.get("under")}
    assert spots == listed
    # No photo frame drawn over the squares until the player asks for them.
    assert page.locator("rect.frame").count() == 0
    page.locator(".landscape.mine .frames-toggle input").check()
    page.locator(".landscape.mine rect.frame").first.wait_for()
    assert page.locator(".landscape.mine rect.frame").count() == 5
    assert not errors, errors
    context.close()


def test_photograph_choices_are_plain_and_your_hand_comes_first(web, browser):
    ann, ben = Seat(web, "ann"), Seat(web, "ben")
    photograph = game("photograph", [ann, ben])
    # Play until some seat may wind (a take gives the taker a wind to make).
    for _ in range(40):
        winder = next(
            (
                s
                for s in (ann, ben)
                if any(m["type"] == "wind" for m in s.get(f"/games/{photograph}/legal-moves/")["moves"])
            ),
            None,
        )
        if winder:
            break
        play(photograph, [ann, ben], 1, seed=len(ann.name) + _)
    assert winder, "no wind reached"
    for viewer in (ann, ben):
        context, page, errors = open_page(browser, web, viewer, f"#/games/{photograph}", DESKTOP, "#table[data-render]")
        headings = page.locator(".ph-hand h2").all_inner_texts()
        assert headings[0].startswith("Your hand"), headings  # the second player too
        context.close()

    context, page, errors = open_page(browser, web, winder, f"#/games/{photograph}", DESKTOP, "#table[data-render]")
    winds = [m for m in winder.get(f"/games/{photograph}/legal-moves/")["moves"] if m["type"] == "wind"]
    offered = page.locator(".ph-hand.mine .offered")
    assert offered.count() == len({m["from"] for m in winds})
    assert not axe_violations(page)
    assert offered.first.locator(".badge").text_content() == "move"  # words, not a border's hue
    first = int(offered.first.get_attribute("data-pos"))
    offered.first.click()
    slots = page.locator(".ph-hand.mine .drop-slot")
    slots.first.wait_for()
    assert slots.count() == len([m for m in winds if m["from"] == first])
    assert all(text.strip() == "here" for text in slots.all_inner_texts())
    assert page.locator(".ph-hand.mine .moving .badge").text_content() == "moving"
    assert not axe_violations(page)  # each control's name holds the words it shows
    version = winder.get(f"/games/{photograph}/")["version"]
    slots.first.click()
    page.wait_for_function(f"() => Number(document.querySelector('#table').dataset.version) > {version}")
    assert not errors, errors
    context.close()

    # Taking: a row end chosen, each card that may end the subject says how many it takes.
    taker = next(
        (
            s
            for s in (ann, ben)
            if any(m["type"] == "take" for m in s.get(f"/games/{photograph}/legal-moves/")["moves"])
        ),
        None,
    )
    if taker is None:
        play(photograph, [ann, ben], 2, only={"wind"})
        taker = next(
            s
            for s in (ann, ben)
            if any(m["type"] == "take" for m in s.get(f"/games/{photograph}/legal-moves/")["moves"])
        )
    context, page, errors = open_page(browser, web, taker, f"#/games/{photograph}", DESKTOP, ".row-end[data-choice]")
    end = page.locator(".row-end[data-choice]").first
    label = end.get_attribute("aria-label")
    row, side = int(re.search(r"row (\d+)", label).group(1)) - 1, "left" if "left" in label else "right"
    end.click()
    page.locator(".ph-layout .offered").first.wait_for()
    takes = [
        m
        for m in taker.get(f"/games/{photograph}/legal-moves/")["moves"]
        if m["type"] == "take" and m["row"] == row and m["side"] == side
    ]
    banners = page.locator(".ph-layout .offered .badge").all_text_contents()
    assert sorted(banners) == sorted(f"take {m['count']}" for m in takes)
    assert not axe_violations(page)
    assert not errors, errors
    context.close()


def test_phone_tables_start_high_and_offer_each_action_once(web, browser):
    ann, ben = Seat(web, "ann"), Seat(web, "ben")
    photograph = game("photograph", [ann, ben])
    play(photograph, [ann, ben], 10)
    photoshoot = game("photoshoot", [ann, ben], {"hourglass_seconds": 3600})
    play(photoshoot, [ann, ben], 3, only={"ready", "mend"})  # the hourglass runs: actions
    provence = game("provence", [ann, ben])
    play(provence, [ann, ben], 3)
    problems = []
    for kind, game_id in (("photograph", photograph), ("photoshoot", photoshoot), ("provence", provence)):
        for size_name, size in (("phone", PHONE), ("desktop", DESKTOP)):
            acts = (
                (
                    lambda seat: any(
                        m["type"] in ("swap", "push", "photo")
                        for m in seat.get(f"/games/{game_id}/legal-moves/")["moves"]
                    )
                )
                if kind == "photoshoot"
                else (lambda seat: bool(seat.get(f"/games/{game_id}/legal-moves/")["moves"]))
            )
            viewer = next((s for s in (ann, ben) if acts(s)), None)
            assert viewer, f"{kind}: nobody to play"
            context, page, errors = open_page(browser, web, viewer, f"#/games/{game_id}", size, "#table[data-render]")
            page.evaluate("window.scrollTo(0, 0)")
            header = rect(page, "body > header")
            if size_name == "phone" and header["height"] > 64:
                problems.append(f"{kind}: a {header['height']} px header")
            if kind == "photograph" and size_name == "phone":
                layout = rect(page, ".ph-row")
                if layout["y"] > 420:
                    problems.append(f"photograph: the layout starts {layout['y']} px down")
            if kind == "photoshoot":
                moves = [
                    b.strip() for b in page.locator(".suggested button").all_text_contents()
                ]  # the folded ones too
                if len(moves) != len(set(moves)) or any("ritual" in m for m in moves):
                    problems.append(f"photoshoot: near-duplicate actions {moves}")
                if size_name == "phone":
                    first = rect(page, ".suggested button")
                    grid = rect(page, ".ps-grid")
                    if first["y"] + first["height"] > PHONE["height"] or grid["y"] < 0:
                        problems.append(f"photoshoot: the first action at {first} on a {PHONE['height']} px screen")
            if kind in ("photograph", "photoshoot"):
                problems += [f"{kind} {size_name}: {v}" for v in axe_violations(page)]
            problems += [f"{kind} {size_name}: {e}" for e in errors]
            context.close()
    assert not problems, "\n".join(problems)
