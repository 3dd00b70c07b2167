"""One name rule and one chat limit (protocol/limits.py), served by GET /api/config."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from ginrummy.protocol import limits

from .helpers import auth, client, create, identity

# What the rule refuses: too short, too long (code points), markup, control and
# bidirectional characters, symbols, a non-text.
REFUSED: list[object] = ["", " ", "A", "x" * 21, "<b>x</b>", "Ann\u202e", "a\tb\x00", "Ann!", 7]
# What it accepts, as stored: whitespace collapsed, NFC, letters of any script.
ACCEPTED = {
    "Ann": "Ann",
    "  Ann   Lee ": "Ann Lee",
    "Jörg_2.0-x": "Jörg_2.0-x",
    "Jo\u0308rg": "Jörg",
    "Алёна": "Алёна",
    "x" * 20: "x" * 20,
}


def test_config_serves_the_limits_and_phrases() -> None:
    with client() as c:
        body = c.get("/api/config").json()
    assert body == limits.config()
    assert body["limits"]["name"]["min"] == 2
    assert body["limits"]["name"]["max"] == 20
    assert body["limits"]["chat"] == {"max": 200}
    assert [p["key"] for p in body["phrases"]] == ["gg", "gl", "thanks", "nice"]
    assert body["phrases"][0]["text"] == {"de": "Gutes Spiel!", "en": "Good game!"}


@pytest.mark.parametrize("bad", REFUSED, ids=repr)
def test_every_name_path_refuses_what_the_rule_refuses(bad: object) -> None:
    with pytest.raises(limits.BadName):
        limits.clean_name(bad)
    with client() as c:
        ann, bob = identity(c), identity(c)
        room = create(c, ann, kind="room")
        for method, path, token in (
            ("POST", "/api/rooms", ann),
            ("POST", f"/api/rooms/{room}/join", bob),
            ("PUT", "/api/me", ann),
        ):
            r = c.request(method, path, json={"name": bad}, headers=auth(token))
            assert r.status_code == 400, (path, r.text)
            assert r.json()["error"]["code"] == "bad_name", path
        # The refused join took no seat.
        assert c.get(f"/api/rooms/{room}").json()["seats"]["two"] is None


@pytest.mark.parametrize(("typed", "stored"), ACCEPTED.items())
def test_every_name_path_stores_the_same_clean_name(typed: str, stored: str) -> None:
    with client() as c:
        ann, bob = identity(c), identity(c)
        room = create(c, ann, kind="room", name=typed)
        assert c.post(f"/api/rooms/{room}/join", json={"name": typed}, headers=auth(bob)).is_success
        seats = c.get(f"/api/rooms/{room}").json()["seats"]
        assert seats["one"]["name"] == seats["two"]["name"] == stored
        r = c.put("/api/me", json={"name": typed}, headers=auth(ann))
        assert r.json()["player"]["name"] == stored


def test_a_seat_without_a_name_takes_the_nickname() -> None:
    with client() as c:
        ann = identity(c)
        c.put("/api/me", json={"name": "Annette"}, headers=auth(ann))
        room = create(c, ann, kind="room")
        assert c.get(f"/api/rooms/{room}").json()["seats"]["one"]["name"] == "Annette"


def test_chat_rule() -> None:
    assert limits.clean_chat("  hi \n there ") == "hi there"
    assert limits.clean_chat("x" * limits.CHAT_MAX) == "x" * limits.CHAT_MAX
    for bad in ["", "   ", "x" * (limits.CHAT_MAX + 1), "a\u202eb", "a\x07b"]:
        with pytest.raises(limits.BadChat):
            limits.clean_chat(bad)


def test_the_served_pattern_agrees_with_the_server_rule() -> None:
    """The browser's check (the served JavaScript pattern) refuses exactly what we do."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    extra = ["Ann#1", "a_b", "ǅemal", "٣٤", "🙂🙂"]
    samples = [s for s in [*REFUSED, *ACCEPTED, *extra] if isinstance(s, str)]
    script = (
        "const [cfg, samples] = JSON.parse(process.argv[1]);"
        "const re = new RegExp(cfg.pattern, 'u');"
        "const clean = (s) => s.normalize('NFC').split(/\\s+/).filter(Boolean).join(' ');"
        "console.log(JSON.stringify(samples.map((s) => { const n = clean(s);"
        " const len = [...n].length; return len >= cfg.min && len <= cfg.max && re.test(n); })));"
    )
    arg = json.dumps([limits.config()["limits"]["name"], samples])
    done = subprocess.run(
        [node, "-e", script, arg], capture_output=True, text=True, timeout=30, check=True
    )

    def server_ok(s: str) -> bool:
        try:
            limits.clean_name(s)
        except limits.BadName:
            return False
        return True

    assert json.loads(done.stdout) == [server_ok(s) for s in samples]
