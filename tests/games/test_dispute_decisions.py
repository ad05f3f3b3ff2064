"""Deciding a dispute in the admin, as a reviewer in the shipped "Dispute reviewers" group: what
players read and what stays with staff, a decided dispute read-only, each permission apart, the
seed of a game still on kept back, and a history that says who decided what."""

from __future__ import annotations

import importlib
import json
import re

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group, Permission
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.test import Client

from accounts.models import User
from games.errors import Forbidden
from games.models import Dispute, Event, Game, Notification
from games.play import disputes

pytestmark = pytest.mark.django_db

REVIEWERS = {
    "games.view_dispute",
    "games.change_dispute",
    "games.decide_dispute",
    "games.view_game",
    "games.roll_back_game",
    "games.view_event",
}


def shipped_group() -> Group:
    """The group migration 0011 ships. A database kept between runs (--reuse-db) may have been
    flushed since it was migrated: the migration's own function then makes it again, as it did."""
    migration = importlib.import_module("games.migrations.0011_dispute_review")
    if not Group.objects.filter(name=migration.REVIEWERS).exists():
        state = MigrationLoader(connection).project_state(("games", "0011_dispute_review"))
        migration.reviewers_group(state.apps, None)
    return Group.objects.get(name=migration.REVIEWERS)


def reviewer(name="judge", group=True, perms=()):
    user = User.objects.create_user(name, password="x", is_staff=True)
    if group:
        user.groups.add(shipped_group())
    user.user_permissions.set(Permission.objects.filter(codename__in=perms))
    client = Client()
    client.force_login(user)
    client.user = user
    return client


def play(player, game_id):
    game = player.game(game_id)
    return player.move(game_id, {"type": "play", "card": game["state"]["hand"][0]}, game["version"])


def dispute_last_move(player, game_id, reason="misclick"):
    seq = Game.objects.get(pk=game_id).version
    answer = player.post(f"/api/v1/games/{game_id}/disputes/", {"seq": seq, "reason": reason})
    assert answer.status_code == 201, answer.content
    return answer.json()["id"]


def change(client, dispute_id, **fields):
    return client.post(f"/admin/games/dispute/{dispute_id}/change/", fields, follow=True)


def said(response):
    return [str(m) for m in response.context["messages"]]


# -- the group ----------------------------------------------------------------------------------
def test_the_shipped_reviewers_group_holds_exactly_what_reviewing_takes():
    group = shipped_group()
    assert group.name == "Dispute reviewers"
    held = {f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.select_related("content_type")}
    assert held == REVIEWERS


def test_operations_md_names_exactly_the_group_s_permissions():
    """The operators' table of the group is the shipped group, no more, no less."""
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text()
    table = page.split("**The Dispute reviewers group.**", 1)[1].split("\n\n", 2)[1]
    named = set(re.findall(r"`(games\.\w+)`", table))
    assert named == REVIEWERS


def test_a_reviewer_in_the_group_reaches_the_queue_the_game_its_events_and_the_review(alice, duel):
    opened = dispute_last_move(alice, duel)
    judge = reviewer()
    assert judge.get("/admin/games/dispute/").status_code == 200
    assert judge.get(f"/admin/games/dispute/{opened}/change/").status_code == 200
    game_page = judge.get(f"/admin/games/game/{duel}/change/")
    assert game_page.status_code == 200 and "GameStarted" in game_page.content.decode()  # the Events inline
    assert judge.get(f"/admin/games/game/{duel}/review/").status_code == 200
    assert judge.get(f"/admin/games/game/{duel}/state/3/").status_code == 200


# -- private and public apart --------------------------------------------------------------------
def test_the_staff_note_stays_with_staff_and_the_message_is_published_with_the_decision(alice, bob, duel):
    opened = dispute_last_move(alice, duel)
    judge = reviewer()
    change(judge, opened, note="Internal: alice disputes every loss", resolution="The move stands.", decision="")
    listed = bob.get(f"/api/v1/games/{duel}/disputes/").json()
    assert [d["resolution"] for d in listed] == [""]  # a draft until the decision
    assert "Internal" not in json.dumps(listed)
    change(judge, opened, note="Internal: alice disputes every loss", resolution="The move stands.", decision="dismiss")
    listed = bob.get(f"/api/v1/games/{duel}/disputes/").json()
    assert [d["resolution"] for d in listed] == ["The move stands."]
    assert "Internal" not in json.dumps(listed)
    logged = Event.objects.get(game_id=duel, type="DisputeResolved")
    assert logged.data["resolution"] == "The move stands." and "Internal" not in json.dumps(logged.data)
    assert not any("Internal" in json.dumps(n.data) + n.title for n in Notification.objects.all())
    assert Dispute.objects.get(pk=opened).note == "Internal: alice disputes every loss"


