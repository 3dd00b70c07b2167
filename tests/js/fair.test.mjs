// The browser's fair-deal verifier under Node 20 (globalThis.crypto): the documented
// test vectors, and verdicts on a record built from them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  CANONICAL,
  commitment,
  dealDeck,
  dealMessage,
  defaultSeatSeed,
  fromHex,
  phraseSeatSeed,
  toHex,
  verifyRecord,
} from "../../src/ginrummy/web/js/fair/verify.js";

const doc = readFileSync(new URL("../../docs/fairness.md", import.meta.url), "utf-8");
const vectors = JSON.parse(
  doc.match(/<!-- vectors:begin -->\s*```json\n([\s\S]*?)```/)[1],
);

const contextOf = (v) => ({
  seatOne: fromHex(v.seeds.one),
  seatTwo: fromHex(v.seeds.two),
  room: v.room,
  match: v.match,
  round: v.round,
});

test("the canonical order is clubs, diamonds, hearts, spades, each ace to king", () => {
  assert.equal(CANONICAL.length, 52);
  assert.deepEqual(
    [CANONICAL[0], CANONICAL[12], CANONICAL[13], CANONICAL[51]],
    ["Ac", "Kc", "Ad", "Ks"],
  );
});

for (const v of vectors.deals) {
  test(`the documented deal vector for room ${v.room} holds`, async () => {
    const server = fromHex(v.server_seed);
    assert.equal(await commitment(server), v.commitment);
    assert.equal(toHex(dealMessage(contextOf(v))), v.message);
    assert.equal((await dealDeck(server, contextOf(v))).join(" "), v.deck);
  });
}

test("the documented default seat seed holds", async () => {
  for (const v of vectors.default_seat_seeds) {
    const seed = await defaultSeatSeed(
      fromHex(v.identity_hash),
      v.room,
      v.match,
      v.round,
      v.seat,
    );
    assert.equal(toHex(seed), v.seed);
  }
});

test("the documented phrase seat seeds hold; an empty phrase is refused", async () => {
  assert.ok(vectors.phrase_seat_seeds.length >= 2);
  for (const v of vectors.phrase_seat_seeds) {
    const seed = await phraseSeatSeed(v.phrase, v.room, v.match, v.round, v.seat);
    assert.equal(toHex(seed), v.seed);
    const key = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(v.phrase),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    assert.equal(
      toHex(new Uint8Array(await crypto.subtle.sign("HMAC", key, fromHex(v.message)))),
      v.seed,
    );
  }
  await assert.rejects(phraseSeatSeed("", "room", 1, 1, "one"), RangeError);
});

function recordOf(v) {
  const fair = {
    version: "gin-fair-v1",
    commitment: v.commitment,
    server_seed: v.server_seed,
    seeds: v.seeds,
    room: v.room,
    match: v.match,
    round: v.round,
  };
  return { kind: "round", deck: v.deck, dealer: "one", actions: [], fair };
}

test("a fair round record checks; tampered ones fail naming the check", async () => {
  const v = vectors.deals[1];
  assert.deepEqual(await verifyRecord(recordOf(v)), {
    ok: true,
    error: null,
    rounds: [{ round: 12, check: "ok", reason: "" }],
  });
  const tamper = async (change) => {
    const record = recordOf(v);
    change(record);
    return (await verifyRecord(record)).rounds[0];
  };
  assert.equal(
    (
      await tamper((r) => {
        r.fair.server_seed = "ab".repeat(32);
      })
    ).check,
    "commitment",
  );
  assert.equal(
    (
      await tamper((r) => {
        r.fair.server_seed = null;
      })
    ).check,
    "unrevealed",
  );
  assert.equal(
    (
      await tamper((r) => {
        r.fair.seeds = { ...v.seeds, one: "ab".repeat(32) };
      })
    ).check,
    "deck",
  );
  assert.equal(
    (
      await tamper((r) => {
        r.fair.room = "Kuche";
      })
    ).check,
    "deck",
  );
  const swapped = v.deck.split(" ");
  [swapped[0], swapped[1]] = [swapped[1], swapped[0]];
  const verdict = await tamper((r) => {
    r.deck = swapped.join(" ");
  });
  assert.equal(
    verdict.reason,
    `card 1 of the deck is ${swapped[0]}, the seeds give ${swapped[1]}`,
  );
});

test("in a match record each round must carry its own number, room and match", async () => {
  const round = { ...recordOf(vectors.deals[0]) };
  delete round.kind;
  const match = { kind: "match", rounds: [round, round] };
  const report = await verifyRecord(match);
  assert.deepEqual(
    report.rounds.map((r) => r.check),
    ["ok", "context"],
  );
  assert.equal(report.ok, false);
});

test("a malformed record names the field", async () => {
  const v = vectors.deals[0];
  const broken = (change) => {
    const record = { kind: "match", rounds: [recordOf(v)] };
    change(record.rounds[0]);
    return verifyRecord(record);
  };
  const field = async (change) => (await broken(change)).error.field;
  assert.equal(
    await field((r) => {
      r.fair.seeds = { one: v.seeds.one, two: "ab" };
    }),
    "rounds[0].fair.seeds.two",
  );
  assert.equal(
    await field((r) => {
      r.fair.seeds = { one: "AB".repeat(32), two: v.seeds.two };
    }),
    "rounds[0].fair.seeds.one",
  );
  assert.equal(
    await field((r) => {
      r.fair.match = "1";
    }),
    "rounds[0].fair.match",
  );
  assert.equal(
    await field((r) => {
      r.fair.version = "gin-fair-v9";
    }),
    "rounds[0].fair.version",
  );
  assert.equal(
    await field((r) => {
      delete r.fair;
    }),
    "rounds[0].fair",
  );
  assert.equal(
    await field((r) => {
      r.deck = "10c";
    }),
    "rounds[0].deck",
  );
  const message = (
    await broken((r) => {
      r.fair.seeds = { one: v.seeds.one, two: "ab" };
    })
  ).error.message;
  assert.equal(
    message,
    "rounds[0].fair.seeds.two: expected 64 lowercase hex digits (32 bytes), got 2 characters",
  );
  assert.equal((await verifyRecord([1])).error.field, "record");
  assert.equal((await verifyRecord({ kind: "match", rounds: [] })).error.field, "rounds");
});
