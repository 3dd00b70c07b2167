"""A new build deployed in the middle of a game on the device (docs/offline.md,
docs/device.md): the running game keeps the build it started with, survives a reload with
the same hand and version, and the next visit runs the new build whole and resumes it."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import EN, actionable, decide, hand_cards, status
from .test_device import GAME_KEY, device_page, game_status, saved_games, start_device
from .test_offline import (
    WEB_DIR,
    WebServer,
    close_last_old_page,
    until_marks,
    wait_for_worker,
)

pytestmark = pytest.mark.browser

# Code, not a comment: the server ships scripts without their comments (server/slim.py).
MARK = "export const SECOND_BUILD = 2;"
# What a fetch gets now for a device module and a catalog, and the style the page loaded.
BUILD_MARKS = f"""async () => ({{
  device: (await (await fetch('/static/js/device/game.js')).text()).includes('{MARK}'),
  tagline: (await (await fetch('/static/js/i18n/en.json')).json())['app.tagline'],
  css: getComputedStyle(document.body).getPropertyValue('--build').trim(),
}})"""


def game_version(page: Any) -> int:
    """The saved game's event count (docs/device.md, Storage)."""
    key = GAME_KEY + page.url.rsplit("/", 1)[1]
    body = json.loads(json.loads(saved_games(page)[key])["body"])
    version: int = body["game"]["version"]
    return version


def new_build(web_dir: Path, old_tagline: str) -> None:
    """Another tagline, a style and a device module the old build lacks."""
    catalog = web_dir / "js/i18n/en.json"
    catalog.write_text(catalog.read_text().replace(old_tagline, "The second build."))
    css = web_dir / "css/app.css"
    css.write_text(css.read_text() + '\nbody { --build: "two"; }\n')
    module = web_dir / "js/device/game.js"
    module.write_text(module.read_text() + f"\n{MARK}\n")


def test_a_new_build_mid_game_keeps_the_device_game_and_is_taken_up_next_visit(
    tmp_path: Path, new_page: Callable[..., Any]
) -> None:
    web = tmp_path / "web"
    shutil.copytree(WEB_DIR, web)
    srv = WebServer(tmp_path, web)
    srv.start()
    try:
        old_tagline = json.loads((web / "js/i18n/en.json").read_text())["app.tagline"]
        page = device_page(new_page)
        page.goto(srv.url + "/")
        wait_for_worker(page)
        start_device(page)
        rng = random.Random(5)
        for _ in range(2):
            decide(page, rng, knock=False)
        expect(status(page)).to_have_text(actionable(EN))  # the computer may have ended the round
        url, hand, version = page.url, sorted(hand_cards(page)), game_version(page)
        text_before = game_status(page)  # without the other side's last moves (not kept)

        srv.stop()
        new_build(web, old_tagline)
        srv.start()

        # Mid-game reload: the old build, whole, while the new one installs beside it.
        page.reload()
        expect(status(page)).to_contain_text(text_before)
        assert sorted(hand_cards(page)) == hand and game_version(page) == version
        wait_for_worker(page, "waiting", "installed")
        assert page.evaluate(BUILD_MARKS) == {"device": False, "tagline": old_tagline, "css": ""}

        context = page.context
        close_last_old_page(page)  # the last page of the old build: the new one takes over
        again, errors = context.new_page(), []
        again.on("pageerror", lambda e: errors.append(str(e)))
        again.goto(url)
        # The new build whole: at once, or after a reload should the new worker take the
        # visit over once its page showed (a visit begun as the last old page closed).
        marks = {"device": True, "tagline": "The second build.", "css": '"two"'}
        until_marks(again, BUILD_MARKS, marks)
        expect(status(again)).to_contain_text(text_before)
        assert sorted(hand_cards(again)) == hand and game_version(again) == version
        # The game goes on in the new build.
        decide(again, rng, knock=False)
        again.wait_for_function(
            "([k, v]) => JSON.parse(JSON.parse(localStorage.getItem(k)).body).game.version > v",
            arg=[GAME_KEY + url.rsplit("/", 1)[1], version],
        )
        assert not page.errors and not errors
    finally:
        if srv.proc and srv.proc.poll() is None:
            srv.stop()
