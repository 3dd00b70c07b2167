"""Chouette views on the wire (docs/bot-protocol.md, chouette): each role's JSON holds only
the cards that role may see (docs/rules.md §8)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.helpers import random_table
from engine.test_chouette import LOSER, NON_DEALER_GIN, WINNER, play
from ginrummy.engine import ActionKind, ForfeitReason, Phase, Rules, parse_action, parse_cards
from ginrummy.engine.cards import Card, from_mask
from ginrummy.engine.chouette import (
    BOX,
    TEAM,
    ChouetteTable,
    Deal,
    Forfeit,
    NextMatch,
    TablePhase,
    apply,
    new_table,
    next_captain,
)
from ginrummy.engine.chouette_views import view_for_player, view_for_table_spectator
from ginrummy.protocol import (
    encode_chouette_spectator_view,
    encode_player_view,
    encode_seat_view,
    encode_spectator_view,
    parse_json,
    to_json,
)

CARD = re.compile(r"\b([2-9TJQKA][cdhs])\b")
PUBLIC = frozenset({"rounds", "rules", "drawn"})  # finished rounds, the seat draw


def cards_on_wire(data: Any, skip: frozenset[str] = PUBLIC) -> set[Card]:
    """Every card text anywhere in the JSON (in action texts too), but under ``skip``."""
    out: set[Card] = set()
    if isinstance(data, str):
        for text in CARD.findall(data):
            out.update(parse_cards(text))
    elif isinstance(data, list):
        for item in data:
            out |= cards_on_wire(item, skip)
    elif isinstance(data, dict):
        for key, value in data.items():
            if key not in skip:
                out |= cards_on_wire(value, skip)
    return out


def test_the_card_finder_finds_cards_in_texts_and_skips_public_fields() -> None:
    data = {"a": ["discard Qs", {"b": "Th"}], "drawn": ["Ks"], "rounds": ["2c"], "x": "take"}
    assert cards_on_wire(data) == set(parse_cards("Qs Th"))


def _hidden(table: ChouetteTable) -> tuple[set[Card], set[Card], set[Card]]:
    """(stock, the box's hidden cards, the team's hidden cards) of the round under way;
    a knock discard nobody saw face up counts as the knocker's."""
    rnd = table.match.round
    if rnd is None:
        return set(), set(), set()
    stock = set(rnd.stock)
    if rnd.phase is Phase.OVER:
        hidden = {BOX: set[Card](), TEAM: set[Card]()}
    else:
        hidden = {s: set(from_mask(rnd.hands[s] & ~rnd.known[s])) for s in (BOX, TEAM)}
    kd = rnd.knock_discard
    if kd is not None and rnd.result is not None and rnd.result.knocker is not None:
        seen = {a.card for _, a in rnd.history if a.kind is ActionKind.DISCARD}
        if kd not in seen and kd is not rnd.first_upcard:
            hidden[rnd.result.knocker].add(kd)
    return stock, hidden[BOX], hidden[TEAM]


def check_wire(table: ChouetteTable) -> None:
    stock, box_hidden, team_hidden = _hidden(table)
    for p in range(table.players):
        view = view_for_player(table, p)
        data = encode_player_view(view)
        assert parse_json(to_json(data)) == data  # strict JSON, and it round-trips
        seen = cards_on_wire(data)
        assert not seen & stock
        assert data["position"] == p and data["role"] == view.role.value
        if p == table.box:
            # the box: no card of the team's hand, no stock card
            assert not seen & team_hidden, sorted(seen & team_hidden)
            assert data["view"] == encode_seat_view(view.seat)
        else:
            # captain and partners: the captain's hand, nothing of the box's
            assert not seen & box_hidden, sorted(seen & box_hidden)
            assert data["view"]["hand"] == [str(c) for c in view.seat.hand]
    spectator = encode_chouette_spectator_view(view_for_table_spectator(table))
    assert not cards_on_wire(spectator) & (stock | box_hidden | team_hidden)
    assert spectator["view"] == encode_spectator_view(view_for_table_spectator(table).match)
    check_next_captain(table, spectator["chouette"])


def check_next_captain(table: ChouetteTable, info: dict[str, Any]) -> None:
    """The next captain on the wire is the engine's: in a match, the first team member
    after the captain in the cyclic order who is not absent (the browser computes none)."""
    nxt = info["next_captain"]
    assert nxt == next_captain(table) and nxt in info["order"]
    if table.phase is TablePhase.MATCH:
        order, i = info["order"], info["order"].index(info["captain"])
        ring = order[i + 1 :] + order[: i + 1]  # the others in turn, the captain last
        present = [m for m in ring if m not in info["absent"]]
        assert nxt == (present[0] if present else ring[0])