def test_a_decided_dispute_refuses_edits_and_says_so(alice, duel):
    opened = dispute_last_move(alice, duel)
    judge = reviewer()
    change(judge, opened, resolution="The move stands.", decision="dismiss")
    form = judge.get(f"/admin/games/dispute/{opened}/change/").content.decode()
    assert "keep open" not in form and 'name="decision"' not in form and 'name="resolution"' not in form
    logged = LogEntry.objects.count()
    response = change(judge, opened, resolution="Actually, upheld.", decision="uphold")
    page = response.content.decode()
    assert "read-only" in page and "successfully" not in page
    decided = Dispute.objects.get(pk=opened)
    assert (decided.status, decided.resolution) == ("dismissed", "The move stands.")
    assert LogEntry.objects.count() == logged  # the history records no change that never happened


def test_staff_may_add_a_signed_note_to_a_decided_dispute_and_its_history(alice, duel):
    opened = dispute_last_move(alice, duel)
    judge = reviewer()
    change(judge, opened, resolution="The move stands.", decision="dismiss")
    response = change(judge, opened, add_note="alice wrote in to apologise")
    assert any("Added a note: alice wrote in to apologise" in m for m in said(response))
    note = Dispute.objects.get(pk=opened).note
    assert note.endswith("UTC, judge] alice wrote in to apologise")
    entry = LogEntry.objects.filter(object_id=str(opened)).order_by("-action_time").first()
    assert entry.get_change_message() == "Added a note: alice wrote in to apologise"
    assert Dispute.objects.get(pk=opened).status == "dismissed"


# -- each permission apart -------------------------------------------------------------------------
def test_changing_a_dispute_is_not_deciding_it(alice, duel):
    opened = dispute_last_move(alice, duel)
    clerk = reviewer("clerk", group=False, perms=["view_dispute", "change_dispute", "view_game"])
    form = clerk.get(f"/admin/games/dispute/{opened}/change/").content.decode()
    assert 'value="dismiss"' not in form and "games.decide_dispute" in form
    change(clerk, opened, resolution="dismissed by a clerk", decision="dismiss")
    assert Dispute.objects.get(pk=opened).status == "open"
    with pytest.raises(Forbidden, match="games.decide_dispute"):
        disputes.resolve_dispute(opened, clerk.user, uphold=False, resolution="")


def test_rolling_back_needs_its_own_permission_besides_deciding(alice, duel):
    play(alice, duel)
    opened = dispute_last_move(alice, duel)
    judge = reviewer("decider", group=False, perms=["view_dispute", "change_dispute", "decide_dispute", "view_game"])
    form = judge.get(f"/admin/games/dispute/{opened}/change/").content.decode()
    assert 'value="uphold"' in form and 'value="rollback"' not in form and "games.roll_back_game" in form
    before = Event.objects.filter(game_id=duel).count()
    change(judge, opened, resolution="replay", decision="rollback")
    assert Event.objects.filter(game_id=duel).count() == before
    with pytest.raises(Forbidden, match="games.roll_back_game"):
        disputes.resolve_dispute(opened, judge.user, uphold=True, resolution="", roll_back=True)
    blind = reviewer("blind", group=False, perms=["change_dispute", "decide_dispute", "roll_back_game"])
    with pytest.raises(Forbidden, match="games.view_game"):
        disputes.resolve_dispute(opened, blind.user, uphold=True, resolution="", roll_back=True)
    assert Dispute.objects.get(pk=opened).status == "open"


