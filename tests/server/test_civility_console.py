"""The operators' console (docs/operations.md, "The operators' console"): an action that
names a report needs it open and about its target, and closing the report comes first,
conditionally, so of two operators answering one report one acts and the other is
refused, with one audit entry and one sanction."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from ginrummy.server.civility.console import Console, Operator
from ginrummy.server.civility.service import Civility, CivilityError
from ginrummy.server.store import Player, Report, Store, open_store

OPAL, OLGA = Operator("p_opal000000", "Opal"), Operator("p_olga000000", "Olga")
BOB, CAT = "p_bob0000000", "p_cat0000000"


async def _store() -> Store:
    store = open_store("memory://")
    await store.open()
    for identity, pid, name in (("h_bob", BOB, "Bob"), ("h_cat", CAT, "Cat")):
        await store.add_identity(identity)
        await store.ensure_player(identity, Player(pid, name))
    await store.add_report(Report("r_1", 1.0, CAT, BOB, "chat", "player", None))
    return store


async def _refused(console: Console, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(CivilityError) as refused:
        await console.act(*args, **kwargs)
    return refused.value.code


async def test_an_action_answers_only_an_open_report_about_its_target() -> None:
    store = await _store()
    console = Console(Civility(store, lambda: 5.0))
    assert await _refused(console, OPAL, "warn", CAT, "rude", report="r_1") == "report_mismatch"
    assert await _refused(console, OPAL, "warn", BOB, "rude", report="r_9") == "not_found"
    assert await store.audit_log() == [] and (await store.sanctions_of(CAT)) == []
    await console.act(OPAL, "warn", BOB, "rude", report="r_1")
    assert await _refused(console, OLGA, "mute", BOB, "rude", report="r_1") == "report_closed"
    assert await _refused(console, OLGA, "dismiss", "r_1", "a joke") == "report_closed"
    assert [e.operator for e in await store.audit_log()] == [OPAL.player]
    assert [s.kind for s in await store.sanctions_of(BOB)] == ["warn"]


class BothRead:
    """The store, its ``report`` answered only once two callers have read it: both
    operators see the report open before either closes it."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.readers = 0
        self.both = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    async def report(self, report_id: str) -> Report | None:
        found = await self.store.report(report_id)
        self.readers += 1
        if self.readers == 2:
            self.both.set()
        await self.both.wait()
        return found


async def test_two_operators_answering_one_report_at_once_one_acts() -> None:
    store = await _store()
    racing: Any = BothRead(store)
    one, two = Console(Civility(racing, lambda: 5.0)), Console(Civility(racing, lambda: 6.0))
    done = await asyncio.gather(
        one.act(OPAL, "ban", BOB, "abandons", minutes=10, report="r_1"),
        two.act(OLGA, "dismiss", "r_1", "a joke"),
        return_exceptions=True,
    )
    refused = [d for d in done if isinstance(d, CivilityError)]
    assert [e.code for e in refused] == ["report_closed"]
    assert len(await store.audit_log()) == 1
    closed = await store.report("r_1")
    assert closed is not None and closed.status == "closed"
    (entry,) = await store.audit_log()
    assert closed.closed_by == entry.operator  # the one who closed it is the one audited
    sanctions = await store.sanctions_of(BOB)
    assert len(sanctions) == (1 if entry.action == "ban" else 0)
