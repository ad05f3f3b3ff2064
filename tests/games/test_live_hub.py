"""The live hub of this process (games.realtime.hub), without a server: a waiter is woken by news on its
own channels only and learns the newest version announced, the hub subscribes to its waiters'
channels only and lets go of one a linger after its last waiter left, a closed waiter leaves nothing behind,
a waiter sleeps one poll at most while Redis is unreachable, reads run on the live threads, and a
token is remembered no longer than allowed. (The stream tests run the hub in server processes,
where mutation testing cannot see which test reaches it.)"""

import asyncio
import threading
from datetime import timedelta
from types import SimpleNamespace

from django.utils import timezone

from games.realtime import channels, hub as live_hub, news, threads, tokens


def run_fresh(coroutine):
    """asyncio.run on a thread of its own: a browser test earlier in the run may leave an event
    loop running on the main thread, where asyncio.run refuses to start."""
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def run(scenario):
    async def bounded():
        return await asyncio.wait_for(scenario(), 30)

    return run_fresh(bounded())


async def stop(hub):
    hub.task.cancel()
    await asyncio.gather(hub.task, return_exceptions=True)


def publish(*messages):
    return asyncio.to_thread(news.publish, list(messages))


async def heard(*waiters):
    """Once the hub hears the waiters' channels: the flags the subscriptions set are cleared, as
    a waiter clears its flag before it reads."""
    for waiter in waiters:
        assert await waiter.ready() is True
        waiter.clear()


def subscribers(*names) -> list[int]:
    """How many subscribers Redis counts on each channel (every hub of the run included)."""
    return [count for _, count in channels.client().pubsub_numsub(*names)]


def test_a_waiter_is_woken_by_news_on_its_own_channels_and_the_hub_keeps_the_newest_version():
    async def scenario():
        hub = await live_hub.hub()
        assert hub.live and tokens.hearing_revocations()
        one, two = channels.channel("game-1"), channels.channel("game-2")
        mine, other = hub.listen([one]), hub.listen([two])
        await heard(mine, other)
        await publish((one, "7"))
        assert await mine.wait(10) is True
        assert await other.wait(0.3) is False
        mine.clear()
        await publish((one, "5"), (two, "3"))  # an older version heard late changes nothing
        assert await mine.wait(10) is True and await other.wait(10) is True
        assert hub.hints([one, two, channels.channel("game-3")]) == {one: 7, two: 3}
        await stop(hub)

    run(scenario)


def test_a_waiter_follows_more_channels_and_a_user_s_news_wakes_and_is_counted():
    async def scenario():
        hub = await live_hub.hub()
        game, user = channels.channel("game-4"), channels.user_channel(42)
        waiter = hub.listen([game])
        waiter.follow([game, user])
        assert waiter.channels == {game, user}
        await heard(waiter)
        await publish((user, ""))
        assert await waiter.wait(10) is True
        # no version in a user's news: how many were heard, so a reader knows it has news to read
        assert hub.hints([game, user]) == {user: 1}
        waiter.follow([user])  # exactly these from now on: the game's channel is left
        assert waiter.channels == {user} and game not in hub.listeners
        await stop(hub)

    run(scenario)


def test_closed_waiters_leave_nothing_in_the_hub_and_are_not_woken():
    async def scenario():
        hub = await live_hub.hub()
        one, two = channels.channel("game-5"), channels.channel("game-6")
        first, second = hub.listen([one, two]), hub.listen([one])
        assert hub.listeners == {one: {first, second}, two: {first}}
        await heard(first, second)
        first.close()
        assert hub.listeners == {one: {second}} and first.channels == set()
        second.close()
        assert hub.listeners == {}
        await publish((one, "1"))
        await asyncio.sleep(0.3)
        assert not first.flag.is_set() and not second.flag.is_set()
        await stop(hub)

    run(scenario)


def test_a_wait_with_no_time_left_returns_at_once_without_news():
    async def scenario():
        hub = await live_hub.hub()
        waiter = hub.listen([channels.channel("game-7")])
        started = asyncio.get_running_loop().time()
        assert await waiter.wait(-5) is False
        assert asyncio.get_running_loop().time() - started < 0.5
        await stop(hub)

    run(scenario)


