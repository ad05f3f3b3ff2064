"""A push service that never answers delays no clock (issue 37), with real Celery workers laid
out as the Procfile lays them: the timers' worker (with the sweeper) and the push queue's own.
Once for a browser's push service, once for APNs (the phones' senders share the push queue)."""
from datetime import timedelta

import pytest
import trustme
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.utils import timezone

from games.models import Delivery, Event
from tests.conftest import start_game
from tests.faults.stack import Tarpit
from tests.games.test_push import VAPID, subscribe
from tests.games.test_push_mobile import APNs, IPHONE, KEY_ID, TEAM, TOPIC, register
from tests.worker import Worker, purge_queue, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker, pytest.mark.timeout(180)]


def test_a_hanging_push_service_delays_no_clock(alice, bob):
    """bob's browser's push service takes the POST and never answers. While the push worker waits
    on it (its deadline set far beyond the clock, so the wait is still on when the clock runs
    out), bob's two-second clock runs out and is settled by the timers' worker all the same."""
    tarpit = Tarpit(1)  # the first of its modes: hang
    purge_queue()
    env = {**VAPID, "PUSH_DEADLINE_SECONDS": "25"}
    timers = Worker(queues=["timers"], **env).start()
    pushes = Worker(queues=["push"], beat=False, **env).start()
    try:
        subscribe(bob, tarpit.urls[0])
        game = start_game(alice, [bob], options={"time_control": "per_move", "move_seconds": 30})
        hand = alice.game(game)["state"]["hand"]
        assert alice.move(game, {"type": "play", "card": hand[0]}).status_code in (200, 201)
        delivery = Delivery.objects.get(channel="push", notification__user=bob.user)
        # The push worker has claimed the attempt and is waiting on the push service.
        assert wait_for(lambda: Delivery.objects.get(pk=delivery.pk).attempts == 1, timeout=30), pushes.output()[-3000:]
        # bob's clock: made to run out two seconds from now, as a commit would schedule it.
        from datetime import timedelta

        from django.utils import timezone

        from games.models import Game
        from games.play import scheduling

        from tests.games.timetravel import rewind

        due = timezone.now() + timedelta(seconds=2)
        rewind(game, (Game.objects.get(pk=game).next_deadline - due).total_seconds())
        scheduling.wake([due])
        assert wait_for(lambda: Event.objects.filter(game_id=game, type="TimerExpired").exists(), timeout=20), \
            timers.output()[-3000:]
        # ... while the push was still hanging: nothing recorded of its attempt yet.
        expired = Event.objects.get(game_id=game, type="TimerExpired")
        assert expired.data["seat"] == 1
        delivery.refresh_from_db()
        assert delivery.attempt_log.count() == 0 and delivery.status == "pending"
    finally:
        pushes.stop()
        timers.stop()
        tarpit.close()
        purge_queue()


def test_a_hanging_apns_delays_no_clock(alice, bob, tmp_path):
    """As above, with bob's iPhone: APNs (an HTTP/2 server of the test's, with its own CA) takes
    the notification and never answers."""
    from games.models import Game
    from games.play import scheduling
    from tests.games.timetravel import rewind

    ca, key = trustme.CA(), ec.generate_private_key(ec.SECP256R1())
    ca.cert_pem.write_to_path(str(tmp_path / "ca.pem"))
    (tmp_path / "key.p8").write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    apns = APNs(ca, key.public_key())
    apns.hang = True
    purge_queue()
    env = {"APNS_AUTH_KEY_PATH": str(tmp_path / "key.p8"), "APNS_KEY_ID": KEY_ID, "APNS_TEAM_ID": TEAM,
           "APNS_TOPIC": TOPIC, "APNS_ENDPOINT": apns.origin, "PUSH_CA_FILE": str(tmp_path / "ca.pem"),
           "PUSH_DEADLINE_SECONDS": "25"}
    timers = Worker(queues=["timers"], **env).start()
    pushes = Worker(queues=["push"], beat=False, **env).start()
    try:
        register(bob, "apns", IPHONE)
        game = start_game(alice, [bob], options={"time_control": "per_move", "move_seconds": 30})
        hand = alice.game(game)["state"]["hand"]
        assert alice.move(game, {"type": "play", "card": hand[0]}).status_code in (200, 201)
        delivery = Delivery.objects.get(channel="push", notification__user=bob.user)
        assert wait_for(lambda: len(apns.received) == 1, timeout=30), pushes.output()[-3000:]
        due = timezone.now() + timedelta(seconds=2)
        rewind(game, (Game.objects.get(pk=game).next_deadline - due).total_seconds())
        scheduling.wake([due])
        assert wait_for(lambda: Event.objects.filter(game_id=game, type="TimerExpired").exists(), timeout=20), \
            timers.output()[-3000:]
        assert Event.objects.get(game_id=game, type="TimerExpired").data["seat"] == 1
        delivery.refresh_from_db()
        assert delivery.attempt_log.count() == 0 and delivery.status == "pending"
        assert apns.refused == []
    finally:
        pushes.stop()
        timers.stop()
        apns.close()
        purge_queue()
