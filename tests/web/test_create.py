"""A create form for people: presets for the clock, labels and help in words, durations in human
units, only the fields the chosen clock uses; a game made from a preset has exactly its options."""

import httpx
from tests.loopback import TLS
from tests.web.driver import create_form


def options_of(web, player, game_id):
    return httpx.get(
        f"{web.url}/api/v1/games/{game_id}/", headers={"Authorization": f"Token {player.token}"}, verify=TLS
    ).json()["options"]


def test_presets_words_units_and_only_the_clock_fields_in_use(players, web):
    (ann,) = players("ann")
    page = ann.page
    shoot = create_form(page, "photoshoot")
    presets = shoot.locator(".presets label").all_inner_texts()
    assert presets[:3] == [
        "Real-time: 90 s hourglass",
        "Correspondence: 3 days a move",
        "Blitz correspondence: 1 day a move",
    ]
    for box in page.locator("article.kind-box").all():  # every form, unfolded
        create_form(page, box.get_attribute("data-kind"))
    for form in page.locator("form.create").all():
        labels = form.locator("label:visible, legend:visible").all_inner_texts()
        assert labels and not any("_" in text for text in labels), labels
        assert form.locator("[name='option:time_control']:visible").count() == 0  # a preset: no raw clock fields
    # Custom: the clock's own fields, in days; a bank's fields only for a bank.
    shoot.get_by_label("Custom: choose every setting").check()
    clock = shoot.locator("[name='option:time_control']")
    clock.select_option("per_move")
    move = shoot.get_by_label("Time for each move", exact=True)
    assert move.is_visible() and move.input_value() == "3"
    assert shoot.locator("[data-unit-for=move_seconds]").input_value() == "86400"  # 3 days, not 259200 seconds
    assert not shoot.get_by_label("Time in the bank at the start", exact=True).is_visible()
    clock.select_option("bank")
    assert shoot.get_by_label("Time in the bank at the start", exact=True).is_visible() and not move.is_visible()
    assert shoot.get_by_text("Each player starts with this much time for the whole game.").is_visible()
    clock.select_option("none")
    assert not shoot.get_by_label("When a player's time runs out").is_visible()
    # A game from a preset, as a new player would make one.
    photo = create_form(page, "photograph")
    photo.get_by_label("Blitz correspondence: 1 day a move").check()
    photo.get_by_role("button", name="Create a Photograph game").click()
    page.locator("[data-status=open]").wait_for()
    made = options_of(web, ann, page.evaluate("location.hash").rsplit("/", 1)[1])
    assert made["time_control"] == "per_move" and made["move_seconds"] == 86400
    ann.goto("#/")
    create_form(page, "photoshoot").get_by_role("button", name="Create a Photoshoot game").click()
    page.locator("[data-status=open]").wait_for()
    made = options_of(web, ann, page.evaluate("location.hash").rsplit("/", 1)[1])
    assert made["time_control"] == "none" and made["hourglass_seconds"] == 90
    ann.clean()


def test_a_value_out_of_bounds_is_said_beside_its_field_in_words_and_nothing_is_sent(players, web):
    (ann,) = players("ann")
    page = ann.page
    form = create_form(page, "photograph")
    form.get_by_label("Custom: choose every setting").check()
    form.locator("[name='option:time_control']").select_option("per_move")
    move = form.get_by_label("Time for each move", exact=True)
    form.locator("[data-unit-for=move_seconds]").select_option("1")  # seconds
    move.fill("0")
    form.get_by_role("button", name="Create a Photograph game").click()
    beside = form.locator("[data-option=move_seconds] .field-error")
    assert beside.inner_text() == "This must be at least 1 second."
    assert move.get_attribute("aria-invalid") == "true" and move.evaluate("e => e === document.activeElement")
    assert beside.get_attribute("id") in move.get_attribute("aria-describedby").split()
    assert page.locator("#flash .error").count() == 0 and "#/games/" not in page.url
    ann.audit("a value out of bounds")
    # Corrected, the words go and the game is made.
    move.fill("90")
    assert form.locator(".field-error").count() == 0
    form.get_by_role("button", name="Create a Photograph game").click()
    page.locator("[data-status=open]").wait_for()
    ann.clean()
