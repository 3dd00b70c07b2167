"""A whole match against the computer over the WebSocket, then its record and a rematch."""

from __future__ import annotations

from ginrummy.engine import MatchRecord, replay_match

from .helpers import Message, client, create, hello, identity, receive, simple_choice


def test_full_solo_match_against_the_computer() -> None:
    with client() as c:
        token = identity(c)
        room = create(
            c, token, kind="solo", preset="standard", target_score=50, opponent="bot:casual"
        )
        with c.websocket_connect("/ws") as ws:
            _, view = hello(ws, room, token)
            latest: Message = view
            events = 0
            for _ in range(20_000):
                v = latest["view"]
                table = v["table"]
                if table["match_phase"] == "over":
                    break
                if v["legal_actions"]:
                    action = simple_choice(v)
                    ws.send_json({"type": "act", "version": latest["version"], "action": action})
                elif (
                    table["match_phase"] == "deal"
                    and table["rounds"]
                    and not latest["players"]["one"]["ready"]
                ):
                    ws.send_json({"type": "next_round", "version": latest["version"]})
                msg = receive(ws)
                while msg["type"] != "view":
                    assert msg["type"] in ("event", "presence"), msg
                    events += msg["type"] == "event"
                    msg = receive(ws)
                assert msg["version"] > latest["version"]
                latest = msg
            table = latest["view"]["table"]
            assert table["match_phase"] == "over"
            result = table["match_result"]
            assert max(result["round_points"].values()) >= 50
            assert events > 10
            # Once over, the record (with the decks) may be read and replays.
            record = c.get(f"/api/rooms/{room}/record").json()
            assert record["kind"] == "match"
            assert len(record["rounds"]) == len(table["rounds"])
            replayed = replay_match(MatchRecord.from_dict(record))
            assert replayed.is_over
            assert replayed.scores.one == table["scores"]["one"]
            # A rematch: the computer always wants one, so it starts at once.
            ws.send_json({"type": "new_match", "version": latest["version"]})
            msg = receive(ws)
            while not (msg["type"] == "view" and msg["view"]["table"]["match_phase"] == "round"):
                msg = receive(ws)
            assert msg["view"]["table"]["rounds"] == []
            assert msg["view"]["table"]["scores"] == {"one": 0, "two": 0}
            # The new match's record is not public before it is over. The computer may
            # end it before the person acts (gin on the first upcard can score the 50
            # of the target): then its record is public, one round long and over.
            again = c.get(f"/api/rooms/{room}/record")
            if again.status_code == 200:
                fresh = MatchRecord.from_dict(again.json())
                assert len(fresh.rounds) == 1
                assert replay_match(fresh).is_over
            else:
                assert again.status_code == 403, again.text
