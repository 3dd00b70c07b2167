"""Chouette in the browser (docs/rules.md §8, issue 13): three people in three browser
contexts play a match to its end with advice given and taken, then the next match starts
with the right box and dealer; two people and a computer player do the same. Every
click goes by role and accessible name."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import (
    CH_DE,
    CH_EN,
    SHOW_RESULT,
    ChouetteWords,
    Words,
    actionable,
    chouette_role,
    decide,
    join_chouette,
    ledger,
    ledger_rows,
    open_chouette,
    status,
    try_decide,
    use_setting,
)

pytestmark = pytest.mark.browser

Seat = tuple[str, Any, ChouetteWords]  # name, page, words


TEAM_ONLY = {"advice", "team_chat", "team_chat_history"}


def record_frames(page: Any) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(json.loads(f))))
    return frames


def wait_all_seated(seats: list[Seat]) -> None:
    for _, page, w in seats:
        expect(status(page, w.base)).not_to_contain_text(w.waiting, timeout=20_000)
        expect(status(page, w.base)).to_contain_text(re.compile(f"{w.box}|{w.captain}|{w.partner}"))


def roles(seats: list[Seat]) -> dict[str, Seat]:
    return {chouette_role(page, w): (name, page, w) for name, page, w in seats}


def idle(page: Any) -> None:
    """Nobody at the table had anything to do (a computer or an animation is due): wait
    a little before asking every page again, instead of asking round after round at
    once, which kept the browsers and the test busy doing nothing."""
    page.wait_for_timeout(40)


def play_on(page: Any, rng: random.Random, w: Words) -> str | None:
    """As ``try_decide``, but never ending the round (``decide``'s ``knock=False``)."""
    if not actionable(w).search(status(page, w).inner_text()):
        return None
    return decide(page, rng, w, knock=False, timeout=5_000)


def play_until_captain_decides(seats: list[Seat], captain: Seat, rng: random.Random) -> None:
    """The others play (the box may move first) until the captain has a decision. The
    box plays on without knocking: the captain deals the first round, so the box is
    offered the upcard first, and a box that took it and knocked (or went gin) would
    end the first-to-knock match before the captain ever decided."""
    _, page, w = captain
    deadline = time.monotonic() + 60
    while w.base.your_turn not in status(page, w.base).inner_text():
        assert time.monotonic() < deadline, "the captain never had a decision"
        acted = [play_on(other, rng, ow.base) for _, other, ow in seats if other is not page]
        if not any(acted):
            idle(page)


def advised_table(ann: Any, bob: Any, cleo: Any, link: str, rng: random.Random) -> dict[str, Seat]:
    """Bob and Cleo join Ann's three-seat chouette; play until the captain decides, and
    the partner points at the captain's first card and suggests an action, which the
    captain sees. The seats by role: box, captain, partner."""
    join_chouette(bob, link, "Bob")
    join_chouette(cleo, link, "Cleo")
    seats: list[Seat] = [("Ann", ann, CH_EN), ("Bob", bob, CH_EN), ("Cleo", cleo, CH_EN)]
    wait_all_seated(seats)
    parts = {chouette_role(page, w): (name, page, w) for name, page, w in seats}
    assert set(parts) == {"box", "captain", "partner"}, parts
    play_until_captain_decides(seats, parts["captain"], rng)
    captain_name, captain, _ = parts["captain"]
    _, partner, _ = parts["partner"]
    partner.get_by_role("group", name=re.compile(captain_name)).get_by_role("button").first.click()
    suggest = partner.get_by_role("button", name=re.compile("^" + re.escape(CH_EN.suggest)))
    suggest.first.click()
    expect(captain.get_by_role("complementary", name=CH_EN.advice)).to_be_visible()
    return parts


def click_highlighted(page: Any) -> str:
    """The captain takes the advice: the control the suggestion lit up, by its name."""
    lit = page.locator(".felt .recommended").first
    expect(lit).to_be_visible()
    name = str(lit.get_attribute("aria-label") or lit.inner_text()).strip()
    page.get_by_role("button", name=name, exact=True).click()
    return name


def give_and_take_advice(partner: Seat, captain: Seat) -> None:
    """The partner points at a card and suggests an action; the captain sees both with the
    partner's name, the suggested control highlighted, and plays it."""
    p_name, p_page, pw = partner
    c_name, c_page, cw = captain
    hand = p_page.get_by_role("group", name=re.compile(c_name))
    first_card = hand.get_by_role("button").first
    # "Q♥, Queen of hearts": the advice names the card in words.
    card_name = str(first_card.get_attribute("aria-label")).split(", ", 1)[-1]
    first_card.click()
    advice = c_page.get_by_role("complementary", name=cw.advice)
    expect(advice).to_contain_text(p_name)
    suggest = p_page.get_by_role("button", name=re.compile("^" + re.escape(pw.suggest)))
    expect(suggest.first).to_be_visible()
    choice = suggest.first.inner_text()
    suggest.first.click()
    expect(suggest.first).to_have_attribute("aria-pressed", "true")
    # A partner's newer suggestion replaces their older one.
    expect(advice.get_by_role("listitem")).to_have_count(1)
    expect(advice.get_by_role("listitem")).not_to_contain_text(str(card_name))
    expect(advice).to_contain_text(p_name)
    taken = click_highlighted(c_page)
    # The move is made: the suggestions of that decision are gone for everyone.
    expect(c_page.get_by_role("complementary", name=cw.advice)).to_have_count(0)
    assert taken and choice


def team_chat_stays_in_team(partner: Seat, captain: Seat, box: Seat) -> None:
    _, p_page, pw = partner
    _, c_page, cw = captain
    _, b_page, bw = box
    team = p_page.get_by_role("region", name=pw.team_chat)
    team.get_by_role("textbox", name=pw.message).fill("Keep the spades!")
    team.get_by_role("button", name=pw.send).click()
    expect(c_page.get_by_role("log", name=cw.team_chat)).to_contain_text("Keep the spades!")
    expect(b_page.get_by_role("log", name=bw.team_chat)).to_have_count(0)
    expect(b_page.get_by_role("log", name="Chat")).not_to_contain_text("Keep the spades!")


def reload_keeps_the_seat(partner: Seat) -> None:
    """A reload resumes the seat: the same part, the team chat's history again."""
    _, page, w = partner
    page.reload()
    expect(status(page, w.base)).to_contain_text(w.partner)
    expect(page.get_by_role("log", name=w.team_chat)).to_contain_text("Keep the spades!")


def watch(page: Any, link: str, parts: dict[str, Seat], artifacts: Path) -> list[dict[str, Any]]:
    """A fourth visitor finds every seat taken and watches: no hand, no team chat. Returns
    the frames the watcher receives, from now on."""
    frames = record_frames(page)
    page.goto(link)
    expect(status(page)).to_contain_text("You are watching")
    expect(page.get_by_role("log", name="Announcements")).to_contain_text("You can watch")
    expect(page.get_by_role("group", name=re.compile("hand", re.I))).to_have_count(0)
    expect(page.get_by_role("log", name=CH_EN.team_chat)).to_have_count(0)
    expect(page.get_by_role("button", name=re.compile("^Suggest "))).to_have_count(0)
    for name, _page, _w in parts.values():
        expect(page.get_by_role("table", name=CH_EN.ledger_caption)).to_contain_text(name)
    page.screenshot(path=str(artifacts / "chouette-watcher.png"), full_page=True)
    return frames


def play_to_match_end(seats: list[Seat], rng: random.Random, limit_s: float = 300) -> None:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        over, acted = 0, False
        for _, page, w in seats:
            if w.base.match_over in status(page, w.base).inner_text():
                over += 1
                continue
            acted = try_decide(page, rng, w.base) is not None or acted
        if over == len(seats):
            return
        if not acted:
            idle(seats[0][1])
    raise AssertionError("the chouette match did not end in time")


def check_settled(seats: list[Seat]) -> dict[str, int]:
    _, page, w = seats[0]
    expect(page.get_by_role("heading", name=re.compile("Settlement of match 1"))).to_be_visible()
    book = ledger(page, w)
    assert sum(book.values()) == 0 and any(book.values()), book
    link = page.get_by_role("link", name="Download the table's record (JSON)")
    href = link.evaluate("a => a.href")  # the absolute address
    record = page.request.get(href).json()
    assert record["kind"] == "chouette"
    return book


def next_match(seats: list[Seat]) -> None:
    for _, page, w in seats:
        page.get_by_role("button", name=w.next_match).click()
    for _, page, w in seats:
        expect(status(page, w.base)).not_to_contain_text(w.base.match_over, timeout=20_000)


def check_next_box_and_dealer(before: dict[str, Seat], after: dict[str, Seat]) -> None:
    """docs/rules.md §8: the winner of the last round is box; for three players the
    former partner meets them first and deals."""
    assert after["captain"][0] == before["partner"][0]
    new_box_name, new_box_page, nw = after["box"]
    assert new_box_name in (before["box"][0], before["captain"][0])
    dealer_row = new_box_page.get_by_role("row", name=re.compile(re.escape(before["partner"][0])))
    expect(dealer_row).to_contain_text(nw.dealer)


def test_three_people_play_a_chouette_match_with_advice_then_the_next_match(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    rng = random.Random(13)
    ann = new_page()
    frames = {"Ann": record_frames(ann)}
    link = open_chouette(ann, server.url, "Ann", ["friend", "friend"], "first-to-knock")
    expect(status(ann)).to_contain_text(CH_EN.waiting)
    ann.screenshot(path=str(artifacts / "chouette-invite.png"), full_page=True)
    bob = new_page(width=400, height=860)
    frames["Bob"] = record_frames(bob)
    join_chouette(bob, link, "Bob")
    cleo = new_page(locale="de-DE")
    frames["Cleo"] = record_frames(cleo)
    join_chouette(cleo, link, "Cleo", CH_DE)
    seats: list[Seat] = [("Ann", ann, CH_EN), ("Bob", bob, CH_EN), ("Cleo", cleo, CH_DE)]
    wait_all_seated(seats)
    first = roles(seats)
    assert set(first) == {"box", "captain", "partner"}
    for _, page, _w in seats:
        assert not page.errors  # type: ignore[attr-defined]
    frames["watcher"] = watch(new_page(width=700), link, first, artifacts)
    play_until_captain_decides(seats, first["captain"], rng)
    give_and_take_advice(first["partner"], first["captain"])
    team_chat_stays_in_team(first["partner"], first["captain"], first["box"])
    reload_keeps_the_seat(first["partner"])
    for name, page, _w in seats:
        page.screenshot(path=str(artifacts / f"chouette-{name.lower()}.png"), full_page=True)
    play_to_match_end(seats, rng)
    book = check_settled(seats)
    box_name, box_page, bw = first["box"]
    box_won = bw.you_win in status(box_page, bw.base).inner_text()
    for name, page, _w in seats:
        page.screenshot(path=str(artifacts / f"chouette-end-{name.lower()}.png"), full_page=True)
    next_match(seats)
    second = roles(seats)
    expected_box = box_name if box_won else first["captain"][0]
    assert second["box"][0] == expected_box, (first, second, book)
    check_next_box_and_dealer(first, second)
    # What the team says to itself never reaches the box (of match 1); the team got it.
    kinds = {name: {f["type"] for f in got} for name, got in frames.items()}
    assert not kinds[first["box"][0]] & TEAM_ONLY, kinds
    assert "view" in kinds["watcher"] and not kinds["watcher"] & TEAM_ONLY, kinds
    assert {"advice", "team_chat"} <= kinds[first["partner"][0]] & kinds[first["captain"][0]]
    for _, page, _w in seats:
        assert not page.errors  # type: ignore[attr-defined]


def seat_with_a_computer_partner(new_page: Any, url: str) -> list[Seat]:
    """Ann and Bob open tables with a computer in the third seat until the seat draw makes
    the computer a partner (one table in three), so that the captain can ask it: 20 tables
    miss it with a chance of (2/3)^20, 0.03%."""
    for _ in range(20):
        ann = new_page()
        link = open_chouette(ann, url, "Ann", ["friend", "bot:casual"], "first-to-knock")
        bob = new_page(width=400, height=860)
        join_chouette(bob, link, "Bob")
        seats: list[Seat] = [("Ann", ann, CH_EN), ("Bob", bob, CH_EN)]
        wait_all_seated(seats)
        if {chouette_role(ann), chouette_role(bob)} == {"box", "captain"}:
            return seats
        ann.context.close()
        bob.context.close()
    raise AssertionError("the computer never drew the partner's seat")


def test_two_people_and_a_computer_play_a_chouette_match(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    rng = random.Random(7)
    seats = seat_with_a_computer_partner(new_page, server.url)
    people = roles(seats)
    captain = people["captain"]
    # The rules line names the preset once: "First to knock" is its target too.
    main = seats[0][1].get_by_role("main")
    expect(main).to_contain_text("Round 1 · First to knock · Match 1")
    expect(main).not_to_contain_text(re.compile("first to knock · first to knock", re.I))
    _, page, w = captain
    play_until_captain_decides(seats, captain, rng)
    page.get_by_role("button", name="Ask the computer partner").click()
    advice = page.get_by_role("complementary", name=w.advice)
    expect(advice).to_contain_text("(computer) suggests")
    page.screenshot(path=str(artifacts / "chouette-computer-advice.png"), full_page=True)
    click_highlighted(page)
    expect(advice).to_have_count(0)
    play_to_match_end(seats, rng)
    check_settled(seats)
    box_name, box_page, bw = people["box"]
    box_won = bw.you_win in status(box_page, bw.base).inner_text()
    next_match(seats)
    # The winner of the last round is box; the computer, who sat out, meets them and deals.
    after = roles(seats)
    expected_box = box_name if box_won else captain[0]
    assert set(after) == {"box", "partner"}, "the computer is captain of the next match"
    assert after["box"][0] == expected_box
    _, new_box_page, nw = after["box"]
    expect(new_box_page.get_by_role("row", name=re.compile("Casual"))).to_contain_text(nw.dealer)
    # The box resigns match 2: the team wins it, and it is settled at no less than 0.
    new_box_page.get_by_role("button", name="Resign").click()
    new_box_page.get_by_role("button", name="Yes, resign").click()
    expect(status(new_box_page)).to_contain_text("The match is over: Team wins. You resigned.")
    expect(new_box_page.get_by_role("heading", name="Settlement of match 2")).to_be_visible()
    book = ledger(new_box_page)
    assert sum(book.values()) == 0, book
    _, partner_page, _pw = after["partner"]
    expect(status(partner_page)).to_contain_text("Your team wins")
    expect(partner_page.get_by_role("button", name="Resign")).to_have_count(0)
    for _, page, _w in seats:
        assert not page.errors  # type: ignore[attr-defined]


def test_one_person_and_four_computers_at_a_table_of_five(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    """The largest table: the box settles with each of four team members."""
    rng = random.Random(5)
    ann = new_page(width=390, height=844)
    open_chouette(ann, server.url, "Ann", ["bot:casual"] * 4, "first-to-knock")
    seats: list[Seat] = [("Ann", ann, CH_EN)]
    wait_all_seated(seats)
    table = ann.get_by_role("table", name=CH_EN.ledger_caption)
    expect(table.locator("tbody tr")).to_have_count(5)
    # No seat is free, so nobody is to be invited; the computers are called by their
    # level as the level menu names it, numbered by seat, in the page's language.
    expect(ann.get_by_role("heading", name="Invite your friends")).to_have_count(0)
    for n in range(2, 6):
        expect(table).to_contain_text(f"Casual {n}")
    use_setting(ann, "Deutsch")
    german = ann.get_by_role("table", name=CH_DE.ledger_caption)
    for n in range(2, 6):
        expect(german).to_contain_text(f"Gelegenheitsspieler {n}")
    expect(german).not_to_contain_text("Casual")
    expect(ann.get_by_role("heading", name="Lade deine Freunde ein")).to_have_count(0)
    use_setting(ann, "English")
    ann.screenshot(path=str(artifacts / "chouette-five-phone.png"), full_page=True)
    play_to_match_end(seats, rng)
    # The quick computers may have ended the match while a setting was being used, its
    # dialog then closed by an Escape to reach the menu: open it again, as a person would.
    reopen = ann.get_by_role("button", name=SHOW_RESULT)
    if reopen.count() > 0:
        reopen.click()
    expect(ann.get_by_role("heading", name="Settlement of match 1")).to_be_visible()
    (_, box), *team = ledger_rows(ann)  # the box first
    assert len(team) == 4 and len({v for _, v in team}) == 1, team
    assert box == -4 * team[0][1] != 0, (box, team)
    assert not ann.errors  # type: ignore[attr-defined]


def test_each_other_persons_seat_has_a_report_or_block_button(server: Any, new_page: Any) -> None:
    """As at a two-player table (docs/accounts.md): the table's list of players offers
    "Report or block" for every other person's seat, not one's own or a computer's."""
    ann = new_page()
    link = open_chouette(ann, server.url, "Ann", ["friend", "bot:casual"], "first-to-knock")
    bob = new_page()
    join_chouette(bob, link, "Bob")
    seats: list[Seat] = [("Ann", ann, CH_EN), ("Bob", bob, CH_EN)]
    wait_all_seated(seats)
    for me, other, page in (("Ann", "Bob", ann), ("Bob", "Ann", bob)):
        players = page.get_by_role("region", name="The table")
        peers = players.get_by_role("button", name=re.compile("^Report or block"))
        expect(peers).to_have_count(1)
        expect(peers).to_have_accessible_name(re.compile(f"^Report or block {other}"))
        expect(players.get_by_role("button", name=re.compile(f"or block {me}"))).to_have_count(0)
    bob.get_by_role("region", name="The table").get_by_role(
        "button", name=re.compile("^Report")
    ).click()
    expect(bob.get_by_role("dialog")).to_contain_text("Ann")
    for _, page, _w in seats:
        assert not page.errors  # type: ignore[attr-defined]
