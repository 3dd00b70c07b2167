// The score sheet's lines (web/js/sheet.js sheetRows): each finished round's winner, kind
// and points, the running totals and the rounds won (boxes), from the view's rounds.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { sheetRows } from "../../src/ginrummy/web/js/sheet.js";

test("a knock, a void round and a gin: points, running totals and boxes", () => {
  const rows = sheetRows([
    {
      result: {
        kind: "knock",
        knocker: "one",
        winner: "one",
        points: 12,
        showdown: null,
      },
    },
    { result: { kind: "void", knocker: null, winner: null, points: 0, showdown: null } },
    {
      result: { kind: "gin", knocker: "two", winner: "two", points: 31, showdown: null },
    },
    { result: null }, // the round being played
  ]);
  assert.deepEqual(
    rows.map((r) => [r.round, r.winner, r.kind, r.points, r.totals, r.boxes]),
    [
      [1, "one", "knock", { one: 12, two: 0 }, { one: 12, two: 0 }, { one: 1, two: 0 }],
      [2, null, "void", { one: 0, two: 0 }, { one: 12, two: 0 }, { one: 1, two: 0 }],
      [3, "two", "gin", { one: 0, two: 31 }, { one: 12, two: 31 }, { one: 1, two: 1 }],
    ],
  );
});

test("the last running total is the sum of the points; the boxes count the rounds won", () => {
  const resultArb = fc
    .record({
      kind: fc.constantFrom("knock", "gin", "big_gin", "undercut", "void"),
      knocker: fc.constant(null),
      winner: fc.constantFrom("one", "two", null),
      points: fc.nat(120),
      showdown: fc.constant(null),
    })
    .map((r) => (r.winner ? r : { ...r, points: 0 }));
  fc.assert(
    fc.property(fc.array(resultArb, { maxLength: 12 }), (results) => {
      const rows = sheetRows(results.map((result) => ({ result })));
      assert.equal(rows.length, results.length);
      for (const seat of /** @type {const} */ (["one", "two"])) {
        const sum = results.reduce((n, r) => n + (r.winner === seat ? r.points : 0), 0);
        assert.equal(rows.at(-1)?.totals[seat] ?? 0, sum);
        assert.equal(
          rows.at(-1)?.boxes[seat] ?? 0,
          results.filter((r) => r.winner === seat).length,
        );
      }
    }),
  );
});
