"""The sweeper settles due games in batches: every due game once, however the wakes
are lost, duplicated or early; one game's trouble does not hold up the others; the auto-move is
the engine's `auto_move` hook; wakes are shared per slice of time."""

from datetime import timedelta

from django.utils import timezone

from games.play import deadlines, scheduling, turns
from games.engines import base
from games.models import Event, Game
from tests.conftest import start_game
from tests.duel import Duel
from tests.games.timetravel import rewind
from tests.worker import purge_queue


def timed_games(make_player, count, seconds=60):
    return [
        start_game(make_player(), [make_player()], options={"time_control": "per_move", "move_seconds": seconds})
        for _ in range(count)
    ]


def expiries(game_id):
    return list(Event.objects.filter(game_id=game_id, type="TimerExpired").values_list("data", flat=True))


def test_a_batch_expires_every_due_game_once_and_a_second_run_nothing(make_player):
    games = timed_games(make_player, 5)
    for game_id in games[:4]:
        rewind(game_id, 61)
    counts = deadlines.settle_due_games(batch=2)  # three batches: 2 + 2 + none left
    assert counts["games"] == 4 and counts["expired"] == 8  # TimerExpired + the auto-move each
    assert [len(expiries(g)) for g in games] == [1, 1, 1, 1, 0]  # the fifth is not due
    assert deadlines.settle_due_games(batch=2)["expired"] == 0  # a duplicated wake: nothing
    assert [len(expiries(g)) for g in games] == [1, 1, 1, 1, 0]
    for game_id in games[:4]:
        game = Game.objects.get(pk=game_id)
        assert game.next_deadline > timezone.now()  # the next seat's clock, armed


def test_an_early_wake_changes_nothing(make_player):
    games = timed_games(make_player, 2)
    assert deadlines.settle_due_games()["expired"] == 0
    assert all(expiries(g) == [] for g in games)


def test_a_batch_agrees_with_one_game_at_a_time(make_player):
    """The batch writes what expire_due writes for one game: same events, same projection."""
    one, many = timed_games(make_player, 2)
    for game_id in (one, many):
        rewind(game_id, 61)
    deadlines.expire_due(one)
    deadlines.settle_due_games()
    types = [list(Event.objects.filter(game_id=g).order_by("seq").values_list("type", "actor")) for g in (one, many)]
    assert types[0] == types[1]
    a, b = Game.objects.get(pk=one), Game.objects.get(pk=many)
    assert (a.version, a.active_seats) == (b.version, b.active_seats)


def test_one_games_trouble_does_not_hold_up_the_others(make_player, monkeypatch):
    games = timed_games(make_player, 3)
    for game_id in games:
        rewind(game_id, 61)
    bad = games[1]
    settle = turns.Turn.settle

    def failing(self):
        if str(self.game.pk) == bad:
            raise RuntimeError("this game's rules broke")
        return settle(self)

    monkeypatch.setattr(turns.Turn, "settle", failing)
    deadlines.settle_due_games()
    assert [len(expiries(g)) for g in games] == [1, 0, 1]


def test_the_auto_move_is_the_engines_hook_drawn_from_the_seed_and_event_number(make_player, monkeypatch):
    calls = []

    def cheap(self, state, seat, rng):
        calls.append(seat)
        return {"type": "play", "card": min(state["hands"][seat])}  # one legal move, no listing

    def listing(self, state, seat):
        raise AssertionError("the auto-move listed every legal move")

    monkeypatch.setattr(Duel, "auto_move", cheap)
    monkeypatch.setattr(Duel, "legal_moves", listing)
    monkeypatch.setattr(Duel, "move_types", lambda self, state, seat: {"play"})  # as engines with costly listings do
    (game_id,) = timed_games(make_player, 1)
    game = rewind(game_id, 61)
    deadlines.settle_due_games()
    auto = Event.objects.get(game_id=game_id, seq=game.version + 2)
    assert calls == [0] and auto.data["auto"] is True and auto.data["move"]["type"] == "play"


def test_the_default_auto_move_draws_from_the_legal_moves_with_the_given_rng():
    engine = Duel()
    state = engine.setup(2, {}, "seed")
    first = engine.auto_move(state, 0, base.rng("seed", "auto", 7))
    assert first == base.rng("seed", "auto", 7).choice(engine.legal_moves(state, 0))
    assert first in engine.legal_moves(state, 0)


def test_deadlines_within_one_slice_share_one_wake_and_a_repeat_sends_none():
    purge_queue()
    at = timezone.now() + timedelta(seconds=30)
    start = scheduling.bucket(at)
    times = [start - timedelta(seconds=0.09), start - timedelta(seconds=0.05), start]
    try:
        assert {scheduling.bucket(t) for t in times} == {start}
        assert all(scheduling.bucket(t) >= t for t in times)  # never before a deadline
        assert scheduling.wake(times) == 1
        assert scheduling.wake(times) == 0  # deduplicated (a second sender, the sweeper, say)
        assert scheduling.wake([start + timedelta(seconds=0.1)]) == 1  # the next slice: its own
    finally:
        purge_queue()


def test_a_claim_to_send_a_wake_is_this_deployment_s_own(settings):
    """Two deployments (or test runs) sharing one Redis each send their own wake for a slice."""
    import uuid

    slice_key = f"wake:test-{uuid.uuid4()}"
    assert scheduling.once(slice_key, 5) is True
    assert scheduling.once(slice_key, 5) is False  # this deployment's second sender: nothing to do
    settings.CACHES = {"default": {**settings.CACHES["default"], "KEY_PREFIX": f"other-{uuid.uuid4()}"}}
    assert scheduling.once(slice_key, 5) is True
