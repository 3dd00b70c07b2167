// web/js/bots/master.js: legal, deterministic, the expert's choice when nothing is
// searched, within its budget (decision-for-decision agreement with Python, searches
// included, is tests/conformance/test_bots.py; the worlds: bots-worlds.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";

import {
  MatchPhase,
  apply,
  deal,
  matchTurn,
  newMatch,
} from "../../src/ginrummy/web/js/engine/match.js";
import { Phase } from "../../src/ginrummy/web/js/engine/round.js";
import { Rules } from "../../src/ginrummy/web/js/engine/rules.js";
import { viewForSeat } from "../../src/ginrummy/web/js/engine/views.js";
import { LEVELS, OFFERED, makeBot } from "../../src/ginrummy/web/js/bots/index.js";
import {
  MASTER_PLAN,
  Master,
  Search,
  masterPlan,
} from "../../src/ginrummy/web/js/bots/master.js";
import { PortableRandom } from "../../src/ginrummy/web/js/bots/random.js";
import { belief } from "../../src/ginrummy/web/js/bots/worlds.js";
import { shuffled, views } from "./bots-helpers.mjs";

const MASTER = new Master();

test("master is a level, offered last (the strongest), with Python's plan", () => {
  assert.ok(LEVELS.includes("master"));
  assert.equal(OFFERED.at(-1), "master");
  assert.deepEqual(
    { ...MASTER_PLAN },
    {
      worlds: 12,
      discards: 2,
      spread: 3.0,
      margin: 1.0,
      sure: 1.0,
      knocks: false,
      budget: 8000,
      improve: 3,
      particles: 4,
      fit: 3.0,
      knocked: 1.0,
      lateKnock: 5,
      verify: 2,
    },
  );
  assert.deepEqual(
    { ...MASTER.belief },
    { ...belief({ improveCap: 3, particles: 4, fit: 3.0 }) },
  );
  assert.throws(() => masterPlan({ worlds: 0 }), RangeError);
  assert.throws(() => masterPlan({ budget: -1 }), RangeError);
  assert.throws(() => masterPlan({ worlds: 14, particles: 4 }), RangeError);
  assert.throws(() => masterPlan({ lateKnock: -1 }), RangeError);
  assert.throws(() => masterPlan({ lateKnock: 11 }), RangeError);
  assert.throws(() => masterPlan({ verify: -1 }), RangeError);
});

test("the late knock changes the rollouts near the wall, as in Python", () => {
  const plain = new Master(masterPlan({ worlds: 6 }));
  const tight = new Master(masterPlan({ worlds: 6, lateKnock: 3 }));
  let searched = 0,
    differ = 0;
  for (const [i, view] of views(6, "expert", 400).entries()) {
    if (view.table.stockSize > 8 || searched === 30) continue;
    const choice = plain.expert.choose(view, new PortableRandom(i));
    const candidates = plain.candidates(view, choice);
    if (candidates.length < 2) continue;
    searched++;
    const points = (/** @type {Master} */ m) =>
      JSON.stringify(m.search(view, candidates, new PortableRandom(i)).points);
    if (points(plain) !== points(tight)) differ++;
  }
  assert.ok(searched > 5 && differ > 0, `${differ} of ${searched} searches changed`);
});

test("master returns a legal action and is deterministic for a seed", () => {
  const master = makeBot("master");
  for (const [i, view] of views(1, "expert", 30).entries()) {
    const action = master(view, new PortableRandom(i));
    assert.ok(view.legalActions.includes(action), `${action} is not legal`);
    assert.equal(master(view, new PortableRandom(i)), action);
  }
});

test("one legal action costs nothing: no draw beyond the one 64-bit seed", () => {
  const rules = Rules.preset("standard", { stock_rule: "last_discard" });
  const rng = new PortableRandom(5);
  let m = deal(newMatch(rules, 0), shuffled(rng));
  const view = viewForSeat(m, matchTurn(m));
  const only = { ...view, legalActions: [view.legalActions[0]] };
  const a = new PortableRandom(3),
    b = new PortableRandom(3);
  assert.equal(makeBot("master")(only, a), view.legalActions[0]);
  b.getrandbits64();
  assert.equal(a.next32(), b.next32());
});

test("with a budget of 0 master plays its base's choice (the learned discard)", () => {
  const broke = new Master(masterPlan({ budget: 0 }));
  const expert = broke.expert; // its base: the learned discard (bots/learned.js)
  let searched = 0;
  for (const [i, view] of views(2, "casual", 60).entries()) {
    const seed = BigInt(i) * 977n;
    const local = new PortableRandom(new PortableRandom(seed).getrandbits64());
    const choice = expert.choose(view, local);
    assert.equal(broke.choose(view, new PortableRandom(seed)), choice);
    if (broke.candidates(view, choice).length > 1) searched++;
  }
  assert.ok(searched > 10, `only ${searched} positions had candidates`);
});

test("a switch is checked on fresh worlds: it stands or the expert's choice does", () => {
  const once = new Master(masterPlan({ verify: 0 }));
  const checked = new Master(masterPlan({ worlds: 12, verify: 2 }));
  const expert = once.expert; // its base: the learned discard (bots/learned.js)
  let reverted = 0,
    kept = 0;
  for (const [i, view] of views(4, "expert", 80).entries()) {
    const seed = BigInt(i) * 131n;
    const local = new PortableRandom(new PortableRandom(seed).getrandbits64());
    const choice = expert.choose(view, local);
    const pick = once.choose(view, new PortableRandom(seed));
    const final = checked.choose(view, new PortableRandom(seed));
    // The first search is the same: its pick is checked, never replaced by a third.
    assert.ok(
      final === pick || final === choice,
      `${final} is neither ${pick} nor ${choice}`,
    );
    if (pick !== choice) final === pick ? kept++ : reverted++;
  }
  assert.ok(reverted > 0 && kept > 0, `reverted ${reverted}, kept ${kept}`);
});

