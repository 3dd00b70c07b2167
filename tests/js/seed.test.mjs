// The table's own seeds (web/js/fair/seed.js): 32 random bytes as hex, sent once per
// commitment and only by a seat, kept per room/match/round for the verify page.
import { test } from "node:test";
import assert from "node:assert/strict";

const store = new Map();
globalThis.localStorage = {
  getItem: (key) => (store.has(key) ? store.get(key) : null),
  setItem: (key, value) => store.set(key, String(value)),
  removeItem: (key) => store.delete(key),
};

const { newSeed, seedMessage, keptSeeds, dealKey, confirmSeed } =
  await import("../../src/ginrummy/web/js/fair/seed.js");
const { seedPhrase, setSeedPhrase, forgetSeedPhrase, phraseSeed } =
  await import("../../src/ginrummy/web/js/fair/phrase.js");

const seeding = (commitment) => ({
  state: "seeding",
  room: "r1",
  match: 1,
  round: 2,
  commitment,
  your_seed: null,
  seeds_in: { one: false, two: false },
});

test("a seed is 64 lowercase hex digits and fresh each time", () => {
  const a = newSeed();
  assert.match(a, /^[0-9a-f]{64}$/);
  assert.notEqual(a, newSeed());
});

test("a seat sends one seed per commitment and keeps it", async () => {
  const fair = seeding("c".repeat(64));
  const msg = await seedMessage(fair, "one");
  assert.equal(msg.type, "seed");
  assert.equal(msg.commitment, fair.commitment);
  assert.match(msg.seed, /^[0-9a-f]{64}$/);
  assert.equal(await seedMessage(fair, "one"), null); // never twice
  assert.deepEqual(keptSeeds()[dealKey(fair)], {
    seed: msg.seed,
    commitment: fair.commitment,
  });
  confirmSeed({ ...fair, state: "dealt", your_seed: "f".repeat(64) }); // not the one sent
  assert.equal(keptSeeds()[dealKey(fair)].confirmed, undefined);
  confirmSeed({ ...fair, state: "dealt", your_seed: msg.seed });
  assert.equal(keptSeeds()[dealKey(fair)].confirmed, true);
});

test("nothing is sent by a spectator, after the seed is in, or when no deal waits", async () => {
  const fair = seeding("d".repeat(64));
  assert.equal(await seedMessage(fair, null), null);
  assert.equal(await seedMessage({ ...fair, your_seed: "e".repeat(64) }, "two"), null);
  assert.equal(await seedMessage({ ...fair, state: "dealt" }, "two"), null);
  assert.equal(await seedMessage(null, "two"), null);
});

test("two views in a row send the seed once, even while it is being derived", async () => {
  const fair = seeding("9".repeat(64));
  const [first, second] = await Promise.all([
    seedMessage(fair, "two"),
    seedMessage(fair, "two"),
  ]);
  assert.equal(second, null);
  assert.match(first.seed, /^[0-9a-f]{64}$/);
});

test("with a seed phrase set, each deal's seed is derived from it; forgotten, seeds are random again", async () => {
  assert.throws(() => setSeedPhrase("   "), RangeError);
  assert.equal(seedPhrase(), null);
  assert.equal(setSeedPhrase("  correct horse \n"), "correct horse"); // kept trimmed
  assert.equal(seedPhrase(), "correct horse");
  const one = { ...seeding("a1".repeat(32)), room: "k3Xa_9", match: 1, round: 1 };
  const msg = await seedMessage(one, "one");
  // docs/fairness.md's first phrase vector: this phrase, room, match, round and seat
  assert.equal(
    msg.seed,
    "ca9ba0c41e855f285b04da68755843dee7841d6e01aa4197cb893df4843e4986",
  );
  assert.equal(msg.seed, await phraseSeed("correct horse", one, "one"));
  const two = { ...one, commitment: "a2".repeat(32), round: 2 };
  const next = await seedMessage(two, "two");
  assert.equal(next.seed, await phraseSeed("correct horse", two, "two"));
  assert.notEqual(next.seed, msg.seed);
  forgetSeedPhrase();
  assert.equal(seedPhrase(), null);
  const three = { ...one, commitment: "a3".repeat(32), round: 3 };
  assert.notEqual(
    (await seedMessage(three, "one")).seed,
    await phraseSeed("correct horse", three, "one"),
  );
});
