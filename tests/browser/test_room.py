"""Two browsers in one room by the invite link, a third one watching; reloads; and no
WebSocket frame ever carries a card its receiver may not see."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import DE, EN, actionable, decide, hand_cards, status
from .public import my_turn
from .test_solo import start_solo

pytestmark = pytest.mark.browser

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
DECK = {r + s for r in "A23456789TJQK" for s in "cdhs"}


def record_frames(page: Any, sink: list[dict[str, Any]]) -> None:
    def on_ws(ws: Any) -> None:
        ws.on("framereceived", lambda payload: sink.append(json.loads(payload)))

    page.on("websocket", on_ws)


def cards_in(obj: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(obj, str):
        for token in obj.split():
            if CARD.match(token):
                found.add(token)
    elif isinstance(obj, list):
        for item in obj:
            found |= cards_in(item)
    elif isinstance(obj, dict):
        for item in obj.values():
            found |= cards_in(item)
    return found


def visible_parts(frame: dict[str, Any]) -> Any:
    """What a frame says about the running round (finished rounds are public)."""
    if frame["type"] != "view":
        return {k: v for k, v in frame.items() if k != "room"}
    view = frame["view"]
    past = ("rounds", "result", "match_result")
    table = {k: v for k, v in view["table"].items() if k not in past}
    return {**{k: v for k, v in view.items() if k != "table"}, "table": table}


def check_privacy(frames: dict[str, list[dict[str, Any]]], seats: dict[str, str]) -> int:
    """Every frame, against both hands at its version. Returns how many were checked."""
    hands: dict[int, dict[str, set[str]]] = {}
    running: dict[int, bool] = {}
    piles: dict[int, set[str]] = {}
    known: dict[int, dict[str, set[str]]] = {}
    for who, seat in seats.items():
        if seat is None:
            continue
        for f in frames[who]:
            if f["type"] != "view":
                continue
            v, view = f["version"], f["view"]
            table = view["table"]
            hands.setdefault(f["version"], {})[seat] = set(view["hand"])
            running[v] = table["match_phase"] == "round" and table["round_phase"] != "over"
            piles[v] = set(table["discard_pile"])
            known[v] = {s: set(c) for s, c in table["known"].items()}
            assert len(view["hand"]) == table["hand_sizes"][seat]
    checked = 0
    for who, frame_list in frames.items():
        seat = seats.get(who)
        for f in frame_list:
            v = f.get("version")
            if not isinstance(v, int) or not running.get(v) or len(hands.get(v, {})) < 2:
                continue
            both = hands[v]
            assert not (both["one"] & both["two"])
            stock = DECK - both["one"] - both["two"] - piles[v]
            forbidden = set(stock)
            for s in ("one", "two"):
                if s != seat:
                    forbidden |= both[s] - known[v][s]
            leaked = cards_in(visible_parts(f)) & forbidden
            assert not leaked, f"{who} (seat {seat}) saw {leaked} at version {v}: {f['type']}"
            if f["type"] == "view" and seat is None:
                assert f["view"]["hand"] == []
            checked += 1
    return checked


def test_room_by_invite_link_with_spectator_reloads_and_no_hidden_cards(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    frames: dict[str, list[dict[str, Any]]] = {"ann": [], "bob": [], "eve": []}
    ann = new_page()
    record_frames(ann, frames["ann"])
    ann.goto(server.url + "/")
    ann.get_by_role("textbox", name="Your name").fill("Ann")
    ann.get_by_role("button", name="Open a room").click()
    invite = ann.get_by_role("textbox", name="Invite link")
    expect(invite).to_have_value(re.compile(r"/r/[\w-]+"))
    ann.context.grant_permissions(["clipboard-read", "clipboard-write"])
    ann.get_by_role("button", name="Copy invite link").click()
    expect(ann.get_by_role("log", name="Announcements")).to_contain_text("Invite link copied.")
    expect(status(ann)).to_contain_text("Waiting for a second player")
    ann.screenshot(path=str(artifacts / "room-invite.png"), full_page=True)
    link = invite.input_value()

    bob = new_page()
    record_frames(bob, frames["bob"])
    bob.goto(link)
    invited = bob.get_by_role("heading", name="You are invited to a game of Gin Rummy")
    expect(invited).to_be_visible()
    expect(bob.get_by_role("textbox", name="Your name")).not_to_have_value("")
    bob.get_by_role("textbox", name="Your name").fill("Bob")
    bob.get_by_role("button", name="Take the seat").click()
    expect(bob.get_by_role("group", name="Your hand").get_by_role("button")).to_have_count(10)
    expect(ann.get_by_role("group", name="Your hand").get_by_role("button")).to_have_count(10)
    expect(ann.get_by_role("log", name="Announcements")).to_contain_text("Bob has joined.")

    eve = new_page()
    record_frames(eve, frames["eve"])
    eve.goto(link)
    expect(status(eve)).to_contain_text("You are watching.")
    expect(eve.get_by_role("group", name="Your hand")).to_have_count(0)
    expect(eve.get_by_role("button", name="Draw from stock")).to_have_count(0)
    eve.screenshot(path=str(artifacts / "spectator.png"), full_page=True)

    rng = random.Random(11)
    players = [ann, bob]
    moves = 0
    reloaded = False
    pattern = actionable(EN)
    while True:
        acted = False
        for page in players:
            text = status(page).inner_text()
            if not pattern.search(text):
                continue
            if "Next round" in text or "match is over" in text:
                continue
            decide(page, rng, knock=moves > 12)
            moves += 1
            acted = True
        if moves >= 8 and not reloaded:
            # Reload mid-round in both seats: each comes back to its seat with its hand.
            for page in players:
                expect(status(page)).not_to_contain_text("on its way")
            for _ in range(100):
                if any(EN.your_turn in status(p).inner_text() for p in players):
                    break
                ann.wait_for_timeout(50)
            before = {id(p): sorted(hand_cards(p)) for p in players}
            for page in players:
                page.reload()
            for page in players:
                expect(status(page)).to_contain_text(re.compile("turn"))
                assert sorted(hand_cards(page)) == before[id(page)]
            reloaded = True
        texts = [status(p).inner_text() for p in players]
        if any("Next round" in x or "match is over" in x for x in texts):
            break
        if not acted:
            ann.wait_for_timeout(50)
        assert moves < 400
    # The round is over for everyone, spectator included.
    expect(eve.get_by_role("heading", name=re.compile(r"Round 1: result"))).to_be_visible()
    eve.screenshot(path=str(artifacts / "spectator-round-end.png"), full_page=True)
    expect(ann.get_by_role("button", name="Next round")).to_be_visible()
    ann.screenshot(path=str(artifacts / "round-end-seat.png"), full_page=True)
    checked = check_privacy(frames, {"ann": "one", "bob": "two", "eve": None})  # type: ignore[dict-item]
    assert checked > 30
    for page in (ann, bob, eve):
        assert not page.errors


def test_a_later_visitor_sees_the_room_or_a_clear_message(server: Any, new_page: Any) -> None:
    host = new_page()
    host.goto(server.url + "/")
    region = host.get_by_role("region", name="Play with a friend")
    region.get_by_role("combobox", name="Second seat").select_option(label="Computer: Casual")
    host.get_by_role("button", name="Open a room").click()
    expect(host.get_by_role("group", name="Your hand")).to_be_visible()
    link = host.get_by_role("textbox", name="Invite link").input_value()
    visitor = new_page(locale="de-DE")
    visitor.goto(link)
    expect(status(visitor, DE)).to_contain_text("Du schaust zu.")
    expect(visitor.get_by_role("log", name="Ansagen")).to_contain_text(
        "Beide Plätze in diesem Raum sind besetzt."
    )


def test_a_finished_room_match_offers_its_record_for_download(server: Any, new_page: Any) -> None:
    """As a device game does: once the match is over (here by resigning), its record,
    public from then on (docs/fairness.md), is a download at the table; not before."""
    page = new_page()
    start_solo(page, server.url, verified=True)
    download = page.get_by_role("link", name="Download the match record")
    expect(page.get_by_role("group", name="Your hand")).to_be_visible()
    # Resigned in the first round the person decides in (the computer may end one first).
    rounds = 1 + my_turn(page)
    expect(download).to_have_count(0)
    page.get_by_role("button", name="Resign", exact=True).click()
    page.get_by_role("alertdialog").get_by_role("button", name="Yes, resign").click()
    expect(status(page)).to_contain_text(EN.match_over)
    with page.expect_download() as event:
        download.click()
    record = json.loads(Path(event.value.path()).read_text())
    assert record["kind"] == "match"
    assert len(record["rounds"]) == rounds
    fair = record["rounds"][0]["fair"]
    assert re.fullmatch(r"[0-9a-f]{64}", fair["server_seed"]), fair
    assert set(record["rounds"][0]["deck"].split()) == DECK
    assert not page.errors