test("the check spends what the first search left of the budget", () => {
  const master = new Master(masterPlan({ worlds: 6, budget: 400 }));
  const spent = [];
  const search = master.search.bind(master);
  master.search = (view, candidates, rng, budget) => {
    const found = search(view, candidates, rng, budget);
    spent.push(found.moves);
    return found;
  };
  let checks = 0;
  for (const [i, view] of views(5, "expert", 60).entries()) {
    spent.length = 0;
    master.choose(view, new PortableRandom(i));
    assert.ok(spent.reduce((a, b) => a + b, 0) <= 400, `spent ${spent}`);
    if (spent.length > 1) checks++;
  }
  assert.ok(checks > 0, "no switch was checked");
});

test("the search keeps its budget and stops on whole worlds only", () => {
  const master = new Master(masterPlan({ worlds: 4, budget: 30 }));
  let cut = 0;
  for (const [i, view] of views(3, "expert", 40).entries()) {
    const choice = master.expert.choose(view, new PortableRandom(i));
    const candidates = master.candidates(view, choice);
    if (candidates.length < 2) continue;
    const found = master.search(view, candidates, new PortableRandom(i));
    assert.ok(found.moves <= 30);
    assert.ok(found.worlds <= 4);
    for (const column of found.points) assert.equal(column.length, found.worlds);
    if (found.worlds < 4) cut++;
  }
  assert.ok(cut > 0, "no search ran out of its budget");
});

test("master samples its worlds by the belief of its plan, and refuses a bad one", () => {
  const weighed = new Master(
    masterPlan({ worlds: 4, improve: 3, particles: 4, fit: 3.0 }),
  );
  assert.deepEqual(
    { ...weighed.belief },
    { ...belief({ improveCap: 3, particles: 4, fit: 3.0 }) },
  );
  // As Python: the plan takes any belief, master makes it and refuses it then.
  for (const bad of [{ improve: -1 }, { particles: 0 }, { fit: 0 }])
    assert.throws(() => new Master(masterPlan(bad)), RangeError, JSON.stringify(bad));
  const plain = new Master(masterPlan({ worlds: 4, improve: 3, particles: 1 }));
  const capped = new Master(masterPlan({ worlds: 4, improve: 0, particles: 1 }));
  let searched = 0,
    byParticles = 0,
    byCap = 0;
  for (const [i, view] of views(8, "expert", 30).entries()) {
    const choice = plain.expert.choose(view, new PortableRandom(i));
    const candidates = plain.candidates(view, choice);
    if (candidates.length < 2) continue;
    searched++;
    const points = (/** @type {Master} */ m) =>
      JSON.stringify(m.search(view, candidates, new PortableRandom(i)).points);
    const base = points(plain);
    if (points(weighed) !== base) byParticles++;
    if (points(capped) !== base) byCap++;
    const action = weighed.choose(view, new PortableRandom(i));
    assert.ok(view.legalActions.includes(action), `${action} is not legal`);
    assert.equal(weighed.choose(view, new PortableRandom(i)), action);
  }
  assert.ok(searched > 10, `only ${searched} searches`);
  assert.ok(
    byParticles > searched / 2,
    `particles changed ${byParticles} of ${searched}`,
  );
  assert.ok(byCap > 0, "the improve cap changed no search");
});

test("Search.best: the expert's choice unless another is better by margin and error", () => {
  const s = (/** @type {number[][]} */ points) =>
    new Search(/** @type {any} */ (["a", "b", "c"]), points, 0);
  const clear = s([
    [0, 0, 0, 0],
    [5, 6, 5, 7],
    [1, 1, 1, 1],
  ]);
  assert.equal(clear.best(1, 1), "b");
  assert.equal(clear.best(10, 1), "a"); // not by the margin
  const noisy = s([
    [0, 0, 0, 0],
    [40, -30, 40, -30],
    [0, 0, 0, 0],
  ]);
  assert.equal(noisy.best(1, 1), "a"); // mean 5, but a standard error of 20
  const tie = s([
    [0, 0],
    [3, 3],
    [3, 3],
  ]);
  assert.equal(tie.best(1, 1), "b"); // the first of equal totals
  assert.equal(s([[0], [9], [9]]).best(0, 0), "a"); // one world: no judgement
  assert.equal(s([]).best(0, 0), "a");
});

test("property: master picks a legal action in random positions", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 2 ** 31 }),
      fc.integer({ min: 0, max: 60 }),
      fc.constantFrom("standard", "oklahoma", "classic"),
      fc.boolean(),
      (seed, steps, preset, lastDiscard) => {
        const rules = Rules.preset(
          preset,
          lastDiscard ? { stock_rule: "last_discard" } : {},
        );
        const rng = new PortableRandom(seed);
        const random = makeBot("random");
        let m = deal(newMatch(rules, seed % 2 === 0 ? 0 : 1), shuffled(rng));
        for (let k = 0; k < steps && m.phase === MatchPhase.ROUND; k++)
          m = apply(m, random(viewForSeat(m, matchTurn(m)), rng));
        if (m.phase !== MatchPhase.ROUND || m.round.phase === Phase.OVER) return;
        const view = viewForSeat(m, matchTurn(m));
        const action = MASTER.choose(view, new PortableRandom(seed));
        assert.ok(view.legalActions.includes(action), `${action} is not legal`);
      },
    ),
    { numRuns: 60, seed: 7 },
  );
});
