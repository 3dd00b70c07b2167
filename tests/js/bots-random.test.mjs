// bots/random.js: the same numbers as src/ginrummy/bots/portable.py
// (tests/bots/test_portable.py holds the same vectors).
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { PortableRandom, seedWords } from "../../src/ginrummy/web/js/bots/random.js";

test("seed one gives the documented words", () => {
  const rng = new PortableRandom(1);
  assert.deepEqual(
    [0, 1, 2, 3].map(() => rng.getrandbits(32)),
    [1695105466, 1423115009, 634581793, 1068227753],
  );
});

test("a 64-bit seed, random() and getrandbits agree with Python", () => {
  const rng = new PortableRandom(2n ** 64n - 1n);
  assert.deepEqual([rng.getrandbits(32), rng.getrandbits(32)], [477689756, 2493998634]);
  assert.equal(rng.random(), 0.12938300625619603);
  assert.equal(rng.getrandbits64(), 1294790802805357875n);
  assert.equal(rng.getrandbits(5), 18);
  assert.equal(rng.getrandbits(40), 462127377002);
});

test("randrange and choice reject like Python's _randbelow_with_getrandbits", () => {
  const rng = new PortableRandom(7);
  assert.deepEqual(
    Array.from({ length: 10 }, () => rng.randrange(7)),
    [3, 2, 5, 6, 3, 1, 6, 0, 0, 3],
  );
  assert.equal(rng.choice(Array.from({ length: 100 }, (_, i) => i)), 98);
  assert.equal(rng.randrange(1), 0);
  assert.throws(() => rng.choice([]), RangeError);
});

test("seeds are taken modulo 2**64 and never give the all-zero state", () => {
  assert.deepEqual(seedWords(5n), seedWords(5n + 2n ** 64n));
  assert.ok(seedWords(0n).some((w) => w !== 0));
  assert.throws(() => new PortableRandom(1.5), TypeError);
});

test("a generator given another's state draws what the other would", () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.nat(50), (seed, skip) => {
      const a = new PortableRandom(seed);
      for (let i = 0; i < skip; i += 1) a.next32();
      const b = new PortableRandom(0);
      b.state = a.state;
      assert.deepEqual(b.state, a.state);
      assert.equal(b.getrandbits64(), a.getrandbits64());
      assert.equal(b.randrange(52), a.randrange(52));
      // A copy: drawing from one leaves the other's state as it was.
      const kept = a.state;
      a.next32();
      assert.notDeepEqual(a.state, kept);
    }),
  );
  const rng = new PortableRandom(1);
  for (const bad of [[0, 0, 0, 0], [1, 2, 3], [1, 2, 3, 2 ** 32], [1, 2, 3, -1], "1234"])
    assert.throws(() => {
      rng.state = /** @type {any} */ (bad);
    }, TypeError);
  assert.deepEqual(rng.state, new PortableRandom(1).state);
});
