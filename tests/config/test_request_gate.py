"""The request slots of a web process (config.asgi.Gate): a bound on requests running their sync
part at once, and a waiting write let in before waiting reads, never starving them."""
import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from config.asgi import WRITES_AHEAD, Gate


def run(scenario):
    # On a thread of its own: an earlier test may leave an event loop running on the main thread,
    # where asyncio.run may not start another.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, scenario()).result()


async def settle():
    for _ in range(5):  # let every ready task take its step
        await asyncio.sleep(0)


async def queue_up(gate: Gate, order: list, names: list[str]) -> list[asyncio.Task]:
    """A task per name ("w..." writes, "r..." reads), queued in that order; each notes its name
    in `order` when let in, then keeps its slot until its task is given the word."""
    tasks = []
    for name in names:
        async def one(name=name):
            await gate.acquire(name.startswith("w"))
            try:
                order.append(name)
                await asyncio.sleep(3600)
            finally:
                gate.release()
        tasks.append(asyncio.create_task(one(), name=name))
        await settle()
    return tasks


def named(tasks: list[asyncio.Task], name: str) -> asyncio.Task:
    return next(t for t in tasks if t.get_name() == name)


async def finish(tasks: list[asyncio.Task], name: str) -> None:
    """The request `name` ends (its slot is released)."""
    named(tasks, name).cancel()
    await settle()


def test_no_more_than_the_bound_are_let_in_at_once():
    async def scenario():
        gate, order = Gate(2), []
        tasks = await queue_up(gate, order, ["r1", "r2", "r3", "w1"])
        assert order == ["r1", "r2"]
        await finish(tasks, "r1")
        assert order == ["r1", "r2", "w1"]
        for task in tasks:
            task.cancel()
    run(scenario)


def test_a_waiting_write_goes_before_reads_that_came_first():
    async def scenario():
        gate, order = Gate(1), []
        tasks = await queue_up(gate, order, ["r0", "r1", "r2", "w1", "r3", "w2"])
        for name in ["r0", "w1", "w2", "r1", "r2"]:
            await finish(tasks, name)
        assert order == ["r0", "w1", "w2", "r1", "r2", "r3"]
        await finish(tasks, "r3")
        assert gate.free == 1  # every slot back
    run(scenario)


def test_reads_are_let_in_after_a_run_of_writes_so_they_never_starve():
    async def scenario():
        gate, order = Gate(1), []
        writes = [f"w{i}" for i in range(WRITES_AHEAD + 2)]
        tasks = await queue_up(gate, order, ["r0", "r1", *writes])
        for name in ["r0", *writes[:WRITES_AHEAD]]:
            await finish(tasks, name)
        # WRITES_AHEAD writes went past the waiting read; then it goes, then the writes again.
        assert order == ["r0", *writes[:WRITES_AHEAD], "r1"]
        await finish(tasks, "r1")
        assert order[-1] == writes[WRITES_AHEAD]
        for task in tasks:
            task.cancel()
    run(scenario)


def test_a_request_gone_while_it_waited_takes_no_slot():
    async def scenario():
        gate, order = Gate(1), []
        tasks = await queue_up(gate, order, ["r0", "w1", "r2"])
        await finish(tasks, "w1")  # the client went away before its turn
        await finish(tasks, "r0")
        assert order == ["r0", "r2"]
        await finish(tasks, "r2")
        assert gate.free == 1 and not any(gate.waiting)
    run(scenario)


def test_a_slot_handed_to_a_request_cancelled_in_that_instant_goes_to_the_next():
    async def scenario():
        gate, order = Gate(1), []
        tasks = await queue_up(gate, order, ["r0", "w1", "r2"])
        holder, handed = named(tasks, "r0"), named(tasks, "w1")
        holder.cancel()
        await asyncio.sleep(0)  # r0 releases: w1's future has its result, w1 has not run yet
        assert not gate.waiting[1] and order == ["r0"]  # handed the slot, not yet in
        handed.cancel()  # and now w1 is cancelled too
        await settle()
        assert order == ["r0", "r2"]  # w1's slot was passed on, not lost
        await finish(tasks, "r2")
        assert gate.free == 1
    run(scenario)


@pytest.mark.parametrize("size", [1, 3])
def test_every_slot_comes_back(size):
    async def scenario():
        gate, order, names = Gate(size), [], ["r1", "w1", "r2", "w2", "r3"]
        tasks = await queue_up(gate, order, names)
        for task in tasks:  # every request ends at once, those waiting and those let in
            task.cancel()
        await settle()
        assert order == names[:size]
        assert gate.free == size and not any(gate.waiting)
    run(scenario)
