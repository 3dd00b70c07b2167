"""Accounts over HTTP (docs/accounts.md): a guest becomes an account in place, signs in
on other devices by passkey or code, signs devices out; and every forged, replayed or
lookalike request is refused with its code and changes nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from ginrummy.server.accounts.codes import FAILURES_PER_MINUTE

from .helpers import auth, client, create, hello, identity
from .softkey import SoftKey


def _options(c: TestClient, token: str, name: str | None = "Anna") -> dict[str, Any]:
    body = {} if name is None else {"name": name}
    r = c.post("/api/account/passkeys/options", json=body, headers=auth(token))
    assert r.status_code == 200, r.text
    options: dict[str, Any] = r.json()["options"]
    return options


def _account(c: TestClient, name: str = "Anna") -> tuple[str, SoftKey]:
    """A new account: a guest's token and the passkey it registered."""
    token, key = identity(c), SoftKey()
    r = c.post(
        "/api/account/passkeys",
        json={"credential": key.create(_options(c, token, name))},
        headers=auth(token),
    )
    assert r.status_code == 201, r.text
    return token, key


def _confirm(c: TestClient, token: str, key: SoftKey) -> dict[str, Any]:
    """An answer of ``key`` to a confirm challenge of ``token``'s account."""
    r = c.post("/api/account/confirm/options", json={}, headers=auth(token))
    assert r.status_code == 200, r.text
    return key.get(r.json()["options"])


def _sign_out(c: TestClient, token: str, device: str, key: SoftKey | None = None) -> Any:
    body = {} if key is None else {"confirm": _confirm(c, token, key)}
    return c.request("DELETE", f"/api/account/devices/{device}", json=body, headers=auth(token))


def _sign_in(c: TestClient, key: SoftKey, **answer: Any) -> Any:
    options = c.post("/api/account/sign-in/options", json={}).json()["options"]
    return c.post("/api/account/sign-in", json={"credential": key.get(options, **answer)})


def _error(r: Any) -> str:
    code: str = r.json()["error"]["code"]
    return code


def test_a_guest_becomes_an_account_in_place() -> None:
    with client() as c:
        token = identity(c)
        room = create(c, token)
        before = c.get("/api/me", headers=auth(token)).json()
        key = SoftKey()
        r = c.post(
            "/api/account/passkeys",
            json={"credential": key.create(_options(c, token))},
            headers=auth(token),
        )
        assert r.status_code == 201, r.text
        me = c.get("/api/me", headers=auth(token)).json()
        # the same player (rating, games), now named as the account
        assert me["player"]["id"] == before["player"]["id"]
        assert me["player"]["name"] == "Anna" and me["account"] == {"name": "Anna"}
        assert [g["room"] for g in me["games"]] == [room]
        account = c.get("/api/account", headers=auth(token)).json()
        assert account["account"]["name"] == "Anna" and account["passkeys"] == 1
        assert [d["this"] for d in account["devices"]] == [True]
        # an account keeps its name
        r = c.put("/api/me", json={"name": "Other"}, headers=auth(token))
        assert r.status_code == 403


def test_a_passkey_signs_in_another_device_to_the_same_player() -> None:
    with client() as c:
        token, key = _account(c)
        first = c.get("/api/me", headers=auth(token)).json()
        r = _sign_in(c, key)
        assert r.status_code == 201, r.text
        device = r.json()["token"]
        assert device != token
        me = c.get("/api/me", headers=auth(device)).json()
        assert me["player"]["id"] == first["player"]["id"]
        assert me["games"] == first["games"]
        devices = c.get("/api/account", headers=auth(device)).json()["devices"]
        assert [d["this"] for d in devices] == [False, True]


def test_a_device_signed_in_by_passkey_holds_the_guests_seat() -> None:
    with client() as c:
        token, key = _account(c)
        room = create(c, token)
        device = _sign_in(c, key).json()["token"]
        info = c.get(f"/api/rooms/{room}", headers=auth(device)).json()
        assert info["your_seat"] == "one"
        with c.websocket_connect("/ws") as ws:
            welcome, _view = hello(ws, room, device)
            assert welcome["seat"] == "one"
        # signed out, the device's token is a spectator's at most
        devices = c.get("/api/account", headers=auth(token)).json()["devices"]
        other = next(d["id"] for d in devices if not d["this"])
        assert _sign_out(c, token, other, key).status_code == 200
        assert c.get(f"/api/rooms/{room}", headers=auth(device)).json()["your_seat"] is None


