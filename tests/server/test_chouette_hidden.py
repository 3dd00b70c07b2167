"""No hidden card leaves the server toward a chouette player who may not see it
(docs/rules.md §8, "What each seat may know"): a frame sniffer over every socket of a
three- and a four-player table, checked against the room's own log.

The box never receives a card of the team's hand (beyond what the team took from the
pile in sight of all), nor advice or team chat (live or in the history a reload gets);
a partner receives the captain's hand and nothing else hidden; a spectator no hidden
card; nobody a card of the stock."""

from __future__ import annotations

import json
import re
from contextlib import ExitStack
from typing import Any

from ginrummy.engine.chouette import BOX, TEAM, ChouetteTable
from ginrummy.engine.views import view_for_seat
from ginrummy.server.chouette.log import Snap, fold_all

from .chouette_table import Message, Table, chouette_hello, join_all, open_table, play_match
from .helpers import client

SPECTATOR = "spectator"
TEAM_ONLY = ("advice", "team_chat", "team_chat_history")


def _tables(c: Any, room: str) -> dict[int, ChouetteTable]:
    """The table after each version, folded from the room's log in the store."""
    stored = c.portal.call(c.app.state.rooms.store.load_room, room)
    snaps = fold_all(Snap(0, None), stored.events)
    return {s.version: s.table for s in snaps if s.table is not None}


def _shown(frame: Message) -> str:
    """The frame's text without what is public by nature: the seat draw, and the
    revealed hands of the rounds before (their cards are dealt again later)."""
    frame = json.loads(json.dumps(frame))
    view = frame.get("view")
    if isinstance(view, dict) and "chouette" in view:
        view["chouette"].pop("drawn")
        view["view"]["table"].pop("rounds")
    return json.dumps(frame)


# A card as a word of its own: not a piece of an id, whose letters (``token_urlsafe``:
# letters, digits, "_" and "-") may spell one, as in "p_2h-xYz0a" (a player's id).
_WORD = "A-Za-z0-9_-"


def _cards_in(text: str, cards: set[str]) -> set[str]:
    return {card for card in cards if re.search(rf"(?<![{_WORD}]){card}(?![{_WORD}])", text)}


def test_a_card_is_found_as_a_word_and_never_in_an_id() -> None:
    text = '{"hand": ["2h", "Qs"], "say": "take 9d, then", "id": "p_5c-xYz0", "room": "a-Td_"}'
    assert _cards_in(text, {"2h", "Qs", "9d", "5c", "Td", "3s"}) == {"2h", "Qs", "9d"}


def _check(key: Any, frame: Message, tables: dict[int, ChouetteTable]) -> int:
    """Check one frame; 1 if it was a versioned frame checked against the table."""
    kind = frame["type"]
    table = tables.get(frame.get("version", -1))
    position = None if key == SPECTATOR else key
    if kind in TEAM_ONLY:
        assert position is not None, f"a spectator got {kind}"
        at = table or tables[max(tables)]
        assert position != at.box, f"the box got {kind}: {frame}"
        return 0
    if kind not in ("view", "event") or table is None or table.match.round is None:
        return 0
    rnd = table.match.round
    text = _shown(frame)
    stock = {str(c) for c in rnd.stock}
    assert not _cards_in(text, stock), f"stock cards {_cards_in(text, stock)} sent to {key}"
    over = table.match.phase.value != "round"
    box_view, team_view = view_for_seat(table.match, BOX), view_for_seat(table.match, TEAM)
    box_hand = {str(c) for c in box_view.hand} - {str(c) for c in team_view.table.known[BOX]}
    team_hand = {str(c) for c in team_view.hand} - {str(c) for c in box_view.table.known[TEAM]}
    if kind == "view":
        assert frame["view"]["position"] == position
    if over:
        return 1
    if position == table.box:
        leaked = _cards_in(text, team_hand)
        assert not leaked, f"the box got team cards {leaked}: {frame}"
    elif position is None:
        assert not _cards_in(text, box_hand | team_hand), f"hidden cards to a spectator: {frame}"
    else:
        leaked = _cards_in(text, box_hand)
        assert not leaked, f"team member {position} got box cards {leaked}"
        if kind == "view":
            assert sorted(frame["view"]["view"]["hand"]) == sorted(str(c) for c in team_view.hand)
    return 1


def _sniff(seats: list[str]) -> dict[str, int]:
    """Play one match of a table with advice and team chat, every person and one
    spectator connected, and check every frame every socket received."""
    with client() as c:
        room, token = open_table(c, seats, target_score=50)
        tokens = join_all(c, room, token, seats.count("friend"))
        people = set(tokens)
        table = Table(room)
        with ExitStack() as stack:
            for key, tok in [*sorted(tokens.items()), (SPECTATOR, None)]:
                table.sit(key, stack.enter_context(c.websocket_connect("/ws")), tok)
            info = table.latest[0]["view"]["chouette"]
            talker = next(p for p in info["order"] if p in people)
            table.sockets[talker].send_json({"type": "team_chat", "text": "we take the box"})
            listener = next((p for p in info["order"] if p in people and p != talker), talker)
            said = table.read_until_frame(listener, lambda m: m["type"] == "team_chat")
            assert said["message"]["text"] == "we take the box"
            for key, tok in [*sorted(tokens.items()), (SPECTATOR, None)]:  # reloads
                with c.websocket_connect("/ws") as again:
                    table.frames[key].extend(chouette_hello(again, room, tok))
            settled = play_match(table, 0, people, advice=True)
            assert settled["view"]["chouette"]["phase"] == "settled"
            for key in table.sockets:  # everything sent before the match ended
                table.catch_up(key, settled["version"])
        tables = _tables(c, room)
    frames = [(k, f) for k, fs in table.frames.items() for f in fs]
    for key in (info["box"], SPECTATOR):  # nor in any other frame (a history included)
        assert not [f for f in table.frames[key] if "we take the box" in json.dumps(f)]
    return {
        "checked": sum(_check(k, f, tables) for k, f in frames),
        "advice": sum(f["type"] == "advice" for _, f in frames),
        "team_chat": sum(f["type"] == "team_chat" for _, f in frames),
        "team_history": sum(
            f["type"] == "team_chat_history" and "we take the box" in json.dumps(f)
            for _, f in frames
        ),
    }


def test_three_players_each_socket_gets_only_what_its_role_may_see() -> None:
    seen = _sniff(["me", "friend", "friend"])
    assert seen["checked"] > 100 and seen["advice"] > 0 and seen["team_chat"] >= 1
    assert seen["team_history"] == 2  # the reloads of the two team members


def test_four_players_each_socket_gets_only_what_its_role_may_see() -> None:
    seen = _sniff(["me", "friend", "friend", "friend"])
    assert seen["checked"] > 100 and seen["advice"] > 0 and seen["team_chat"] >= 2
    assert seen["team_history"] == 3
