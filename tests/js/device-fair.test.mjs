// Fair deals on the device (docs/device.md, docs/fairness.md): the engine's record carries
// a round's fair block as engine/record.py does, and fairDeal makes the deck the seeds give.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  Rules,
  loadRecord,
  matchRecordToDict,
} from "../../src/ginrummy/web/js/engine/index.js";
import { RecordError } from "../../src/ginrummy/web/js/engine/errors.js";
import {
  fairBlockFromDict,
  fairBlockToDict,
} from "../../src/ginrummy/web/js/engine/record.js";
import { dealRound, fairDeal } from "../../src/ginrummy/web/js/device/deck.js";
import {
  CANONICAL,
  commitment,
  dealDeck,
  fromHex,
} from "../../src/ginrummy/web/js/fair/verify.js";

const FAIR = {
  version: "gin-fair-v1",
  commitment: "ab".repeat(32),
  server_seed: null,
  seeds: { one: "11".repeat(32), two: "22".repeat(32) },
  room: "k3Xa_9",
  match: 1,
  round: 1,
};

const record = (fair) => ({
  format: 1,
  kind: "match",
  rules: Rules.preset("standard").toDict(),
  first_dealer: "one",
  rounds: [
    {
      deck: CANONICAL.join(" "),
      dealer: "one",
      actions: [],
      ...(fair === undefined ? {} : { fair }),
    },
  ],
});

test("a round's fair block loads and writes back as the Python engine writes it", () => {
  const loaded = loadRecord(record(FAIR));
  assert.equal(loaded.kind, "match");
  assert.deepEqual(loaded.match.rounds[0].fair.seeds, {
    one: FAIR.seeds.one,
    two: FAIR.seeds.two,
  });
  assert.deepEqual(matchRecordToDict(loaded.match).rounds[0].fair, FAIR);
  const revealed = { ...FAIR, server_seed: "00".repeat(32) };
  assert.deepEqual(fairBlockToDict(fairBlockFromDict(revealed)), revealed);
});

test("records without fair blocks load as before and write none", () => {
  const loaded = loadRecord(record(undefined));
  assert.equal(loaded.match.rounds[0].fair, null);
  assert.ok(!("fair" in matchRecordToDict(loaded.match).rounds[0]));
});

test("a malformed fair block names its field", () => {
  const cases = [
    [
      { ...FAIR, seeds: { one: FAIR.seeds.one } },
      "fair.seeds.two: missing or not a text",
    ],
    [{ ...FAIR, match: -1 }, "fair.match: missing or not a whole number >= 0"],
    [{ ...FAIR, round: 1.5 }, "fair.round: missing or not a whole number >= 0"],
    [{ ...FAIR, seeds: "x" }, "fair.seeds: missing or not an object"],
    [{ ...FAIR, server_seed: 3 }, "fair.server_seed: missing or not a text"],
    [[], "fair: missing or not an object"],
  ];
  for (const [fair, message] of cases) {
    assert.throws(
      () => loadRecord(record(fair)),
      (exc) => exc instanceof RecordError && exc.message.includes(message),
      message,
    );
  }
});

test("fairDeal: three local seeds, the deck they give, the seed revealed with its commitment", async () => {
  let next = 0;
  const fill = (words) => {
    for (let i = 0; i < words.length; i += 1) words[i] = next++;
  };
  const { deck, fair } = await fairDeal({ room: "g1", match: 2, round: 3 }, fill);
  assert.deepEqual(
    [fair.version, fair.room, fair.match, fair.round],
    ["gin-fair-v1", "g1", 2, 3],
  );
  const server = fromHex(fair.serverSeed);
  assert.equal(fair.commitment, await commitment(server));
  assert.notEqual(fair.seeds.one, fair.seeds.two);
  assert.notEqual(fair.seeds.one, fair.serverSeed);
  const expected = await dealDeck(server, {
    seatOne: fromHex(fair.seeds.one),
    seatTwo: fromHex(fair.seeds.two),
    room: "g1",
    match: 2,
    round: 3,
  });
  assert.deepEqual(
    deck.map((c) => c.text),
    expected,
  );
  assert.equal(new Set(expected).size, 52);
});

test("dealRound: a fair deal with WebCrypto, a plain shuffle (no fair block, a warning) without", async () => {
  const fair = await dealRound({ room: "g1", match: 1, round: 1 });
  assert.equal(fair.fair.round, 1);
  const warnings = [];
  const warn = console.warn;
  console.warn = (...args) => warnings.push(args.join(" "));
  try {
    const plain = await dealRound({ room: "g1", match: 1, round: 2 }, undefined, null);
    assert.equal(plain.fair, null);
    assert.equal(new Set(plain.deck).size, 52);
  } finally {
    console.warn = warn;
  }
  assert.match(
    warnings.join("\n"),
    /g1: no crypto.subtle .* round 2 is dealt without a fair block/,
  );
});
