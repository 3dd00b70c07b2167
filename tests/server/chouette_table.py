"""A chouette table played through real sockets in the tests: one socket per person,
every frame each of them received kept (for the sniffer), and a player that makes a
plain legal choice for the person to move."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession

from .helpers import Message, auth, identity, receive, simple_choice


def open_table(c: TestClient, seats: list[str], **body: Any) -> tuple[str, str]:
    """A new chouette room with ``seats``; its id and the creator's token."""
    token = identity(c)
    r = c.post("/api/chouette", json={"seats": seats, **body}, headers=auth(token))
    assert r.status_code == 201, r.text
    assert r.json()["invite_path"] == f"/c/{r.json()['room']}"
    return r.json()["room"], token


def join(c: TestClient, room: str) -> tuple[str, int]:
    token = identity(c)
    r = c.post(f"/api/chouette/{room}/join", json={}, headers=auth(token))
    assert r.status_code == 200, r.text
    return token, r.json()["position"]


def join_all(c: TestClient, room: str, token: str, count: int) -> dict[int, str]:
    """The tokens by position: the creator's, then of ``count`` people who join."""
    tokens = {0: token}
    for _ in range(count):
        joined, position = join(c, room)
        tokens[position] = joined
    return tokens


@contextmanager
def creator_table(c: TestClient, room: str, token: str) -> Iterator[Table]:
    """A ``Table`` with one socket: the creator's, at position 0."""
    with c.websocket_connect("/ws") as ws:
        table = Table(room)
        table.sit(0, ws, token)
        yield table


def chouette_hello(ws: WebSocketTestSession, room: str, token: str | None) -> list[Message]:
    """Say hello: the welcome, the view, the chat history (and the team's)."""
    ws.send_json({"type": "hello", "room": room, "token": token})
    first = [receive(ws), receive(ws), receive(ws)]
    assert [m["type"] for m in first] == ["welcome", "view", "chat_history"], first
    if first[1]["view"]["role"] in ("captain", "partner"):
        first.append(receive(ws))
        assert first[-1]["type"] == "team_chat_history", first[-1]
    return first


class Table:
    """The sockets of a table's people (position -> socket) and spectators, and every
    frame each received."""

    def __init__(self, room: str) -> None:
        self.room = room
        self.sockets: dict[Any, WebSocketTestSession] = {}
        self.frames: dict[Any, list[Message]] = {}
        self.latest: dict[Any, Message] = {}  # the last view frame of each socket

    def sit(self, key: Any, ws: WebSocketTestSession, token: str | None) -> None:
        self.sockets[key] = ws
        first = chouette_hello(ws, self.room, token)
        self.frames[key] = list(first)
        self.latest[key] = first[1]

    def read(self, key: Any) -> Message:
        msg = receive(self.sockets[key])
        self.frames[key].append(msg)
        if msg["type"] == "view":
            self.latest[key] = msg
        return msg

    def read_until(self, key: Any, pred: Callable[[Message], bool], limit: int = 2000) -> Message:
        """Read ``key``'s frames until a view for which ``pred`` holds."""
        if pred(self.latest[key]):
            return self.latest[key]
        for _ in range(limit):
            msg = self.read(key)
            if msg["type"] == "view" and pred(msg):
                return msg
        raise AssertionError("the expected view never came")

    def read_until_frame(self, key: Any, pred: Callable[[Message], bool]) -> Message:
        """Read ``key``'s frames until one for which ``pred`` holds."""
        for _ in range(2000):
            msg = self.read(key)
            if pred(msg):
                return msg
        raise AssertionError("the expected frame never came")

    def catch_up(self, key: Any, version: int) -> Message:
        return self.read_until(key, lambda m: m["version"] >= version)


def people_wait(view: Message, people: set[int]) -> bool:
    """Nothing moves until one of ``people`` does: a person's turn, a round or match
    over that waits for a person."""
    info = view["view"]["chouette"]
    players = view["players"]
    if any(p is None for p in players):
        return True
    if info["phase"] == "settled":
        return True
    table = view["view"]["view"]["table"]
    if table["match_phase"] == "deal" and table["rounds"]:
        return any(p in people and not players[p]["ready"] for p in (info["box"], info["captain"]))
    return info["turn"] in people


def advise(table: Table, people: set[int], view: Message) -> None:
    """Each person who is a partner advises the captain (on the view of ``view``'s
    version) with their first option; the captain receives each advice, named."""
    info, version = view["view"]["chouette"], view["version"]
    captain = info["captain"]
    for partner in [p for p in info["order"] if p != captain and p in people]:
        options = table.catch_up(partner, version)["view"]["advice"]
        ws = table.sockets[partner]
        ws.send_json({"type": "advice", "version": version, "action": options[0]})
        if captain in people:
            got = table.read_until_frame(captain, lambda m: m["type"] == "advice")
            assert got["from"]["position"] == partner and got["action"] == options[0]
            assert got["version"] == version and got["card"] is None
            assert got["from"]["name"] == table.latest[captain]["players"][partner]["name"]


