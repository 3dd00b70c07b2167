"""The fair-deal mark at a chouette table (docs/fairness.md, "In chouette rooms"): the
round's commitment is shown while it runs, with no server seed in any frame; once the
match is over a link opens the verify page on the chouette round record, which checks."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import CH_EN, chouette_role, open_chouette, status, use_setting
from .test_chouette import Seat, play_to_match_end, record_frames, wait_all_seated

pytestmark = pytest.mark.browser


def seat_as_a_player(new_page: Any, url: str) -> tuple[Seat, list[dict[str, Any]]]:
    """Ann opens tables with two computers until the seat draw makes her box or captain
    (two tables in three), so that the round waits for her moves. Returns her seat and
    the frames her page receives."""
    for _ in range(12):
        ann = new_page(locale="en-US")
        frames = record_frames(ann)
        open_chouette(ann, url, "Ann", ["bot:casual", "bot:casual"], "first-to-knock")
        seat: Seat = ("Ann", ann, CH_EN)
        wait_all_seated([seat])
        if chouette_role(ann) != "partner":
            return seat, frames
        ann.context.close()
    raise AssertionError("Ann never drew the box's or the captain's seat")


def check_frames(frames: list[dict[str, Any]]) -> None:
    """While a round runs its view frames show the commitment and Ann's own seed only;
    the server seed arrives once the round is over."""
    states = set()
    for frame in frames:
        fair = frame.get("fair") if frame.get("type") == "view" else None
        if fair is None:
            continue
        running = frame["view"]["view"]["table"]["match_phase"] == "round"
        states.add(fair["state"])
        assert fair["state"] == ("dealt" if running else "revealed"), fair
        if running:
            assert "server_seed" not in fair and "seeds" not in fair, fair
    assert states == {"dealt", "revealed"}, states


def test_a_finished_chouette_round_verifies_through_the_tables_link(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    rng = random.Random(13)
    (_, page, w), frames = seat_as_a_player(new_page, server.url)
    # The round waits for Ann (unless a computer knocks at its first turn): it runs, its
    # commitment is shown, nothing to verify yet.
    either = re.compile(f"{w.base.your_turn}|{w.base.match_over}")
    expect(status(page, w.base)).to_contain_text(either, timeout=20_000)
    mark = page.get_by_text(re.compile(r"^Fair deal · [0-9a-f]{8}…$"))
    expect(mark).to_be_visible()
    title = mark.get_attribute("title") or ""
    assert re.search(r"SHA-256 [0-9a-f]{64}", title) and "default seeds" in title, title
    if w.base.your_turn in status(page, w.base).inner_text():
        expect(page.get_by_role("link", name=re.compile("^Verify round"))).to_have_count(0)
    play_to_match_end([("Ann", page, w)], rng)
    # One link a round played (a computer's knock at its first turn ends a round before
    # Ann moves, so there may be more than one): the last round's.
    link = page.get_by_role("link", name=re.compile(r"^Verify round \d+$")).last
    expect(link).to_be_visible()
    href = link.get_attribute("href") or ""
    assert re.search(r"record=%2Fapi%2Fchouette%2F[\w-]+%2Frecord%3Fround%3D\d+$", href), href
    page.screenshot(path=str(artifacts / "chouette-fair-mark.png"), full_page=True)
    with page.expect_popup() as popup:
        link.click()
    verify = popup.value
    result = verify.get_by_role("status")
    expect(result).to_contain_text("The deal is fair.", timeout=20_000)
    fair_round = re.compile(r"Round \d+: fair – the deck follows from the seeds\.")
    expect(result).to_contain_text(fair_round)
    verify.screenshot(path=str(artifacts / "chouette-fair-verified.png"))
    # In German: the mark, its title and the link say the same (the result's dialog closed
    # for the switch and opened again).
    use_setting(page, "Deutsch")
    mark = page.get_by_text(re.compile(r"^Faires Austeilen · [0-9a-f]{8}…$"))
    expect(mark).to_be_visible()
    assert "Standard-Startwerte" in (mark.get_attribute("title") or "")
    with page.expect_popup() as popup:
        page.get_by_role("link", name=re.compile(r"^Runde \d+ prüfen$")).last.click()
    expect(popup.value.get_by_role("status")).to_contain_text("Die Austeilung ist fair.")
    check_frames(frames)
    assert not page.errors  # type: ignore[attr-defined]
