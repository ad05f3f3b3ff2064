"""Admin views that show a game's whole state ask the game's change-page permission (issue 33
#9; docs/operations.md, "Who may see a game's whole state")."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db


def staff_client(*perms):
    user = User.objects.create_user("clerk", password="x", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(codename__in=perms))
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("page", ["state/3/", "review/"])
def test_staff_without_the_games_permission_see_no_state(duel, page):
    client = staff_client()
    assert client.get(f"/admin/games/game/{duel}/change/").status_code == 403
    response = client.get(f"/admin/games/game/{duel}/{page}")
    assert response.status_code == 403
    assert b"hand" not in response.content


@pytest.mark.parametrize("perm", ["view_game", "change_game"])
@pytest.mark.parametrize("page", ["state/3/", "review/"])
def test_staff_who_may_open_the_game_see_its_state(duel, page, perm):
    client = staff_client(perm)
    assert client.get(f"/admin/games/game/{duel}/change/").status_code == 200
    assert client.get(f"/admin/games/game/{duel}/{page}").status_code == 200