def test_a_signed_out_device_is_refused_at_once() -> None:
    with client() as c:
        token, key = _account(c)
        device = _sign_in(c, key).json()["token"]
        devices = c.get("/api/account", headers=auth(token)).json()["devices"]
        other = next(d["id"] for d in devices if not d["this"])
        r = _sign_out(c, token, other, key)
        assert r.status_code == 200
        r = c.get("/api/me", headers=auth(device))
        assert r.status_code == 401 and _error(r) == "bad_token"
        assert c.delete(f"/api/account/devices/{other}", headers=auth(token)).status_code == 404
        # the first browser's own token can be signed out too, from the other device
        device = _sign_in(c, key).json()["token"]
        first = next(d["id"] for d in c.get("/api/account", headers=auth(device)).json()["devices"]
                     if not d["this"])  # fmt: skip
        assert _sign_out(c, device, first, key).status_code == 200
        assert c.get("/api/me", headers=auth(token)).status_code == 401
        # and a device signs itself out without confirming
        mine = c.get("/api/account", headers=auth(device)).json()["devices"][0]["id"]
        assert _sign_out(c, device, mine).status_code == 200
        assert c.get("/api/me", headers=auth(device)).status_code == 401


def test_a_stolen_device_token_neither_adds_a_passkey_nor_signs_others_out() -> None:
    with client() as c:
        token, key = _account(c)
        stolen = _sign_in(c, key).json()["token"]
        thief = SoftKey()
        r = c.post("/api/account/passkeys/options", json={}, headers=auth(stolen))
        assert r.status_code == 403 and _error(r) == "confirm_needed"
        first = next(d["id"] for d in c.get("/api/account", headers=auth(stolen)).json()["devices"]
                     if not d["this"])  # fmt: skip
        r = _sign_out(c, stolen, first)
        assert r.status_code == 403 and _error(r) == "confirm_needed"
        # the thief's own passkey confirms nothing: it is not the account's
        options = c.post("/api/account/confirm/options", json={}, headers=auth(stolen)).json()
        body = {"confirm": thief.get(options["options"])}
        r = c.post("/api/account/passkeys/options", json=body, headers=auth(stolen))
        assert r.status_code == 400 and _error(r) == "unknown_passkey"
        # nor does a confirm challenge handed to another account
        other_token, other_key = _account(c, "Bert")
        body = {"confirm": _confirm(c, other_token, other_key)}
        r = c.post("/api/account/passkeys/options", json=body, headers=auth(stolen))
        assert r.status_code == 400 and _error(r) == "bad_challenge"
        # nor a sign-in answer (a challenge of another purpose)
        sign_in = c.post("/api/account/sign-in/options", json={}).json()["options"]
        body = {"confirm": key.get(sign_in)}
        r = c.post("/api/account/passkeys/options", json=body, headers=auth(stolen))
        assert r.status_code == 400 and _error(r) == "bad_challenge"
        assert c.get("/api/me", headers=auth(token)).status_code == 200
        assert c.get("/api/account", headers=auth(token)).json()["passkeys"] == 1


def test_a_signed_in_device_adds_a_passkey_confirmed_by_one_of_the_accounts() -> None:
    with client() as c:
        _token, lost = _account(c)
        device = _sign_in(c, lost).json()["token"]
        new = SoftKey()
        r = c.post(
            "/api/account/passkeys/options",
            json={"confirm": _confirm(c, device, lost)},
            headers=auth(device),
        )
        assert r.status_code == 200, r.text
        options = r.json()["options"]
        assert [e["id"] for e in options["excludeCredentials"]] == [
            __import__("base64").urlsafe_b64encode(lost.id).rstrip(b"=").decode()
        ]
        r = c.post(
            "/api/account/passkeys", json={"credential": new.create(options)}, headers=auth(device)
        )
        assert r.status_code == 201, r.text
        assert _sign_in(c, new).status_code == 201
        assert c.get("/api/account", headers=auth(device)).json()["passkeys"] == 2


