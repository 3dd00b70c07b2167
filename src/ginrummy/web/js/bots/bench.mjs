#!/usr/bin/env node
// `node bench.mjs [--decisions N] [--seed K] [--levels a,b]`: decision times of every
// level (or of the levels named) in the browser bots (and the coach), like `ginrummy
// bench bots`: N decision views from seeded strong-vs-strong matches, each level timed
// around each call (fresh PortableRandom per view), printed as one JSON object in
// milliseconds (median, p99, max; and the process's CPU time, median and p99). `master`
// searches: `--levels master --decisions 400`.

import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";

import { DECK } from "../engine/cards.js";
import { MatchPhase, apply, deal, matchTurn, newMatch } from "../engine/match.js";
import { Rules } from "../engine/rules.js";
import { viewForSeat } from "../engine/views.js";
import { LEVELS, PortableRandom, makeBot, tip } from "./index.js";

/** @typedef {import("../engine/views.js").SeatView} SeatView */

/** @param {PortableRandom} rng */
function shuffled(rng) {
  const deck = DECK.slice();
  for (let i = deck.length - 1; i > 0; i--) {
    const j = rng.randrange(i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** `n` decision views from seeded strong-vs-strong matches. @param {number} n @param {number} seed */
function collect(n, seed) {
  const rng = new PortableRandom(seed);
  const bot = makeBot("strong");
  /** @type {SeatView[]} */
  const views = [];
  while (views.length < n) {
    let m = newMatch(new Rules(), 0);
    while (m.phase !== MatchPhase.OVER && views.length < n) {
      if (m.phase === MatchPhase.DEAL) {
        m = deal(m, shuffled(rng));
        continue;
      }
      const view = viewForSeat(m, /** @type {0 | 1} */ (matchTurn(m)));
      views.push(view);
      m = apply(m, bot(view, rng));
    }
  }
  return views;
}

/** @param {number[]} times sorted */
const quantile = (/** @type {number[]} */ times, /** @type {number} */ q) =>
  times[Math.min(times.length - 1, Math.floor(q * times.length))];

/** @param {(view: SeatView, rng: PortableRandom) => unknown} decide @param {SeatView[]} views @param {number} seed */
function timeIt(decide, views, seed) {
  /** @type {number[]} */
  const cpu = [];
  const times = views.map((view, i) => {
    const rng = new PortableRandom(seed + i);
    const before = process.cpuUsage();
    const start = performance.now();
    decide(view, rng);
    const wall = performance.now() - start;
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
    return wall;
  });
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const round = (/** @type {number} */ x) => Math.round(x * 1000) / 1000;
  return {
    median_ms: round(quantile(times, 0.5)),
    p99_ms: round(quantile(times, 0.99)),
    max_ms: round(times[times.length - 1]),
    // CPU time of the process (as `ginrummy bench bots` reports it): steadier on a
    // busy machine than the wall clock.
    cpu_median_ms: round(quantile(cpu, 0.5)),
    cpu_p99_ms: round(quantile(cpu, 0.99)),
  };
}

const { values } = parseArgs({
  options: {
    decisions: { type: "string", default: "2000" },
    seed: { type: "string", default: "1" },
    levels: { type: "string", default: LEVELS.join(",") },
  },
});
const levels = values.levels.split(",").filter((x) => x);
for (const level of levels) makeBot(level); // an unknown level fails before the work
const views = collect(Number(values.decisions), Number(values.seed));
/** @type {Record<string, unknown>} */
const out = { decisions: views.length, node: process.version };
for (const level of levels) {
  const bot = makeBot(level);
  timeIt(bot, views.slice(0, level === "master" ? 20 : 200), 7); // warm up the JIT
  out[level] = timeIt(bot, views, Number(values.seed));
}
out.coach = timeIt((view) => tip(view), views, 0);
console.log(JSON.stringify(out, null, 1));
