"""Every store (memory, SQLite, PostgreSQL) keeps civility's promises on a fake clock:
reports open and close once, blocks are per pair and keep the quick match apart,
sanctions and the audit log read back in order, and the audit log only grows
(docs/accounts.md, "Civility")."""

from __future__ import annotations

import asyncio
import inspect

import pytest

from ginrummy.server.store import (
    Account,
    AuditEntry,
    Device,
    Passkey,
    Player,
    QuickEntry,
    Report,
    Sanction,
    Store,
    StoreConflict,
    sql_civility,
)
from ginrummy.server.store import civility as civility_store

from .test_store import FakeClock, clock, store

__all__ = ["clock", "store"]

T0 = 1_700_000_000.0


def _report(rid: str, t: float, reported: str = "p_bob", reporter: str = "p_ann") -> Report:
    evidence = {"chat": [{"id": 1, "player": reported, "text": "you fool"}]}
    return Report(rid, t, reporter, reported, "chat", "chat", "r1", evidence, "rude")


async def test_reports_open_read_back_and_close_once(store: Store) -> None:
    await store.add_report(_report("r_2", T0 + 2))
    await store.add_report(_report("r_1", T0 + 1))
    await store.add_report(_report("r_3", T0 + 3, reported="p_cat"))
    assert [r.id for r in await store.open_reports()] == ["r_1", "r_2", "r_3"]
    assert await store.report("r_1") == _report("r_1", T0 + 1)
    assert [r.id for r in await store.reports_about("p_bob")] == ["r_2", "r_1"]
    assert await store.close_report("r_1", "dismissed", "Opal", T0 + 9)
    assert not await store.close_report("r_1", "warn", "Opal", T0 + 10)  # once
    assert not await store.close_report("r_nope", "warn", "Opal", T0 + 10)
    closed = await store.report("r_1")
    assert closed is not None
    assert (closed.status, closed.outcome, closed.closed_by) == ("closed", "dismissed", "Opal")
    assert closed.closed_t == T0 + 9
    assert [r.id for r in await store.open_reports()] == ["r_2", "r_3"]
    with pytest.raises(StoreConflict):
        await store.add_report(_report("r_2", T0 + 5))


async def test_a_report_closes_with_its_audit_entry_once(store: Store) -> None:
    await store.add_report(_report("r_1", T0 + 1))
    first = AuditEntry("a_1", T0 + 9, "p_opal", "warn", "p_bob", "rude", {"report": "r_1"})
    second = AuditEntry("a_2", T0 + 10, "p_olga", "dismiss", "r_1", "joke", {})
    assert await store.close_report_audited("r_1", "warn", first)
    assert not await store.close_report_audited("r_1", "dismissed", second)  # closed: refused
    assert not await store.close_report_audited("r_nope", "dismissed", second)
    assert await store.audit_log() == [first]  # the refused close wrote no entry
    closed = await store.report("r_1")
    assert closed is not None
    assert (closed.status, closed.outcome, closed.closed_by, closed.closed_t) == (
        "closed", "warn", "p_opal", T0 + 9,
    )  # fmt: skip


async def test_two_operators_closing_one_report_at_once_one_wins(store: Store) -> None:
    await store.add_report(_report("r_1", T0 + 1))
    entries = [AuditEntry(f"a_{n}", T0 + 9, f"p_op{n}", "dismiss", "r_1", "no", {}) for n in (1, 2)]
    done = await asyncio.gather(
        *(store.close_report_audited("r_1", "dismissed", e) for e in entries)
    )
    assert sorted(done) == [False, True]
    assert len(await store.audit_log()) == 1


async def test_a_block_is_one_way_and_counts_either_way(store: Store) -> None:
    await store.add_block("p_ann", "p_bob", T0)
    await store.add_block("p_ann", "p_bob", T0 + 1)  # again: nothing changes
    await store.add_block("p_ann", "p_cat", T0 + 2)
    assert await store.blocks_of("p_ann") == ["p_bob", "p_cat"]
    assert await store.blocks_of("p_bob") == []
    assert await store.blocked_either("p_bob", "p_ann")
    assert await store.blocked_either("p_ann", "p_bob")
    assert not await store.blocked_either("p_bob", "p_cat")
    assert await store.remove_block("p_ann", "p_bob")
    assert not await store.remove_block("p_ann", "p_bob")
    assert not await store.blocked_either("p_ann", "p_bob")


