// Meld maths over cards: arrangements, deadwood, best discards, layoffs (docs/rules.md
// §2, §3.4); the port of engine/melds.py, with the same enumeration orders so that both
// engines break ties alike. Pure functions, no game state.
//
// Hands are 52-bit masks (masks.js), one 13-bit field per suit. Once the sets are
// chosen, the best cover of the rest of a suit by runs takes every maximal sequence of
// three or more whole (card values are positive); so an optimal arrangement is a choice
// of sets (per rank held three or four times: none, all, or three of four) plus
// per-suit table look-ups.
//
//   bestArrangement(parseCards("7h 8h 9h Tc Td Ts 2c 3d 4s Kh")).deadwood === 19

import { byRank, cardFromIndex, fromMask, toMask } from "./cards.js";
import { DuplicateCardError } from "./errors.js";
import {
  BIT,
  andNot52,
  bitCount32,
  hasBit,
  indices,
  joinSuits,
  lowIndex,
  splitSuits,
} from "./masks.js";

/** @typedef {import("./cards.js").Card} Card */

const RANK_VALUE = Array.from({ length: 13 }, (_, r) => Math.min(r + 1, 10)); // by 0-based rank

/** Per 13-bit suit mask: value of the cards. */
export const SUIT_VALUE = new Int32Array(8192);
/** Per 13-bit suit mask: the maximal runs (three or more in sequence; ace low only). */
export const RUN_SEGMENTS = /** @type {number[][]} */ ([]);
/** Per 13-bit suit mask: the ranks that lie in a sequence of three or more. */
export const IN_RUN = new Int32Array(8192);
/** Per 13-bit suit mask: deadwood when only runs are formed in that suit. */
export const SUIT_DEADWOOD = new Int32Array(8192);

for (let m = 0; m < 8192; m++) {
  let value = 0;
  for (let r = 0; r < 13; r++) if ((m >> r) & 1) value += RANK_VALUE[r];
  /** @type {number[]} */
  const segs = [];
  let r = 0;
  while (r < 13) {
    if ((m >> r) & 1) {
      const start = r;
      while (r < 13 && (m >> r) & 1) r++;
      if (r - start >= 3) segs.push(((1 << (r - start)) - 1) << start);
    } else {
      r++;
    }
  }
  let cover = 0;
  let inRun = 0;
  for (const seg of segs) {
    inRun |= seg;
    for (let k = 0; k < 13; k++) if ((seg >> k) & 1) cover += RANK_VALUE[k];
  }
  SUIT_VALUE[m] = value;
  RUN_SEGMENTS.push(segs);
  IN_RUN[m] = inRun;
  SUIT_DEADWOOD[m] = value - cover;
}

export const MeldKind = Object.freeze({ SET: "set", RUN: "run" });

/** The kind of a meld mask: a run has its two lowest cards next to each other in a suit.
 * @param {number} mask */
export function meldKindOf(mask) {
  const low = lowIndex(mask);
  return low % 13 <= 11 && hasBit(mask, low + 1) ? MeldKind.RUN : MeldKind.SET;
}

/** A set (3-4 of a rank) or a run (3+ in sequence, one suit, ace low). */
export class Meld {
  /** @param {number} mask */
  constructor(mask) {
    /** @readonly */ this.mask = mask;
    /** Its cards by rank, then suit. @readonly @type {readonly Card[]} */
    this.cards = Object.freeze(byRank(fromMask(mask)));
    Object.freeze(this);
  }

  get kind() {
    return meldKindOf(this.mask);
  }

  get value() {
    return valueOfMask(this.mask);
  }

  get length() {
    return this.cards.length;
  }

  get text() {
    return this.cards.map((c) => c.text).join(" ");
  }

  toString() {
    return this.text;
  }
}

/** True for a valid set or run (docs/rules.md §2). Q-K-A is not a run; A-2-3 is.
 * @param {Iterable<Card>} cards */
export function isMeld(cards) {
  const cs = [...cards];
  if (cs.length < 3 || new Set(cs).size !== cs.length) return false;
  if (new Set(cs.map((c) => c.rank)).size === 1) return cs.length <= 4;
  if (new Set(cs.map((c) => c.suit)).size !== 1) return false;
  const ranks = cs.map((c) => c.rank).sort((a, b) => a - b);
  return ranks.every((r, i) => r === ranks[0] + i);
}

/** A split of a hand into melds and unmatched cards; `deadwood` is the unmatched value.
 * Built from the hand mask and the mask of its cards in sets (the runs follow); the
 * melds are worked out on first use. */