@pytest.mark.parametrize(
    "act",
    [
        lambda pk, user: disputes.save_dispute_draft(pk, user, note="draft", resolution="draft"),
        lambda pk, user: disputes.annotate_dispute(pk, user, "a note"),
        lambda pk, user: disputes.assign_dispute(pk, user, user),
    ],
    ids=["draft", "note", "claim"],
)
def test_a_reviewer_who_may_only_look_writes_nothing_whatever_the_way_in(alice, duel, act):
    opened = dispute_last_move(alice, duel)
    onlooker = reviewer("onlooker", group=False, perms=["view_dispute", "view_game", "decide_dispute"])
    with pytest.raises(Forbidden, match="games.change_dispute"):
        act(opened, onlooker.user)
    untouched = Dispute.objects.get(pk=opened)
    assert (untouched.note, untouched.resolution, untouched.assigned_to) == ("", "", None)


def test_the_admin_says_in_html_which_permission_is_missing(alice, duel):
    opened = dispute_last_move(alice, duel)
    nobody = reviewer("nobody", group=False)
    for url, perm in [
        (f"/admin/games/game/{duel}/state/3/", "games.view_game"),
        (f"/admin/games/game/{duel}/change/", "games.view_game"),
        ("/admin/games/dispute/", "games.view_dispute"),
        (f"/admin/games/game/{duel}/review/", "games.view_game"),
        (f"/admin/games/dispute/{opened}/change/", "games.view_dispute"),
        (f"/admin/games/dispute/player/{alice.user.pk}/", "games.view_dispute"),
    ]:
        response = nobody.get(url)
        assert response.status_code == 403
        assert response["Content-Type"].startswith("text/html")
        assert perm in response.content.decode()


# -- the seed --------------------------------------------------------------------------------------
def seed_of(game_id):
    return Event.objects.get(game_id=game_id, seq=1).data["seed"]


def test_the_seed_of_a_game_still_on_is_shown_only_with_its_own_permission(alice, duel):
    judge = reviewer()
    seed = seed_of(duel)
    for url in (
        f"/admin/games/game/{duel}/state/3/",
        f"/admin/games/game/{duel}/change/",
        f"/admin/games/game/{duel}/review/?from=0&at=3",
    ):
        page = judge.get(url).content.decode()
        assert seed not in page, url
    seer = reviewer("seer", perms=["view_seed"])
    assert seed in seer.get(f"/admin/games/game/{duel}/state/3/").content.decode()


def test_a_pickpic_state_s_own_seed_is_kept_back_too(alice, bob, carol):
    """Pick Pic keeps its seed in the state (`_seed`) to shuffle later rounds: the state page, the
    review and the decision screen hold it back from the group."""
    from tests.conftest import start_game

    game_id = start_game(alice, [bob, carol], kind="pickpic")
    version = Game.objects.get(pk=game_id).version
    opened = dispute_last_move(alice, game_id)
    seed = seed_of(game_id)
    judge = reviewer()
    for url in (
        f"/admin/games/game/{game_id}/state/{version}/",
        f"/admin/games/game/{game_id}/review/",
        f"/admin/games/dispute/{opened}/change/",
        f"/admin/games/game/{game_id}/change/",
    ):
        page = judge.get(url).content.decode()
        assert seed not in page, url
    assert '"_seed": "(hidden while the game is on' in judge.get(
        f"/admin/games/game/{game_id}/state/{version}/"
    ).content.decode().replace("&quot;", '"')
    seer = reviewer("seer", perms=["view_seed"])
    assert seed in seer.get(f"/admin/games/game/{game_id}/review/").content.decode()


def test_the_seed_of_a_finished_game_is_public_to_reviewers_too(alice, bob, duel):
    assert bob.post(f"/api/v1/games/{duel}/resign/").status_code in (200, 201)
    assert seed_of(duel) in reviewer().get(f"/admin/games/game/{duel}/state/3/").content.decode()


# -- an audit a moderator can read ------------------------------------------------------------------
def test_a_decision_is_told_and_logged_with_its_outcome_rollback_and_decider(alice, duel):
    play(alice, duel)
    opened = dispute_last_move(alice, duel)
    disputed = Dispute.objects.get(pk=opened).seq
    response = change(
        reviewer(), opened, note="checked the log", resolution="Play that turn again.", decision="rollback"
    )
    summary = f"Dispute #{opened} upheld by judge; the game was rolled back to just before event {disputed}."
    assert any(m.startswith(summary) for m in said(response)), said(response)
    assert not any("(open)" in m for m in said(response))
    entry = LogEntry.objects.get(object_id=str(opened))
    assert entry.get_change_message() == f"{summary} Message to the players: “Play that turn again.”"
    resolved = Event.objects.get(game_id=duel, type="DisputeResolved")
    rolled = Event.objects.get(game_id=duel, type="GameRolledBack")
    assert resolved.data["decided_by"] == "judge" and rolled.data["decided_by"] == "judge"
    assert rolled.data["to"] == disputed - 1 and rolled.data["voided"] == [disputed]


