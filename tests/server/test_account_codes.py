"""Sign-in codes (docs/accounts.md, "Sign-in codes"): twelve characters shown in groups,
typed forgivingly, and wrong guesses counted in the store, so every instance pauses code
sign-ins once the site's budget of failures for the minute is spent."""

from __future__ import annotations

from pathlib import Path

import pytest

from ginrummy.server.accounts import codes
from ginrummy.server.accounts.passkeys import RelyingParty
from ginrummy.server.accounts.service import AccountError, Accounts
from ginrummy.server.store import Account, Device, Passkey, Player
from ginrummy.server.store.sqlite import SQLiteStore

T0 = 1_700_000_040.0  # early in a minute


def test_a_code_has_twelve_characters_of_the_unambiguous_alphabet() -> None:
    code = codes.new_code(lambda alphabet: alphabet[-1])
    assert code == "999999999999" and len(codes.ALPHABET) == 29
    assert codes.shown("abcdefghjkmn") == "ABCD-EFGH-JKMN"
    assert codes.typed(" abcd-EFGH jkmn\t") == "ABCDEFGHJKMN"
    assert codes.well_formed("abcd efgh-jkmn")
    assert not codes.well_formed("ABCD-EFGH")  # the old length
    assert not codes.well_formed("ABCD-EFGH-JKM0")  # 0 is not in the alphabet


async def test_wrong_codes_on_one_instance_pause_code_sign_ins_on_another(
    tmp_path: Path,
) -> None:
    store = SQLiteStore(tmp_path / "s.sqlite3", now=lambda: T0)
    await store.open()
    try:
        await store.add_identity("h1")
        await store.ensure_player("h1", Player("p_h100000", "Ann"))
        device = Device("d_1", "h1", "h1", "Firefox", T0, T0)
        await store.create_account(
            Account("h1", "Ann", "ann", T0), device, Passkey("c", "h1", "k", 0, T0)
        )
        rp = RelyingParty("localhost", "http://localhost")
        one, two = Accounts(store, lambda: T0, rp), Accounts(store, lambda: T0, rp)
        code, _ = await one.new_code("h1")
        wrong = "2222-2222-2222" if code != "2222-2222-2222" else "3333-3333-3333"
        for n in range(codes.FAILURES_PER_MINUTE):
            with pytest.raises(AccountError) as refused:
                await (one if n % 2 else two).sign_in_by_code(wrong, "Firefox")
            assert refused.value.code == "bad_code"
        with pytest.raises(AccountError) as refused:
            await two.sign_in_by_code(code, "Firefox")  # the right code, paused
        assert refused.value.code == "codes_paused"
        later = Accounts(store, lambda: T0 + 60, rp)  # the next minute
        assert (await later.sign_in_by_code(code, "Firefox")).identity == "h1"
    finally:
        await store.close()
