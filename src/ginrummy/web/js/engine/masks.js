// 52-bit card masks as plain numbers (exact up to 2^53). JavaScript's bitwise operators
// work on 32 bits, so a mask is handled as two 26-bit halves (clubs+diamonds,
// hearts+spades); within a suit (13 bits) the usual operators apply.

export const HALF = 2 ** 26;
export const SUIT_MASK = 0x1fff;
/** 2**i for i in 0..52 */
export const BIT = Object.freeze(Array.from({ length: 53 }, (_, i) => 2 ** i));

/** @param {number} a @param {number} b */
export function and52(a, b) {
  const al = a % HALF,
    bl = b % HALF;
  return (al & bl) + (((a - al) / HALF) & ((b - bl) / HALF)) * HALF;
}

/** @param {number} a @param {number} b */
export function or52(a, b) {
  const al = a % HALF,
    bl = b % HALF;
  return (al | bl) + (((a - al) / HALF) | ((b - bl) / HALF)) * HALF;
}

/** @param {number} a @param {number} b */
export function xor52(a, b) {
  const al = a % HALF,
    bl = b % HALF;
  return (al ^ bl) + (((a - al) / HALF) ^ ((b - bl) / HALF)) * HALF;
}

/** The bits of `a` that are not in `b`. @param {number} a @param {number} b */
export function andNot52(a, b) {
  const al = a % HALF,
    bl = b % HALF;
  return (al & ~bl) + (((a - al) / HALF) & ~((b - bl) / HALF)) * HALF;
}

/** @param {number} x a 32-bit value */
export function bitCount32(x) {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** @param {number} mask */
export function bitCount52(mask) {
  const lo = mask % HALF;
  return bitCount32(lo) + bitCount32((mask - lo) / HALF);
}

/** True if bit `index` of `mask` is set. @param {number} mask @param {number} index */
export function hasBit(mask, index) {
  return Math.floor(mask / BIT[index]) % 2 === 1;
}

/** Index of the lowest set bit (-1 for 0). @param {number} mask */
export function lowIndex(mask) {
  if (mask === 0) return -1;
  const lo = mask % HALF;
  if (lo) return 31 - Math.clz32(lo & -lo);
  const hi = (mask - lo) / HALF;
  return 26 + 31 - Math.clz32(hi & -hi);
}

/** Index of the highest set bit (-1 for 0). @param {number} mask */
export function highIndex(mask) {
  if (mask === 0) return -1;
  const lo = mask % HALF;
  const hi = (mask - lo) / HALF;
  return hi ? 26 + 31 - Math.clz32(hi) : 31 - Math.clz32(lo);
}

/** The four 13-bit suits of a mask: clubs, diamonds, hearts, spades.
 * @param {number} mask @returns {[number, number, number, number]} */
export function splitSuits(mask) {
  const lo = mask % HALF;
  const hi = (mask - lo) / HALF;
  return [lo & SUIT_MASK, lo >>> 13, hi & SUIT_MASK, hi >>> 13];
}

/** @param {number} c @param {number} d @param {number} h @param {number} s */
export function joinSuits(c, d, h, s) {
  return (c | (d << 13)) + (h | (s << 13)) * HALF;
}

/** The indices of the set bits, ascending. @param {number} mask @returns {number[]} */
export function indices(mask) {
  const out = [];
  const lo = mask % HALF;
  let hi = (mask - lo) / HALF;
  let l = lo;
  while (l) {
    const low = l & -l;
    out.push(31 - Math.clz32(low));
    l ^= low;
  }
  while (hi) {
    const low = hi & -hi;
    out.push(26 + 31 - Math.clz32(low));
    hi ^= low;
  }
  return out;
}
