"""The event log is the truth: rebuilding from it (also from its stored form) gives
the live state, and logs that cannot be folded are refused."""

from __future__ import annotations

import json

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from ginrummy.tournament import (
    Entrant,
    Finished,
    FinishReason,
    Joined,
    Left,
    LogError,
    Settings,
    TournamentError,
    from_record,
    join,
    leave,
    rebuild,
    record_result,
    start,
    to_record,
)
from ginrummy.tournament.state import Phase

from .helpers import Run, opened, play_drawn


def _pre_start(data, run: Run, size: int) -> None:
    """Joins and leaves in a random order, some of them refused."""
    pool = [Entrant(f"p{k}", f"P{k}", data.draw(st.integers(1000, 2000))) for k in range(size + 2)]
    for step in range(data.draw(st.integers(2, 4 * size))):
        who = data.draw(st.sampled_from(pool))
        command = data.draw(st.sampled_from(["join", "join", "join", "leave"]))
        try:
            if command == "join":
                run.do(join(run.state, who, at=step))
            else:
                run.do(leave(run.state, who.id, at=step))
        except TournamentError:
            pass  # a refusal adds nothing to the log
    if run.state.phase is Phase.OPEN and len(run.state.players) >= 4:
        run.do(start(run.state, at=100, by="host"))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_rebuilding_from_the_log_gives_the_live_state(data):
    fmt = data.draw(st.sampled_from(["knockout", "swiss"]))
    size = data.draw(st.integers(4, 12))
    options = {"third_place": data.draw(st.booleans())} if fmt == "knockout" else {}
    run = opened(Settings("Cup", fmt, size, **options), creator="host")
    _pre_start(data, run, size)
    play_drawn(data, run)
    event(f"{fmt}: {run.state.phase.value}, {len(run.state.rounds)} rounds")
    assert rebuild(run.log) == run.state
    assert run.state.version == len(run.log)
    stored = [json.loads(json.dumps(to_record(e))) for e in run.log]
    assert [from_record(kind, payload) for kind, payload in stored] == run.log
    assert rebuild(from_record(kind, payload) for kind, payload in stored) == run.state


def test_the_log_must_start_with_created():
    with pytest.raises(LogError, match="not Created"):
        rebuild([Left("p1", at=0)])
    with pytest.raises(LogError, match="empty log"):
        rebuild([])


def test_a_second_created_event_is_refused():
    run = opened(Settings("Cup", "swiss", 4))
    with pytest.raises(LogError, match="second Created"):
        rebuild([*run.log, run.log[0]])


def test_a_result_outside_the_current_round_is_refused():
    run = opened(Settings("Cup", "knockout", 4))
    for k in range(1, 5):
        run.do(join(run.state, Entrant(f"p{k}", f"P{k}", 1500), at=1))
    result = record_result(run.state, "1.1", "p1", (100, 0), at=2)[0]
    stale = run.log[:-2]  # before the first round was paired
    with pytest.raises(LogError, match="not a match of the current round"):
        rebuild([*stale, result])


@pytest.mark.parametrize(
    ("kind", "payload", "message"),
    [
        ("promoted", {}, "unknown tournament event kind"),
        ("left", {"at": 1}, "malformed left event"),
        ("finished", {"reason": "bored", "at": 1}, "malformed finished event"),
        (
            "created",
            {"settings": {"name": "x", "format": "x", "max_players": 8}, "creator": "a", "at": 0},
            "malformed created event",
        ),
    ],
)
def test_malformed_records_are_refused(kind, payload, message):
    with pytest.raises(LogError, match=message):
        from_record(kind, payload)


def test_records_are_plain_json():
    kind, payload = to_record(Finished(FinishReason.CANCELLED, at=7.5))
    assert (kind, payload) == ("finished", {"reason": "cancelled", "at": 7.5})
    kind, payload = to_record(Joined(Entrant("p1", "Ann", 1612.5, None), at=1))
    assert payload == {
        "entrant": {"id": "p1", "name": "Ann", "rating": 1612.5, "computer": None},
        "at": 1,
    }