def test_while_redis_is_unreachable_a_waiter_sleeps_one_poll_at_most(settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    settings.LIVE_POLL_SECONDS = 2

    async def scenario():
        hub = await live_hub.hub()
        assert not hub.live and hub.tried.is_set()
        assert (hub.sleep_for(30), hub.sleep_for(1)) == (2, 1)
        await stop(hub)

    run(scenario)


def test_a_subscribed_hub_lets_a_waiter_sleep_till_its_heartbeat(settings):
    settings.LIVE_POLL_SECONDS = 2

    async def scenario():
        hub = await live_hub.hub()
        assert hub.live and hub.sleep_for(30) == 30
        await stop(hub)

    run(scenario)


def test_a_read_runs_on_the_live_threads_and_gives_its_result_back():
    async def scenario():
        return await threads.run_sync(lambda a, b: (a + b, threading.current_thread().name), 2, 3)

    total, thread = run(scenario)
    assert total == 5 and thread.startswith("live-db")


def test_a_token_is_remembered_for_the_allowed_time_and_never_past_its_own_expiry(settings):
    settings.LIVE_AUTH_CACHE_SECONDS = 60
    looked_up = []

    def lookup(key):
        looked_up.append(key)
        expires = {"short": timezone.now() - timedelta(seconds=1), "long": None}[key]
        return SimpleNamespace(name=f"user of {key}"), SimpleNamespace(expires_at=expires)

    tokens.forget_tokens()
    assert tokens.cached_token("long", lookup)[0].name == "user of long"
    assert tokens.cached_token("long", lookup)[0].name == "user of long"
    assert looked_up == ["long"]  # the second time from memory
    tokens.cached_token("short", lookup)
    tokens.cached_token("short", lookup)  # already expired: looked up again
    assert looked_up == ["long", "short", "short"]
    tokens.forget_tokens()
    tokens.cached_token("long", lookup)
    assert looked_up == ["long", "short", "short", "long"]
    settings.LIVE_AUTH_CACHE_SECONDS = 0  # nothing remembered
    tokens.forget_tokens()
    tokens.cached_token("long", lookup)
    tokens.cached_token("long", lookup)
    assert looked_up[-2:] == ["long", "long"]


def test_a_token_read_while_a_revocation_is_heard_is_not_remembered(settings):
    """The lookup may have read the token just before its revocation committed: what it read
    answers that one request and is not kept for the next."""
    settings.LIVE_AUTH_CACHE_SECONDS = 60
    looked_up = []

    def lookup(key):
        looked_up.append(key)
        if len(looked_up) == 1:
            tokens.forget_tokens()  # the revocation heard while the database answered
        return SimpleNamespace(name="ann"), SimpleNamespace(pk=7, expires_at=None)

    tokens.forget_tokens()
    assert tokens.cached_token("ann's key", lookup)[0].name == "ann"
    tokens.cached_token("ann's key", lookup)
    tokens.cached_token("ann's key", lookup)
    assert looked_up == ["ann's key", "ann's key"]  # looked up again once, then remembered


def test_news_on_a_channel_nobody_waits_on_leaves_the_subscription_as_it_was():
    async def scenario():
        hub = await live_hub.hub()
        heard_ = channels.channel("game-8")
        nobody = channels.channel("game-nobody-waits-on")
        waiter, epoch = hub.listen([heard_]), hub.epoch
        await heard(waiter)
        since = hub.since(heard_)
        await publish((nobody, "4"), (heard_, "9"))
        assert await waiter.wait(10) is True
        assert hub.epoch == epoch and hub.live  # no reconnection in between
        assert hub.since(heard_) == since  # nor a new subscription
        assert hub.hints([heard_, nobody]) == {heard_: 9}  # the other channel is not even heard
        await stop(hub)

    run(scenario)


def test_losing_redis_wakes_every_waiter_at_once_to_poll(settings):
    from tests.live_server import PrivateRedis

    redis = PrivateRedis().start()
    settings.REDIS_URL = redis.url
    settings.LIVE_POLL_SECONDS = 60

    async def scenario():
        hub = await live_hub.hub()
        assert hub.live
        waiters = [hub.listen([channels.channel("game-9")]), hub.listen([channels.user_channel(7)])]
        await heard(*waiters)  # what wakes them from now on is the loss
        epoch = hub.epoch
        await asyncio.to_thread(redis.stop)
        started = asyncio.get_running_loop().time()
        assert [await waiter.wait(20) for waiter in waiters] == [True, True]
        assert asyncio.get_running_loop().time() - started < 15  # not a poll (60 s) later
        assert not hub.live and hub.epoch == epoch + 1
        await stop(hub)

    try:
        run(scenario)
    finally:
        redis.stop()


def test_the_waiters_of_an_event_loop_share_one_hub_and_one_subscription():
    async def scenario():
        first = await live_hub.hub()
        assert await live_hub.hub() is first
        await stop(first)
        again = await live_hub.hub()  # a hub whose task ended is replaced
        assert again is not first and again.live
        await stop(again)

    run(scenario)


def test_a_notification_wakes_each_user_s_own_stream_after_commit(db, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:  # the commit is put off till below
        news.announce_users([8, 7, 7])

    async def scenario():
        hub = await live_hub.hub()
        seven, eight, nine = (hub.listen([channels.user_channel(u)]) for u in (7, 8, 9))
        await heard(seven, eight, nine)
        await asyncio.sleep(0.3)
        assert not any(w.flag.is_set() for w in (seven, eight, nine))  # nothing before the commit
        for callback in callbacks:
            await asyncio.to_thread(callback)
        assert [await seven.wait(10), await eight.wait(10), await nine.wait(0.3)] == [True, True, False]
        await stop(hub)

    run(scenario)


def test_a_chat_message_wakes_its_game_s_chat_readers_with_its_id_after_commit(db, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        news.announce_chat("game-10", 31)

    async def scenario():
        hub = await live_hub.hub()
        chat, other = channels.chat_channel("game-10"), channels.chat_channel("game-11")
        reader, elsewhere = hub.listen([chat]), hub.listen([other])
        await heard(reader, elsewhere)
        await asyncio.sleep(0.3)
        assert not reader.flag.is_set()
        for callback in callbacks:
            await asyncio.to_thread(callback)
        assert await reader.wait(10) is True and await elsewhere.wait(0.3) is False
        assert hub.hints([chat, other]) == {chat: 31}
        await stop(hub)

    run(scenario)


def test_the_hub_subscribes_to_its_waiters_channels_only():
    async def scenario():
        hub = await live_hub.hub()
        followed, other = channels.channel("game-12"), channels.channel("game-13")
        assert await asyncio.to_thread(subscribers, followed, other) == [0, 0]
        waiter = hub.listen([followed])
        await heard(waiter)
        assert await asyncio.to_thread(subscribers, followed, other) == [1, 0]
        assert hub.since(followed) is not None and hub.since(other) is None
        await stop(hub)

    run(scenario)


def test_a_waiter_that_read_before_its_channel_was_heard_is_woken_to_read_again():
    async def scenario():
        hub = await live_hub.hub()
        name = channels.channel("game-14")
        waiter = hub.listen([name])
        waiter.clear()  # then it reads: the subscription may not be in place
        assert hub.since(name) is None
        assert await waiter.wait(10) is True  # woken once it is: it reads again
        assert hub.since(name) is not None
        await stop(hub)

    run(scenario)


def test_a_channel_is_let_go_a_linger_after_its_last_waiter_left_and_its_version_forgotten(settings):
    settings.LIVE_LINGER_SECONDS = 1

    async def scenario():
        hub = await live_hub.hub()
        name = channels.channel("game-15")
        first = hub.listen([name])
        await heard(first)
        since = hub.since(name)
        await publish((name, "3"))
        assert await first.wait(10) is True
        first.close()
        back = hub.listen([name])  # back within the linger: still heard
        assert hub.since(name) == since and hub.hints([name]) == {name: 3}
        back.close()
        for _ in range(100):
            if hub.since(name) is None and await asyncio.to_thread(subscribers, name) == [0]:
                break
            await asyncio.sleep(0.1)
        assert hub.since(name) is None and hub.hints([name]) == {}
        assert await asyncio.to_thread(subscribers, name) == [0]
        again = hub.listen([name])  # a new subscription: trusted afresh
        await heard(again)
        assert hub.since(name) not in (None, since)
        await stop(hub)

    run(scenario)


def test_a_token_read_since_the_last_revocation_heard_is_known_valid_without_a_query(settings):
    settings.LIVE_AUTH_CACHE_SECONDS = 60

    def lookup(key):
        return SimpleNamespace(name="ann"), SimpleNamespace(pk=7, expires_at=None)

    async def scenario():
        tokens.forget_tokens()
        hub = await live_hub.hub()
        assert tokens.hearing_revocations()
        before = tokens.remembers_valid_token(7)  # never read here: ask the database
        tokens.cached_token("ann's key", lookup)
        read = tokens.remembers_valid_token(7), tokens.remembers_valid_token(8)
        tokens.forget_tokens()  # what a revocation heard does
        after_revocation = tokens.remembers_valid_token(7)
        tokens.cached_token("ann's key", lookup)
        await stop(hub)
        return before, read, after_revocation, tokens.hearing_revocations(), tokens.remembers_valid_token(7)

    before, read, after_revocation, hearing, deaf = run(scenario)
    assert before is False and read == (True, False) and after_revocation is False
    assert hearing is False and deaf is False  # a process that hears no revocation asks


def test_a_waiter_that_follows_a_heard_channel_after_reading_it_is_woken_by_news_heard_meanwhile():
    async def scenario():
        hub = await live_hub.hub()
        name, quiet = channels.channel("game-16"), channels.channel("game-17")
        other = hub.listen([name, quiet])  # another stream of the process hears both
        await heard(other)
        before = hub.mark()  # a new stream reads both games...
        await publish((name, "5"))  # ...a move is announced meanwhile...
        assert await other.wait(10) is True
        late = hub.listen([])
        late.follow([quiet], read_at=before)  # ...nothing was heard on this one
        assert not late.flag.is_set()
        late.follow([quiet, name], read_at=before)  # ...the move was: it reads again
        assert late.flag.is_set()
        after = hub.listen([])
        after.follow([name], read_at=hub.mark())  # read after the move: nothing missed
        assert not after.flag.is_set()
        await stop(hub)

    run(scenario)
