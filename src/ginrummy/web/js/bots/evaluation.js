// Shared judgement of hands and discards over 52-bit card masks; the port of
// bots/evaluation.py. Python's loose_cards equals the engine's best arrangement
// (deadwood, unmatched cards), which tests/bots/test_evaluation.py asserts, and its
// discard_scores equals scoring each discard alone; this port computes them that way,
// with the same float expressions, so the numbers are the same to the bit.

import { arrangementOfMask } from "../engine/melds.js";
import {
  and52,
  bitCount32,
  hasBit,
  indices as maskIndices,
  splitSuits,
  xor52,
} from "../engine/masks.js";

/** @typedef {import("./knowledge.js").Knowledge} Knowledge */

/** Per 13-bit loose suit: the cards that complete a pair in sequence (r-1, r+2) and a gap. */
const RUN_WANTS = Array.from({ length: 1 << 13 }, (_, s) => {
  const pair = s & (s >> 1);
  const gap = s & (s >> 2) & ~(s >> 1);
  return [pair >> 1, (pair << 2) & 0x1fff, gap << 1];
});

/** Live cards that would meld with two loose cards (counted once per pair).
 * @param {number} loose @param {number} live */
export function potential(loose, live) {
  const l = splitSuits(loose),
    v = splitSuits(live);
  let n = 0;
  for (let k = 0; k < 4; k++) {
    const [a, b, c] = RUN_WANTS[l[k]];
    n += bitCount32(a & v[k]) + bitCount32(b & v[k]) + bitCount32(c & v[k]);
  }
  const [lc, ld, lh, ls] = l;
  const two = (lc & ld) | (lc & lh) | (lc & ls) | (ld & lh) | (ld & ls) | (lh & ls);
  return (
    n +
    bitCount32(two & v[0]) +
    bitCount32(two & v[1]) +
    bitCount32(two & v[2]) +
    bitCount32(two & v[3])
  );
}

/** [deadwood, unmatched cards] of the best arrangement. @param {number} mask @returns {[number, number]} */
export function looseCards(mask) {
  const a = arrangementOfMask(mask);
  return [a.deadwood, a.unmatchedMask];
}

/** Deadwood less `weight` points per live out of the loose cards (lower is better).
 * @param {number} mask @param {number} live @param {number} weight */
export function handScore(mask, live, weight) {
  const [deadwood, loose] = looseCards(mask);
  if (weight === 0 || !deadwood) return deadwood;
  return deadwood - weight * potential(loose, live);
}

/** For each card index of `hand`: [deadwood, handScore] of the hand without it.
 * @param {number} hand @param {number} live @param {number} weight @returns {Map<number, [number, number]>} */
export function discardScores(hand, live, weight) {
  /** @type {Map<number, [number, number]>} */
  const out = new Map();
  for (const i of maskIndices(hand)) {
    const rest = xor52(hand, 2 ** i);
    const [dw, loose] = looseCards(rest);
    out.set(i, [dw, weight === 0 || !dw ? dw : dw - weight * potential(loose, live)]);
  }
  return out;
}

export const indices = maskIndices;

/** The cards that share a meld with card `i`: same rank, or one or two away in suit. */
const NEIGHBOURS = Array.from({ length: 52 }, (_, i) => {
  const suit = Math.floor(i / 13),
    rank = i % 13;
  let m = 0;
  for (let s = 0; s < 4; s++) if (s !== suit) m += 2 ** (s * 13 + rank);
  for (const d of [-2, -1, 1, 2])
    if (rank + d >= 0 && rank + d < 13) m += 2 ** (suit * 13 + rank + d);
  return m;
});

/** @param {number} i */
export const neighbours = (i) => NEIGHBOURS[i];

/** For each card index, the pairs of cards that make a meld with it. */
export const PARTNERS = Array.from({ length: 52 }, (_, i) => {
  const suit = Math.floor(i / 13),
    rank = i % 13;
  const others = [0, 1, 2, 3].filter((s) => s !== suit).map((s) => s * 13 + rank);
  const pairs = [
    [others[0], others[1]],
    [others[0], others[2]],
    [others[1], others[2]],
  ];
  for (const [lo, hi] of [
    [-2, -1],
    [-1, 1],
    [1, 2],
  ]) {
    if (rank + lo >= 0 && rank + hi < 13)
      pairs.push([suit * 13 + rank + lo, suit * 13 + rank + hi]);
  }
  return pairs;
});

/** Chance-weighted count of the opponent's ways to meld the card `index`.
 * @param {number} index @param {readonly number[]} odds */
export function danger(index, odds) {
  let total = 0.0;
  for (const [a, b] of PARTNERS[index]) total += odds[a] * odds[b];
  return total;
}

/** For each card index, the chance that the opponent holds it (the heuristic's reading).
 * @param {Knowledge} know @param {boolean} infer @returns {number[]} */
export function holdingOdds(know, infer) {
  const unseen = know.unseen;
  const unseenList = maskIndices(unseen);
  const base = unseenList.length ? know.oppHidden / unseenList.length : 0.0;
  const odds = new Array(52).fill(0.0);
  for (const i of maskIndices(know.oppKnown)) odds[i] = 1.0;
  if (!infer || !base) {
    for (const i of unseenList) odds[i] = base;
    return odds;
  }
  const weights = new Array(52).fill(0.0);
  let total = 0.0;
  const picks = know.oppKnown;
  const left =
    know.oppDiscarded + know.oppPassed - and52(know.oppDiscarded, know.oppPassed); // union
  for (let i = 0; i < 52; i++) {
    if (!hasBit(unseen, i)) continue;
    let w = 1.0;
    const near = NEIGHBOURS[i];
    if (and52(near, picks)) w *= 1.8;
    if (and52(near, left)) w *= 0.55;
    weights[i] = w;
    total += w;
  }
  const scale = know.oppHidden / total;
  for (let i = 0; i < 52; i++)
    if (weights[i]) odds[i] = Math.min(0.95, weights[i] * scale);
  return odds;
}