def test_a_lost_passkey_is_replaced_from_a_device_signed_in_for_a_week() -> None:
    with client(test_clock=True) as c:
        _token, lost = _account(c)
        device = _sign_in(c, lost).json()["token"]  # the phone with the passkey is lost
        r = c.post("/api/account/passkeys/options", json={}, headers=auth(device))
        assert r.status_code == 403 and _error(r) == "confirm_needed"  # a fresh device
        week = 7 * 24 * 3600
        assert c.post("/api/test/clock", json={"advance": week}).status_code == 200
        r = c.post("/api/account/passkeys/options", json={}, headers=auth(device))
        assert r.status_code == 200, r.text
        new = SoftKey()
        credential = new.create(r.json()["options"])
        r = c.post("/api/account/passkeys", json={"credential": credential}, headers=auth(device))
        assert r.status_code == 201, r.text
        assert _sign_in(c, new).status_code == 201
        # a device signed in just now still needs a passkey's confirmation
        fresh = _sign_in(c, new).json()["token"]
        r = c.post("/api/account/passkeys/options", json={}, headers=auth(fresh))
        assert r.status_code == 403 and _error(r) == "confirm_needed"


def test_a_one_time_code_signs_in_once() -> None:
    with client() as c:
        token, _key = _account(c)
        r = c.post("/api/account/codes", json={}, headers=auth(token))
        assert r.status_code == 201
        code = r.json()["code"]
        assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}", code), code
        r = c.post("/api/account/sign-in/code", json={"code": code.lower().replace("-", " ")})
        assert r.status_code == 201, r.text
        me = c.get("/api/me", headers=auth(r.json()["token"])).json()
        assert me["account"] == {"name": "Anna"}
        again = c.post("/api/account/sign-in/code", json={"code": code})
        assert again.status_code == 400 and _error(again) == "bad_code"
        # a guest has no codes to give
        guest = identity(c)
        r = c.post("/api/account/codes", json={}, headers=auth(guest))
        assert r.status_code == 403 and _error(r) == "no_account"


def test_a_new_code_replaces_the_accounts_older_one() -> None:
    with client() as c:
        token, _key = _account(c)
        first = c.post("/api/account/codes", json={}, headers=auth(token)).json()["code"]
        second = c.post("/api/account/codes", json={}, headers=auth(token)).json()["code"]
        r = c.post("/api/account/sign-in/code", json={"code": first})
        assert r.status_code == 400 and _error(r) == "bad_code"
        assert c.post("/api/account/sign-in/code", json={"code": second}).status_code == 201


def test_making_codes_is_rate_limited() -> None:
    with client(limit_sign_ins=2) as c:
        token, _key = _account(c)
        for _ in range(2):
            assert c.post("/api/account/codes", json={}, headers=auth(token)).status_code == 201
        r = c.post("/api/account/codes", json={}, headers=auth(token))
        assert r.status_code == 429 and _error(r) == "rate_limited"


def test_too_many_wrong_codes_pause_code_sign_ins_for_everyone() -> None:
    with client(test_clock=True, limit_sign_ins=0) as c:
        token, _key = _account(c)
        code = c.post("/api/account/codes", json={}, headers=auth(token)).json()["code"]
        wrong = "2222-2222-2222" if code != "2222-2222-2222" else "3333-3333-3333"
        r = c.post("/api/account/sign-in/code", json={"code": "ABCD-EFGH"})  # malformed
        assert r.status_code == 400 and _error(r) == "bad_code"  # and not counted
        for _ in range(FAILURES_PER_MINUTE):
            r = c.post("/api/account/sign-in/code", json={"code": wrong})
            assert r.status_code == 400 and _error(r) == "bad_code"
        r = c.post("/api/account/sign-in/code", json={"code": code})  # even the right one
        assert r.status_code == 429 and _error(r) == "codes_paused"
        assert c.post("/api/test/clock", json={"advance": 60}).status_code == 200
        assert c.post("/api/account/sign-in/code", json={"code": code}).status_code == 201


def test_a_code_expires(monkeypatch: pytest.MonkeyPatch) -> None:
    with client(test_clock=True) as c:
        token, _key = _account(c)
        code = c.post("/api/account/codes", json={}, headers=auth(token)).json()["code"]
        assert c.post("/api/test/clock", json={"advance": 301}).status_code == 200
        r = c.post("/api/account/sign-in/code", json={"code": code})
        assert r.status_code == 400 and _error(r) == "bad_code"


@pytest.mark.parametrize("mixed", ["Аnna", "Αnna", "ᎪNNᎪ"])  # Cyrillic А, Greek Α, Cherokee
def test_names_mixing_scripts_or_in_another_script_are_refused(mixed: str) -> None:
    with client() as c:
        token = identity(c)
        r = c.post("/api/account/passkeys/options", json={"name": mixed}, headers=auth(token))
        assert r.status_code == 400 and _error(r) == "bad_name", mixed


