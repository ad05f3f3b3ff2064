"""Which characters a chat message may hold (docs/social.md#chat): no control (Cc)
or format (Cf) character but tab and newline, and something visible."""

from __future__ import annotations

import pytest

from games.models import ChatMessage
from tests.api.test_errors import error_of

pytestmark = pytest.mark.django_db


def say(player, game_id, text):
    return player.post(f"/api/v1/games/{game_id}/chat/", {"channel": "players", "text": text})


@pytest.mark.parametrize(
    "text",
    [
        "a\u0085b",
        "\u200b",
        "\u200b\u200c\u2060",
        "hi\u202eevil",
        "x\u00ady",
        "\u0301\u0301",
        "\u3000\u00a0 ",
        "ok\x1b[31m",
    ],
    ids=[
        "NEL (Cc)",
        "zero-width space alone",
        "only format characters",
        "right-to-left override",
        "soft hyphen (Cf)",
        "combining marks alone",
        "only blanks",
        "escape",
    ],
)
def test_invisible_and_control_characters_are_refused_and_nothing_is_said(alice, duel, text):
    error_of(say(alice, duel, text), 400, "invalid")
    assert not ChatMessage.objects.exists()


@pytest.mark.parametrize("text", ["hello", "two\nlines\tand a tab", "👍", "¿qué?", "日本語", "e\u0301"])
def test_visible_text_is_said(alice, duel, text):
    response = say(alice, duel, text)
    assert response.status_code == 201, response.content
    assert response.json()["text"] == text
