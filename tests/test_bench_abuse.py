"""``ginrummy bench abuse``: real games under an attacker's lookups and idle sockets."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from typing import Any

import pytest

from ginrummy.benchmarks.abuse import player_address
from ginrummy.benchmarks.attacker import raise_open_files

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system

BENCH = [sys.executable, "-m", "ginrummy", "bench", "abuse"]
TINY = ["--games", "2", "--lookups", "400", "--sockets", "20", "--seconds", "1.5"]
TINY += ["--warmup", "0.5", "--baseline", "1", "--settle", "0.5", "--think", "0.2"]


def _bench(*extra: str) -> dict[str, Any]:
    done = subprocess.run(
        [*BENCH, *TINY, *extra], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert isinstance(result, dict)
    return result


def test_players_have_addresses_of_their_own() -> None:
    assert [player_address(n) for n in (0, 1, 249, 250)] == [
        "127.1.0.1",
        "127.1.0.2",
        "127.1.0.250",
        "127.1.1.1",
    ]


def test_open_files_are_raised_up_to_the_hard_limit_only() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert raise_open_files(soft) == soft
    if hard != resource.RLIM_INFINITY:
        with pytest.raises(SystemExit, match="hard limit"):
            raise_open_files(hard + 1)
    assert resource.getrlimit(resource.RLIMIT_NOFILE) == (soft, hard)


def test_a_tiny_attack_is_limited_and_the_games_go_on() -> None:
    result = _bench("--limit-lookups", "150")
    assert result["games"] == 2 and result["limits"] == "default"
    assert result["attacker_nice"] == 10
    assert result["errors"] == 0, result["error_codes"]
    assert result["server_died"] is False
    for phase in ("before", "during"):
        assert result["moves"][phase] > 0, phase
        rtt = result["rtt_ms"][phase]
        assert rtt["p99"] >= rtt["p50"] > 0
    # The attacker's address has its own allowance: the players' joins did not use it.
    lookups = result["lookups"]
    assert lookups["sent"] == lookups["answered"] == 400
    # 150 at once, then 2.5 a second while the attack lasts.
    assert 150 <= lookups["not_found_404"] < 200
    assert lookups["not_found_404"] + lookups["rate_limited_429"] == 400
    assert lookups["per_second"] > 0
    sockets = result["sockets"]
    assert sockets["opened"] == sockets["open_at_end_of_attack"] == 20
    assert sockets["refused"] == {} and sockets["closed_by_server"] == {}
    memory = result["server_rss_mb"]
    assert 0 < memory["before"] <= memory["peak"]
    assert memory["after"] > 0 and "after_vs_before_percent" in memory
    # The games' own growth, at their pace before the attack, is not the attack's.
    assert memory["games_growth_meanwhile"] >= 0 and "after_vs_no_attack_percent" in memory
    assert set(result["targets"]) == {
        "rss_after_within_10_percent",
        "rss_after_within_10_percent_of_before",
        "p99_during_attack_at_most_100_ms",
    }


def test_without_limits_every_lookup_is_a_miss() -> None:
    result = _bench("--no-limits")
    assert result["limits"] == "off"
    assert result["lookups"]["statuses"] == {"404": 400}
