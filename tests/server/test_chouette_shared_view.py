"""A chouette room's view frames share what is the same for every socket (docs/protocol.md,
"Chouette rooms"): the table's public facts, the public part of the seat view and the
last public move are encoded once per version, a seat's own part once per match seat;
the frames built from them are exactly the views encoded whole, position by position."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.helpers import random_table
from ginrummy.engine import Rules
from ginrummy.engine.chouette_views import view_for_player, view_for_table_spectator
from ginrummy.protocol import encode_chouette_spectator_view, encode_player_view
from ginrummy.server.chouette import ChouetteRoom, presenter
from ginrummy.server.chouette.log import Snap
from ginrummy.server.chouette.presenter import SharedViews, VersionViews

from .chouette_table import open_table
from .helpers import client


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_views_from_the_shared_parts_equal_the_views_encoded_whole(seed: int) -> None:
    rng = random.Random(seed)
    for i, table in enumerate(random_table(Rules(target_score=40), rng, 3 + seed % 3, 4)):
        if i % 5:
            continue
        views = VersionViews(table)
        # Positions in a random order: whoever asks first, each gets their own view.
        for p in rng.sample(range(table.players), table.players):
            assert json.loads(views.text(p)) == encode_player_view(view_for_player(table, p))
        spectator = view_for_table_spectator(table)
        assert json.loads(views.text(None)) == encode_chouette_spectator_view(spectator)
        moves = spectator.match.moves
        assert views.last_move == (str(moves[-1]) if moves else None)


class Counted:
    """Counts the calls of the presenter's view functions."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = {"spectator": 0, "player": 0}
        for name, key in (("view_for_table_spectator", "spectator"), ("view_for_player", "player")):
            monkeypatch.setattr(presenter, name, self._counting(getattr(presenter, name), key))

    def _counting(self, f: Any, key: str) -> Any:
        def counted(*args: Any) -> Any:
            self.calls[key] += 1
            return f(*args)

        return counted


def test_each_version_is_encoded_once_whatever_the_number_of_sockets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counted = Counted(monkeypatch)
    shared = SharedViews()
    table = list(random_table(Rules(target_score=40), random.Random(7), 5, 2))[-1]
    snaps = [Snap(v, table) for v in (1, 2)]
    for snap in snaps * 3:  # three sockets at each of two versions: five positions, a spectator
        views = shared.of(snap)
        for p in (*range(table.players), None):
            views.text(p)
    # per version: the shared parts once, and the box's, the captain's, one partner's view
    assert counted.calls == {"spectator": 2, "player": 2 * 3}
    assert shared.of(snaps[0]) is shared.of(snaps[0])
    assert shared.of(Snap(1, table)) is not shared.of(snaps[0])  # another snapshot: anew
    for v in range(3, 3 + SharedViews.KEEP):  # only the latest few are kept
        shared.of(Snap(v, table))
    before = counted.calls["spectator"]
    shared.of(snaps[1])
    assert counted.calls["spectator"] == before + 1


def test_a_room_frames_every_socket_from_the_parts_of_its_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with client() as c:
        room_id, _ = open_table(c, ["me", "bot:casual", "bot:casual", "bot:casual"])
        room = c.portal.call(c.app.state.rooms.get_any, room_id)
        assert isinstance(room, ChouetteRoom)
        counted = Counted(monkeypatch)

        def frames() -> tuple[Snap, list[dict[str, Any]]]:
            snap = room.current  # read in the event loop: no move in between
            positions = [*range(room.players), None] * 2
            return snap, [json.loads(presenter.view_message(room, snap, p)) for p in positions]

        snap, sent = c.portal.call(frames)
        table = snap.table
        assert table is not None
        assert counted.calls["spectator"] == 1 and counted.calls["player"] <= 3
        for frame, p in zip(sent, [*range(room.players), None] * 2, strict=True):
            assert (frame["type"], frame["version"]) == ("view", snap.version)
            assert set(frame) == {"type", "version", "fair", "view", "players", "timer", "watchers"}
            whole = (
                encode_chouette_spectator_view(view_for_table_spectator(table))
                if p is None
                else encode_player_view(view_for_player(table, p))
            )
            assert frame["view"] == whole