async def test_blocking_twice_at_once_is_one_block_and_no_error(store: Store) -> None:
    # two instances (or a double click) blocking the same person at once: both
    # succeed, one row stays (an insert racing the other's was a conflict: a 503)
    await asyncio.gather(*(store.add_block("p_ann", "p_bob", T0 + i) for i in range(6)))
    assert await store.blocks_of("p_ann") == ["p_bob"]


async def test_the_quick_match_never_pairs_a_blocked_pair(store: Store, clock: FakeClock) -> None:
    rules = {"preset": "classic"}
    await store.add_block("p_bob", "p_ann", T0)
    assert await store.quick_enter(QuickEntry("h_ann", "p_ann", rules, clock()), 15) is None
    # Bob blocks Ann: he waits beside her, and Cat, who blocks nobody, takes the oldest.
    assert await store.quick_enter(QuickEntry("h_bob", "p_bob", rules, clock()), 15) is None
    clock.now += 1
    taken = await store.quick_enter(QuickEntry("h_cat", "p_cat", rules, clock()), 15)
    assert taken is not None and taken.player == "p_ann"
    assert await store.quick_waiting(15) == 1


async def test_sanctions_read_back_in_order_and_know_when_they_hold(store: Store) -> None:
    ban = Sanction("s_2", "p_bob", "ban", "abandons", T0 + 10, T0 + 610, "Opal")
    mute = Sanction("s_1", "p_bob", "mute", "insults", T0, None, "Opal")
    await store.add_sanction(ban)
    await store.add_sanction(mute)
    assert await store.sanctions_of("p_bob") == [mute, ban]
    assert await store.sanctions_of("p_ann") == []
    assert ban.active(T0 + 10) and not ban.active(T0 + 610) and mute.active(T0 + 10**6)
    with pytest.raises(StoreConflict):
        await store.add_sanction(ban)


async def test_the_audit_log_only_grows_and_reads_newest_first(store: Store) -> None:
    first = AuditEntry("a_1", T0, "Opal", "warn", "p_bob", "insults", {"report": "r_1"})
    second = AuditEntry("a_2", T0 + 1, "Opal", "dismiss", "r_9", "no evidence")
    await store.append_audit(first)
    await store.append_audit(second)
    assert await store.audit_log() == [second, first]
    assert await store.audit_log(target="p_bob") == [first]
    assert await store.audit_log(limit=1) == [second]
    with pytest.raises(StoreConflict):
        await store.append_audit(first)  # no overwriting either


def test_the_audit_log_has_no_update_or_delete_path() -> None:
    protocol = [n for n, _ in inspect.getmembers(civility_store.Civility) if "audit" in n]
    # appends only: the entry alone, or the entry with the report it closes
    assert sorted(protocol) == ["append_audit", "audit_log", "close_report_audited"]
    source = inspect.getsource(sql_civility).lower()
    assert "update audit" not in source and "delete from audit" not in source


async def _account(store: Store, identity: str, name: str, key: str) -> None:
    await store.add_identity(identity)
    await store.ensure_player(identity, Player("p_" + identity, name))
    device = Device("d_" + identity, identity, identity, "Firefox", T0, T0)
    passkey = Passkey("c_" + identity, identity, "cose", 0, T0)
    await store.create_account(Account(identity, name, key, T0), device, passkey)


async def test_closing_an_account_signs_every_device_out(store: Store) -> None:
    await _account(store, "h1", "Ann", "ann")
    await store.add_device(Device("d_2", "t2", "h1", "Chromium", T0, T0))
    await store.put_code("code", "h1", T0 + 300)
    assert await store.player_identity("p_h1") == "h1"
    assert await store.player_identity("p_nobody") is None
    assert await store.close_account("h1") == 2
    assert await store.token_identity("h1") is None
    assert await store.token_identity("t2") is None
    assert await store.passkeys_of("h1") == []
    assert await store.take_code("code") is None
    assert (await store.account_of("h1")) is not None  # its name and games stay


async def test_renaming_an_account_keeps_names_unique(store: Store) -> None:
    await _account(store, "h1", "Ann", "ann")
    await _account(store, "h2", "Bob", "bob")
    with pytest.raises(StoreConflict):
        await store.rename_account("h2", "ANN", "ann")
    assert (await store.account_of("h2")) == Account("h2", "Bob", "bob", T0)
    await store.rename_account("h2", "Robert", "robert")
    assert (await store.account_by_key("robert")) == Account("h2", "Robert", "robert", T0)
    player = await store.player("p_h2")
    assert player is not None and player.name == "Robert"
