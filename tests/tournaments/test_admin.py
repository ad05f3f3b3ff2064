"""Staff's buttons on a tournament's admin page (docs/tournaments.md, "Staff"): pause, remove a
player, settle a game. Each opens a confirmation form; confirming goes through the use case, and
only staff with the games.change_tournament permission see the buttons or may follow them."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.test import Client

from accounts.models import User
from games.models import Game, Registration, Tournament
from tests.tournaments.test_staff import running, users

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def staff_member(name="referee", *perms):
    member = User.objects.create_user(name, password="x", is_staff=True)
    member.user_permissions.set(Permission.objects.filter(codename__in=perms))
    return User.objects.get(pk=member.pk)


@pytest.fixture
def organiser():
    return User.objects.create_user("organiser", password="x")


@pytest.fixture
def referee():
    return signed_in(staff_member("referee", "change_tournament"))


def page(t) -> str:
    return f"/admin/games/tournament/{t.pk}/change/"


def test_the_tournaments_page_shows_staff_a_button_for_each_thing_they_may_do(organiser, referee):
    players = users(4)
    t, tables = running(organiser, players)
    text = referee.get(page(t)).content.decode()
    assert f'href="/admin/games/tournament/{t.pk}/hold/">Pause…' in text
    for p in players:
        assert f'href="/admin/games/tournament/{t.pk}/remove/{p.pk}/"' in text
    for table in tables:
        assert f'href="/admin/games/tournament/{t.pk}/settle/{table.game_id}/"' in text


def test_pausing_asks_for_confirmation_then_holds_the_tournament_and_unpausing_releases_it(organiser, referee):
    t, _ = running(organiser, users(2))
    hold = f"/admin/games/tournament/{t.pk}/hold/"
    confirm = referee.get(hold)
    assert confirm.status_code == 200 and "no next round opens until it is unpaused" in confirm.content.decode()
    assert not Tournament.objects.get(pk=t.pk).paused  # a look changes nothing

    done = referee.post(hold, {"paused": "True"})
    assert done.status_code == 302 and done["Location"] == page(t)
    assert Tournament.objects.get(pk=t.pk).paused
    assert "Unpause…" in referee.get(page(t)).content.decode()
    # A page left open from before the pause does not undo it: it says what it offered.
    assert referee.post(hold, {"paused": "True"}).status_code == 302
    assert Tournament.objects.get(pk=t.pk).paused

    referee.post(hold, {"paused": "False"})
    assert not Tournament.objects.get(pk=t.pk).paused
    history = [e.get_change_message() for e in LogEntry.objects.filter(object_id=str(t.pk)).order_by("pk")]
    assert history == ["Paused: no next round until unpaused."] * 2 + ["Unpaused."]


def test_the_lists_actions_pause_and_unpause_the_selected_tournaments(organiser, referee):
    first, _ = running(organiser, users(2))
    second, _ = running(User.objects.create_user("other", password="x"), users(2, "q"))
    selected = {"_selected_action": [str(first.pk), str(second.pk)]}
    referee.post("/admin/games/tournament/", {"action": "pause", **selected})
    assert list(Tournament.objects.values_list("paused", flat=True)) == [True, True]
    referee.post("/admin/games/tournament/", {"action": "unpause", **selected})
    assert list(Tournament.objects.values_list("paused", flat=True)) == [False, False]


def test_removing_a_player_asks_for_confirmation_then_resigns_their_game(organiser, referee):
    players = users(2)
    t, tables = running(organiser, players)
    leaver = players[0]
    remove = f"/admin/games/tournament/{t.pk}/remove/{leaver.pk}/"
    confirm = referee.get(remove)
    assert confirm.status_code == 200 and "Remove p0 from Spring cup" in confirm.content.decode()
    assert Registration.objects.get(tournament=t, user=leaver).withdrawn_at is None

    done = referee.post(remove)
    assert done.status_code == 302 and done["Location"] == page(t)
    registration = Registration.objects.get(tournament=t, user=leaver)
    assert registration.removed and registration.withdrawn_at is not None
    game = Game.objects.get(pk=tables[0].game_id)
    assert game.status == "finished" and game.seat_set.get(user=leaver).number not in game.result["winners"]
    # Removed once: a second confirmation is refused in words, and the player has no button left.
    again = referee.post(remove)
    assert again.status_code == 400 and "you are not registered" in again.content.decode()
    assert f"/remove/{leaver.pk}/" not in referee.get(page(t)).content.decode()
    assert referee.get(f"/admin/games/tournament/{t.pk}/remove/{organiser.pk}/").status_code == 404


def test_settling_names_each_seats_player_and_ends_the_game_with_the_places_given(organiser, referee):
    t, tables = running(organiser, users(2))
    game = Game.objects.get(pk=tables[0].game_id)
    first, second = (game.seat_set.get(number=n).user.username for n in (0, 1))
    settle = f"/admin/games/tournament/{t.pk}/settle/{game.pk}/"
    form = referee.get(settle).content.decode()
    assert f"Seat 1: {first}" in form and f"Seat 2: {second}" in form and 'name="reason"' in form

    refused = referee.post(settle, {"place_0": "3", "place_1": "1", "reason": "no show"})
    assert refused.status_code == 400 and Game.objects.get(pk=game.pk).status == "active"

    done = referee.post(settle, {"place_0": "2", "place_1": "1", "reason": "no show"})
    assert done.status_code == 302 and done["Location"] == page(t)
    game.refresh_from_db()
    assert game.status == "finished" and game.result["places"] == [2, 1]
    assert game.result["settled"] == {"by": "referee", "reason": "no show"}
    assert Tournament.objects.get(pk=t.pk).current_round == 2  # the round was over: the next opened
    # The game is over: a second settlement is refused and the first stands.
    again = referee.post(settle, {"place_0": "1", "place_1": "2"})
    assert again.status_code == 400 and Game.objects.get(pk=game.pk).result["places"] == [2, 1]


def test_a_team_game_is_settled_with_one_place_a_team(organiser, referee):
    """Photoshoot at four seats: seats 0 and 2 against 1 and 3."""
    t, tables = running(organiser, users(4), kind="photoshoot", size=4, rounds=1)
    settle = f"/admin/games/tournament/{t.pk}/settle/{tables[0].game_id}/"
    split = referee.post(settle, {"place_0": "1", "place_1": "2", "place_2": "2", "place_3": "2"})
    assert split.status_code == 400 and "share one place" in split.content.decode()
    assert Game.objects.get(pk=tables[0].game_id).status == "active"
    referee.post(settle, {"place_0": "2", "place_1": "1", "place_2": "2", "place_3": "1"})
    assert Game.objects.get(pk=tables[0].game_id).result["places"] == [2, 1, 2, 1]


def test_the_pages_speak_the_staff_members_language(organiser, referee):
    t, tables = running(organiser, users(2))
    settle = referee.get(f"/admin/games/tournament/{t.pk}/settle/{tables[0].game_id}/", HTTP_ACCEPT_LANGUAGE="fr")
    text = settle.content.decode()
    assert settle["Content-Language"] == "fr" and "Seat 1" not in text and "Settle the game" not in text


@pytest.mark.parametrize("who", ["player", "organiser", "staff without the permission", "staff who may only look"])
def test_only_staff_who_may_change_tournaments_see_the_buttons_or_follow_them(organiser, who):
    players = users(2)
    t, tables = running(organiser, players)
    visitor = {
        "player": players[0],
        "organiser": organiser,
        "staff without the permission": staff_member("helper"),
        "staff who may only look": staff_member("watcher", "view_tournament"),
    }[who]
    client = signed_in(visitor)
    base = f"/admin/games/tournament/{t.pk}"
    shown = client.get(page(t))
    if who == "staff who may only look":
        text = shown.content.decode()
        assert shown.status_code == 200 and all(f"{base}/{step}/" not in text for step in ("hold", "remove", "settle"))
    for url, data in (
        (f"{base}/hold/", {"paused": "True"}),
        (f"{base}/remove/{players[1].pk}/", {}),
        (f"{base}/settle/{tables[0].game_id}/", {"place_0": "1", "place_1": "2"}),
    ):
        for response in (client.get(url), client.post(url, data)):
            if visitor.is_staff:
                assert response.status_code == 403
            else:  # not staff: the admin sends them to its log-in page
                assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    client.post("/admin/games/tournament/", {"action": "pause", "_selected_action": [str(t.pk)]})
    t.refresh_from_db()
    assert not t.paused and Game.objects.get(pk=tables[0].game_id).status == "active"
    assert Registration.objects.filter(tournament=t, withdrawn_at=None).count() == 2