export class Arrangement {
  /** @param {number} mask @param {number} setMask @param {number} deadwood @param {number[] | null} [melds] */
  constructor(mask, setMask, deadwood, melds = null) {
    /** @readonly */ this.mask = mask;
    /** @readonly */ this.setMask = setMask;
    /** @readonly */ this.deadwood = deadwood;
    this.#meldMasks = melds === null ? null : Object.freeze(melds);
  }

  /** @type {readonly number[] | null} worked out on first use */
  #meldMasks;

  /** The melds as masks: sets by rank, then runs by suit and rank. @returns {readonly number[]} */
  get meldMasks() {
    if (this.#meldMasks === null) {
      this.#meldMasks = Object.freeze([
        ...setsIn(this.setMask),
        ...runsOf(andNot52(this.mask, this.setMask)),
      ]);
    }
    return this.#meldMasks;
  }

  get melds() {
    return this.meldMasks.map((m) => new Meld(m));
  }

  get unmatchedMask() {
    let covered = 0;
    for (const m of this.meldMasks) covered += m; // melds are disjoint
    return andNot52(this.mask, covered);
  }

  /** The unmatched cards by rank, then suit. */
  get unmatched() {
    return byRank(fromMask(this.unmatchedMask));
  }

  /** Same hand and same melds, in any order. @param {Arrangement} other */
  equals(other) {
    const mine = [...this.meldMasks].sort((a, b) => a - b);
    const theirs = [...other.meldMasks].sort((a, b) => a - b);
    return (
      this.mask === other.mask &&
      mine.length === theirs.length &&
      mine.every((m, i) => m === theirs[i])
    );
  }

  toString() {
    const melds = this.melds.map(String).join(" | ");
    return `Arrangement([${melds}] deadwood ${this.deadwood}: ${this.unmatched.map(String).join(" ")})`;
  }
}

/** Ranks (13-bit) held three or four times. @param {number} c @param {number} d @param {number} h @param {number} s */
function heldThreeTimes(c, d, h, s) {
  return (c & d & (h | s)) | (h & s & (c | d));
}

/** Per rank held three or four times (ascending), the set choices worth trying, each a
 * 4-bit pattern of the suits in the set. In general: no set, all of them, or (four
 * held) three leaving one out for a run. A card in no sequence of three of its suit can
 * never be in a run, so leaving it out only adds deadwood: those choices are skipped,
 * and "no set" too when no card of the rank can be in a run.
 * @param {number[]} suits @param {number} three @returns {{rank: number, patterns: number[]}[]} */
function setOptions(suits, three) {
  const options = [];
  while (three) {
    const low = three & -three;
    three ^= low;
    let full = 0;
    let free = 0; // suits whose card of this rank could be in a run instead
    for (let k = 0; k < 4; k++) {
      if (suits[k] & low) {
        full |= 1 << k;
        if (IN_RUN[suits[k]] & low) free |= 1 << k;
      }
    }
    const rank = 31 - Math.clz32(low);
    if (!free) {
      options.push({ rank, patterns: [full] });
    } else if (bitCount32(full) === 4) {
      const patterns = [0, full];
      while (free) {
        const bit = free & -free;
        free ^= bit;
        patterns.push(full ^ bit);
      }
      options.push({ rank, patterns });
    } else {
      options.push({ rank, patterns: [0, full] });
    }
  }
  return options;
}

/** [deadwood, mask of the cards in sets] of the best choice of sets; ties: the first
 * found in the reference's order (itertools.product: the last rank varies fastest).
 * @param {number[]} suits @param {number} three @returns {[number, number]} */
function bestSets(suits, three) {
  const [c, d, h, s] = suits;
  const dw = SUIT_DEADWOOD;
  const runnable = (IN_RUN[c] | IN_RUN[d] | IN_RUN[h] | IN_RUN[s]) & three;
  if (!runnable) {
    // No card of these ranks can be in a run: every set is melded whole, the most
    // common case by far.
    const dead = dw[c & ~three] + dw[d & ~three] + dw[h & ~three] + dw[s & ~three];
    return [dead, joinSuits(c & three, d & three, h & three, s & three)];
  }
  const options = setOptions(suits, three);
  const n = options.length;
  const choice = new Array(n).fill(0);
  let best = 1 << 30;
  const bestSuits = [0, 0, 0, 0];
  for (;;) {
    const inSets = [0, 0, 0, 0];
    for (let i = 0; i < n; i++) {
      const pattern = options[i].patterns[choice[i]];
      const bit = 1 << options[i].rank;
      for (let k = 0; k < 4; k++) if (pattern & (1 << k)) inSets[k] |= bit;
    }
    const dead =
      dw[c & ~inSets[0]] + dw[d & ~inSets[1]] + dw[h & ~inSets[2]] + dw[s & ~inSets[3]];
    if (dead < best) {
      best = dead;
      for (let k = 0; k < 4; k++) bestSuits[k] = inSets[k];
    }
    let i = n - 1; // the odometer: the last option turns fastest
    while (i >= 0 && ++choice[i] === options[i].patterns.length) choice[i--] = 0;
    if (i < 0) break;
  }
  return [best, joinSuits(bestSuits[0], bestSuits[1], bestSuits[2], bestSuits[3])];
}

