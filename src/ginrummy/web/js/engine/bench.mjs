#!/usr/bin/env node
// `node bench.mjs [--hands N] [--seconds S] [--seed K] [--hands-from FILE|-]`: speed of
// the browser engine's meld maths, showdown and whole rounds, printed as one JSON
// object with the same figures as `ginrummy bench engine` (microseconds per call,
// timed around each call; the arrangement cache cleared first).
//
// The same hands as Python's bench: pipe them in, one hand per line, e.g.
//   .venv/bin/python -c 'import random; from ginrummy.engine import DECK
//   r = random.Random(1); [print(*r.sample(DECK, 10)) for _ in range(20000)]' \
//   | node src/ginrummy/web/js/engine/bench.mjs --hands-from -
// (the first 20,000 hands of `ginrummy bench engine --seed 1`.)

import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

import { DECK, parseCards, toMask } from "./cards.js";
import {
  bestArrangement,
  bestDiscards,
  clearCaches,
  deadwoodOfMask,
  meldsInMask,
} from "./melds.js";
import { apply, legalActions, newRound } from "./round.js";
import { Rules } from "./rules.js";
import { settle } from "./showdown.js";

/** @typedef {import("./cards.js").Card} Card */

const DENSE_HANDS = [
  "Ac 2c 3c 4c 5c Ad 2d 3d 4d 5d",
  "Ac 2c 3c 4c 5c Ad 2d 3d 4d 5d Ah",
  "Ac 2c 3c Ad 2d 3d Ah 2h 3h As",
  "Ac 2c 3c 4c Ad 2d 3d 4d Ah 2h 3h",
  "5c 6c 7c 5d 6d 7d 5h 6h 7h 5s 6s",
  "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc",
];

/** A small seeded generator (mulberry32): the bench's own hands, when none are given.
 * @param {number} seed */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** @template T @param {() => number} rnd @param {readonly T[]} items @param {number} k */
function sample(rnd, items, k) {
  const pool = [...items];
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(rnd() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, k);
}

/** @template T @param {(x: T) => unknown} fn @param {readonly T[]} inputs @returns {number[]} ns per call */
function timeEach(fn, inputs) {
  const out = [];
  for (const x of inputs) {
    const t0 = process.hrtime.bigint();
    fn(x);
    out.push(Number(process.hrtime.bigint() - t0));
  }
  return out;
}

/** @param {number[]} samples ns */
function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const round = (/** @type {number} */ ns) => Math.round(ns / 10) / 100;
  return {
    median_us: round(median),
    p99_us: round(sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))]),
    max_us: round(sorted[sorted.length - 1]),
  };
}

/** Knocker hands within the knock limit (built from melds) with random defenders.
 * @param {() => number} rnd @param {number} n @returns {[Card[], Card[]][]} */
function knockSituations(rnd, n) {
  /** @type {[Card[], Card[]][]} */
  const out = [];
  while (out.length < n) {
    const deck = sample(rnd, DECK, 52);
    const found = meldsInMask(toMask(deck.slice(0, 30)));
    const melds = sample(rnd, found, found.length);
    const held = new Set();
    for (const meld of melds) {
      const cards = DECK.filter((c) => Math.floor(meld / c.bit) % 2 === 1);
      if (cards.every((c) => !held.has(c)) && held.size + cards.length <= 10)
        for (const c of cards) held.add(c);
    }
    const knocker = [
      ...held,
      ...deck.filter((c) => !held.has(c)).slice(0, 10 - held.size),
    ];
    if (deadwoodOfMask(toMask(knocker)) > 10) continue;
    out.push([
      knocker,
      sample(
        rnd,
        DECK.filter((c) => !knocker.includes(c)),
        10,
      ),
    ]);
  }
  return out;
}

/** Random full rounds per second. @param {() => number} rnd @param {number} seconds */
function randomRounds(rnd, seconds) {
  const rules = new Rules();
  let done = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < seconds * 1000) {
    let state = newRound(rules, sample(rnd, DECK, 52), rnd() < 0.5 ? 0 : 1);
    while (state.result === null) {
      const legal = legalActions(state);
      state = apply(state, legal[Math.floor(rnd() * legal.length)]);
    }
    done++;
  }
  return done / ((performance.now() - t0) / 1000);
}

function main() {
  const { values } = parseArgs({
    options: {
      hands: { type: "string", default: "20000" },
      knocks: { type: "string", default: "2000" },
      seconds: { type: "string", default: "5" },
      seed: { type: "string", default: "1" },
      "hands-from": { type: "string" },
    },
  });
  const n = Number(values.hands);
  const rnd = generator(Number(values.seed));
  const progress = (/** @type {string} */ msg) =>
    process.stderr.write(`bench engine (node): ${msg}\n`);
  let hands10;
  if (values["hands-from"] !== undefined) {
    const text = readFileSync(
      values["hands-from"] === "-" ? 0 : values["hands-from"],
      "utf8",
    );
    hands10 = text
      .split("\n")
      .filter((l) => l.trim())
      .map(parseCards);
  } else {
    hands10 = Array.from({ length: n }, () => sample(rnd, DECK, 10));
  }
  const hands11 = Array.from({ length: n }, () => sample(rnd, DECK, 11));
  // Warm up the JIT on other hands first: a browser runs the engine for a whole match.
  for (let i = 0; i < 5000; i++) bestArrangement(sample(rnd, DECK, 10));
  clearCaches();
  progress(`bestArrangement on ${hands10.length} 10-card hands`);
  const ten = timeEach(bestArrangement, hands10);
  clearCaches();
  progress(`bestArrangement + bestDiscards on ${n} random 11-card hands`);
  const eleven = timeEach((h) => [bestArrangement(h), bestDiscards(h)], hands11);
  /** @type {Record<string, ReturnType<typeof summary>>} */
  const dense = {};
  for (const text of DENSE_HANDS) {
    const cards = parseCards(text);
    const samples = [];
    for (let i = 0; i < 200; i++) {
      clearCaches();
      samples.push(...timeEach(bestArrangement, [cards]));
    }
    dense[text] = summary(samples);
  }
  progress(`settle on ${values.knocks} knock situations`);
  const knocks = knockSituations(rnd, Number(values.knocks));
  const rules = new Rules();
  clearCaches();
  const settles = timeEach(([k, d]) => settle(k, d, rules), knocks);
  progress(`random full rounds for ${values.seconds} s`);
  const roundsPerSecond = randomRounds(rnd, Number(values.seconds));
  const result = {
    node: process.versions.node,
    seed: Number(values.seed),
    hands_from: values["hands-from"] ?? null,
    best_arrangement_10: summary(ten),
    best_arrangement_and_discards_11: summary(eleven),
    dense_hands_max_median_us: Math.max(...Object.values(dense).map((d) => d.median_us)),
    dense_hands: dense,
    settle: summary(settles),
    random_rounds_per_second: Math.round(roundsPerSecond * 10) / 10,
  };
  process.stdout.write(JSON.stringify(result, null, 2) + "\n");
}

main();