@pytest.mark.parametrize(
    "lookalike",
    ["anna", "ANNA", "Ａｎｎａ", "Ann a", "Anna.", "ΑΝΝΑ"],  # Greek capitals
)
def test_names_that_look_like_a_taken_one_are_refused(lookalike: str) -> None:
    with client() as c:
        _account(c, "Anna")
        token = identity(c)
        r = c.post("/api/account/passkeys/options", json={"name": lookalike}, headers=auth(token))
        assert r.status_code == 409 and _error(r) == "name_taken", lookalike
        assert c.get("/api/account", headers=auth(token)).json()["account"] is None


def test_a_name_freed_by_a_race_is_still_checked_at_the_end() -> None:
    with client() as c:
        first, second = identity(c), identity(c)
        k1, k2 = SoftKey(), SoftKey()
        o1, o2 = _options(c, first, "Paul"), _options(c, second, "PauI")  # capital i
        assert c.post("/api/account/passkeys", json={"credential": k1.create(o1)},
                      headers=auth(first)).status_code == 201  # fmt: skip
        r = c.post("/api/account/passkeys", json={"credential": k2.create(o2)},
                   headers=auth(second))  # fmt: skip
        assert r.status_code == 409 and _error(r) == "name_taken"
        assert c.get("/api/me", headers=auth(second)).json()["account"] is None


def test_a_replayed_registration_is_refused() -> None:
    with client() as c:
        token, key = identity(c), SoftKey()
        answer = key.create(_options(c, token))
        assert c.post("/api/account/passkeys", json={"credential": answer},
                      headers=auth(token)).status_code == 201  # fmt: skip
        again = c.post("/api/account/passkeys", json={"credential": answer}, headers=auth(token))
        assert again.status_code == 400 and _error(again) == "bad_challenge"
        assert c.get("/api/account", headers=auth(token)).json()["passkeys"] == 1


def test_a_registration_for_another_origin_or_rp_is_refused_and_uses_the_challenge() -> None:
    with client() as c:
        token, key = identity(c), SoftKey()
        options = _options(c, token)
        wrong = key.create(options, origin="https://evil.example")
        r = c.post("/api/account/passkeys", json={"credential": wrong}, headers=auth(token))
        assert r.status_code == 400 and _error(r) == "passkey_refused"
        right = key.create(options)  # the challenge is used up by the refused answer
        r = c.post("/api/account/passkeys", json={"credential": right}, headers=auth(token))
        assert r.status_code == 400 and _error(r) == "bad_challenge"
        wrong_rp = key.create(_options(c, token), rp_id="evil.example")
        r = c.post("/api/account/passkeys", json={"credential": wrong_rp}, headers=auth(token))
        assert r.status_code == 400 and _error(r) == "passkey_refused"
        assert c.get("/api/me", headers=auth(token)).json()["account"] is None


def test_a_registration_challenge_is_the_askers_own() -> None:
    with client() as c:
        asker, thief = identity(c), identity(c)
        answer = SoftKey().create(_options(c, asker))
        r = c.post("/api/account/passkeys", json={"credential": answer}, headers=auth(thief))
        assert r.status_code == 400 and _error(r) == "bad_challenge"
        assert c.get("/api/me", headers=auth(thief)).json()["account"] is None


def test_a_replayed_or_foreign_assertion_is_refused() -> None:
    with client() as c:
        _token, key = _account(c)
        options = c.post("/api/account/sign-in/options", json={}).json()["options"]
        answer = key.get(options)
        assert c.post("/api/account/sign-in", json={"credential": answer}).status_code == 201
        again = c.post("/api/account/sign-in", json={"credential": answer})
        assert again.status_code == 400 and _error(again) == "bad_challenge"
        r = _sign_in(c, key, origin="https://evil.example")
        assert r.status_code == 400 and _error(r) == "passkey_refused"
        r = _sign_in(c, key, rp_id="evil.example")
        assert r.status_code == 400 and _error(r) == "passkey_refused"
        stranger = SoftKey()
        r = _sign_in(c, stranger)
        assert r.status_code == 400 and _error(r) == "unknown_passkey"


def test_a_passkey_must_verify_its_user_at_both_ceremonies() -> None:
    with client() as c:
        token, key = identity(c), SoftKey()
        options = _options(c, token)
        assert options["authenticatorSelection"]["userVerification"] == "required"
        touched = key.create(options, verified=False)  # a touch, no PIN nor fingerprint
        r = c.post("/api/account/passkeys", json={"credential": touched}, headers=auth(token))
        assert r.status_code == 400 and _error(r) == "passkey_refused"
        assert c.get("/api/me", headers=auth(token)).json()["account"] is None
        _token, key = _account(c, "Bert")
        r = _sign_in(c, key, verified=False)
        assert r.status_code == 400 and _error(r) == "passkey_refused"
        options = c.post("/api/account/sign-in/options", json={}).json()["options"]
        assert options["userVerification"] == "required"