@settings(max_examples=12, deadline=None)
@given(st.integers(3, 5), st.integers(0, 2**32 - 1))
def test_random_tables_send_no_role_a_card_it_may_not_see(players: int, seed: int) -> None:
    rng = random.Random(seed)
    rules = rng.choice([Rules(target_score=40), Rules.preset("oklahoma", target_score=30)])
    for i, table in enumerate(random_table(rules, rng, players, max_rounds=6)):
        if i % 3 == 0 or table.match.round is None or table.match.round.phase is Phase.OVER:
            check_wire(table)


DRAWN = parse_cards("Kh Kd Kc Ks")  # box 3 (Ks); team 0 (captain), 1, 2


def test_the_json_of_each_role() -> None:
    table = apply(new_table(Rules(), DRAWN), Deal(NON_DEALER_GIN[0]))
    table = apply(table, parse_action("pass"))  # the box passes the upcard: the captain's turn
    box, captain, partner = (encode_player_view(view_for_player(table, p)) for p in (3, 0, 1))
    assert box["chouette"] == captain["chouette"] == partner["chouette"]
    info = box["chouette"]
    assert info == {
        "players": 4,
        "drawn": ["Kh", "Kd", "Kc", "Ks"],
        "phase": "match",
        "number": 1,
        "box": 3,
        "order": [0, 1, 2],
        "captain": 0,
        "next_captain": 1,
        "captains": [0],
        "absent": [],
        "ledger": [0, 0, 0, 0],
        "settlements": [],
        "turn": 0,
        "seats": {"box": "one", "team": "two"},
    }
    assert (box["role"], captain["role"], partner["role"]) == ("box", "captain", "partner")
    assert (box["view"]["seat"], captain["view"]["seat"]) == ("one", "two")
    assert box["view"]["hand"] == [str(c) for c in sorted(parse_cards(WINNER))]
    assert captain["view"]["hand"] == [str(c) for c in sorted(parse_cards(LOSER))]
    assert captain["view"]["legal_actions"] == ["take", "pass"]
    assert captain["advice"] == box["advice"] == [] and box["view"]["legal_actions"] == []
    # the partner watches the captain's hand and may advise on the captain's options
    assert partner["view"]["hand"] == captain["view"]["hand"]
    assert partner["view"]["legal_actions"] == [] and partner["advice"] == ["take", "pass"]
    spectator = encode_chouette_spectator_view(view_for_table_spectator(table))
    assert (spectator["position"], spectator["role"], spectator["advice"]) == (None, None, [])
    assert spectator["view"]["hand"] == [] and spectator["chouette"] == info


def test_settlements_and_the_ledger_go_on_the_wire() -> None:
    table = play(new_table(Rules(target_score=30), DRAWN), *NON_DEALER_GIN)  # the box gins: 30
    info = encode_player_view(view_for_player(table, 2))["chouette"]
    assert info["phase"] == "settled" and info["turn"] is None
    [s] = info["settlements"]
    assert (s["number"], s["box"], s["team"]) == (1, 3, [0, 1, 2])
    assert s["result"]["winner"] == "one" and s["result"]["forfeit"] is None
    assert s["value"] == s["result"]["totals"]["one"] - s["result"]["totals"]["two"] > 0
    v = s["value"]
    assert s["changes"] == info["ledger"] == [-v, -v, -v, 3 * v]
    table = apply(table, NextMatch())
    table = apply(table, Deal(NON_DEALER_GIN[0]))
    table = apply(table, Forfeit(table.box, ForfeitReason.TIMEOUT))
    info = encode_chouette_spectator_view(view_for_table_spectator(table))["chouette"]
    assert [s["number"] for s in info["settlements"]] == [1, 2]
    assert info["settlements"][1]["result"]["forfeit"] == "timeout"
    assert info["settlements"][1]["result"]["forfeited_by"] == "one"
    assert sum(info["ledger"]) == 0 and info["number"] == 2


def test_docs_bot_protocol_lists_every_field() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs/bot-protocol.md").read_text()
    section = docs[docs.index("### A chouette player's view") :]
    rows = set(re.findall(r"^\| `([\w.]+)` \|", section, flags=re.MULTILINE))
    table = apply(new_table(Rules(), DRAWN), Deal(NON_DEALER_GIN[0]))
    data = encode_player_view(view_for_player(table, 1))
    expected = {k for k in data if k != "chouette"} | {f"chouette.{k}" for k in data["chouette"]}
    assert rows == expected
