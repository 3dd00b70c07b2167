"""Play through the page by role and name only, as a screen-reader user or an agent would."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect


@dataclass(frozen=True)
class Words:
    """The accessible names and status phrases of one page language."""

    status: str
    hand: str
    take: str
    pass_: str
    draw_stock: str
    draw_discard: str
    knock: str
    gin: str
    next_round: str
    new_match: str
    your_turn: str
    upcard: str
    draw: str
    discard: str
    can_knock: str
    can_gin: str
    last_discard: str
    press_next: str
    match_over: str
    tips: str
    choose_card: str


EN = Words(
    status="Game status",
    hand="Your hand",
    take="Take the upcard",
    pass_="Pass",
    draw_stock="Draw from stock",
    draw_discard="Take the discard",
    knock="Knock",
    gin="Gin",
    next_round="Next round",
    new_match="New match",
    your_turn="Your turn",
    upcard="take the upcard",
    draw="draw from the stock",
    discard="discard a card",
    can_knock="You may knock",
    can_gin="You can go gin",
    last_discard="the last discard",
    press_next="Press “Next round”",
    match_over="The match is over",
    tips="Learn with tips",
    choose_card="Choose the card yourself",
)
DE = Words(
    status="Spielstand",
    hand="Deine Hand",
    take="Offene Karte nehmen",
    pass_="Passen",
    draw_stock="Vom Stapel ziehen",
    draw_discard="Ablage nehmen",
    knock="Klopfen",
    gin="Gin",
    next_round="Nächste Runde",
    new_match="Neue Partie",
    your_turn="Du bist dran",
    upcard="Nimm die offene Karte",
    draw="Ziehe vom Stapel",
    discard="Lege eine Karte ab",
    can_knock="Du darfst klopfen",
    can_gin="Du kannst Gin machen",
    last_discard="letzte Ablage",
    press_next="Drücke „Nächste Runde“",
    match_over="Die Partie ist vorbei",
    tips="Mit Tipps lernen",
    choose_card="Karte selbst wählen",
)


def status(page: Any, w: Words = EN) -> Any:
    return page.get_by_role("status", name=w.status)


# The top bar's settings button, by page language (on a narrow window the switches are in
# its menu: web/js/render.js renderTopbar).
SETTINGS = {"en": "Settings", "de": "Einstellungen"}


def setting(page: Any, name: str) -> Any:
    """The top bar's switch called ``name`` ("Deutsch", "Large cards", …), its settings menu
    opened first where a narrow window keeps it there."""
    switch = page.get_by_role("button", name=name, exact=True)
    if not switch.is_visible():
        lang = page.locator("html").get_attribute("lang") or "en"
        menu = page.get_by_role("button", name=SETTINGS.get(lang, SETTINGS["en"]))
        if menu.get_attribute("aria-expanded") != "true":
            menu.click()
        expect(switch).to_be_visible()
    return switch


# The button that opens a closed result's dialog again (web/js/results.js), in either language.
SHOW_RESULT = re.compile(r"^(Show the (match )?result|Ergebnis der (Runde \d+|Partie) zeigen)")


def close_result(page: Any) -> None:
    """Close a result's dialog if one shows (Escape): it is modal, the page behind it cannot
    be pressed until it is closed (web/js/results.js)."""
    dialog = page.get_by_role("dialog")
    if dialog.count() > 0 and dialog.first.is_visible():
        page.keyboard.press("Escape")
        expect(dialog).to_have_count(0)


def use_setting(page: Any, name: str) -> None:
    """Press the top bar's switch ``name``; a settings menu opened for it is closed again
    (Escape), so that it lies over nothing afterwards. A result's dialog, modal, is closed
    for it first (Escape), as a person would, and opened again after; so is one that opens
    while the switch is being reached or before the menu's Escape (the computers may end
    a round at any moment: the dialog takes that Escape, a second closes the menu)."""
    dialog = page.get_by_role("dialog")
    shown = False
    for _ in range(3):
        if dialog.count() > 0 and dialog.first.is_visible():
            shown = True
            page.keyboard.press("Escape")
            expect(dialog).to_have_count(0)
        switch = page.get_by_role("button", name=name, exact=True)
        opened = not switch.is_visible()
        try:
            setting(page, name).click(timeout=5000)
        except PlaywrightTimeout:
            if dialog.count() == 0:
                raise
            continue  # a result came up over the menu: close it and reach the switch again
        if opened:
            menu = page.locator("#settings-menu")
            page.keyboard.press("Escape")
            if menu.is_visible():  # a result came up meanwhile and took that Escape
                page.keyboard.press("Escape")
            expect(menu).to_be_hidden()
        break
    else:
        raise AssertionError(f"a result's dialog kept covering the switch {name!r}")
    if shown:
        page.get_by_role("button", name=SHOW_RESULT).click()
        expect(page.get_by_role("dialog")).to_be_visible()


def actionable(w: Words) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(x) for x in (w.your_turn, w.press_next, w.match_over)))


def hand_cards(page: Any, w: Words = EN) -> list[str]:
    group = page.get_by_role("group", name=w.hand)
    # One atomic read: the hand may be re-rendered at any moment.
    names: list[str] = group.get_by_role("button").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    return names


def decide(
    page: Any,
    rng: random.Random,
    w: Words = EN,
    *,
    knock: bool = True,
    timeout: float = 15_000,
    on_round_end: Any = None,
) -> str:
    """Wait until this seat has something to do and do one thing; returns what it did.
    With ``knock=False`` it never ends the round: no knock and no gin, an ordinary
    discard instead (a person may always play on)."""
    st = status(page, w)
    expect(st).to_have_text(actionable(w), timeout=timeout)
    text = st.inner_text()
    if w.match_over in text:
        return "match_over"
    if w.press_next in text:
        if on_round_end is not None:
            on_round_end()
        page.get_by_role("button", name=w.next_round).click()
        expect(st).not_to_contain_text(w.press_next, timeout=timeout)
        return "next_round"
    if w.upcard in text:
        # The pile is named as it shows, its card first ("9♦, take the upcard"): a part of
        # the name for it, the whole name for Pass.
        take = rng.random() < 0.3
        page.get_by_role("button", name=w.take if take else w.pass_, exact=not take).click()
        return "upcard"
    if w.last_discard in text:
        page.get_by_role("button", name=w.pass_, exact=True).click()
        return "last_discard"
    if w.draw in text:
        names = [w.draw_stock]
        if page.get_by_role("button", name=w.draw_discard).count():
            names.append(w.draw_discard)
        page.get_by_role("button", name=rng.choice(names)).click()
        return "draw"
    if w.discard in text:
        if knock and w.can_gin in text:
            page.get_by_role("button", name=w.gin, exact=True).click()
            return "gin"
        if knock and w.can_knock in text:
            choose = page.get_by_role("button", name=w.choose_card)
            if rng.random() < 0.5 and choose.count():
                # Pick the face-down card yourself: the hand buttons now knock.
                choose.click()
                expect(choose).to_have_attribute("aria-pressed", "true")
                hand = page.get_by_role("group", name=w.hand)
                rng.choice(hand.get_by_role("button", disabled=False).all()).click()
                return "knock"
            page.get_by_role("button", name=w.knock, exact=True).click()
            return "knock"
        group = page.get_by_role("group", name=w.hand)
        cards = group.get_by_role("button", disabled=False).evaluate_all(
            "els => els.map(e => [e.getAttribute('aria-label'),"
            " e.getAttribute('aria-description') || ''])"
        )
        name = pick_discard(cards, rng)
        group.get_by_role("button", name=name, exact=True).click()
        return "discard"
    raise AssertionError(f"no decision found in status: {text!r}")


def play_until(
    page: Any,
    rng: random.Random,
    stop: set[str],
    w: Words = EN,
    limit: int = 400,
    knock: bool = True,
) -> str:
    for _ in range(limit):
        did = decide(page, rng, w, knock=knock)
        if did in stop:
            return did
    raise AssertionError("the game did not reach the expected point")


RANK_WORDS = {
    "King": 13,
    "Queen": 12,
    "Jack": 11,
    "Ace": 1,
    "König": 13,
    "Dame": 12,
    "Bube": 11,
    "Ass": 1,
}


def _rank(name: str) -> int:
    for word in name.split():
        if word in RANK_WORDS:
            return RANK_WORDS[word]
        if word.isdigit():
            return int(word)
    return 0


def pick_discard(cards: list[list[str]], rng: random.Random) -> str:
    """Mostly a high unmatched card (the page says which cards are deadwood), sometimes any."""
    loose = [name for name, desc in cards if desc.endswith(("deadwood", "Restkarte"))]
    if loose and rng.random() < 0.8:
        return max(loose, key=_rank)
    return str(rng.choice(cards)[0])


class _RoundOver(Exception):
    pass


def _round_over() -> None:
    raise _RoundOver


def play_round(page: Any, rng: random.Random, most: int = 400) -> None:
    """Play the person's decisions until the current round (or the match) is over."""
    try:
        for _ in range(most):
            if decide(page, rng, on_round_end=_round_over) == "match_over":
                return
    except _RoundOver:
        return


