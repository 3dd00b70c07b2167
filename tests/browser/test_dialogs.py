"""Dialogs keep the focus rules (issue 19, items 4 and 7): the round's and the match's
result show in a modal dialog that takes the focus (on "Next round"), keeps Tab and
Shift+Tab inside, closes with Escape or its close button and gives the focus back to the
button that opens it again, with "Next round" still beside it; the settings menu of a
narrow window keeps Tab inside the same way and gives the focus back to its button."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import DE, EN, play_round, status, use_setting
from .public import my_turn
from .test_device import device_page
from .test_solo import start_solo

pytestmark = pytest.mark.browser

INSIDE = "(dialog) => dialog.contains(document.activeElement)"


def focused_name(page: Any) -> str:
    return str(
        page.evaluate(
            "() => document.activeElement?.getAttribute('aria-label')"
            " || document.activeElement?.textContent.trim() || ''"
        )
    )


def test_the_round_result_is_a_dialog_that_keeps_and_returns_the_focus(
    server: Any, new_page: Any
) -> None:
    page = device_page(new_page, width=1366, height=768)
    start_solo(page, server.url, target="200")
    play_round(page, random.Random(3))
    expect(status(page)).to_contain_text(EN.press_next)
    dialog = page.get_by_role("dialog", name="Round 1: result")
    expect(dialog).to_be_visible()
    assert dialog.evaluate("(d) => d.matches(':modal')")
    next_round = dialog.get_by_role("button", name=EN.next_round)
    expect(next_round).to_be_focused()
    # Tab goes round the dialog's controls and never leaves it, forwards and back.
    controls = int(
        dialog.evaluate(
            "(d) => [...d.querySelectorAll('button, a[href], input, select, textarea')]"
            ".filter((el) => !el.disabled && el.getClientRects().length).length"
        )
    )
    assert controls >= 2  # the close button and "Next round" at least
    seen = set()
    for _ in range(controls + 1):
        page.keyboard.press("Tab")
        assert dialog.evaluate(INSIDE), focused_name(page)
        seen.add(focused_name(page))
    assert len(seen) == controls, seen
    for _ in range(controls + 1):
        page.keyboard.press("Shift+Tab")
        assert dialog.evaluate(INSIDE), focused_name(page)
    # Escape closes it: the focus is on the button that opens it again, "Next round"
    # beside it (the action stays within reach).
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    show = page.get_by_role("button", name="Show the result of round 1")
    expect(show).to_be_focused()
    expect(page.get_by_role("button", name=EN.next_round)).to_be_visible()
    # Opened again from there, and closed with its close button: the focus is back.
    show.click()
    expect(dialog).to_be_visible()
    expect(next_round).to_be_focused()
    dialog.get_by_role("button", name="Close the result").click()
    expect(dialog).to_be_hidden()
    expect(show).to_be_focused()
    # "Next round" from the line: the next round starts.
    page.get_by_role("button", name=EN.next_round).click()
    expect(status(page)).not_to_contain_text(EN.press_next, timeout=3_000)
    expect(page.get_by_text("Round 2", exact=True)).to_be_visible()
    assert not page.errors  # type: ignore[attr-defined]


def test_the_result_dialog_speaks_german(server: Any, new_page: Any) -> None:
    page = device_page(new_page, width=390, height=844)
    start_solo(page, server.url, target="200")
    play_round(page, random.Random(3))
    # Closed, the language switched in the settings menu, and opened again.
    page.keyboard.press("Escape")
    use_setting(page, "Deutsch")
    page.get_by_role("button", name="Ergebnis der Runde 1 zeigen").click()
    dialog = page.get_by_role("dialog", name="Runde 1: Ergebnis")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name=DE.next_round)).to_be_focused()
    # The result scrolls inside the dialog, never the page.
    assert page.evaluate("() => document.scrollingElement.scrollTop") == 0
    box = dialog.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844
    dialog.get_by_role("button", name="Ergebnis schließen").click()
    expect(page.get_by_role("button", name="Ergebnis der Runde 1 zeigen")).to_be_focused()
    expect(page.get_by_role("button", name=DE.next_round)).to_be_visible()
    assert not page.errors  # type: ignore[attr-defined]


def test_the_settings_menu_keeps_the_focus_inside_and_gives_it_back(
    server: Any, new_page: Any
) -> None:
    page = device_page(new_page, width=390, height=844)
    start_solo(page, server.url, target="200")
    my_turn(page)  # the person decides: no round's result (modal) lies over the page
    settings = page.get_by_role("button", name="Settings")
    settings.click()
    expect(settings).to_have_attribute("aria-expanded", "true")
    menu = page.get_by_role("group", name="Settings")
    expect(menu).to_be_visible()
    names = set()
    for _ in range(8):
        page.keyboard.press("Tab")
        inside = page.evaluate("() => !!document.activeElement?.closest('.top-controls')")
        assert inside, focused_name(page)
        names.add(focused_name(page))
    assert {"Deutsch", "English", "Large cards"} <= names, names
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("() => !!document.activeElement?.closest('.top-controls')")
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    expect(settings).to_be_focused()
    assert not page.errors  # type: ignore[attr-defined]


def test_cancelling_a_resignation_gives_the_focus_back_to_resign(
    server: Any, new_page: Any
) -> None:
    page = device_page(new_page)
    start_solo(page, server.url, target="200")
    my_turn(page)  # the person decides: no round's result (modal) lies over the page
    resign = page.get_by_role("button", name="Resign", exact=True)
    resign.focus()
    page.keyboard.press("Enter")
    expect(resign).to_have_attribute("aria-expanded", "true")
    cancel = page.get_by_role("button", name="Cancel")
    cancel.focus()
    page.keyboard.press("Enter")
    expect(cancel).to_have_count(0)
    expect(resign).to_be_focused()
    expect(resign).to_have_attribute("aria-expanded", "false")
    assert not page.errors  # type: ignore[attr-defined]


def test_one_escape_closes_the_result_over_an_open_settings_menu(
    server: Any, new_page: Any
) -> None:
    """The computer may end a round while a person uses the settings menu of a narrow
    window: the result's dialog comes up over it and takes the first Escape alone."""
    page = device_page(new_page, width=390, height=844)
    start_solo(page, server.url, target="200")
    play_round(page, random.Random(3))
    dialog = page.get_by_role("dialog", name="Round 1: result")
    expect(dialog).to_be_visible()
    page.evaluate("() => window.ginrummy.store.update((s) => ({ ...s, settingsOpen: true }))")
    menu = page.get_by_role("group", name="Settings")
    expect(menu).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(menu).to_be_visible()
    expect(page.get_by_role("button", name="Show the result of round 1")).to_be_focused()
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    expect(page.get_by_role("button", name="Settings")).to_be_focused()
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("where", ["device", "room"])
def test_the_score_sheet_lists_the_rounds_with_running_totals(
    server: Any, new_page: Any, where: str
) -> None:
    """The score sheet during a match, on the device table and at a room on the server:
    one line per finished round (who won, how, the points each side scored, the running
    totals), in a dialog that keeps and gives back the focus, in English and German."""
    page = device_page(new_page, width=1366, height=768)
    start_solo(page, server.url, target="200", verified=where == "room")
    rng = random.Random(8)
    for n in (1, 2):
        play_round(page, rng)
        expect(status(page)).to_contain_text(EN.press_next)
        page.keyboard.press("Escape")  # the result's dialog
        if n == 1:
            page.get_by_role("button", name=EN.next_round).click()
            expect(status(page)).not_to_contain_text(EN.press_next, timeout=5_000)
    scores = page.locator(".infobar .scores strong").all_inner_texts()
    opener = page.get_by_role("button", name="Score sheet")
    opener.click()
    sheet = page.get_by_role("dialog", name="Score sheet")
    expect(sheet).to_be_visible()
    table = sheet.get_by_role("table", name="Score sheet")
    heads = table.get_by_role("columnheader").all_inner_texts()
    assert heads[:3] == ["Round", "Won by", "How"], heads
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(2)
    for i in range(2):
        cells = rows.nth(i).locator("th, td").all_inner_texts()
        assert cells[0] == str(i + 1)
        assert cells[2] in {"Knock", "Gin", "Big gin", "Undercut", "Void round"}, cells
        points = [int(cells[3]), int(cells[4])]
        assert (cells[1] == "–") == (points == [0, 0]), cells
    # The last line's running totals are the scores of the info bar.
    last = rows.nth(1).locator("td").all_inner_texts()
    assert [last[4], last[5]] == scores, (last, scores)
    page.keyboard.press("Tab")
    assert sheet.evaluate(INSIDE)
    page.keyboard.press("Escape")
    expect(sheet).to_be_hidden()
    expect(opener).to_be_focused()
    # In German, from the settings.
    use_setting(page, "Deutsch")
    page.get_by_role("button", name="Punkteblatt").click()
    german = page.get_by_role("dialog", name="Punkteblatt")
    expect(german.get_by_role("columnheader", name="Gewonnen von")).to_be_visible()
    german.get_by_role("button", name="Punkteblatt schließen").click()
    expect(page.get_by_role("button", name="Punkteblatt")).to_be_focused()
    assert not page.errors  # type: ignore[attr-defined]


