// The bots' random source, bit for bit the one of src/ginrummy/bots/portable.py:
// xoshiro128** (32-bit outputs) seeded by splitmix64 from a 64-bit seed, with Python's
// random.Random methods the bots use on top (`random`, `getrandbits`, `randrange`,
// `choice`: rejection sampling as Python's _randbelow_with_getrandbits, so unbiased and
// the same draws). docs/browser-engine.md, "Bots".
//
//   new PortableRandom(1).getrandbits(32) === 1695105466

const M64 = (1n << 64n) - 1n;

/** splitmix64: the next state and output. @param {bigint} x @returns {[bigint, bigint]} */
function splitmix64(x) {
  x = (x + 0x9e3779b97f4a7c15n) & M64;
  let z = x;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
  return [x, z ^ (z >> 31n)];
}

/** The four 32-bit state words of a seed (mod 2**64). @param {bigint} seed @returns {number[]} */
export function seedWords(seed) {
  const [x, a] = splitmix64(BigInt.asUintN(64, seed));
  const [, b] = splitmix64(x);
  const words = [a & 0xffffffffn, a >> 32n, b & 0xffffffffn, b >> 32n].map(Number);
  return words.some((w) => w !== 0) ? words : [1, 0, 0, 0];
}

/** @param {number} x @param {number} k */
const rotl = (x, k) => ((x << k) | (x >>> (32 - k))) >>> 0;

export class PortableRandom {
  /** @param {number | bigint} seed an integer (taken modulo 2**64) */
  constructor(seed) {
    if (typeof seed === "number" && !Number.isSafeInteger(seed))
      throw new TypeError(`seed must be an integer, got ${seed}`);
    const w = seedWords(BigInt(seed));
    this.s0 = w[0];
    this.s1 = w[1];
    this.s2 = w[2];
    this.s3 = w[3];
  }

  /**
   * The generator's state: its four 32-bit words (a copy). Setting it continues that
   * stream exactly, so a decision made elsewhere (the computer's Web Worker,
   * bots/decider.js) hands the generator on where it left it:
   *
   *   const b = new PortableRandom(0); b.state = a.state;   // b draws what a would
   * @returns {number[]}
   */
  get state() {
    return [this.s0, this.s1, this.s2, this.s3];
  }

  /** @param {readonly number[]} words four 32-bit words, not all zero */
  set state(words) {
    if (
      !Array.isArray(words) ||
      words.length !== 4 ||
      !words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffffffff) ||
      words.every((w) => w === 0)
    )
      throw new TypeError(
        `a PortableRandom state is four 32-bit words, not all zero; got ${String(words)}`,
      );
    [this.s0, this.s1, this.s2, this.s3] = words;
  }

  /** The next 32-bit output. @returns {number} */
  next32() {
    const s1 = this.s1;
    const result = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
    const t = (s1 << 9) >>> 0;
    this.s2 = (this.s2 ^ this.s0) >>> 0;
    this.s3 = (this.s3 ^ s1) >>> 0;
    this.s1 = (s1 ^ this.s2) >>> 0;
    this.s0 = (this.s0 ^ this.s3) >>> 0;
    this.s2 = (this.s2 ^ t) >>> 0;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** A float in [0, 1) from 53 bits of two words. */
  random() {
    const a = this.next32() >>> 5,
      b = this.next32() >>> 6;
    return (a * 67108864 + b) * (1.0 / 9007199254740992.0);
  }

  /** `k` random bits (k <= 53, as a number). @param {number} k */
  getrandbits(k) {
    if (k < 0 || k > 53)
      throw new RangeError(`getrandbits takes 0..53 bits here, got ${k}`);
    if (k <= 32) return k === 0 ? 0 : this.next32() >>> (32 - k);
    const low = this.next32();
    return low + (this.next32() >>> (64 - k)) * 4294967296;
  }

  /** 64 random bits, as a BigInt (the expert seeds its own generator from these). */
  getrandbits64() {
    const low = BigInt(this.next32());
    return low | (BigInt(this.next32()) << 32n);
  }

  /** A uniform integer in [0, n): Python's _randbelow_with_getrandbits. @param {number} n */
  randbelow(n) {
    const k = 32 - Math.clz32(n); // n.bit_length() for n < 2**32
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }

  /** @param {number} n */
  randrange(n) {
    if (!(n > 0)) throw new RangeError(`empty range for randrange(${n})`);
    return this.randbelow(n);
  }

  /** @template T @param {readonly T[]} seq @returns {T} */
  choice(seq) {
    if (seq.length === 0) throw new RangeError("Cannot choose from an empty sequence");
    return seq[this.randbelow(seq.length)];
  }

  /** Shuffle `items` in place: Python's random.shuffle (Fisher-Yates from the end).
   * @template T @param {T[]} items */
  shuffle(items) {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      const x = items[i];
      items[i] = items[j];
      items[j] = x;
    }
  }
}