# -- a decision screen that stands alone ------------------------------------------------------------
def test_a_rollback_that_cannot_be_made_is_not_offered_and_the_typed_text_is_kept(alice, bob, duel):
    play(alice, duel)
    play(bob, duel)  # the trick is complete: each seat draws a secret card
    seq = Game.objects.get(pk=duel).version - 1
    opened = alice.post(f"/api/v1/games/{duel}/disputes/", {"seq": seq, "reason": "misclick"}).json()["id"]
    judge = reviewer()
    form = judge.get(f"/admin/games/dispute/{opened}/change/").content.decode()
    assert 'value="rollback"' not in form and "No rollback:" in form and "revealed hidden information" in form
    response = judge.post(
        f"/admin/games/dispute/{opened}/change/",
        {"note": "my long reasoning", "resolution": "Replay the trick.", "decision": "rollback"},
    )
    page = response.content.decode()
    assert response.status_code == 200 and "revealed hidden information" in page
    assert "my long reasoning" in page and "Replay the trick." in page
    assert Dispute.objects.get(pk=opened).status == "open"


def test_the_decision_screen_shows_the_disputed_event_inline_as_json_to_the_second(alice, duel):
    play(alice, duel)
    opened = dispute_last_move(alice, duel)
    event = Event.objects.get(game_id=duel, seq=Dispute.objects.get(pk=opened).seq)
    page = reviewer().get(f"/admin/games/dispute/{opened}/change/").content.decode()
    assert f"#{event.seq} CardPlayed" in page and "seat 0 (alice)" in page
    assert f"{event.created_at:%Y-%m-%d %H:%M:%S} UTC" in page
    assert "&quot;card&quot;" in page and "&#x27;card&#x27;" not in page  # JSON, not Python's repr


def test_the_review_opens_from_the_eyes_of_the_disputed_move_s_player(alice, bob, duel):
    play(alice, duel)
    play(bob, duel)
    bobs = Event.objects.filter(game_id=duel, actor=1).latest("seq")
    opened = alice.post(f"/api/v1/games/{duel}/disputes/", {"seq": bobs.seq, "reason": "he played out of turn"}).json()[
        "id"
    ]
    judge = reviewer()
    screen = judge.get(f"/admin/games/dispute/{opened}/change/").content.decode()
    link = f"/admin/games/game/{duel}/review/?from={bobs.seq - 1}&amp;at={bobs.seq}"
    assert link in screen and "seat 1 (bob)" in screen
    review = judge.get(link.replace("&amp;", "&")).context["review"]
    assert review["seat"] == 1  # bob's, not seat 0's
    assert "(you)" not in json.dumps(review)


def test_a_staff_decision_reads_as_the_staff_member_not_the_system(alice, duel):
    opened = dispute_last_move(alice, duel)
    judge = reviewer()
    change(judge, opened, resolution="fine", decision="dismiss")
    version = Game.objects.get(pk=duel).version
    page = judge.get(f"/admin/games/game/{duel}/state/{version}/").content.decode()
    assert "<td>DisputeResolved</td><td>staff (judge)</td>" in page
    review = judge.get(f"/admin/games/game/{duel}/review/").context["review"]
    assert review["events"][-1]["by"] == "staff (judge)"


def test_photograph_offers_no_rollback_and_says_why_before_anyone_tries(alice, bob):
    """Every Photograph move counts as a reveal: no move of it can be rolled back."""
    from tests.conftest import start_game

    game_id = start_game(alice, [bob], kind="photograph")
    game = alice.game(game_id)
    seat = game["active_seats"][0]
    mover = (alice, bob)[seat]
    move = mover.get(f"/api/v1/games/{game_id}/legal-moves/").json()["moves"][0]
    assert mover.move(game_id, move, game["version"]).status_code == 201
    opened = dispute_last_move((bob, alice)[seat], game_id)
    form = reviewer().get(f"/admin/games/dispute/{opened}/change/").content.decode()
    assert 'value="rollback"' not in form and 'value="uphold"' in form
    assert "No rollback: the disputed event" in form and "itself showed the players hidden information" in form