# The page's render (web/js/dom.js) and its dialogs (web/js/dialogs.js) in Chromium, on a
# page of a top bar and a main part taller than the window, as a chouette table with its
# ledger below: what no fake DOM shows, the top layer and the scroll.
RENDER = """async ([step]) => {
  const { h, morphChildren } = await import('/static/js/dom.js');
  const { settleDialogs } = await import('/static/js/dialogs.js');
  const main = document.querySelector('main');
  const result = () => h('dialog', {dataset: {key: 'result-dialog', modal: 'result'}},
    h('h2', {}, 'Match over'), h('button', {type: 'button', dataset: {key: 'next'}}, 'Next match'));
  const screen = (...parts) => h('div', {class: 'screen'}, ...parts);
  const ledger = h('section', {dataset: {key: 'ledger'}, style: 'height: 1500px'}, 'Ledger');
  const parts = {
    notice: [screen(h('p', {role: 'alert'}, 'Bob is back'), result()), ledger],
    result: [screen(result()), ledger],
    table: [screen(h('p', {}, 'Round 2')), ledger],
  }[step];
  morphChildren(main, parts);
  settleDialogs(main);
  const dialog = document.querySelector('dialog');
  return {
    modal: dialog ? dialog.matches(':modal') : null,
    focus: document.activeElement.tagName === 'BUTTON'
      ? document.activeElement.innerText : document.activeElement.tagName,
    scrollY,
  };
}"""


