"""The SQL store's accounts (``base.Accounts``): statements and calls, one dialect for both.

``DELETE ... RETURNING`` takes a challenge or a code in one statement: of two instances
asking at once, one gets the row and the other nothing (single use). The time is the
clock the store was given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ginrummy.server.store.base import Account, Challenge, Device, Passkey
from ginrummy.server.store.work import Statement, Work, count, row, rows

if TYPE_CHECKING:
    from ginrummy.server.store.sql_store import Driver

ACCOUNT_COLUMNS = "identity_hash, name, name_key, created"
DEVICE_COLUMNS = "id, token_hash, identity_hash, label, created, last_seen"
PASSKEY_COLUMNS = "credential_id, identity_hash, public_key, sign_count, created"
CHALLENGE_COLUMNS = "challenge, purpose, identity_hash, name, expires"

# A device's token first; else a guest identity itself (an account answers only
# through its devices: its first browser has a device row of its own).
TOKEN_IDENTITY = (
    "SELECT identity_hash FROM devices WHERE token_hash = ?"
    " UNION ALL SELECT i.token_hash FROM identities i WHERE i.token_hash = ?"
    " AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.identity_hash = i.token_hash)"
)
INSERT_ACCOUNT = f"INSERT INTO accounts ({ACCOUNT_COLUMNS}) VALUES (?, ?, ?, ?)"
ACCOUNT_OF = f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE identity_hash = ?"
ACCOUNT_BY_KEY = f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = ?"
NAME_PLAYER = "UPDATE players SET name = ? WHERE identity_hash = ?"
INSERT_DEVICE = f"INSERT INTO devices ({DEVICE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)"
DEVICES_OF = f"SELECT {DEVICE_COLUMNS} FROM devices WHERE identity_hash = ? ORDER BY created, id"
REMOVE_DEVICE = "DELETE FROM devices WHERE identity_hash = ? AND id = ?"
TOUCH_DEVICE = "UPDATE devices SET last_seen = ? WHERE token_hash = ? AND last_seen <= ?"
INSERT_PASSKEY = f"INSERT INTO passkeys ({PASSKEY_COLUMNS}) VALUES (?, ?, ?, ?, ?)"
PASSKEY = f"SELECT {PASSKEY_COLUMNS} FROM passkeys WHERE credential_id = ?"
PASSKEYS_OF = f"SELECT {PASSKEY_COLUMNS} FROM passkeys WHERE identity_hash = ? ORDER BY created"
USE_PASSKEY = "UPDATE passkeys SET sign_count = ? WHERE credential_id = ? AND sign_count = ?"
SWEEP_CHALLENGES = "DELETE FROM challenges WHERE expires <= ?"
INSERT_CHALLENGE = f"INSERT INTO challenges ({CHALLENGE_COLUMNS}) VALUES (?, ?, ?, ?, ?)"
TAKE_CHALLENGE = f"DELETE FROM challenges WHERE challenge = ? RETURNING {CHALLENGE_COLUMNS}"
SWEEP_CODES = "DELETE FROM sign_in_codes WHERE expires <= ?"
INSERT_CODE = "INSERT INTO sign_in_codes (code_hash, identity_hash, expires) VALUES (?, ?, ?)"
REPLACE_CODE = "DELETE FROM sign_in_codes WHERE identity_hash = ?"  # one live code each
TAKE_CODE = "DELETE FROM sign_in_codes WHERE code_hash = ? RETURNING identity_hash, expires"
CODE_FAILURES = "SELECT failures FROM sign_in_code_failures WHERE minute = ?"
SWEEP_CODE_FAILURES = "DELETE FROM sign_in_code_failures WHERE minute < ?"
# One statement counts and answers: two instances counting at once both count.
COUNT_CODE_FAILURE = (
    "INSERT INTO sign_in_code_failures (minute, failures) VALUES (?, 1)"
    " ON CONFLICT (minute) DO UPDATE SET failures = sign_in_code_failures.failures + 1"
    " RETURNING failures"
)


def account_of(r: Any) -> Account:
    return Account(r[0], r[1], r[2], float(r[3]))


def device_of(r: Any) -> Device:
    return Device(r[0], r[1], r[2], r[3], float(r[4]), float(r[5]))


def passkey_of(r: Any) -> Passkey:
    return Passkey(r[0], r[1], r[2], int(r[3]), float(r[4]))


def device_values(d: Device) -> tuple[Any, ...]:
    return (d.id, d.token_hash, d.identity_hash, d.label, d.created, d.last_seen)


def passkey_values(p: Passkey) -> tuple[Any, ...]:
    return (p.credential_id, p.identity_hash, p.public_key, p.sign_count, p.created)


class SqlAccounts:
    """``base.Accounts`` over the SQL store's driver (``SqlStore`` is one)."""

    driver: Driver
    now: Callable[[], float]  # the store's clock (SqlStore.now)

    async def token_identity(self, token_hash: str) -> str | None:
        found = await self.driver.read(row(TOKEN_IDENTITY, token_hash, token_hash), one=True)
        return None if found is None else str(found[0])

    async def create_account(self, account: Account, device: Device, passkey: Passkey) -> None:
        def work() -> Work[None]:
            a = account
            yield Statement(INSERT_ACCOUNT, (a.identity_hash, a.name, a.key, a.created))
            yield Statement(INSERT_DEVICE, device_values(device))
            yield Statement(INSERT_PASSKEY, passkey_values(passkey))
            yield Statement(NAME_PLAYER, (a.name, a.identity_hash))

        await self.driver.write(work())

    async def account_of(self, identity_hash: str) -> Account | None:
        found = await self.driver.read(row(ACCOUNT_OF, identity_hash), one=True)
        return None if found is None else account_of(found)

    async def account_by_key(self, key: str) -> Account | None:
        found = await self.driver.read(row(ACCOUNT_BY_KEY, key), one=True)
        return None if found is None else account_of(found)

    async def add_passkey(self, passkey: Passkey) -> None:
        await self.driver.write(count(INSERT_PASSKEY, *passkey_values(passkey)), one=True)

    async def passkey(self, credential_id: str) -> Passkey | None:
        found = await self.driver.read(row(PASSKEY, credential_id), one=True)
        return None if found is None else passkey_of(found)

    async def passkeys_of(self, identity_hash: str) -> list[Passkey]:
        return [passkey_of(r) for r in await self.driver.read(rows(PASSKEYS_OF, identity_hash))]

    async def use_passkey(self, credential_id: str, seen: int, sign_count: int) -> bool:
        changed = count(USE_PASSKEY, sign_count, credential_id, seen)
        return await self.driver.write(changed, one=True) == 1

    async def add_device(self, device: Device) -> None:
        await self.driver.write(count(INSERT_DEVICE, *device_values(device)), one=True)

    async def devices_of(self, identity_hash: str) -> list[Device]:
        return [device_of(r) for r in await self.driver.read(rows(DEVICES_OF, identity_hash))]

    async def remove_device(self, identity_hash: str, device_id: str) -> bool:
        removed = count(REMOVE_DEVICE, identity_hash, device_id)
        return await self.driver.write(removed, one=True) == 1

    async def touch_device(self, token_hash: str, after: float) -> None:
        await self.driver.write(count(TOUCH_DEVICE, self.now(), token_hash, after), one=True)

    async def put_challenge(self, challenge: Challenge) -> None:
        c = challenge

        def work() -> Work[None]:
            yield Statement(SWEEP_CHALLENGES, (self.now(),))
            values = (c.challenge, c.purpose, c.identity_hash, c.name, c.expires)
            yield Statement(INSERT_CHALLENGE, values)

        await self.driver.write(work())

    async def take_challenge(self, challenge: str) -> Challenge | None:
        found = await self.driver.write(row(TAKE_CHALLENGE, challenge), one=True)
        if found is None or float(found[4]) <= self.now():
            return None
        return Challenge(found[0], found[1], found[2], found[3], float(found[4]))

    async def put_code(self, code_hash: str, identity_hash: str, expires: float) -> None:
        def work() -> Work[None]:
            yield Statement(SWEEP_CODES, (self.now(),))
            yield Statement(REPLACE_CODE, (identity_hash,))
            yield Statement(INSERT_CODE, (code_hash, identity_hash, expires))

        await self.driver.write(work())

    async def take_code(self, code_hash: str) -> str | None:
        found = await self.driver.write(row(TAKE_CODE, code_hash), one=True)
        if found is None or float(found[1]) <= self.now():
            return None
        return str(found[0])

    async def code_failures(self, minute: int) -> int:
        found = await self.driver.read(row(CODE_FAILURES, minute), one=True)
        return 0 if found is None else int(found[0])

    async def count_code_failure(self, minute: int) -> int:
        def work() -> Work[int]:
            yield Statement(SWEEP_CODE_FAILURES, (minute,))
            counted = yield Statement(COUNT_CODE_FAILURE, (minute,), "row")
            return int(counted[0])

        return await self.driver.write(work())
