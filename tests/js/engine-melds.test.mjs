// melds.js: arrangements, deadwood and best discards, against a brute-force oracle
// written from docs/rules.md §2 (subsets of the hand, no masks, no tables).
import { test } from "node:test";
import assert from "node:assert/strict";
import { DECK, parseCards, toMask } from "../../src/ginrummy/web/js/engine/cards.js";
import {
  allArrangements,
  arrangementOfMask,
  bestArrangement,
  bestDiscards,
  deadwoodOfMask,
  discardDeadwoods,
  isMeld,
  meldsInMask,
} from "../../src/ginrummy/web/js/engine/melds.js";
import { DuplicateCardError } from "../../src/ginrummy/web/js/engine/errors.js";

const value = (c) => Math.min(c.rank, 10);
const total = (cards) => cards.reduce((s, c) => s + value(c), 0);

function oracleMelds(hand) {
  const out = [];
  const n = hand.length;
  for (let m = 0; m < 1 << n; m++) {
    const cs = hand.filter((_, i) => (m >> i) & 1);
    if (cs.length >= 3 && isMeldOracle(cs)) out.push(m);
  }
  return out;
}

function isMeldOracle(cs) {
  const ranks = cs.map((c) => c.rank).sort((a, b) => a - b);
  if (ranks.every((r) => r === ranks[0])) return cs.length <= 4;
  if (!cs.every((c) => c.suit === cs[0].suit)) return false;
  return ranks.every((r, i) => i === 0 || r === ranks[i - 1] + 1);
}

/** Minimum deadwood over every choice of disjoint melds. */
function oracleDeadwood(hand) {
  const melds = oracleMelds(hand);
  let best = total(hand);
  const walk = (start, used, covered) => {
    best = Math.min(best, total(hand.filter((_, i) => !((used >> i) & 1))));
    for (let k = start; k < melds.length; k++)
      if (!(melds[k] & used)) walk(k + 1, used | melds[k], covered);
  };
  walk(0, 0, 0);
  return best;
}

function seeded(seed) {
  return () => (seed = (seed * 48271) % 2147483647) / 2147483647;
}

function randomHand(rnd, size) {
  const pool = [...DECK];
  const out = [];
  while (out.length < size) out.push(pool.splice(Math.floor(rnd() * pool.length), 1)[0]);
  return out;
}

/** Mostly runs and sets, so that the set choices are exercised. */
function denseHand(rnd, size) {
  const used = new Set();
  const out = [];
  const add = (c) => {
    if (!used.has(c) && out.length < size) {
      used.add(c);
      out.push(c);
    }
  };
  while (out.length < size - 2) {
    if (rnd() < 0.5) {
      const s = Math.floor(rnd() * 4),
        len = 3 + Math.floor(rnd() * 3),
        start = Math.floor(rnd() * (14 - len));
      for (let r = start; r < start + len; r++) add(DECK[s * 13 + r]);
    } else {
      const r = Math.floor(rnd() * 13);
      for (let s = 0; s < 4; s++) if (rnd() < 0.8) add(DECK[s * 13 + r]);
    }
  }
  while (out.length < size) add(DECK[Math.floor(rnd() * 52)]);
  return out;
}

test("the package example", () => {
  const a = bestArrangement(parseCards("7h 8h 9h Tc Td Ts 2c 3d 4s Kh"));
  assert.equal(a.deadwood, 19);
  assert.deepEqual(a.melds.map(String), ["Tc Td Ts", "7h 8h 9h"]);
  assert.deepEqual(a.unmatched.map(String), ["2c", "3d", "4s", "Kh"]);
});

test("A-2-3 is a run, Q-K-A and K-A-2 are not; sets hold three or four", () => {
  assert.ok(isMeld(parseCards("Ah 2h 3h")));
  assert.ok(!isMeld(parseCards("Qh Kh Ah")));
  assert.ok(!isMeld(parseCards("Kh Ah 2h")));
  assert.ok(isMeld(parseCards("7c 7d 7h 7s")));
  assert.ok(!isMeld(parseCards("7c 7d")));
  assert.ok(!isMeld(parseCards("7c 8d 9c")));
});

test("a card of a four-set goes to a run when that is better", () => {
  // 5c 5d 5h 5s with 6s 7s: 5c 5d 5h + 5s 6s 7s melds everything
  const a = bestArrangement(parseCards("5c 5d 5h 5s 6s 7s Kc"));
  assert.equal(a.deadwood, 10);
  assert.deepEqual(a.melds.map(String).sort(), ["5c 5d 5h", "5s 6s 7s"]);
});

test("a hand may not hold a card twice; an empty hand has no deadwood", () => {
  const c = parseCards("7h")[0];
  assert.throws(() => bestArrangement([c, c]), DuplicateCardError);
  assert.equal(bestArrangement([]).deadwood, 0);
});

test("deadwood of random and meld-dense hands equals the oracle; melds are valid", () => {
  const rnd = seeded(11);
  for (let i = 0; i < 300; i++) {
    const hand =
      i % 2
        ? randomHand(rnd, 10 + (i % 4 === 1 ? 1 : 0))
        : denseHand(rnd, 10 + (i % 4 === 0 ? 1 : 0));
    const a = bestArrangement(hand);
    assert.equal(a.deadwood, oracleDeadwood(hand), hand.map(String).join(" "));
    for (const meld of a.melds) assert.ok(isMeldOracle([...meld.cards]));
    assert.equal(total(a.unmatched), a.deadwood);
    assert.equal(deadwoodOfMask(toMask(hand)), a.deadwood);
  }
});

test("best discards give the oracle's deadwood per discard, best first", () => {
  const rnd = seeded(5);
  for (let i = 0; i < 60; i++) {
    const hand = i % 2 ? randomHand(rnd, 11) : denseHand(rnd, 11);
    const options = bestDiscards(hand);
    assert.equal(options.length, 11);
    for (const o of options)
      assert.equal(o.deadwood, oracleDeadwood(hand.filter((c) => c !== o.card)));
    for (let k = 1; k < options.length; k++)
      assert.ok(options[k - 1].deadwood <= options[k].deadwood);
    assert.deepEqual(
      discardDeadwoods(toMask(hand)).map(([i]) => i),
      hand.map((c) => c.index).sort((a, b) => a - b),
    );
  }
});

test("every meld and every arrangement is enumerated", () => {
  const rnd = seeded(3);
  for (let i = 0; i < 40; i++) {
    const hand = denseHand(rnd, 10);
    const mask = toMask(hand);
    assert.equal(meldsInMask(mask).length, oracleMelds(hand).length);
    const arrangements = allArrangements(mask);
    assert.equal(
      Math.min(...arrangements.map((a) => a.deadwood)),
      arrangementOfMask(mask).deadwood,
    );
  }
});
