"""Socket counts of one room on this instance and on the others, without a bus."""

from __future__ import annotations

from ginrummy.engine import Seat
from ginrummy.server.room.presence import Presence


def test_counts_here_and_on_other_live_instances() -> None:
    here = Presence("r1", "i_here")
    assert here.connect(Seat.ONE) and not here.connect(Seat.ONE)  # the first socket tells
    notice = {"kind": "presence", "instance": "i_other", "online": {"one": 0, "two": 2}}
    assert here.take({**notice, "watchers": 3, "ttl": 60})
    assert (here.anywhere(Seat.ONE), here.anywhere(Seat.TWO), here.watching) == (2, 2, 3)
    assert not here.take({**notice, "instance": "i_here", "ttl": 60})  # its own notice
    assert not here.take({"instance": "i_bad", "online": "many"})  # malformed: ignored
    assert here.take({**notice, "online": {"one": 0, "two": 0}, "ttl": 60})  # all gone
    assert here.anywhere(Seat.TWO) == 0 and here.remote == {}


def test_unrenewed_counts_expire() -> None:
    now = [100.0]
    here = Presence("r1", "i_here", monotonic=lambda: now[0])
    here.take({"instance": "i_dead", "online": {"one": 1, "two": 0}, "ttl": 10})
    now[0] += 9.9
    assert here.anywhere(Seat.ONE) == 1  # counted for its lifetime
    now[0] += 0.2
    assert here.anywhere(Seat.ONE) == 0  # no longer counted...
    assert here.expire() == ["i_dead"]  # ...and forgotten
    assert here.expire() == []


def test_a_notice_tells_this_instances_counts_or_zeros_when_gone() -> None:
    here = Presence("r1", "i_here")
    here.connect(Seat.TWO)
    here.watch(+1)
    told = here.notice(9, Seat.TWO, 15.0, renew=False, gone=False)
    assert told == {
        "kind": "presence",
        "version": 9,
        "seat": "two",
        "instance": "i_here",
        "online": {"one": 0, "two": 1},
        "watchers": 1,
        "ttl": 15.0,
        "renew": False,
    }
    gone = here.notice(9, None, 15.0, renew=False, gone=True)
    assert gone["online"] == {"one": 0, "two": 0} and gone["watchers"] == 0
    assert here.settled and here.has_sockets  # no settle time asked for: settled at once
