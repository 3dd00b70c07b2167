"""The computer of a game on the device thinks in a Web Worker (web/js/bots/worker.js,
docs/browser-engine.md "Where the bots run"): offline too, every move it makes is the
worker's answer, so its thinking never runs on the page's thread. Played by role and
name only.

The page's longest task while the computer thinks is a figure, printed here (`pytest -s`)
and recorded in bench/RESULTS.md, not asserted: a timed check fails on a loaded machine
for what the machine did, not the code (the suite's three workers on two cores once
stretched the page's own rendering of a move to 102 ms), and docs/design.md's principle 8
keeps timings out of tests. What makes the page responsive is tested: the thinking is
the worker's."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import expect

from ginrummy.engine import Seat

from .helpers import EN, actionable, decide, status
from .test_device import device_page, saved_match, start_device
from .test_offline import wait_for_worker

pytestmark = pytest.mark.browser

# The levels whose thinking is measured, each by its name in the level menu (the person
# picks it there); a level that thinks longer joins with one entry.
LEVELS = {"expert": "Expert", "master": "Master"}
# The person's decisions in each game: a few computer turns each side of them.
DECISIONS = 14

# Before the page's own scripts: the page's long tasks (PerformanceObserver "longtask"),
# and each Worker the page starts, with every question posted to it and when its answer
# came (the decider's request and reply, bots/decider.js).
WATCH = """(() => {
  window.__longtasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      window.__longtasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: true });
  window.__workers = [];
  window.__questions = [];
  const Original = window.Worker;
  window.Worker = class extends Original {
    constructor(url, options) {
      super(url, options);
      window.__workers.push({ url: String(url), type: options?.type ?? "classic" });
      this.addEventListener("message", (event) => {
        const asked = window.__questions.find((q) => q.id === event.data?.id && !q.answer);
        if (asked) Object.assign(asked, { answered: performance.now(), answer: event.data });
      });
    }
    postMessage(message, ...rest) {
      window.__questions.push({ id: message.id, level: message.level, asked: performance.now(),
        answered: null, answer: null });
      return super.postMessage(message, ...rest);
    }
  };
})();"""

# The longest task that began while the computer thought (from a question to its answer),
# and the longest of all, in ms (0 when none was over 50 ms: only those are reported).
LONGEST = """() => {
  const during = window.__longtasks.filter((t) => window.__questions.some(
    (q) => q.answered !== null && t.start >= q.asked && t.start <= q.answered));
  const most = (tasks) => Math.max(0, ...tasks.map((t) => t.duration));
  return { thinking: most(during), any: most(window.__longtasks),
    questions: window.__questions.length,
    thinkMs: Math.max(0, ...window.__questions.map((q) => q.answered - q.asked)) };
}"""


def computer_moves(page: Any) -> list[str]:
    """The computer's actions in the saved game, in order (its rounds replayed by the
    Python engine)."""
    match = saved_match(page)
    rounds = list(match.played)
    if match.round is not None and all(r is not match.round for r in rounds):  # a round under way
        rounds.append(match.round)
    return [str(a) for r in rounds for seat, a in r.history if seat is Seat.TWO]


@pytest.mark.parametrize("level", LEVELS)
def test_offline_the_computer_thinks_in_a_worker_and_the_page_never_blocks(
    server: Any, new_page: Any, level: str
) -> None:
    page = device_page(new_page)
    page.context.add_init_script(WATCH)
    page.goto(server.url + "/")
    expect(page.get_by_role("button", name="Play against the computer")).to_be_enabled()
    wait_for_worker(page)  # the service worker has kept the build
    page.context.set_offline(True)
    page.reload()
    solo = page.get_by_role("region", name="Play alone")
    solo.get_by_role("combobox", name="Computer level").select_option(label=LEVELS[level])
    start_device(page)
    rng = random.Random(3)
    for _ in range(DECISIONS):
        if decide(page, rng) == "match_over":
            break
    expect(status(page)).to_have_text(actionable(EN))  # the computer has moved
    # One module worker, started from the kept build with no network, answered them all.
    workers = page.evaluate("() => window.__workers")
    assert [(w["url"].split("/static/", 1)[1], w["type"]) for w in workers] == [
        ("js/bots/worker.js", "module")
    ], workers
    questions = page.evaluate("() => window.__questions")
    assert len(questions) >= 3, questions  # the computer has moved a few times
    assert all(q["answer"] is not None for q in questions), questions
    assert {q["level"] for q in questions} == {level}
    # Every move the computer made is the worker's answer, in order.
    answers = [q["answer"]["action"] for q in questions]
    assert all(q["answer"]["error"] is None for q in questions), questions
    assert computer_moves(page) == answers
    print(f"{level}: {page.evaluate(LONGEST)}")  # the figure, for the record (pytest -s)
    assert not page.errors
