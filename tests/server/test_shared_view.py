"""The public part of a view is encoded once per version and shared by every socket:
it must be exactly what a spectator sees, and the frames built from it must equal the
views encoded whole, seat by seat."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from ginrummy.engine import (
    MatchPhase,
    MatchState,
    Rules,
    Seat,
    apply_match,
    deal,
    draw_first_dealer,
    legal_actions,
    new_match,
    shuffled_deck,
    view_for_seat,
    view_for_spectator,
)
from ginrummy.protocol import (
    encode_own_view,
    encode_public_view,
    encode_seat_view,
    encode_spectator_view,
    encode_view_frame,
    to_json,
)


def random_match(rng: random.Random, rounds: int) -> Iterator[MatchState]:
    """Every state of a seeded random match, for at most ``rounds`` deals."""
    match = new_match(Rules(), draw_first_dealer(rng))
    yield match
    while match.phase is not MatchPhase.OVER and len(match.rounds) < rounds:
        match = deal(match, shuffled_deck(rng))
        yield match
        while match.phase is MatchPhase.ROUND:
            assert match.round is not None
            match = apply_match(match, rng.choice(legal_actions(match.round)))
            yield match


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_frames_from_the_shared_part_equal_the_whole_views(seed: int) -> None:
    message = {"type": "view", "version": 7, "players": {"one": None}, "timer": None}
    for match in random_match(random.Random(seed), 3):
        spectator = view_for_spectator(match)
        public = to_json(encode_public_view(spectator))
        assert json.loads(public) == {
            k: v for k, v in encode_spectator_view(spectator).items() if k in ("table", "moves")
        }
        for seat in Seat:
            view = view_for_seat(match, seat)
            # The same shared text whichever viewer's view it was computed from.
            assert to_json(encode_public_view(view)) == public
            frame = json.loads(encode_view_frame(message, encode_own_view(view), public))
            assert frame == {**message, "view": encode_seat_view(view)}
        frame = json.loads(encode_view_frame(message, encode_own_view(None), public))
        assert frame == {**message, "view": encode_spectator_view(spectator)}


def test_the_shared_part_holds_no_card_of_a_hand_that_is_not_shown() -> None:
    for match in random_match(random.Random(5), 2):
        rnd = match.round
        if rnd is None or rnd.result is not None:
            continue  # a finished round's hands are shown to all
        spectator = view_for_spectator(match)
        public = json.loads(to_json(encode_public_view(spectator)))
        public["table"].pop("rounds")  # finished rounds show their (earlier) hands
        text = json.dumps(public)
        known = {str(c) for seat in Seat for c in spectator.table.known[seat]}
        for seat in Seat:
            hidden = {str(c) for c in view_for_seat(match, seat).hand} - known
            assert not [c for c in hidden if f'"{c}"' in text], (seat, hidden)


def test_a_view_frame_needs_its_parts() -> None:
    with pytest.raises(ValueError, match="view frame"):
        encode_view_frame({}, {"seat": None}, "{}")