# ---------------------------------------------------------------- chouette (docs/rules.md §8)


@dataclass(frozen=True)
class ChouetteWords:
    """What a chouette table adds to a page language's names and phrases."""

    base: Words
    players: str
    your_name: str
    seat: str  # "Seat {n}"
    open_room: str
    take_seat: str
    invite: str
    box: str
    captain: str
    partner: str
    waiting: str
    suggest: str
    advice: str
    team_chat: str
    next_match: str
    you_win: str
    ledger_caption: str
    message: str
    send: str
    dealer: str


CH_EN = ChouetteWords(
    base=EN,
    players="Players",
    your_name="Your name",
    seat="Seat {n}",
    open_room="Open a room",
    take_seat="Take the seat",
    invite="Invite link",
    box="You are the box",
    captain="You are captain",
    partner="You are in the team",
    waiting="Waiting for players",
    suggest="Suggest ",
    advice="Advice",
    team_chat="Team chat",
    next_match="Next match",
    you_win="you win",
    ledger_caption="Players, their parts and the ledger",
    message="Message",
    send="Send",
    dealer="dealer",
)
CH_DE = ChouetteWords(
    base=DE,
    players="Spieler",
    your_name="Dein Name",
    seat="Platz {n}",
    open_room="Raum eröffnen",
    take_seat="Platz einnehmen",
    invite="Einladungslink",
    box="Du bist die Box",
    captain="Du bist Kapitän",
    partner="Du bist im Team",
    waiting="Warten auf Mitspieler",
    suggest="Vorschlagen: ",
    advice="Rat",
    team_chat="Team-Chat",
    next_match="Nächste Partie",
    you_win="Du gewinnst",
    ledger_caption="Spieler, ihre Rollen und die Abrechnung",
    message="Nachricht",
    send="Senden",
    dealer="Geber",
)


