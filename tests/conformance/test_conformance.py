"""The browser engine agrees with the Python engine (docs/browser-engine.md).

Seeded random matches under every preset and option set of the harness, and random and
meld-dense hands through analyze and settle, played in both engines: legal actions,
state, both seats' and the spectator's views, round and match results at every step.
A larger run: ``.venv/bin/python tests/conformance/harness.py --matches 20000``.
"""

from __future__ import annotations

import os
import shutil

import pytest

from engine import oracle
from ginrummy.engine import parse_cards

from . import harness

MATCHES = 400  # about 35 s of CPU with the Node side and the hands below
HANDS = 4000
SHARDS = 4  # seeds of their own, so that pytest-xdist runs them side by side


@pytest.fixture(autouse=True)
def _node() -> None:
    if shutil.which("node") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node is required in CI for the browser engine's conformance")
        pytest.skip("node is not installed")


@pytest.mark.system  # a long differential run against Node (tests/conftest.py)
@pytest.mark.parametrize("shard", range(SHARDS))
def test_both_engines_agree_on_random_matches_and_hands(shard: int) -> None:
    report = harness.run(MATCHES // SHARDS, HANDS // SHARDS, seed=shard)
    assert report.divergence is None, str(report)
    assert report.steps > 50 * MATCHES // SHARDS  # the matches were really played


def test_every_option_set_is_played_and_rounds_end_every_way() -> None:
    kinds: set[str] = set()
    for seed in range(3 * len(harness.OPTION_SETS)):
        played = harness.play_match(seed)
        kinds.update(_result_kinds(played))
    assert {"knock", "void", "gin", "undercut"} <= kinds


def _result_kinds(played: harness.PlayedMatch) -> set[str]:
    from ginrummy.engine import replay_match
    from ginrummy.engine.record import MatchRecord

    match = replay_match(MatchRecord.from_dict(played.record))
    return {r.result.kind.value for r in match.rounds}


def test_a_divergence_is_reported_as_a_minimal_record() -> None:
    played = harness.play_match(5)
    wrong = list(played.digests)
    wrong[7] = "0" * 16  # as if Node had answered something else at step 7
    report = harness.match_divergence(
        harness.PlayedMatch(played.seed, played.record, played.digests),
        {"steps": wrong, "error": None},
    )
    assert report is not None
    assert report["step"] == 7
    rounds = report["record"]["rounds"]
    assert sum(1 + len(r["actions"]) for r in rounds) == 7  # the prefix up to the step
    assert report["part"] == "key order"  # the parts themselves agree: only the digest was off


def test_a_node_error_is_reported_at_its_step() -> None:
    played = harness.play_match(6)
    answer = {"steps": list(played.digests[:3]), "error": {"step": 3, "code": "x", "message": "y"}}
    report = harness.match_divergence(played, answer)
    assert report is not None
    assert (report["step"], report["node_error"]["code"]) == (3, "x")


def test_node_arrangements_discards_and_settles_equal_the_brute_force_oracle() -> None:
    """The properties of tests/engine/test_melds.py and test_showdown.py, checked on the
    browser engine's answers with tests/engine/oracle.py (no engine code involved)."""
    requests = [r for r in harness.hand_requests(600, seed=21) if r["op"] in ("analyze", "settle")]
    answers = harness.run_node(requests)
    settled = 0
    for request, answer in zip(requests, answers, strict=True):
        out = answer["out"]
        if request["op"] == "analyze":
            hand = frozenset(parse_cards(request["hand"]))
            assert out["deadwood"] == oracle.min_deadwood(hand)
            for meld in out["melds"]:
                assert oracle.valid_meld(parse_cards(" ".join(meld)))
            for option in out.get("discards", []):
                rest = hand - set(parse_cards(option["card"]))
                assert option["deadwood"] == oracle.min_deadwood(rest)
            continue
        if "error_code" in out or len(parse_cards(request["knocker"])) != 10:
            continue
        want = oracle.settle_oracle(
            parse_cards(request["knocker"]),
            parse_cards(request["defender"]),
            knock_limit=request.get("knock_limit", 10),
        )
        assert want is not None
        got = (out["result"], out["knocker_deadwood"], out["defender_deadwood"], out["points"])
        assert got == (want.kind, want.knocker_deadwood, want.defender_deadwood, want.points)
        assert out["winner"] == want.winner
        settled += 1
    assert settled > 50