/** @type {Map<number, number>} */
const DEADWOOD_CACHE = new Map();
const CACHE_LIMIT = 1 << 18;

/** Forget memoised results (benchmarks measure computation, not look-ups). */
export function clearCaches() {
  DEADWOOD_CACHE.clear();
}

/** Minimum deadwood of the cards in `mask`. @param {number} mask */
export function deadwoodOfMask(mask) {
  const suits = splitSuits(mask);
  const [c, d, h, s] = suits;
  const three = heldThreeTimes(c, d, h, s);
  if (!three)
    return SUIT_DEADWOOD[c] + SUIT_DEADWOOD[d] + SUIT_DEADWOOD[h] + SUIT_DEADWOOD[s];
  let cached = DEADWOOD_CACHE.get(mask);
  if (cached === undefined) {
    if (DEADWOOD_CACHE.size >= CACHE_LIMIT) DEADWOOD_CACHE.clear(); // bounded; results never change
    cached = bestSets(suits, three)[0];
    DEADWOOD_CACHE.set(mask, cached);
  }
  return cached;
}

/** [card index, deadwood of the other cards] for each card of `mask`, in index order:
 * the deadwood left by each discard (docs/rules.md §3.3).
 * @param {number} mask @returns {[number, number][]} */
export function discardDeadwoods(mask) {
  const suits = splitSuits(mask);
  const three = heldThreeTimes(suits[0], suits[1], suits[2], suits[3]);
  /** @type {[number, number][]} */
  const out = [];
  if (!three) {
    // Only the discarded card's suit changes: the other suits are summed once.
    const total =
      SUIT_DEADWOOD[suits[0]] +
      SUIT_DEADWOOD[suits[1]] +
      SUIT_DEADWOOD[suits[2]] +
      SUIT_DEADWOOD[suits[3]];
    for (let k = 0; k < 4; k++) {
      let bits = suits[k];
      const rest = total - SUIT_DEADWOOD[bits];
      while (bits) {
        const low = bits & -bits;
        bits ^= low;
        out.push([13 * k + 31 - Math.clz32(low), rest + SUIT_DEADWOOD[suits[k] ^ low]]);
      }
    }
    return out;
  }
  for (const index of indices(mask)) out.push([index, deadwoodOfMask(mask - BIT[index])]);
  return out;
}

/** The runs of every suit of `mask`, by suit then rank. @param {number} mask @returns {number[]} */
function runsOf(mask) {
  const out = [];
  const suits = splitSuits(mask);
  for (let k = 0; k < 4; k++)
    for (const seg of RUN_SEGMENTS[suits[k]]) out.push(seg * BIT[13 * k]);
  return out;
}

/** The sets of a mask of cards in sets, by rank. @param {number} setMask @returns {number[]} */
function setsIn(setMask) {
  const out = [];
  const suits = splitSuits(setMask);
  for (let r = 0; r < 13; r++) {
    let group = 0;
    for (let k = 0; k < 4; k++) if ((suits[k] >> r) & 1) group += BIT[13 * k + r];
    if (group) out.push(group);
  }
  return out;
}

/** The optimal arrangement of `mask`; ties resolved by the reference's enumeration order.
 * @param {number} mask */
export function arrangementOfMask(mask) {
  const suits = splitSuits(mask);
  const [c, d, h, s] = suits;
  const three = heldThreeTimes(c, d, h, s);
  if (!three)
    return new Arrangement(
      mask,
      0,
      SUIT_DEADWOOD[c] + SUIT_DEADWOOD[d] + SUIT_DEADWOOD[h] + SUIT_DEADWOOD[s],
    );
  const [dw, sets] = bestSets(suits, three);
  return new Arrangement(mask, sets, dw);
}

