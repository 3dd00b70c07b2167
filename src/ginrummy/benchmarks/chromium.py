"""``ginrummy bench chromium``: the computer players in headless Chromium.

Starts the server on loopback (as ``bench web`` does) and opens a page of it in headless
Chromium (Playwright, ``--chromium``), which

1. times every level's decisions (``--levels``) on the page's own thread, one at a
   time, on the positions ``bench bots`` and ``node src/ginrummy/web/js/bots/bench.mjs``
   time (``--decisions`` from seeded strong-vs-strong matches;
   ``web/js/bots/timing.mjs``): the wall clock's median, p99 and maximum in ms (a page
   has no CPU clock; the figures include what else the machine ran);
2. asks ``--think`` (``master`` by default) ``--asks`` of those decisions through the
   game's own decider (``web/js/bots/decider.js``: a module Web Worker, as a game on the
   device asks its computer), one after the other, and watches the page meanwhile:
   ``answer`` is each answer's time from question to reply (the first one starts the
   worker), ``longest_task_ms`` the page's longest task (``PerformanceObserver``
   long tasks: 50 ms or more; 0 when there was none) while the worker thought.

One JSON object on stdout.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ginrummy.benchmarks.web import SOURCE, start_server

# In the page, at the site's origin: the bots' modules as the game loads them.
RUN = """async ({ decisions, seed, levels, asks, think }) => {
  const { collect, measure, summary } = await import("/static/js/bots/timing.mjs");
  const bots = await import("/static/js/bots/index.js");
  const { makeDecider } = await import("/static/js/bots/decider.js");
  const { views, decisions: questions } = collect(decisions, seed);
  const times = measure(views, levels, seed, null);
  // The long tasks of the timing above are over and not watched (no buffered entries).
  await new Promise((resolve) => setTimeout(resolve, 100));
  const tasks = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push(entry.duration);
  });
  observer.observe({ type: "longtask" });
  const decider = makeDecider(bots);
  const answers = [];
  let rng = new bots.PortableRandom(seed).state;
  for (const { match, seat } of questions.slice(0, asks)) {
    const asked = performance.now();
    const answer = await decider.decide({ level: think, match, seat, rng });
    answers.push(performance.now() - asked);
    if (answer.error !== null) throw new Error(answer.error);
    rng = answer.rng;
  }
  await new Promise((resolve) => setTimeout(resolve, 100));  // the last entries
  observer.disconnect();
  const where = decider.where;
  decider.close();
  return { times, answers: summary(answers), asks: answers.length, tasks, where,
    decisions: views.length };
}"""


def measure(browser: Any, url: str, options: dict[str, Any]) -> dict[str, Any]:
    """The figures of one page of ``url`` (see the module)."""
    page = browser.new_page()
    try:
        page.goto(url + "/api/health")  # a document of the site's origin, without the app
        found = page.evaluate(RUN, options)
    finally:
        page.close()
    return {
        "decisions": found["decisions"],
        "browser": browser.version,
        **found["times"],
        "worker": {
            "level": options["think"],
            "asks": found["asks"],
            "where": found["where"],
            "answer": found["answers"],
            "longest_task_ms": round(max(found["tasks"], default=0.0), 1),
            "long_tasks": len(found["tasks"]),
        },
    }


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="ginrummy bench chromium", description=__doc__)
    parser.add_argument("--decisions", type=int, default=400, help="positions (default 400)")
    parser.add_argument("--seed", type=int, default=1, help="the positions' seed (default 1)")
    parser.add_argument(
        "--levels", default="expert,master", help="the levels timed (default expert,master)"
    )
    parser.add_argument("--think", default="master", help="the level asked through the worker")
    parser.add_argument("--asks", type=int, default=100, help="questions to the worker")
    parser.add_argument(
        "--chromium", default="/usr/bin/chromium", help="the browser (default /usr/bin/chromium)"
    )
    args = parser.parse_args(argv)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("ginrummy bench chromium needs Playwright: pip install -e '.[test]'", file=sys.stderr)
        return 2
    options = {
        "decisions": args.decisions,
        "seed": args.seed,
        "levels": [x for x in args.levels.split(",") if x],
        "asks": args.asks,
        "think": args.think,
    }
    data_dir = Path(tempfile.mkdtemp(prefix="ginrummy-bench-chromium-"))
    proc, port = start_server(SOURCE, data_dir)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=args.chromium,
                args=[
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                ],
            )
            try:
                result = measure(browser, f"http://127.0.0.1:{port}", options)
            finally:
                browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(data_dir, ignore_errors=True)
    print(json.dumps(result, indent=2))
    return 0
