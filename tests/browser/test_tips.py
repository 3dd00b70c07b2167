"""Learn with tips (docs/rules.md §6): three tips, then off; off after a reload."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import DE, EN, decide, status
from .test_solo import start_solo

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("w", [EN, DE], ids=["en", "de"])
def test_three_tips_then_off_and_off_after_reload(
    server: Any, new_page: Any, artifacts: Path, w: Any
) -> None:
    page = new_page(locale="en-US" if w is EN else "de-DE")
    start_solo(page, server.url, "100", w)
    toggle = page.get_by_role("button", name=w.tips)
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    rng = random.Random(1)
    tip_name = "Tip" if w is EN else "Tipp"
    for n in range(3):
        expect(status(page, w)).to_contain_text(w.your_turn)
        tip = page.get_by_role("complementary", name=tip_name)
        expect(tip).to_contain_text(
            re.compile("deadwood|meld" if w is EN else "Restpunkte|gemeldet")
        )
        expect(tip).not_to_contain_text("thinking" if w is EN else "überlegt")
        if n == 0:
            page.screenshot(path=str(artifacts / f"tips-{'en' if w is EN else 'de'}.png"))
        decide(page, rng, w, knock=False)
    expect(toggle).to_have_attribute("aria-pressed", "false")
    page.reload()
    expect(page.get_by_role("button", name=w.tips)).to_have_attribute("aria-pressed", "false")
    assert not page.errors
