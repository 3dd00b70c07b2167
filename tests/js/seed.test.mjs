// The table's own seeds (web/js/fair/seed.js): 32 random bytes as hex, sent once per
// commitment and only by a seat, kept per room/match/round for the verify page.
import { test } from "node:test";
import assert from "node:assert/strict";

const store = new Map();
globalThis.localStorage = {
  getItem: (key) => (store.has(key) ? store.get(key) : null),
  setItem: (key, value) => store.set(key, String(value)),
};

const { newSeed, seedMessage, keptSeeds, dealKey, confirmSeed } = await import("../../src/ginrummy/web/js/fair/seed.js");

const seeding = (commitment) => ({
  state: "seeding", room: "r1", match: 1, round: 2, commitment, your_seed: null,
  seeds_in: { one: false, two: false },
});

test("a seed is 64 lowercase hex digits and fresh each time", () => {
  const a = newSeed();
  assert.match(a, /^[0-9a-f]{64}$/);
  assert.notEqual(a, newSeed());
});

test("a seat sends one seed per commitment and keeps it", () => {
  const fair = seeding("c".repeat(64));
  const msg = seedMessage(fair, "one");
  assert.equal(msg.type, "seed");
  assert.equal(msg.commitment, fair.commitment);
  assert.match(msg.seed, /^[0-9a-f]{64}$/);
  assert.equal(seedMessage(fair, "one"), null); // never twice
  assert.deepEqual(keptSeeds()[dealKey(fair)], { seed: msg.seed, commitment: fair.commitment });
  confirmSeed({ ...fair, state: "dealt", your_seed: "f".repeat(64) }); // not the one sent
  assert.equal(keptSeeds()[dealKey(fair)].confirmed, undefined);
  confirmSeed({ ...fair, state: "dealt", your_seed: msg.seed });
  assert.equal(keptSeeds()[dealKey(fair)].confirmed, true);
});

test("nothing is sent by a spectator, after the seed is in, or when no deal waits", () => {
  const fair = seeding("d".repeat(64));
  assert.equal(seedMessage(fair, null), null);
  assert.equal(seedMessage({ ...fair, your_seed: "e".repeat(64) }, "two"), null);
  assert.equal(seedMessage({ ...fair, state: "dealt" }, "two"), null);
  assert.equal(seedMessage(null, "two"), null);
});
