"""What a seat knows, read from its view; a reader that goes on from the moves it read."""

from __future__ import annotations

from itertools import chain, zip_longest

from ginrummy.bots.knowledge import Reader, read
from ginrummy.engine import Rules, Seat, SeatView, view_for_seat

from .helpers import positions


def views(seed: int, rules: Rules | None = None) -> list[SeatView]:
    """Both seats' views at every decision of one match."""
    return [view_for_seat(m, seat) for m in positions(seed, "strong", rules) for seat in Seat]


def test_a_reader_reads_what_read_reads_in_order():
    reader = Reader()
    for view in views(1) + views(2, Rules.preset("oklahoma")):
        assert reader.read(view) == read(view)


def test_a_reader_shared_by_two_matches_at_once_still_reads_each_right():
    # Interleaved matches (as a level's player serves several rooms): a seat's moves
    # are no longer a continuation of the last ones read, and the replay starts over.
    reader = Reader()
    mixed = [v for v in chain(*zip_longest(views(3), views(4))) if v is not None]
    for view in mixed:
        assert reader.read(view) == read(view)
    # and reading an earlier view again (a shorter, unrelated history) is right too
    early, late = views(5)[4], views(5)[40]
    assert (reader.read(late), reader.read(early)) == (read(late), read(early))
