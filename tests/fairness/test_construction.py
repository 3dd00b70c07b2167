"""The construction gin-fair-v1: the documented test vectors, encodings and seed errors."""

from __future__ import annotations

import doctest
import hashlib
import hmac
import json
import re
from pathlib import Path
from typing import Any

import pytest

import ginrummy.fairness
from ginrummy.engine import DECK, Seat
from ginrummy.fairness import (
    DealContext,
    FairnessError,
    SeedError,
    commitment,
    construction,
    deal_deck,
    deal_message,
    default_seat_seed,
    fair_block,
    parse_seed,
    phrase_seat_seed,
    verify,
)
from ginrummy.fairness.construction import below, check_seed, new_seed, number, stream

DOC = Path(__file__).resolve().parents[2] / "docs/fairness.md"


def vectors() -> dict[str, Any]:
    """The JSON block between the vector markers of docs/fairness.md."""
    text = DOC.read_text(encoding="utf-8")
    found = re.search(
        r"<!-- vectors:begin -->\s*```json\n(.*?)```\s*<!-- vectors:end -->", text, re.S
    )
    assert found, "docs/fairness.md has no test vectors"
    return dict(json.loads(found.group(1)))


def context_of(v: dict[str, Any]) -> DealContext:
    one, two = (bytes.fromhex(v["seeds"][s]) for s in ("one", "two"))
    return DealContext(one, two, v["room"], v["match"], v["round"])


@pytest.mark.parametrize("v", vectors()["deals"], ids=lambda v: v["room"])
def test_the_documented_deal_vectors_hold(v):
    server = bytes.fromhex(v["server_seed"])
    message = deal_message(context_of(v))
    assert commitment(server) == v["commitment"]
    assert message.hex() == v["message"]
    assert hmac.digest(server, message + bytes(8), "sha256").hex() == v["block0"]
    assert " ".join(str(c) for c in deal_deck(server, context_of(v))) == v["deck"]


@pytest.mark.parametrize("v", vectors()["default_seat_seeds"], ids=lambda v: v["seat"])
def test_the_documented_default_seed_vector_holds(v):
    identity = hashlib.sha256(v["identity_token"].encode()).digest()
    assert identity.hex() == v["identity_hash"]
    seed = default_seat_seed(identity, v["room"], v["match"], v["round"], Seat.parse(v["seat"]))
    assert seed.hex() == v["seed"]
    other = default_seat_seed(identity, v["room"], v["match"], v["round"], Seat.ONE)
    assert other != seed  # each seat, room, match and round has its own


@pytest.mark.parametrize("v", vectors()["phrase_seat_seeds"], ids=lambda v: v["seat"])
def test_the_documented_phrase_seed_vectors_hold(v):
    seat = Seat.parse(v["seat"])
    seed = phrase_seat_seed(v["phrase"], v["room"], v["match"], v["round"], seat)
    assert hmac.digest(v["phrase"].encode(), bytes.fromhex(v["message"]), "sha256") == seed
    assert seed.hex() == v["seed"]
    # the other seat, another round or another phrase gives another seed
    others = {
        phrase_seat_seed(v["phrase"], v["room"], v["match"], v["round"], seat.other),
        phrase_seat_seed(v["phrase"], v["room"], v["match"], v["round"] + 1, seat),
        phrase_seat_seed(v["phrase"] + " ", v["room"], v["match"], v["round"], seat),
    }
    assert seed not in others and len(others) == 3


def test_an_empty_seed_phrase_is_refused():
    with pytest.raises(FairnessError, match="a seed phrase must not be empty"):
        phrase_seat_seed("", "room", 1, 1, Seat.ONE)


def test_the_stream_is_the_hmac_counter_blocks_in_order():
    server, message = bytes(range(32)), b"anything"
    first = bytes(b for _, b in zip(range(96), stream(server, message), strict=False))
    blocks = b"".join(hmac.digest(server, message + number(i), "sha256") for i in range(3))
    assert first == blocks


