"""A game tells its story: the move log in words (never JSON), the last move, a moment for a
challenge's verdict, a Provence photo completed and a Photograph good shot card claimed, the
replay naming each event, the result ranked by place with each seat's
breakdown in words and numbers, an aborted game saying so."""

import random

from tests.web.pages import DESKTOP, Seat, game, open_page, play


def words_only(texts: list[str]) -> None:
    for text in texts:
        assert "{" not in text and "[" not in text and "undefined" not in text and "null" not in text, text


def test_the_move_log_the_last_move_and_the_replay_tell_the_game_in_words(web, browser):
    ann, ben = Seat(web, "ann"), Seat(web, "ben")
    game_id = game("photograph", [ann, ben])
    play(game_id, [ann, ben], 6)
    events = ann.get(f"/games/{game_id}/events/?limit=200")["events"]
    context, page, errors = open_page(browser, web, ann, f"#/games/{game_id}", DESKTOP, "#table[data-render]")
    page.locator(f".move-log li[data-seq='{events[-1]['seq']}']").wait_for()
    log = page.locator(".move-log li").all_inner_texts()
    assert len(log) == len(events)
    words_only(log)
    assert "took" in " ".join(log) and "wound the film" in " ".join(log)
    assert page.locator("#last-move").inner_text() == f"Last move: {log[0]}"
    # The replay names each event as it steps.
    page.goto(f"{web.url}/#/games/{game_id}/replay")
    page.wait_for_function("n => document.getElementById('table')?.dataset.at === String(n)", arg=events[-1]["seq"])
    page.get_by_role("button", name="First event").click()
    page.wait_for_function("() => document.getElementById('table')?.dataset.at === '1'")
    assert page.locator("#replay-at").inner_text().startswith("Event 1 of")
    assert "created" in page.locator("#replay-at").inner_text()
    page.get_by_role("button", name="Last event").click()
    page.wait_for_function("n => document.getElementById('table')?.dataset.at === String(n)", arg=events[-1]["seq"])
    assert log[0] in page.locator("#replay-at").inner_text()
    context.close()
    assert not errors


def test_a_challenge_verdict_is_a_moment_on_every_page(web, browser):
    seats = [Seat(web, n) for n in ("ann", "ben", "cat", "dan")]  # two teams: the control team challenges
    ann = seats[0]
    game_id = game("photoshoot", seats, {"hourglass_seconds": 3600})
    play(game_id, seats, 4, only={"ready", "mend"})
    play(game_id, seats, 1, only={"swap", "push"})
    challenger = next(
        s for s in seats if any(m["type"] == "challenge" for m in s.get(f"/games/{game_id}/legal-moves/")["moves"])
    )
    context, page, errors = open_page(browser, web, ann, f"#/games/{game_id}", DESKTOP, "#table[data-render]")
    play(game_id, [challenger], 1, only={"challenge"})
    verdict = page.locator("#last-move .moment.fresh")
    verdict.wait_for()
    assert "challenged action #" in verdict.inner_text() and "camera token goes to" in verdict.inner_text()
    context.close()
    assert not errors


def photo_completed(event) -> bool:
    return event["type"] == "WalksRevealed" and bool(event.get("photos"))


def good_shot_claimed(event) -> bool:
    return event["type"] == "FilmWound" and any(p.get("good_shot") for p in event.get("played") or [])


def play_until(seats, game_id, happened, rng) -> dict | None:
    """Random legal moves through the API, one at a time, until an event `happened` that did not
    end the game (its last move would be told as the end): that event, or None."""
    after = seats[0].get(f"/games/{game_id}/")["version"]
    while True:
        moved = False
        for seat in seats:
            legal = seat.client.get(f"/games/{game_id}/legal-moves/")
            if legal.status_code != 200:
                return None
            legal = legal.json()
            if not legal["moves"]:
                continue
            answer = seat.client.post(
                f"/games/{game_id}/moves/",
                json={"move": rng.choice(legal["moves"]), "expected_version": legal["version"]},
            )
            moved |= answer.status_code in (200, 201)
            for event in seat.get(f"/games/{game_id}/events/?after={after}&limit=200")["events"]:
                after = event["seq"]
                if happened(event) and seat.get(f"/games/{game_id}/")["status"] == "active":
                    return event
        if not moved:
            return None


def test_a_completed_provence_photo_and_a_photograph_good_shot_claim_are_moments(web, browser):
    # Random play completes a Provence photo in nearly every game, within its first rounds; four
    # Photograph players (a good shot at 3 shots, not 4) claim one in most: a few games at most.
    seats = [Seat(web, n) for n in ("ann", "ben", "cat", "dan")]
    rng = random.Random(35)
    for kind, players, happened, said in (
        ("provence", 2, photo_completed, "completed by"),
        ("photograph", 4, good_shot_claimed, "good shot card!"),
    ):
        for attempt in range(4):
            game_id = game(kind, seats[:players])
            context, page, errors = open_page(
                browser, web, seats[0], f"#/games/{game_id}", DESKTOP, "#table[data-render]"
            )
            try:
                event = play_until(seats[:players], game_id, happened, rng)
                if event is None:
                    continue
                moment = page.locator(f"#last-move .moment.fresh[data-seq='{event['seq']}']")
                moment.wait_for()
                assert said in moment.inner_text()
                logged = page.locator(f".move-log li.moment[data-seq='{event['seq']}']")
                assert said in logged.inner_text()
                break
            finally:
                context.close()
                assert not errors
        else:
            raise AssertionError(f"no {kind} game of {attempt + 1} had the moment")


def test_results_are_ranked_in_words_and_an_aborted_game_says_so(web, browser):
    ann, ben, cat = Seat(web, "ann"), Seat(web, "ben"), Seat(web, "cat")
    done = game("pickpic", [ann, ben, cat], {"target": 2})
    play(done, [ann, ben, cat], 60)
    final = ann.get(f"/games/{done}/")
    assert final["status"] == "finished"
    context, page, errors = open_page(browser, web, ann, f"#/games/{done}", DESKTOP, ".result")
    rows = page.locator(".result tbody tr")
    places = [int(p) for p in rows.evaluate_all("rs => rs.map(r => r.dataset.place)")]
    assert places == sorted(places) and places == sorted(final["result"]["places"])
    for row in range(rows.count()):
        seat = int(rows.nth(row).get_attribute("data-seat"))
        assert rows.nth(row).locator(".score").inner_text() == str(final["result"]["scores"][seat])
    breakdowns = page.locator(".result .breakdown").all_inner_texts()
    words_only(breakdowns)
    assert all("as a giver" in b for b in breakdowns)
    winners = [p["username"] for p in final["players"] if p["seat"] in final["result"]["winners"]]
    assert all(w in page.locator(".result h2").inner_text() for w in winners)
    context.close()
    # Aborted: every seat votes, and the page says what that means.
    aborted = game("photograph", [ann, ben])
    ann.post(f"/games/{aborted}/abort/")
    ben.client.post(f"/games/{aborted}/abort/")
    assert ann.get(f"/games/{aborted}/")["status"] == "aborted"
    context, page, errors2 = open_page(browser, web, ann, f"#/games/{aborted}", DESKTOP, ".result")
    assert "aborted" in page.locator(".result").inner_text()
    assert "counts for nobody" in page.locator(".result").inner_text()
    context.close()
    assert not errors and not errors2
