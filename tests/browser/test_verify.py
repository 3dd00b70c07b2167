"""The verify page (docs/fairness.md): a pasted or opened record is checked in the
browser, the verdicts appear in a live region, in German and English."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from fairness.helpers import fair_match  # tests/ is on the path (rootdir)

pytestmark = pytest.mark.browser


def test_a_fair_record_checks_and_a_tampered_one_names_the_round(
    server: Any, new_page: Any, artifacts: Path, tmp_path: Path
) -> None:
    record = fair_match(random.Random(3), rounds=2)
    page = new_page(locale="en-US")
    page.goto(server.url + "/static/verify.html")
    result = page.get_by_role("status")
    page.get_by_label("Match record (JSON)").fill(json.dumps(record))
    page.get_by_role("button", name="Check the deals").click()
    expect(result).to_contain_text("All 2 deals are fair.")
    expect(result.get_by_role("listitem")).to_have_count(2)
    tampered = copy.deepcopy(record)
    tampered["rounds"][1]["fair"]["server_seed"] = "ab" * 32
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(tampered), encoding="utf-8")
    page.get_by_label("Or open a record file").set_input_files(str(path))
    expect(result).to_contain_text("1 of 2 deals fails the check.")
    expect(result).to_contain_text("Round 2: the revealed server seed does not match")
    page.screenshot(path=str(artifacts / "verify-en.png"))
    page.get_by_role("button", name="Deutsch").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Prüfen, ob fair ausgeteilt wurde")
    broken = copy.deepcopy(record)
    broken["rounds"][0]["fair"]["seeds"]["two"] = "ab"
    page.get_by_label("Partie-Protokoll (JSON)").fill(json.dumps(broken))
    page.get_by_role("button", name="Austeilen prüfen").click()
    expect(result).to_contain_text("fehlerhaft bei rounds[0].fair.seeds.two")
    page.get_by_label("Partie-Protokoll (JSON)").fill("{kein json")
    page.get_by_role("button", name="Austeilen prüfen").click()
    expect(result).to_contain_text("Das ist kein JSON")