# -- players told the outcome -----------------------------------------------------------------------
def test_players_are_told_the_outcome_in_words_with_the_message(alice, bob, duel):
    play(alice, duel)
    opened = dispute_last_move(alice, duel)
    disputed = Dispute.objects.get(pk=opened).seq
    change(reviewer(), opened, resolution="Play that turn again.", decision="rollback")
    mine = Notification.objects.filter(user=alice.user, type="dispute").get()
    theirs = Notification.objects.filter(user=bob.user, type="dispute", data__status="upheld").get()
    assert mine.title.startswith("Your dispute was upheld")
    assert mine.data["outcome"] == (
        f"Your dispute on event {disputed} was upheld; the game was rolled back to before move {disputed}."
    )
    assert mine.data["resolution"] == "Play that turn again." and mine.data["rolled_back_to"] == disputed - 1
    assert theirs.title.startswith("A dispute was upheld")
    opened_notice = Notification.objects.filter(user=bob.user, type="dispute", data__status="open").get()
    assert opened_notice.title.startswith("A dispute was raised")


@pytest.mark.parametrize(
    "decision, raiser_reads, others_read",
    [
        ("dismiss", "Your dispute on event {seq} was dismissed.", "A dispute on event {seq} was dismissed."),
        ("uphold", "Your dispute on event {seq} was upheld.", "A dispute on event {seq} was upheld."),
    ],
)
def test_each_outcome_is_told_in_its_own_words(alice, bob, duel, decision, raiser_reads, others_read):
    opened = dispute_last_move(alice, duel)
    seq = Dispute.objects.get(pk=opened).seq
    change(reviewer(), opened, note="between us", resolution="We looked at the log.", decision=decision)
    status = {"dismiss": "dismissed", "uphold": "upheld"}[decision]
    assert (
        LogEntry.objects.get(object_id=str(opened)).get_change_message()
        == f"Dispute #{opened} {status} by judge. Message to the players: “We looked at the log.”"
    )
    for player, reads, title in (
        (alice, raiser_reads, f"Your dispute was {status}"),
        (bob, others_read, f"A dispute was {status}"),
    ):
        notice = Notification.objects.filter(user=player.user, type="dispute", data__status=status).get()
        assert notice.title.startswith(title)
        assert notice.data["outcome"] == reads.format(seq=seq)
        assert notice.data["resolution"] == "We looked at the log." and notice.data["rolled_back_to"] is None
        assert "between us" not in json.dumps(notice.data) + notice.title


# -- a queue ------------------------------------------------------------------------------------------
@pytest.fixture
def no_cooldown(settings):
    settings.DISPUTE_COOLDOWN_SECONDS = 0


def test_the_queue_puts_open_disputes_first_the_oldest_first(alice, bob, duel, no_cooldown):
    first = dispute_last_move(alice, duel)
    play(alice, duel)
    second = dispute_last_move(bob, duel)
    Dispute.objects.filter(pk=second).update(created_at=Dispute.objects.get(pk=first).created_at.replace(year=2020))
    judge = reviewer()
    change(judge, first, resolution="fine", decision="dismiss")
    play(bob, duel)
    third = dispute_last_move(alice, duel)
    listed = [d.pk for d in judge.get("/admin/games/dispute/").context["cl"].result_list]
    assert listed == [second, third, first]  # open (oldest first), then decided


def test_the_queue_is_searched_by_username_and_game_id_and_filtered(alice, bob, carol, duel):
    from tests.conftest import start_game

    mine = dispute_last_move(alice, duel)
    other = start_game(bob, [carol])
    theirs = dispute_last_move(carol, other)
    judge = reviewer()

    def found(query):
        return {d.pk for d in judge.get(f"/admin/games/dispute/?{query}").context["cl"].result_list}

    assert found("q=alice") == {mine}
    assert found("q=bob") == {mine, theirs}  # bob plays in both games
    assert found(f"q={other}") == {theirs}
    assert found(f"q=%23{theirs}") == {theirs}
    assert found(f"raised_by__id__exact={carol.user.pk}") == {theirs}
    assert found("game__kind=duel&status__exact=open") == {mine, theirs}