def open_room(page: Any, url: str, name: str) -> str:
    """Open a room for two people from the start page as ``name``; the invite link."""
    page.goto(url + "/")
    page.get_by_role("textbox", name="Your name").fill(name)
    page.get_by_role("button", name="Open a room").click()
    invite = page.get_by_role("textbox", name="Invite link")
    expect(invite).to_have_value(re.compile(r"/r/[\w-]+"))
    return str(invite.input_value())


def open_chouette(page: Any, url: str, name: str, seats: list[str], preset: str) -> str:
    """Open a chouette table from the start page: ``seats`` are the other seats' values
    ("friend" or "bot:<level>"), ``preset`` a rules preset's value. Returns the invite link
    (the table's address: a table of computers only offers none, it has no free seat)."""
    w = CH_EN
    page.goto(url + "/")
    page.get_by_role("textbox", name="Your name").fill(name)
    page.get_by_role("combobox", name=w.players).select_option(str(len(seats) + 1))
    page.get_by_role("combobox", name="Rules").select_option(preset)
    for n, seat in enumerate(seats, start=2):
        page.get_by_role("combobox", name=w.seat.format(n=n)).select_option(seat)
    page.get_by_role("button", name=w.open_room).click()
    expect(page).to_have_url(re.compile(r"/c/[\w-]+$"))
    if "friend" not in seats:
        return str(page.url)
    invite = page.get_by_role("textbox", name=w.invite)
    expect(invite).to_have_value(page.url)
    return str(invite.input_value())


def join_chouette(page: Any, link: str, name: str, w: ChouetteWords = CH_EN) -> None:
    page.goto(link)
    page.get_by_role("textbox", name=w.your_name).fill(name)
    page.get_by_role("button", name=w.take_seat).click()
    expect(status(page, w.base)).to_be_visible()


def chouette_role(page: Any, w: ChouetteWords = CH_EN) -> str:
    """The page's part at the table from its status line: box, captain or partner."""
    st = status(page, w.base)
    expect(st).to_contain_text(re.compile(f"{w.box}|{w.captain}|{w.partner}"))
    text = st.inner_text()
    if w.box in text:
        return "box"
    return "captain" if w.captain in text else "partner"


def try_decide(page: Any, rng: random.Random, w: Words = EN) -> str | None:
    """Do one thing if this page has something to do now; None when it has not."""
    text = status(page, w).inner_text()
    if not actionable(w).search(text):
        return None
    return decide(page, rng, w, timeout=5_000)


def ledger_rows(page: Any, w: ChouetteWords = CH_EN) -> list[tuple[str, int]]:
    """The players' table: (name, ledger) per row, the box first ("You" for one's own)."""
    table = page.get_by_role("table", name=w.ledger_caption)
    rows: list[list[str]] = table.locator("tbody tr").evaluate_all(
        "rows => rows.map(r => [r.cells[0].innerText, r.cells[r.cells.length - 1].innerText])"
    )
    return [(name, int(value.replace("\u2212", "-").replace("+", ""))) for name, value in rows]


def ledger(page: Any, w: ChouetteWords = CH_EN) -> dict[str, int]:
    """The ledger by player name (the names of a table of people differ)."""
    return dict(ledger_rows(page, w))
