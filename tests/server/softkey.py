"""A passkey in software for the server tests: what a browser's authenticator answers to
``navigator.credentials.create`` and ``get`` (WebAuthn level 2, "none" attestation,
ES256), as JSON the server reads."""

from __future__ import annotations

import base64
import hashlib
import json
import os
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class SoftKey:
    """One credential: its key pair, id and sign count."""

    def __init__(self, rp_id: str = "testserver", origin: str = "http://testserver") -> None:
        self.rp_id, self.origin = rp_id, origin
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.id = os.urandom(16)
        self.count = 0

    def _client(self, kind: str, challenge: str, origin: str | None) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin or self.origin}
        return json.dumps({**data, "crossOrigin": False}).encode()

    def _auth_data(self, flags: int, rp_id: str | None, extra: bytes = b"") -> bytes:
        rp_hash = hashlib.sha256((rp_id or self.rp_id).encode()).digest()
        return rp_hash + bytes([flags]) + self.count.to_bytes(4, "big") + extra

    def create(
        self,
        options: dict[str, Any],
        origin: str | None = None,
        rp_id: str | None = None,
        verified: bool = True,
    ) -> dict[str, Any]:
        numbers = self.key.public_key().public_numbers()
        cose = {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big")}  # fmt: skip
        attested = bytes(16) + len(self.id).to_bytes(2, "big") + self.id + cbor2.dumps(cose)
        flags = 0x45 if verified else 0x41  # UP, UV (the person was verified), AT
        auth_data = self._auth_data(flags, rp_id, attested)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {
            "id": b64(self.id),
            "rawId": b64(self.id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(
                    self._client("webauthn.create", options["challenge"], origin)
                ),
                "attestationObject": b64(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
        }

    def get(
        self,
        options: dict[str, Any],
        origin: str | None = None,
        rp_id: str | None = None,
        verified: bool = True,
    ) -> dict[str, Any]:
        self.count += 1
        client = self._client("webauthn.get", options["challenge"], origin)
        auth_data = self._auth_data(0x05 if verified else 0x01, rp_id)  # UP, UV
        signed = auth_data + hashlib.sha256(client).digest()
        signature = self.key.sign(signed, ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64(self.id),
            "rawId": b64(self.id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client),
                "authenticatorData": b64(auth_data),
                "signature": b64(signature),
            },
            "clientExtensionResults": {},
        }
