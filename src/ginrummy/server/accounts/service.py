"""The accounts' flows: create an account, add a passkey, sign in by passkey or by code,
list and sign out devices (docs/accounts.md).

Everything lives in the store, so any instance may answer any step of a ceremony. The
clock and the randomness are passed in. A refusal raises ``AccountError`` with its code
and changes nothing: a challenge is taken (used up) before its answer is verified, so
an answer that fails cannot be tried again either.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ginrummy.server.accounts import codes, passkeys
from ginrummy.server.accounts.names import name_key
from ginrummy.server.accounts.passkeys import PasskeyRefused, RelyingParty
from ginrummy.server.store import Account, Challenge, Device, Passkey, Store, StoreConflict
from ginrummy.server.tokens import hash_token, new_token

REGISTER, SIGN_IN, CONFIRM = "register", "sign_in", "confirm"
# A device signed in this long adds a passkey without a passkey's confirmation: a lost
# passkey is not a lost account while such a device is signed in (issue 22).
ESTABLISHED_S = 7 * 24 * 3600.0
CHALLENGE_S = passkeys.TIMEOUT_MS / 1000
TOUCH_EVERY_S = 600.0  # a device's "last seen" moves at most this often


class AccountError(Exception):
    """A refused account request: ``code`` is the wire error code."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A new device's token (shown once, to that browser) and the identity it names."""

    token: str
    identity: str
    device: Device