def render_page(server: Any, new_page: Any) -> Any:
    page = new_page(width=1280, height=720)
    page.goto(f"{server.url}/static/llms.txt")
    page.set_content(
        '<body style="margin:0"><header style="height:48px">bar</header>'
        '<main tabindex="-1"></main></body>'
    )
    return page


def test_a_render_never_takes_the_open_result_out_of_the_top_layer(
    server: Any, new_page: Any
) -> None:
    """A part above the open result that goes (a notice) moved the dialog with a render:
    the browser then takes it out of the top layer, no longer modal, the focus lost, and
    the page could scroll under it (a chouette partner's page scrolled by 48 px)."""
    page = render_page(server, new_page)
    opened = page.evaluate(RENDER, ["notice"])
    assert opened == {"modal": True, "focus": "Next match", "scrollY": 0}
    assert page.evaluate(RENDER, ["result"]) == opened
    assert not page.errors  # type: ignore[attr-defined]


def test_a_result_that_goes_gives_the_focus_back_without_scrolling_the_page(
    server: Any, new_page: Any
) -> None:
    """Opened while the page's main part had the focus (as after entering a page), the
    result goes with the next round: the focus goes back to the main part, and the page,
    taller than the window, stays where it was."""
    page = render_page(server, new_page)
    page.evaluate("() => document.querySelector('main').focus()")
    assert page.evaluate(RENDER, ["result"])["modal"] is True
    gone = page.evaluate(RENDER, ["table"])
    assert gone == {"modal": None, "focus": "MAIN", "scrollY": 0}
    assert not page.errors  # type: ignore[attr-defined]
