"""The lease keeper: held while work is due, given up when none is left, and never
taken while another instance holds it."""

from __future__ import annotations

import asyncio
import contextlib

from ginrummy.server.room.lease import LeaseKeeper
from ginrummy.server.store import StoreError
from ginrummy.server.store.memory import MemoryStore


async def test_the_lease_is_held_while_work_is_due_then_given_up() -> None:
    store = MemoryStore()
    await store.open()
    work = {"due": True}
    taken: list[str] = []

    async def on_taken() -> bool:
        taken.append("read the log")
        return True

    keeper = LeaseKeeper("r1", store, "i_a", 5.0, 0.01, lambda: work["due"], on_taken)
    keeper.want()
    async with asyncio.timeout(2):
        await keeper.wait()
    assert keeper.holds and taken == ["read the log"]
    assert not await store.acquire_lease("r1", "i_b", 5.0)  # one holder
    work["due"] = False
    async with asyncio.timeout(2):
        while not keeper.idle:
            await asyncio.sleep(0.01)
    assert not keeper.holds
    assert await store.acquire_lease("r1", "i_b", 5.0)  # released at once


async def test_a_lease_held_elsewhere_is_waited_for() -> None:
    store = MemoryStore()
    await store.open()
    assert await store.acquire_lease("r1", "i_b", 0.2)

    async def on_taken() -> bool:
        return True

    keeper = LeaseKeeper("r1", store, "i_a", 5.0, 0.02, lambda: True, on_taken)
    keeper.want()
    await asyncio.sleep(0.1)
    assert not keeper.holds  # i_b's lease still runs
    async with asyncio.timeout(2):
        await keeper.wait()  # it ran out into this instance
    assert keeper.holds
    assert keeper.task is not None
    keeper.task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await keeper.task


async def test_a_held_lease_runs_out_here_by_its_own_reckoning_when_not_renewed() -> None:
    """An instance whose renewals fail (the store away) stops acting under its lease
    once its time is up on its own clock, whatever the store would say later."""
    now = [1000.0]
    store = MemoryStore(now=lambda: now[0])
    await store.open()
    renewals = {"fail": False}
    acquire = store.acquire_lease

    async def flaky(room_id: str, holder: str, ttl_s: float) -> bool:
        if renewals["fail"]:
            raise StoreError("the store is away")
        return await acquire(room_id, holder, ttl_s)

    store.acquire_lease = flaky  # type: ignore[method-assign]

    async def on_taken() -> bool:
        return True

    keeper = LeaseKeeper(
        "r1", store, "i_a", 5.0, 0.01, lambda: True, on_taken, monotonic=lambda: now[0]
    )
    keeper.want()
    async with asyncio.timeout(2):
        await keeper.wait()
    renewals["fail"] = True
    now[0] += 4.9
    await asyncio.sleep(0.05)  # renewals fail meanwhile
    assert keeper.holds  # taken at 1000 for 5 s: still its own
    now[0] += 0.2
    assert not keeper.holds  # run out: another instance may hold it now
    assert keeper.task is not None
    keeper.task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await keeper.task