@dataclass
class Accounts:
    store: Store
    now: Callable[[], float]
    rp: RelyingParty
    random_bytes: Callable[[int], bytes] = secrets.token_bytes
    choice: Callable[[str], str] = field(default=secrets.choice)

    # -- registration: a new account, or one more passkey ---------------------------------

    async def registration_options(
        self,
        identity: str,
        name: str | None,
        confirm: Mapping[str, Any] | None = None,
        token_hash: str | None = None,
    ) -> dict[str, Any]:
        """Options for a new passkey of ``identity``: its account's if it has one (then
        no name, and ``confirm``: an answer to ``confirm_options`` from one of the
        account's passkeys, unless it has none left or the asking device, ``token_hash``,
        is established: signed in for ``ESTABLISHED_S`` at least), else a new account
        named ``name`` (checked free now and again at the end)."""
        account = await self.store.account_of(identity)
        if account is None:
            if name is None:
                raise AccountError("bad_name", "a new account needs a name")
            await self._check_free(name)
            shown = name
        else:
            if name is not None:
                raise AccountError("account_exists", "this identity has an account already")
            shown = account.name
        own = [p.credential_id for p in await self.store.passkeys_of(identity)]
        # A fresh device token alone adds no passkey (a stolen one); a lost passkey is
        # replaced from a device signed in long enough (docs/accounts.md).
        if own and not await self._established(identity, token_hash):
            await self.confirm(identity, confirm)
        challenge = self.random_bytes(32)
        await self.store.put_challenge(
            Challenge(
                passkeys.b64url(challenge),
                REGISTER,
                identity,
                name,
                self.now() + CHALLENGE_S,
            )
        )
        user_id = hash_token("user:" + identity).encode()[:32]
        return passkeys.registration_options(self.rp, challenge, user_id, shown, own)

    async def _established(self, identity: str, token_hash: str | None) -> bool:
        """The device of ``token_hash`` is this account's and was signed in at least
        ``ESTABLISHED_S`` ago."""
        if token_hash is None:
            return False
        since = self.now() - ESTABLISHED_S
        return any(
            d.token_hash == token_hash and d.created <= since
            for d in await self.store.devices_of(identity)
        )

    async def register(
        self, token_hash: str, identity: str, credential: Mapping[str, Any], label: str
    ) -> Account:
        """Verify a ``create`` answer: make the account (its first passkey and this
        device) or add the passkey to the caller's account."""
        challenge = await self._take(credential, REGISTER)
        if challenge.identity_hash != identity:
            raise AccountError("bad_challenge", "this challenge was handed to someone else")
        new = self._verified_registration(credential, challenge.challenge)
        now = self.now()
        passkey = Passkey(new.credential_id, identity, new.public_key, new.sign_count, now)
        try:
            if challenge.name is None:
                account = await self.store.account_of(identity)
                if account is None:
                    raise AccountError("no_account", "this identity has no account")
                await self.store.add_passkey(passkey)
                return account
            account = Account(identity, challenge.name, name_key(challenge.name), now)
            device = Device(self._device_id(), token_hash, identity, label, now, now)
            await self.store.create_account(account, device, passkey)
        except StoreConflict:
            raise AccountError(
                "name_taken", "the name (or one that looks like it) or the passkey is taken"
            ) from None
        return account

    # -- sign-in on another device ---------------------------------------------------------

    async def sign_in_options(self) -> dict[str, Any]:
        challenge = self.random_bytes(32)
        await self.store.put_challenge(
            Challenge(passkeys.b64url(challenge), SIGN_IN, None, None, self.now() + CHALLENGE_S)
        )
        return passkeys.sign_in_options(self.rp, challenge)

    async def sign_in(self, credential: Mapping[str, Any], label: str) -> SignedIn:
        """Verify a ``get`` answer; a new device of the passkey's account."""
        challenge = await self._take(credential, SIGN_IN)
        passkey = await self._used(credential, challenge, None)
        return await self._new_device(passkey.identity_hash, label)

    # -- confirming a change with a passkey, just now --------------------------------------

    async def confirm_options(self, identity: str) -> dict[str, Any]:
        """A ``get`` challenge for one of ``identity``'s own passkeys: what adding a
        passkey and signing out another device need answered first."""
        await self._account(identity)
        own = [p.credential_id for p in await self.store.passkeys_of(identity)]
        if not own:
            raise AccountError("no_passkey", "this account has no passkey left to confirm with")
        challenge = self.random_bytes(32)
        await self.store.put_challenge(
            Challenge(passkeys.b64url(challenge), CONFIRM, identity, None, self.now() + CHALLENGE_S)
        )
        return passkeys.sign_in_options(self.rp, challenge, own)

    async def confirm(self, identity: str, credential: Mapping[str, Any] | None) -> None:
        """``confirm_needed`` unless ``credential`` answers a confirm challenge handed to
        ``identity`` (within its 120 s) with one of its own passkeys, user verified."""
        if credential is None:
            raise AccountError("confirm_needed", "confirm with one of the account's passkeys")
        challenge = await self._take(credential, CONFIRM)
        if challenge.identity_hash != identity:
            raise AccountError("bad_challenge", "this challenge was handed to someone else")
        await self._used(credential, challenge, identity)

    async def new_code(self, identity: str) -> tuple[str, float]:
        """A one-time code for another browser, and when it expires; the account's
        earlier code, if any, stops working."""
        await self._account(identity)
        code = codes.new_code(self.choice)
        expires = self.now() + codes.LIFETIME_S
        await self.store.put_code(codes.code_hash(code), identity, expires)
        return codes.shown(code), expires

    async def sign_in_by_code(self, code: str, label: str) -> SignedIn:
        """A new device of the code's account. ``codes_paused`` while the site's failed
        code sign-ins of this minute are over budget (docs/accounts.md, "Sign-in
        codes"); a miss counts as one more failure, a malformed code does not."""
        if not codes.well_formed(code):
            raise AccountError("bad_code", f"a code has {codes.LENGTH} letters and digits")
        minute = codes.minute(self.now())
        if await self.store.code_failures(minute) >= codes.FAILURES_PER_MINUTE:
            raise AccountError(
                "codes_paused", "too many wrong codes were tried: try again in a minute"
            )
        identity = await self.store.take_code(codes.code_hash(code))
        if identity is None:
            await self.store.count_code_failure(minute)
            raise AccountError("bad_code", "no such code: it may be mistyped, used or expired")
        return await self._new_device(identity, label)

    # -- devices ---------------------------------------------------------------------------

    async def devices(self, identity: str, token_hash: str) -> list[Device]:
        await self.store.touch_device(token_hash, self.now() - TOUCH_EVERY_S)
        return await self.store.devices_of(identity)

    async def sign_out(
        self,
        identity: str,
        device_id: str,
        token_hash: str,
        confirm: Mapping[str, Any] | None = None,
    ) -> str:
        """Sign a device out: this one (``token_hash``'s) freely, another only with a
        fresh ``confirm`` (a stolen token cannot sign its owner's devices out). Answers
        the signed-out device's token hash (its open sockets are closed by it)."""
        await self._account(identity)
        mine = await self.store.devices_of(identity)
        device = next((d for d in mine if d.id == device_id), None)
        if device is None:
            raise AccountError("unknown_device", "this account has no such device")
        if device.token_hash != token_hash:
            await self.confirm(identity, confirm)
        if not await self.store.remove_device(identity, device_id):
            raise AccountError("unknown_device", "this account has no such device")
        return device.token_hash

    # -- parts -----------------------------------------------------------------------------

    async def _check_free(self, name: str) -> None:
        other = await self.store.account_by_key(name_key(name))
        if other is not None:
            raise AccountError("name_taken", f"the name is taken (or one like it: {other.name})")

    async def _account(self, identity: str) -> Account:
        account = await self.store.account_of(identity)
        if account is None:
            raise AccountError("no_account", "this needs an account; a guest has none")
        return account

    async def _take(self, credential: Mapping[str, Any], purpose: str) -> Challenge:
        try:
            answered = passkeys.answered_challenge(credential)
        except PasskeyRefused as exc:
            raise AccountError("passkey_refused", str(exc)) from None
        challenge = await self.store.take_challenge(answered)
        if challenge is None or challenge.purpose != purpose:
            raise AccountError("bad_challenge", "unknown, used or expired challenge; start again")
        return challenge

    async def _used(
        self, credential: Mapping[str, Any], challenge: Challenge, identity: str | None
    ) -> Passkey:
        """The passkey a ``get`` answer to ``challenge`` comes from, verified and its
        sign count moved; when ``identity`` is given, it must be one of its own."""
        try:
            credential_id = passkeys.credential_id(credential)
        except PasskeyRefused as exc:
            raise AccountError("passkey_refused", str(exc)) from None
        passkey = await self.store.passkey(credential_id)
        if passkey is None or (identity is not None and passkey.identity_hash != identity):
            raise AccountError("unknown_passkey", "no account has this passkey")
        try:
            count = passkeys.verify_sign_in(
                self.rp, credential, challenge.challenge, passkey.public_key, passkey.sign_count
            )
        except PasskeyRefused as exc:
            raise AccountError("passkey_refused", str(exc)) from None
        if not await self.store.use_passkey(credential_id, passkey.sign_count, count):
            raise AccountError("passkey_refused", "the passkey was used at the same time")
        return passkey

    def _verified_registration(
        self, credential: Mapping[str, Any], challenge: str
    ) -> passkeys.NewCredential:
        try:
            return passkeys.verify_registration(self.rp, credential, challenge)
        except PasskeyRefused as exc:
            raise AccountError("passkey_refused", str(exc)) from None

    async def _new_device(self, identity: str, label: str) -> SignedIn:
        token, now = new_token(), self.now()
        device = Device(self._device_id(), hash_token(token), identity, label, now, now)
        await self.store.add_device(device)
        return SignedIn(token, identity, device)

    def _device_id(self) -> str:
        return "d_" + passkeys.b64url(self.random_bytes(9))