/** The arrangement of a hand with minimum deadwood (any number of distinct cards).
 * @param {Iterable<Card>} cards */
export function bestArrangement(cards) {
  const list = [...cards];
  if (new Set(list).size !== list.length)
    throw new DuplicateCardError("a hand may not hold the same card twice");
  return arrangementOfMask(toMask(list));
}

/** @param {Iterable<Card>} cards */
export function handDeadwood(cards) {
  return deadwoodOfMask(toMask(cards));
}

/** @typedef {Readonly<{card: Card, deadwood: number}>} DiscardOption deadwood: of the cards kept */

/** Every discard of a hand with the deadwood left, best first (ties: higher value first,
 * then canonical order). @param {Iterable<Card>} cards @returns {DiscardOption[]} */
export function bestDiscards(cards) {
  const options = discardDeadwoods(toMask(cards)).map(([i, dw]) =>
    Object.freeze({ card: cardFromIndex(i), deadwood: dw }),
  );
  return options.sort(
    (a, b) =>
      a.deadwood - b.deadwood ||
      b.card.value - a.card.value ||
      a.card.index - b.card.index,
  );
}

// --- every meld and every arrangement (for the showdown) -------------------------------

/** Every possible meld (as a mask) within `mask`: all sets, then all sub-runs.
 * @param {number} mask @returns {number[]} */
export function meldsInMask(mask) {
  const suits = splitSuits(mask);
  const out = [];
  let three = heldThreeTimes(suits[0], suits[1], suits[2], suits[3]);
  while (three) {
    const low = three & -three;
    three ^= low;
    const r = 31 - Math.clz32(low);
    let full = 0;
    let count = 0;
    for (let k = 0; k < 4; k++)
      if (suits[k] & low) {
        full += BIT[13 * k + r];
        count++;
      }
    out.push(full);
    if (count === 4) for (let k = 0; k < 4; k++) out.push(full - BIT[13 * k + r]);
  }
  for (let k = 0; k < 4; k++) {
    for (const seg of RUN_SEGMENTS[suits[k]]) {
      const lo = 31 - Math.clz32(seg & -seg);
      const hi = 32 - Math.clz32(seg); // exclusive
      for (let a = lo; a < hi - 2; a++) {
        for (let b = a + 3; b <= hi; b++)
          out.push(((1 << (b - a)) - 1) * BIT[a + 13 * k]);
      }
    }
  }
  return out;
}

/** Every way to choose pairwise disjoint melds in `mask` (the empty choice included).
 * @param {number} mask @returns {Arrangement[]} */
export function allArrangements(mask) {
  return meldChoices(mask).map(([dw, melds]) => new Arrangement(mask, 0, dw, melds));
}

/** [deadwood, melds] of `allArrangements`, in the same order: a depth-first walk over
 * the melds of `meldsInMask`, each choice before its extensions.
 * @param {number} mask @returns {[number, number[]][]} */
export function meldChoices(mask) {
  const melds = meldsInMask(mask);
  // Disjointness is tested on the two 26-bit halves, each within 32-bit operators.
  const los = melds.map((m) => m % 2 ** 26);
  const his = melds.map((m, i) => (m - los[i]) / 2 ** 26);
  const values = melds.map(valueOfMask);
  const n = melds.length;
  /** @type {[number, number[]][]} */
  const out = [];
  /** @type {[number, number, number, number[], number][]} */
  const stack = [[0, 0, 0, [], valueOfMask(mask)]];
  while (stack.length) {
    const [start, usedLo, usedHi, chosen, deadwood] =
      /** @type {[number, number, number, number[], number]} */ (stack.pop());
    out.push([deadwood, chosen]);
    for (let i = n - 1; i >= start; i--) {
      // pushed last first: popped in order
      if (!(los[i] & usedLo) && !(his[i] & usedHi)) {
        stack.push([
          i + 1,
          usedLo | los[i],
          usedHi | his[i],
          [...chosen, melds[i]],
          deadwood - values[i],
        ]);
      }
    }
  }
  return out;
}

/** The card values of `mask` added up. @param {number} mask */
export function valueOfMask(mask) {
  const [c, d, h, s] = splitSuits(mask);
  return SUIT_VALUE[c] + SUIT_VALUE[d] + SUIT_VALUE[h] + SUIT_VALUE[s];
}

/** @param {Iterable<Card>} cards */
export function meldOf(cards) {
  return new Meld(toMask(cards));
}
