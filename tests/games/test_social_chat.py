"""Chat per game over HTTP: the two channels and who reads and writes each, limits, plain text
(never HTML, not even in the admin), reports, hiding by staff, notifications that collapse, and
the personal-data registration."""

from accounts import personal_data
from games.models import ChatMessage, ChatReport, Event, Notification


def chat(game_id):
    return f"/api/v1/games/{game_id}/chat/"


def say(player, game_id, text, channel="players"):
    return player.post(chat(game_id), {"channel": channel, "text": text})


def test_players_talk_in_their_channel_and_spectators_in_theirs(alice, bob, carol, duel):
    events = Event.objects.filter(game_id=duel).count()
    sent = say(alice, duel, "good luck")
    assert sent.status_code == 201, sent.content
    body = sent.json()
    assert (body["channel"], body["username"], body["text"]) == ("players", "alice", "good luck")
    assert say(carol, duel, "go bob", "spectators").status_code == 201
    assert [m["text"] for m in bob.get(chat(duel)).json()] == ["good luck"]
    assert [m["text"] for m in carol.get(chat(duel)).json()] == ["go bob"]
    # Never in the log of moves, and no new version.
    assert Event.objects.filter(game_id=duel).count() == events
    assert all(e["type"] != "chat" for e in alice.get(f"/api/v1/games/{duel}/events/").json()["events"])


def test_who_may_read_and_write_which_channel(alice, bob, carol, duel):
    say(alice, duel, "secret plan")
    say(carol, duel, "kibitz", "spectators")
    cases = [
        (carol.get(chat(duel), channel="players"), 403),  # spectators never read the players
        (alice.get(chat(duel), channel="spectators"), 403),  # no kibitzing while the game runs
        (say(carol, duel, "let me in"), 403),
        (say(bob, duel, "hi", "spectators"), 403),
    ]
    for response, status in cases:
        assert response.status_code == status, response.content
        assert response.json()["code"] == "forbidden"
    assert ChatMessage.objects.count() == 2
    bob.post(f"/api/v1/games/{duel}/resign/")
    assert [m["text"] for m in alice.get(chat(duel), channel="spectators").json()] == ["kibitz"]


def test_bad_messages_are_400_and_write_nothing(alice, duel, settings):
    settings.CHAT_MAX_LENGTH = 20
    bad = [
        {"channel": "players"},
        {"channel": "players", "text": ""},
        {"channel": "players", "text": "   "},
        {"channel": "players", "text": "x" * 21},
        {"channel": "lobby", "text": "hi"},
        {"channel": "players", "text": "bell\x07"},
        {"channel": "players", "text": "nul\x00"},
        {"channel": "players", "text": ["hi"]},
        {"text": "hi"},
    ]
    for body in bad:
        response = alice.post(chat(duel), body)
        assert (response.status_code, response.json()["code"]) == (400, "invalid"), (body, response.content)
    assert alice.get(chat(duel), channel="nope").status_code == 400
    assert alice.get(chat(duel), after="x").status_code == 400
    assert ChatMessage.objects.count() == 0


def test_chat_is_rate_limited_per_user(alice, duel, settings):
    settings.CHAT_RATE_COUNT, settings.CHAT_RATE_SECONDS = 3, 3600
    for n in range(3):
        assert say(alice, duel, f"message {n}").status_code == 201
    limited = say(alice, duel, "one too many")
    assert (limited.status_code, limited.json()["code"]) == (429, "throttled")
    assert int(limited["Retry-After"]) >= 1
    assert ChatMessage.objects.count() == 3


def test_text_is_plain_served_raw_as_json_and_escaped_in_the_admin(alice, bob, duel, client, django_user_model):
    html = '<script>alert("x")</script><b>bold</b> & co'
    message_id = say(alice, duel, html).json()["id"]
    response = bob.get(chat(duel))
    assert response["Content-Type"].startswith("application/json")
    assert response.json()[0]["text"] == html  # stored and served as sent: the client shows text
    staff = django_user_model.objects.create_user("moderator", password="pw", is_staff=True, is_superuser=True)
    client.force_login(staff)
    for page in ("/admin/games/chatmessage/", f"/admin/games/chatmessage/{message_id}/change/"):
        shown = client.get(page)
        assert shown.status_code == 200
        text = shown.content.decode()
        assert "<script>alert" not in text and "<b>bold</b>" not in text
        assert "&lt;script&gt;" in text


def test_a_report_reaches_staff_who_hide_the_message_keeping_it(alice, bob, carol, duel, client, django_user_model):
    message_id = say(alice, duel, "rude words").json()["id"]
    report = bob.post(f"{chat(duel)}{message_id}/report/", {"reason": "rude"})
    assert report.status_code == 201, report.content
    again = bob.post(f"{chat(duel)}{message_id}/report/", {"reason": "rude"})
    assert (again.status_code, again.json()["code"]) == (409, "already_exists")
    assert alice.post(f"{chat(duel)}{message_id}/report/", {}).status_code == 403  # one's own
    assert carol.post(f"{chat(duel)}{message_id}/report/", {}).status_code == 404  # not readable to her
    assert bob.post(f"{chat(duel)}999999/report/", {}).status_code == 404
    assert ChatReport.objects.count() == 1
    staff = django_user_model.objects.create_user("moderator", password="pw", is_staff=True, is_superuser=True)
    client.force_login(staff)
    page = f"/admin/games/chatmessage/{message_id}/change/"
    assert client.post(page, {"hide": "on", "hidden_reason": ""}).status_code == 302
    assert not ChatMessage.objects.get(pk=message_id).hidden  # a reason is required
    assert client.post(page, {"hide": "on", "hidden_reason": "insults"}).status_code == 302
    message = ChatMessage.objects.get(pk=message_id)
    assert (message.hidden, message.hidden_by, message.hidden_reason) == (True, staff, "insults")
    assert message.text == "rude words"  # kept
    assert bob.get(chat(duel)).json() == [] and alice.get(chat(duel)).json() == []


def test_chat_notifies_the_other_players_collapsed_like_turn_notices(alice, bob, carol, duel):
    say(alice, duel, "one")
    say(alice, duel, "two")
    say(carol, duel, "spectators notify nobody", "spectators")
    notes = Notification.objects.filter(type="chat")
    assert [(n.user, n.collapsed) for n in notes] == [(bob.user, 2)]
    assert notes[0].title == "alice wrote in Duel (test game)"
    assert not Notification.objects.filter(user=alice.user, type="chat").exists()


def test_chat_authorship_is_exported_and_anonymised_through_the_registry(alice, bob, duel):
    say(alice, duel, "hello bob")
    holder = next(h for h in personal_data.holders() if h.name == "chat")
    assert [m["text"] for m in holder.export(alice.user)] == ["hello bob"]
    holder.erase(alice.user)
    assert holder.export(alice.user) == []
    served = bob.get(chat(duel)).json()
    assert served[0]["text"] == "hello bob" and served[0]["author"] is None and served[0]["username"] is None
