"""The page reads the chouette views the server's encoder writes (ginrummy.protocol.chouette,
docs/bot-protocol.md "Chouette"): random tables of 3 to 5, every role, folded by
web/js/chouette/state.js under Node. Each role gets its match seat and the names it should,
the box and the captain are offered exactly their legal actions, a partner nothing to play
and the captain's choices to advise on, a spectator nothing."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from engine.helpers import random_table
from ginrummy.engine import MatchPhase, Phase, Rules
from ginrummy.engine.chouette import ChouetteTable, next_captain
from ginrummy.engine.chouette_views import view_for_player, view_for_table_spectator
from ginrummy.protocol import encode_chouette_spectator_view, encode_player_view, to_json

SCRIPT = Path(__file__).resolve().parent / "chouette_wire.mjs"
NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve"]


def frames(table: ChouetteTable, version: int) -> list[tuple[int | None, dict[str, Any]]]:
    players = [
        {
            "name": NAMES[p],
            "bot": None,
            "connected": True,
            "ready": False,
            "next_match": False,
            "absent": p in table.absent,
            "grace_remaining_ms": None,
        }
        for p in range(table.players)
    ]
    views: list[tuple[int | None, Any]] = [
        (p, encode_player_view(view_for_player(table, p))) for p in range(table.players)
    ]
    views.append((None, encode_chouette_spectator_view(view_for_table_spectator(table))))
    return [
        (p, {"type": "view", "version": version, "view": v, "players": players, "timer": None})
        for p, v in views
    ]


def test_the_page_reads_every_role_of_random_tables(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    cases: list[tuple[ChouetteTable, int | None]] = []
    lines: list[str] = []
    for seed in range(6):
        rng = random.Random(seed)
        players = 3 + seed % 3
        for i, table in enumerate(random_table(Rules(target_score=40), rng, players, 5)):
            if i % 4:
                continue
            for p, frame in frames(table, i + 1):
                cases.append((table, p))
                lines.append(to_json(frame))
    assert len(lines) > 200
    path = tmp_path / "frames.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = subprocess.run(
        [node, str(SCRIPT), str(path)], capture_output=True, text=True, timeout=300, check=True
    )
    read = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(read) == len(cases)
    offered_somewhere = advised_somewhere = skipped_somewhere = 0
    for (table, p), page in zip(cases, read, strict=True):
        assert page["parts"] == parts(table)
        skipped_somewhere += absent_skipped(table)
        rnd = table.match.round
        running = table.match.phase is MatchPhase.ROUND and rnd is not None
        running = running and rnd.phase is not Phase.OVER
        if p is None:
            assert page["seat"] is None and page["hand"] == [] and page["offered"] == []
            assert page["between"] is None
            continue
        view = view_for_player(table, p)
        assert page["role"] == view.role.value
        assert page["seat"] == ("one" if p == table.box else "two")
        assert page["hand"] == [str(c) for c in view.seat.hand]
        assert page["plays"] == (p in (table.box, table.captain))
        # Seat one is the box, seat two the captain; "You" for one's own seat only.
        assert page["one"] == ("You" if p == table.box else NAMES[table.box])
        assert page["two"] == ("You" if p == table.captain else NAMES[table.captain])
        legal = [str(a) for a in view.seat.legal_actions]
        assert page["offered"] == (legal if running else [])
        assert page["advice"] == [str(a) for a in view.advice]
        if p not in (table.box, table.captain):
            assert page["offered"] == []
        offered_somewhere += bool(page["offered"])
        advised_somewhere += bool(page["advice"])
    assert offered_somewhere and advised_somewhere and skipped_somewhere


def parts(table: ChouetteTable) -> list[str]:
    """Each position's part as the page should name it: the next captain is the
    engine's, whom the page is told (an absent partner skipped)."""
    nxt = next_captain(table)
    names = {table.box: "Box", table.captain: "Captain"}
    if nxt not in names:
        names[nxt] = "Team (next captain)"
    return [names.get(p, "Team") for p in range(table.players)]


def absent_skipped(table: ChouetteTable) -> bool:
    """The member after the captain in the order is absent, so the next captain is not
    simply the next in the order (what the page once computed by itself)."""
    order = table.order
    after = order[(order.index(table.captain) + 1) % len(order)]
    return after in table.absent and next_captain(table) != after