def test_below_masks_and_rejects_instead_of_reducing():
    # n = 52: mask 63; 52..63 are skipped, not folded onto 0..11
    assert below(52, iter([52, 63, 116, 7])) == 7  # 116 & 63 = 52: skipped too
    assert below(2, iter([255])) == 1
    assert below(256, iter([255])) == 255
    with pytest.raises(FairnessError, match="2 <= n <= 256"):
        below(1, iter([0]))
    with pytest.raises(FairnessError, match="the byte source ended"):
        below(52, iter([60, 61]))


def test_every_input_changes_the_deck():
    server = bytes(range(32))
    base = DealContext(bytes(32), bytes([1]) * 32, "room", 1, 1)
    variants = [
        DealContext(bytes([2]) * 32, base.seat_two, "room", 1, 1),
        DealContext(base.seat_one, bytes([2]) * 32, "room", 1, 1),
        DealContext(base.seat_one, base.seat_two, "room2", 1, 1),
        DealContext(base.seat_one, base.seat_two, "room", 2, 1),
        DealContext(base.seat_one, base.seat_two, "room", 1, 2),
        # swapping the seats' seeds is another deal, not the same one
        DealContext(base.seat_two, base.seat_one, "room", 1, 1),
    ]
    decks = {deal_deck(server, c) for c in [base, *variants]}
    decks.add(deal_deck(bytes([9]) * 32, base))
    assert len(decks) == 8
    assert all(sorted(d) == list(DECK) for d in decks)
    assert base.seed(Seat.ONE) == base.seat_one and base.seed(Seat.TWO) == base.seat_two


def test_length_prefixes_keep_fields_apart():
    # "ab" + "c" and "a" + "bc" as rooms of otherwise equal deals differ in their message
    one = deal_message(DealContext(bytes(32), bytes(32), "ab", 1, 1))
    two = deal_message(DealContext(bytes(32), bytes(32), "a", 1, 1))
    assert one != two and len(one) == len(two) + 1


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("ab" * 31, "62 characters"),
        ("AB" * 32, repr("AB" * 32)),
        ("zz" * 32, repr("zz" * 32)),
        ("", "0 characters"),
    ],
)
def test_seeds_of_the_wrong_length_or_encoding_are_refused(text, shown):
    with pytest.raises(
        SeedError,
        match=f"seeds.two: expected 64 lowercase hex digits .32 bytes., got {re.escape(shown)}",
    ):
        parse_seed(text, "seeds.two")


def test_raw_seeds_and_numbers_are_checked():
    with pytest.raises(SeedError, match="server seed: expected 32 bytes, got 31"):
        commitment(bytes(31))
    with pytest.raises(SeedError, match="seat seed two: expected 32 bytes, got 33"):
        deal_message(DealContext(bytes(32), bytes(33), "r", 1, 1))
    with pytest.raises(FairnessError, match=re.escape("numbers are 0 to 2**64 - 1, got -1")):
        deal_message(DealContext(bytes(32), bytes(32), "r", -1, 1))
    with pytest.raises(FairnessError, match="got 18446744073709551616"):
        number(2**64)
    assert check_seed(bytes(32)) == bytes(32)
    assert len(new_seed()) == 32 and new_seed() != new_seed()


def test_a_fair_block_holds_what_the_verifier_needs():
    server = bytes(range(32))
    ctx = DealContext(bytes(32), bytes([255]) * 32, "k3Xa_9", 3, 2)
    block = fair_block(server, ctx)
    assert (block.version, block.room, block.match, block.round) == ("gin-fair-v1", "k3Xa_9", 3, 2)
    assert block.commitment == commitment(server) and block.server_seed == server.hex()
    assert block.seeds.one == "00" * 32 and block.seeds.two == "ff" * 32
    assert fair_block(server, ctx, revealed=False).server_seed is None


@pytest.mark.parametrize("module", [ginrummy.fairness, construction, verify], ids=str)
def test_the_doctests_pass(module):
    result = doctest.testmod(module)
    assert result.failed == 0


def test_there_are_doctests():
    assert sum(doctest.testmod(m).attempted for m in (ginrummy.fairness, construction)) >= 4
