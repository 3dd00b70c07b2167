// The bots' decision times, wherever the bots run: `bench.mjs` times them in Node and
// `ginrummy bench chromium` (src/ginrummy/benchmarks/chromium.py) in a page of headless
// Chromium. A `.mjs` file, so the service worker never keeps it (server/static.py): no
// page of the game loads it.
//
//   const { views } = collect(400, 1);               // seeded strong-vs-strong matches
//   const figures = measure(views, ["expert", "master"], 1, cpuMs);

import { DECK } from "../engine/cards.js";
import { MatchPhase, apply, deal, matchTurn, newMatch } from "../engine/match.js";
import { Rules } from "../engine/rules.js";
import { viewForSeat } from "../engine/views.js";
import { PortableRandom, makeBot, tip } from "./index.js";

/** @typedef {import("../engine/views.js").SeatView} SeatView */
/** @typedef {import("../engine/match.js").MatchState} MatchState */
/** @typedef {import("../engine/seats.js").Seat} Seat */

/**
 * `n` decisions from seeded strong-vs-strong matches: each one's match, seat and view.
 * @param {number} n @param {number} seed
 * @returns {{views: SeatView[], decisions: {match: MatchState, seat: Seat}[]}}
 */
export function collect(n, seed) {
  const rng = new PortableRandom(seed);
  const bot = makeBot("strong");
  /** @type {SeatView[]} */
  const views = [];
  /** @type {{match: MatchState, seat: Seat}[]} */
  const decisions = [];
  while (views.length < n) {
    let m = newMatch(new Rules(), 0);
    while (m.phase !== MatchPhase.OVER && views.length < n) {
      if (m.phase === MatchPhase.DEAL) {
        const deck = DECK.slice();
        rng.shuffle(deck); // Python's random.shuffle, as `bench bots` deals
        m = deal(m, deck);
        continue;
      }
      const seat = /** @type {Seat} */ (matchTurn(m));
      const view = viewForSeat(m, seat);
      views.push(view);
      decisions.push({ match: m, seat });
      m = apply(m, bot(view, rng));
    }
  }
  return { views, decisions };
}

/** @param {number[]} sorted @param {number} q */
const quantile = (sorted, q) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** @param {number} x */
const round = (x) => Math.round(x * 1000) / 1000;

/**
 * The median, p99 and maximum of `times` (ms), rounded to µs.
 * @param {number[]} times @returns {Record<string, number>}
 */
export function summary(times) {
  const sorted = times.slice().sort((a, b) => a - b);
  return {
    median_ms: round(quantile(sorted, 0.5)),
    p99_ms: round(quantile(sorted, 0.99)),
    max_ms: round(sorted[sorted.length - 1]),
  };
}

/**
 * Each decision of `decide` on `views` timed alone (a fresh generator a view): the
 * wall clock's median, p99 and maximum in ms, and with `cpuMs` (the process's CPU time
 * so far, in ms; Node has it, a page has not) the CPU time's median and p99.
 * @param {(view: SeatView, rng: PortableRandom) => unknown} decide
 * @param {SeatView[]} views @param {number} seed @param {(() => number) | null} cpuMs
 * @returns {Record<string, number>}
 */
export function timeIt(decide, views, seed, cpuMs) {
  /** @type {number[]} */
  const cpu = [];
  const times = views.map((view, i) => {
    const rng = new PortableRandom(seed + i);
    const used = cpuMs ? cpuMs() : 0;
    const start = performance.now();
    decide(view, rng);
    const wall = performance.now() - start;
    if (cpuMs) cpu.push(cpuMs() - used);
    return wall;
  });
  const out = summary(times);
  cpu.sort((a, b) => a - b);
  if (cpuMs) {
    // CPU time (as `ginrummy bench bots` reports it): steadier on a busy machine.
    out.cpu_median_ms = round(quantile(cpu, 0.5));
    out.cpu_p99_ms = round(quantile(cpu, 0.99));
  }
  return out;
}

/**
 * Every level's times on `views` (after a warm-up of the JIT), and the coach's.
 * @param {SeatView[]} views @param {string[]} levels @param {number} seed
 * @param {(() => number) | null} cpuMs
 * @returns {Record<string, Record<string, number>>}
 */
export function measure(views, levels, seed, cpuMs) {
  for (const level of levels) makeBot(level); // an unknown level fails before the work
  /** @type {Record<string, Record<string, number>>} */
  const out = {};
  for (const level of levels) {
    const bot = makeBot(level);
    timeIt(bot, views.slice(0, level === "master" ? 20 : 200), 7, null); // warm up the JIT
    out[level] = timeIt(bot, views, seed, cpuMs);
  }
  out.coach = timeIt((view) => tip(view), views, 0, cpuMs);
  return out;
}