def test_the_index_shows_the_open_count_and_a_reviewer_claims_from_the_list(alice, duel):
    opened = dispute_last_move(alice, duel)
    judge = reviewer()
    assert "1 open dispute" in judge.get("/admin/").content.decode()
    response = judge.post("/admin/games/dispute/", {"action": "claim", "_selected_action": [opened]}, follow=True)
    assert any(f"Assigned to you: #{opened}" in m for m in said(response))
    assert Dispute.objects.get(pk=opened).assigned_to == judge.user
    assert "1 assigned to you" in judge.get("/admin/").content.decode()
    entry = LogEntry.objects.get(object_id=str(opened))
    assert entry.get_change_message() == "Claimed by judge."


def test_the_queue_shows_what_a_reviewer_sorts_by_and_filters_by_decider_and_holder(alice, bob, duel, no_cooldown):
    decided = dispute_last_move(alice, duel, reason="the card I played is not the one I chose")
    play(alice, duel)
    held = dispute_last_move(bob, duel)
    judge, other = reviewer(), reviewer("kim")
    change(judge, decided, resolution="", decision="dismiss")
    change(other, held, resolution="", decision="", assign=other.user.pk)
    page = judge.get("/admin/games/dispute/")
    headers = [str(field["text"]) for field in page.context["result_headers"]][1:]  # after the checkbox
    assert headers == [
        "dispute",
        "kind",
        "event",
        "disputed move by",
        "reason",
        "raised by",
        "status",
        "assigned to",
        "age",
        "decided by",
    ]
    html = page.content.decode()
    assert "CardPlayed #" in html and "the card I played is not the one I chose" in html
    assert f'href="/admin/games/dispute/player/{alice.user.pk}/"' in html  # the raiser's record, not a 403
    assert html.count("<time datetime=") == 2  # each dispute's age

    def found(query):
        return [d.pk for d in judge.get(f"/admin/games/dispute/?{query}").context["cl"].result_list]

    assert found(f"resolved_by__id__exact={judge.user.pk}") == [decided]
    assert found(f"assigned_to__id__exact={other.user.pk}") == [held]
    assert found("q=kim") == [held]


def test_handing_a_dispute_to_another_reviewer_is_logged_by_name(alice, duel):
    opened = dispute_last_move(alice, duel)
    judge, kim = reviewer(), reviewer("kim")
    response = change(judge, opened, note="kim knows this player", resolution="", decision="", assign=kim.user.pk)
    assert Dispute.objects.get(pk=opened).assigned_to == kim.user
    entry = LogEntry.objects.get(object_id=str(opened))
    assert entry.get_change_message() == "Assigned to kim by judge. Changed the staff note."
    assert any("Assigned to kim by judge." in m for m in said(response))
    change(kim, opened, note="kim knows this player", resolution="", decision="", assign=kim.user.pk)
    assert LogEntry.objects.filter(object_id=str(opened)).count() == 1  # nothing changed, nothing logged
    change(kim, opened, note="kim knows this player", resolution="", decision="", assign="")
    latest = LogEntry.objects.filter(object_id=str(opened)).latest("action_time")
    assert latest.get_change_message() == "Released by kim."


def test_a_player_s_dispute_history_shows_the_upheld_rate(alice, bob, duel, no_cooldown):
    judge = reviewer()
    decided = []
    for decision in ("uphold", "dismiss", "dismiss"):
        opened = dispute_last_move(alice, duel)
        change(judge, opened, resolution="", decision=decision)
        decided.append(opened)
        play(alice if alice.game(duel)["your_turn"] else bob, duel)
    dispute_last_move(alice, duel)
    page = judge.get(f"/admin/games/dispute/player/{alice.user.pk}/").content.decode()
    assert "4 disputes in all: 1 open, 3 decided, 1 upheld (an upheld rate of 33%)" in page
    screen = judge.get(f"/admin/games/dispute/{decided[0]}/change/").content.decode()
    assert "4 disputes in all, 1 upheld of 3 decided (33%)" in screen


def test_games_are_found_by_any_of_their_players(alice, bob, duel):
    judge = reviewer()
    found = judge.get("/admin/games/game/?q=bob").context["cl"].result_list
    assert [str(g.pk) for g in found] == [duel]  # bob joined; alice created it
