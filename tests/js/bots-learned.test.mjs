// web/js/bots/learned.js: the weights are the fitted ones, the features the hand's
// quantities, the player is the expert outside close discards and always legal
// (decision-for-decision agreement with Python is tests/conformance/test_bots.py:
// every master search starts from this player's choice).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fc from "fast-check";

import { ActionKind } from "../../src/ginrummy/web/js/engine/actions.js";
import { deadwoodOfMask } from "../../src/ginrummy/web/js/engine/melds.js";
import { Phase } from "../../src/ginrummy/web/js/engine/round.js";
import { EXPERT, Expert, PLAN } from "../../src/ginrummy/web/js/bots/expert.js";
import { read } from "../../src/ginrummy/web/js/bots/knowledge.js";
import {
  CANDIDATES,
  FEATURES,
  Learned,
  SPREAD,
  WEIGHTS,
  discardCandidates,
  discardFeatures,
  learnedValue,
} from "../../src/ginrummy/web/js/bots/learned.js";
import { Master } from "../../src/ginrummy/web/js/bots/master.js";
import { PortableRandom } from "../../src/ginrummy/web/js/bots/random.js";
import { views as played } from "./bots-helpers.mjs";

/** Every view of a seeded expert-against-expert match with a choice. @param {number} seed */
const views = (seed) => played(seed, "expert", Infinity);

const EXPERT_PLAYER = new Expert();
const LEARNED = new Learned();

test("the weights are the ones fitted in bench/learned_q.json, as Python ships them", () => {
  const shipped = JSON.parse(
    readFileSync(new URL("../../bench/learned_q.json", import.meta.url), "utf8"),
  );
  assert.deepEqual([...FEATURES], shipped.names);
  assert.deepEqual([...WEIGHTS], shipped.weights);
  const python = readFileSync(
    new URL("../../src/ginrummy/bots/learned.py", import.meta.url),
    "utf8",
  );
  for (const w of WEIGHTS)
    assert.ok(python.includes(`    ${w},\n`), `${w} in learned.py`);
});

test("master starts from the learned discard", () => {
  assert.ok(new Master().expert instanceof Learned);
});

test("candidates are the expert's best within the spread, its choice first", () => {
  let seen = 0;
  for (const seed of [1, 2]) {
    for (const [i, view] of views(seed).entries()) {
      if (view.table.roundPhase !== Phase.DISCARD) continue;
      const choice = EXPERT_PLAYER.choose(view, new PortableRandom(i));
      if (choice.kind !== ActionKind.DISCARD) continue;
      const know = read(view);
      const odds = EXPERT_PLAYER.odds(know);
      const cards = discardCandidates(EXPERT_PLAYER, view, know, odds);
      const scored = EXPERT_PLAYER.scores(know.hand, know, odds);
      const score = (
        /** @type {import("../../src/ginrummy/web/js/engine/cards.js").Card} */ c,
      ) => /** @type {[number, number]} */ (scored.get(c.index))[1];
      assert.equal(cards[0], choice.card);
      assert.ok(cards.length >= 1 && cards.length <= CANDIDATES);
      assert.equal(new Set(cards).size, cards.length);
      for (const c of cards) {
        assert.ok(score(c) <= score(cards[0]) + SPREAD);
        assert.notEqual(c, view.taken);
      }
      seen++;
    }
  }
  assert.ok(seen > 50, `only ${seen} discards`);
});

test("the features are the hand's quantities", () => {
  let rows = 0;
  for (const view of views(3)) {
    if (view.table.roundPhase !== Phase.DISCARD) continue;
    const know = read(view);
    const odds = EXPERT_PLAYER.odds(know);
    const cards = discardCandidates(EXPERT_PLAYER, view, know, odds);
    const late = 1.0 - Math.min(know.stockSize, 31) / 31;
    discardFeatures(know, odds, cards).forEach((row, k) => {
      const f = Object.fromEntries(FEATURES.map((name, j) => [name, row[j]]));
      const card = cards[k];
      assert.equal(f.deadwood, deadwoodOfMask(know.hand - card.bit));
      assert.equal(f.value, card.value);
      assert.equal(f["value*late"], card.value * late);
      assert.equal(f.knockable, f.deadwood <= 10 ? 1 : 0);
      assert.equal(f["deadwood<=4"], f.deadwood <= 4 ? 1 : 0);
      assert.equal(f["danger*wall"], know.stockSize <= PLAN.wall ? f.danger : 0);
      assert.ok(f.outs >= 0);
      rows++;
    });
  }
  assert.ok(rows > 50);
});

test("the learned player is the expert outside close discards, and changes some", () => {
  let differ = 0,
    same = 0;
  for (const seed of [4, 5, 6]) {
    for (const [i, view] of views(seed).entries()) {
      const mine = LEARNED.choose(view, new PortableRandom(i));
      const theirs = EXPERT_PLAYER.choose(view, new PortableRandom(i));
      assert.ok(view.legalActions.includes(mine));
      if (theirs.kind !== ActionKind.DISCARD) assert.equal(mine, theirs);
      else if (mine !== theirs) {
        assert.equal(mine.kind, ActionKind.DISCARD);
        differ++;
      } else same++;
    }
  }
  assert.ok(differ > 0 && same > differ, `differ ${differ}, same ${same}`);
});

test("the expert's own score as weights discards as the expert", () => {
  /** @type {Record<string, number>} */
  const own = Object.fromEntries(FEATURES.map((name) => [name, 0.0]));
  own.deadwood = -1.0;
  own.outs = EXPERT.potential;
  own.danger = -EXPERT.danger;
  own["outs*late"] = -(EXPERT.potential - (EXPERT.latePotential ?? 0));
  own["danger*wall"] = -PLAN.wallDanger;
  const player = new Learned(FEATURES.map((name) => own[name]));
  for (const [i, view] of views(7).entries()) {
    if (view.table.roundPhase !== Phase.DISCARD) continue;
    assert.equal(
      player.choose(view, new PortableRandom(i)),
      EXPERT_PLAYER.choose(view, new PortableRandom(i)),
    );
  }
});

test("a value is the plain sum; bad weights are refused", () => {
  assert.equal(learnedValue([1.0, -2.0], [3.0, 0.5]), 2.0);
  assert.throws(() => learnedValue([1.0], [1.0, 2.0]), RangeError);
  assert.throws(() => new Learned([1.0, 2.0]), /a discard needs 12 weights, not 2/);
});

test("property: the learned player picks a legal action in random positions", () => {
  const all = views(8);
  fc.assert(
    fc.property(fc.nat({ max: all.length - 1 }), fc.nat(), (k, seed) => {
      const view = all[k];
      return view.legalActions.includes(LEARNED.choose(view, new PortableRandom(seed)));
    }),
    { numRuns: 200 },
  );
});