def step(
    table: Table, observer: Any, people: set[int], after: int, advice: bool = False
) -> Message:
    """Wait (on ``observer``'s socket) for the first state past version ``after`` in
    which a person must act; let that person act (a plain choice, or ready), after
    the partners' advice if ``advice``. Answers that state's view; a settled table is
    left as it is."""
    view = table.read_until(observer, lambda m: m["version"] > after and people_wait(m, people))
    info = view["view"]["chouette"]
    version = view["version"]
    if info["phase"] == "settled":
        return view
    match_view = view["view"]["view"]
    if match_view["table"]["match_phase"] == "deal":
        for p in (info["box"], info["captain"]):
            if p in people and not view["players"][p]["ready"]:
                table.catch_up(p, version)
                table.sockets[p].send_json({"type": "next_round"})
                return view
        raise AssertionError("between rounds with nobody to wait for")
    mover = info["turn"]
    if advice and mover == info["captain"]:
        advise(table, people, view)
    own = table.catch_up(mover, version)
    seat_view = own["view"]["view"]
    table.sockets[mover].send_json(
        {"type": "act", "version": version, "action": simple_choice(seat_view)}
    )
    return view


def play_match(
    table: Table, observer: Any, people: set[int], after: int = 0, advice: bool = False
) -> Message:
    """Play until the current match is settled; its view."""
    version = after
    for _ in range(5000):
        view = step(table, observer, people, version, advice)
        if view["view"]["chouette"]["phase"] == "settled":
            return view
        version = view["version"]
    raise AssertionError("the match never ended")


def fix_draw(monkeypatch: Any, cards: str) -> None:
    """The seat draw of the tables opened next: ``cards``, one per position."""
    from ginrummy.engine import parse_cards
    from ginrummy.server.chouette import room as chouette_room

    monkeypatch.setattr(chouette_room, "draw_seat_cards", lambda rng, n: parse_cards(cards)[:n])


def _next_present(order: list[int], captain: int, absent: list[int]) -> int:
    i = order.index(captain)
    ring = order[i + 1 :] + order[: i + 1]
    return next((m for m in ring if m not in absent), ring[0])


class RotationCheck:
    """Checks docs/rules.md §8 on the views one socket received, in order: a round the
    box scores passes the captaincy on, any other keeps it; the next match's box, first
    opponent and order; the first opponent deals. Counts what it checked."""

    def __init__(self) -> None:
        self.last: Message | None = None
        self.matches: dict[int, tuple[int, list[int]]] = {}  # number -> box, captains
        self.passed = self.kept = self.box_stayed = self.box_changed = 0

    @property
    def played(self) -> dict[int, int]:
        """Each position's last round played (box or captain), counted over the table."""
        played: dict[int, int] = {}
        rounds = 0
        for number in sorted(self.matches):
            box, captains = self.matches[number]
            for captain in captains:
                rounds += 1
                played[box] = played[captain] = rounds
        return played

    def see(self, view: Message) -> None:
        last, self.last = self.last, view
        info, table = view["view"]["chouette"], view["view"]["view"]["table"]
        self.matches[info["number"]] = (info["box"], info["captains"])
        if table["round"] == 1 and table["match_phase"] == "round":
            assert table["dealer"] == "two", "the first opponent deals the match's first round"
        if last is None or last["version"] >= view["version"]:
            return
        before, old = last["view"]["chouette"], last["view"]["view"]["table"]
        if info["number"] != before["number"]:
            self._next_match(before, info)
        elif len(table["rounds"]) == len(old["rounds"]) + 1 and info["phase"] == "match":
            winner = table["rounds"][-1]["result"]["winner"]
            if winner == "one":
                expected = _next_present(before["order"], before["captain"], before["absent"])
                assert info["captain"] == expected, (before, info)
                self.passed += 1
            else:
                assert info["captain"] == before["captain"], (before, info)
                self.kept += 1

    def _next_match(self, before: dict[str, Any], info: dict[str, Any]) -> None:
        winner = before["settlements"][-1]["result"]["winner"]
        order, box, captain = before["order"], before["box"], before["captain"]
        if winner == "one":
            assert info["box"] == box and info["order"] == order
            present = [m for m in order if m not in before["absent"]] or order
            played = self.played
            oldest = min(present, key=lambda m: played.get(m, 0))
            assert info["captain"] == oldest, (before, info, self.played)
            self.box_stayed += 1
        else:
            assert info["box"] == captain
            i = order.index(captain)
            others = order[i + 1 :] + order[:i]
            present = [m for m in others if m not in before["absent"]]
            first = present[-1] if present else others[-1]
            j = others.index(first)
            assert info["order"] == [*others[j:], *others[:j], box], (before, info)
            assert info["captain"] == first
            self.box_changed += 1


def next_match(table: Table, observer: Any, people: set[int], settled: Message) -> Message:
    """Everyone wants the next match; the first view of its first round."""
    number = settled["view"]["chouette"]["number"]
    for p in sorted(people):
        table.catch_up(p, settled["version"])
        table.sockets[p].send_json({"type": "next_match"})
    return table.read_until(
        observer,
        lambda m: (
            m["view"]["chouette"]["number"] == number + 1
            and m["view"]["view"]["table"]["match_phase"] == "round"
        ),
    )
