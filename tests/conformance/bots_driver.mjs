// The browser bots' side of the decision conformance (tests/conformance/bots_harness.py).
// Reads JSON lines, writes one JSON line per input line:
//
//   {"op": "decide", "id": n, "record": <match record>, "asks": [[step, level, seed], ...],
//    "plan": {changes to master's plan}}
//       -> {"id": n, "actions": [action text, ...], "tips": {step: [action, key, params]}}
//
// Step k is the state after the new match and k deals and actions (driver.mjs's
// numbering); the seat to move at that step decides with makeBot(level) and a
// PortableRandom(seed), and the coach gives its tip for every asked step. Where master
// searches, its answer is the action, a space and the search as JSON ([candidates,
// points per candidate and world, moves]), as the harness writes it.

import { createInterface } from "node:readline";

import {
  deal,
  apply,
  matchTurn,
  newMatch,
} from "../../src/ginrummy/web/js/engine/match.js";
import { matchRecordFromDict } from "../../src/ginrummy/web/js/engine/record.js";
import { viewForSeat } from "../../src/ginrummy/web/js/engine/views.js";
import { PortableRandom, makeBot, tip } from "../../src/ginrummy/web/js/bots/index.js";
import { Master, masterPlan } from "../../src/ginrummy/web/js/bots/master.js";

/** @typedef {import("../../src/ginrummy/web/js/engine/match.js").MatchState} MatchState */

/** Every state of a record, in step order. @param {unknown} data @returns {MatchState[]} */
function states(data) {
  const record = matchRecordFromDict(data);
  let m = newMatch(record.rules, record.firstDealer);
  const out = [m];
  for (const rnd of record.rounds) {
    m = deal(m, rnd.deck);
    out.push(m);
    for (const action of rnd.actions) {
      m = apply(m, action);
      out.push(m);
    }
  }
  return out;
}

/** @type {Map<string, import("../../src/ginrummy/web/js/bots/base.js").Chooser>} */
const bots = new Map();

// master (its plan with the request's changes), keeping the searches behind its last
// decision: the harness compares them too.
/** @type {import("../../src/ginrummy/web/js/bots/master.js").Search[]} */
const found = [];
/** @type {Map<string, Master>} */
const masters = new Map();

/** @param {Record<string, unknown>} changes */
function masterWith(changes) {
  const key = JSON.stringify(changes);
  let master = masters.get(key);
  if (master === undefined) {
    // Python's field names (late_knock) as the port spells them (lateKnock).
    const camel = Object.fromEntries(
      Object.entries(changes).map(([k, v]) => [
        k.replace(/_([a-z])/g, (_, c) => c.toUpperCase()),
        v,
      ]),
    );
    const m = new Master(masterPlan(camel));
    const search = m.search.bind(m);
    m.search = (view, candidates, rng, budget) => {
      const s = search(view, candidates, rng, budget);
      found.push(s);
      return s;
    };
    masters.set(key, (master = m));
  }
  return master;
}

/** @param {Master} master @param {import("../../src/ginrummy/web/js/engine/views.js").SeatView} view
 * @param {bigint} seed */
function masterAnswer(master, view, seed) {
  found.length = 0;
  const action = master.choose(view, new PortableRandom(seed)).text;
  if (!found.length) return action;
  // Every search of the decision: the first, then the check's (plan.verify).
  const searches = found.map((s) => [s.candidates.map((a) => a.text), s.points, s.moves]);
  return `${action} ${JSON.stringify(searches)}`;
}

/** [action, key, params], or ["error"] where the coach cannot advise (as in Python).
 * @param {import("../../src/ginrummy/web/js/engine/views.js").SeatView} view */
function tipOrError(view) {
  try {
    const t = tip(view);
    return [t.action.text, t.key, t.params];
  } catch (exc) {
    if (
      exc instanceof RangeError ||
      (exc instanceof Error && exc.message.startsWith("no "))
    )
      return ["error"];
    throw exc;
  }
}

/** @param {any} req */
function decide(req) {
  const all = states(req.record);
  const master = masterWith(req.plan ?? {});
  /** @type {string[]} */
  const actions = [];
  /** @type {Record<number, unknown>} */
  const tips = {};
  for (const [step, level, seed] of req.asks) {
    const m = all[step];
    const seat = matchTurn(m);
    if (seat === null) throw new Error(`nobody is to move at step ${step}`);
    const view = viewForSeat(m, seat);
    if (level === "master") {
      actions.push(masterAnswer(master, view, BigInt(seed)));
    } else {
      let bot = bots.get(level);
      if (bot === undefined) bots.set(level, (bot = makeBot(level)));
      actions.push(bot(view, new PortableRandom(BigInt(seed))).text);
    }
    if (!(step in tips)) {
      tips[step] = tipOrError(view);
    }
  }
  return { id: req.id, actions, tips };
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  const req = JSON.parse(line);
  if (req.op !== "decide") throw new Error(`unknown op ${req.op}`);
  process.stdout.write(JSON.stringify(decide(req)) + "\n");
}
