"""/llms.txt: how the table works, for AI agents that drive a browser (issue 19, item 7).
The button names it gives are the catalogs' own, so the file cannot drift from the page."""

from __future__ import annotations

import json
from pathlib import Path

from starlette.testclient import TestClient

from ginrummy.server.app import create_app

from .helpers import settings

WEB = Path(__file__).resolve().parents[2] / "src" / "ginrummy" / "web"
# The controls an agent presses at the table, by their catalog keys.
BUTTONS = (
    "home.play_solo",
    "join.take_seat",
    "act.pass",
    "act.draw_stock",
    "act.knock",
    "act.gin",
    "act.big_gin",
    "act.choose_card",
    "act.next_round",
    "act.new_match",
    "act.resign",
    "resign.yes",
)
# What the status region and the live region are called, and the table's group.
NAMES = ("status.label", "ann.label", "table.your_hand", "join.name")


def catalog(lang: str) -> dict[str, str]:
    text = (WEB / "js" / "i18n" / f"{lang}.json").read_text(encoding="utf-8")
    found: dict[str, str] = json.loads(text)
    return found


def test_llms_txt_is_served_as_plain_text_with_the_real_names() -> None:
    with TestClient(create_app(settings(web_dir=WEB))) as c:
        r = c.get("/llms.txt")
        assert r.status_code == 200
        assert r.headers["content-type"] == "text/plain; charset=utf-8"
        assert c.head("/llms.txt").status_code == 200
        text = r.text
    en, de = catalog("en"), catalog("de")
    for key in BUTTONS + NAMES:
        assert f'"{en[key]}"' in text, key
        assert f'"{de[key]}"' in text, key
    # The pile's name and a card's name as the page makes them ("2♥, take the discard").
    for lang in (en, de):
        pile = lang["act.draw_discard.card"].format(label="2♥")
        assert pile in text
        king = lang["card.name"].format(rank=lang["rank.K"], suit=lang["suit.s"])
        assert lang["card.control"].format(label="K♠", name=king) in text
    # Whose turn, the end of a round and of a match: the status's own words.
    for key in ("status.round_over", "status.match_over"):
        assert en[key].split("{")[0] in text and de[key].split("{")[0] in text
    for lang in (en, de):
        assert lang["status.you_decide"].rstrip(".") in text


def test_llms_txt_is_not_kept_by_the_worker_and_the_page_only_links_it() -> None:
    with TestClient(create_app(settings(web_dir=WEB))) as c:
        worker = c.get("/sw.js").text
        page = c.get("/").text
    assert "llms.txt" not in worker  # not fetched at install: no bytes on a first visit
    assert '<link rel="help" type="text/plain" href="/llms.txt">' in page
