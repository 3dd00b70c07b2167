// rules.js: presets, validation, the wire's field names.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PRESETS, Rules } from "../../src/ginrummy/web/js/engine/rules.js";
import { RulesError } from "../../src/ginrummy/web/js/engine/errors.js";

test("presets and overrides", () => {
  assert.equal(Rules.preset("oklahoma").oklahoma, true);
  assert.equal(Rules.preset("standard", { target_score: 50 }).targetScore, 50);
  assert.equal(Rules.preset("standard", { target_score: 50 }).name, "standard");
  assert.equal(Rules.preset("first-to-knock").targetScore, null);
  assert.deepEqual(Object.keys(PRESETS), [
    "standard",
    "oklahoma",
    "classic",
    "first-to-knock",
  ]);
  assert.throws(
    () => Rules.preset("nope"),
    (e) =>
      e instanceof RulesError &&
      /unknown preset 'nope'; choose one of standard/.test(e.message),
  );
});

test("toDict writes the reference's fields in its order and fromDict reads them back", () => {
  const rules = Rules.preset("classic", {
    stock_rule: "last_discard",
    big_gin_bonus: 31,
  });
  const data = rules.toDict();
  assert.deepEqual(Object.keys(data), [
    "name",
    "target_score",
    "knock_limit",
    "oklahoma",
    "spade_doubling",
    "gin_bonus",
    "undercut_bonus",
    "big_gin_bonus",
    "box_bonus",
    "game_bonus",
    "shutout_bonus",
    "eleven_card_deal",
    "next_dealer",
    "after_void",
    "stock_rule",
    "move_timer_seconds",
  ]);
  assert.deepEqual(Rules.fromDict(data).toDict(), data);
  assert.ok(Object.isFrozen(rules));
});

test("impossible rules are refused with every problem named", () => {
  const bad = [
    [{ oklahoma: true, eleven_card_deal: true }, /11-card deal has none/],
    [{ spade_doubling: true }, /needs oklahoma on/],
    [{ knock_limit: 31 }, /knock_limit must be 0..30, got 31/],
    [{ target_score: null, game_bonus: 5 }, /first-to-knock/],
    [
      { next_dealer: "winner" },
      /next_dealer must be one of alternate, loser, got 'winner'/,
    ],
    [{ oklahoma: 1 }, /oklahoma must be true or false, got 1/],
    [{ gin_bonus: true }, /gin_bonus must be a whole number, got True/],
    [{ colour: "red" }, /unknown rules option\(s\): colour/],
  ];
  for (const [options, message] of bad) {
    assert.throws(
      () => Rules.fromDict(options),
      (e) => e instanceof RulesError && message.test(e.message),
      String(message),
    );
  }
});
