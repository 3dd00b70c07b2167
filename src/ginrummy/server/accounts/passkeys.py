"""Passkeys: the WebAuthn ceremonies of py_webauthn, for one relying party.

Options go to the browser as JSON (``navigator.credentials.create`` / ``get`` after
the client turns base64url back into bytes); the browser's answer comes back as the
JSON of its ``PublicKeyCredential``. A refused answer raises ``PasskeyRefused``: a
wrong origin or RP ID, a bad signature, a challenge other than the one handed out, a
sign count that did not grow. Which challenge an answer answers is read from its
client data (``answered_challenge``); the caller takes that challenge from the store
(single use) before verifying. User verification is required at both ceremonies (a
PIN, a fingerprint or the device's lock, not just a touch): a passkey is the account's
only secret, and an answer without the UV flag is refused.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import webauthn
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

TIMEOUT_MS = 120_000
"""How long the browser's prompt waits; the server's challenge lives as long."""


class PasskeyRefused(Exception):
    """An answer of the browser that is not a valid credential for this site."""


@dataclass(frozen=True, slots=True)
class RelyingParty:
    """The site as passkeys know it: its RP ID (a host name) and its origin."""

    id: str
    origin: str
    name: str = "Gin Rummy"


@dataclass(frozen=True, slots=True)
class NewCredential:
    credential_id: str  # base64url
    public_key: str  # base64url of the COSE key
    sign_count: int


def b64url(data: bytes) -> str:
    return bytes_to_base64url(data)


def _bytes(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def answered_challenge(credential: Mapping[str, Any]) -> str:
    """The challenge (base64url) a browser's answer says it answers; ``PasskeyRefused``
    if the answer has no readable client data."""
    try:
        response = credential["response"]
        client = json.loads(_bytes(response["clientDataJSON"]))
        challenge = client["challenge"]
    except (KeyError, TypeError, ValueError, binascii.Error) as exc:
        raise PasskeyRefused(f"the answer has no readable client data: {exc}") from None
    if not isinstance(challenge, str) or not challenge:
        raise PasskeyRefused("the answer names no challenge")
    return challenge


def credential_id(credential: Mapping[str, Any]) -> str:
    """The credential an answer comes from (base64url)."""
    raw = credential.get("id")
    if not isinstance(raw, str) or not raw:
        raise PasskeyRefused("the answer names no credential")
    return raw


def registration_options(
    rp: RelyingParty,
    challenge: bytes,
    user_id: bytes,
    name: str,
    exclude: list[str],
) -> dict[str, Any]:
    """What ``navigator.credentials.create`` needs: a discoverable credential (sign-in
    asks for no name), none of ``exclude`` (the account's own) made again."""
    options = webauthn.generate_registration_options(
        rp_id=rp.id,
        rp_name=rp.name,
        user_id=user_id,
        user_name=name,
        user_display_name=name,
        challenge=challenge,
        timeout=TIMEOUT_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.REQUIRED,
        ),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=_bytes(c)) for c in exclude],
    )
    answer: dict[str, Any] = json.loads(webauthn.options_to_json(options))
    return answer


def sign_in_options(
    rp: RelyingParty, challenge: bytes, allow: list[str] | None = None
) -> dict[str, Any]:
    """What ``navigator.credentials.get`` needs: any passkey of this site, or one of
    ``allow`` (an account's own, to confirm a change)."""
    options = webauthn.generate_authentication_options(
        rp_id=rp.id,
        challenge=challenge,
        timeout=TIMEOUT_MS,
        allow_credentials=[PublicKeyCredentialDescriptor(id=_bytes(c)) for c in allow or []],
        user_verification=UserVerificationRequirement.REQUIRED,
    )
    answer: dict[str, Any] = json.loads(webauthn.options_to_json(options))
    return answer


def verify_registration(
    rp: RelyingParty, credential: Mapping[str, Any], challenge: str
) -> NewCredential:
    """The new credential of a ``create`` answer to ``challenge`` (base64url)."""
    try:
        verified = webauthn.verify_registration_response(
            credential=dict(credential),
            expected_challenge=_bytes(challenge),
            expected_rp_id=rp.id,
            expected_origin=rp.origin,
            require_user_verification=True,
        )
    except (WebAuthnException, KeyError, TypeError, ValueError) as exc:
        raise PasskeyRefused(str(exc)) from None
    return NewCredential(
        b64url(verified.credential_id),
        b64url(verified.credential_public_key),
        verified.sign_count,
    )


def verify_sign_in(
    rp: RelyingParty,
    credential: Mapping[str, Any],
    challenge: str,
    public_key: str,
    sign_count: int,
) -> int:
    """The credential's new sign count after a valid ``get`` answer to ``challenge``."""
    try:
        verified = webauthn.verify_authentication_response(
            credential=dict(credential),
            expected_challenge=_bytes(challenge),
            expected_rp_id=rp.id,
            expected_origin=rp.origin,
            credential_public_key=_bytes(public_key),
            credential_current_sign_count=sign_count,
            require_user_verification=True,
        )
    except (WebAuthnException, KeyError, TypeError, ValueError) as exc:
        raise PasskeyRefused(str(exc)) from None
    return verified.new_sign_count