def test_a_sign_count_that_does_not_grow_is_refused() -> None:
    with client() as c:
        _token, key = _account(c)
        assert _sign_in(c, key).status_code == 201
        key.count -= 1  # a cloned authenticator answers with an old count
        r = _sign_in(c, key)
        assert r.status_code == 400 and _error(r) == "passkey_refused"


def test_an_account_is_made_once_and_needs_a_name() -> None:
    with client() as c:
        token, _key = _account(c)
        r = c.post("/api/account/passkeys/options", json={"name": "Bert"}, headers=auth(token))
        assert r.status_code == 409 and _error(r) == "account_exists"
        guest = identity(c)
        r = c.post("/api/account/passkeys/options", json={}, headers=auth(guest))
        assert r.status_code == 400 and _error(r) == "bad_name"


@pytest.mark.parametrize(
    ("path", "body", "code"),
    [
        ("/api/account/passkeys/options", {"name": 5}, "bad_name"),
        ("/api/account/passkeys/options", {"name": "a\u200bb"}, "bad_name"),
        ("/api/account/passkeys/options", {"name": "<b>"}, "bad_name"),
        ("/api/account/passkeys", {"credential": "x"}, "bad_request"),
        ("/api/account/passkeys", {"credential": {}}, "passkey_refused"),
        ("/api/account/passkeys", {"extra": 1}, "bad_request"),
        ("/api/account/sign-in", {"credential": {"response": 1}}, "passkey_refused"),
        ("/api/account/sign-in/code", {"code": 12345678}, "bad_code"),
        ("/api/account/sign-in/code", {}, "bad_request"),
    ],
)
def test_bad_input_is_refused_with_its_code(path: str, body: Any, code: str) -> None:
    with client() as c:
        token = identity(c)
        r = c.post(path, json=body, headers=auth(token))
        assert r.status_code == 400 and _error(r) == code, r.text


def test_account_routes_need_a_token() -> None:
    with client() as c:
        for method, path in [
            ("GET", "/api/account"),
            ("POST", "/api/account/passkeys/options"),
            ("POST", "/api/account/passkeys"),
            ("POST", "/api/account/codes"),
            ("DELETE", "/api/account/devices/d_x"),
        ]:
            r = c.request(method, path, json={})
            assert r.status_code == 401, (method, path)


def test_sign_in_attempts_and_new_accounts_are_rate_limited() -> None:
    with client(limit_sign_ins=3, limit_accounts=1) as c:
        codes = [c.post("/api/account/sign-in/code", json={"code": "AAAA-AAAA"}) for _ in range(4)]
        assert [r.status_code for r in codes] == [400, 400, 400, 429]
        assert _error(codes[-1]) == "rate_limited"
        token = identity(c)
        assert c.post("/api/account/passkeys/options", json={"name": "Ann"},
                      headers=auth(token)).status_code == 200  # fmt: skip
        r = c.post("/api/account/passkeys/options", json={"name": "Ann"}, headers=auth(token))
        assert r.status_code == 429


def test_a_guest_takes_no_accounts_name_nor_a_lookalike() -> None:
    with client() as c:
        _account(c, "Hanna")
        guest = identity(c)
        for name in ("Hanna", "hanna", "Наnnа"):  # the name, its case, Cyrillic Н and а
            r = c.put("/api/me", json={"name": name}, headers=auth(guest))
            assert r.status_code == 409 and _error(r) == "name_taken", (name, r.text)
        assert c.put("/api/me", json={"name": "Hannah"}, headers=auth(guest)).status_code == 200


def test_a_players_summary_says_whether_it_is_an_accounts() -> None:
    with client() as c:
        guest = identity(c)
        me = c.get("/api/me", headers=auth(guest)).json()["player"]
        assert me["account"] is False
        token, _key = _account(c)
        mine = c.get("/api/me", headers=auth(token)).json()["player"]
        assert mine["account"] is True
        page = c.get(f"/api/players/{mine['id']}").json()["player"]
        assert page["account"] is True
        assert c.get(f"/api/players/{me['id']}").json()["player"]["account"] is False
