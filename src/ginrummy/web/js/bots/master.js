// `master`: the expert's choice, checked by playing the round out on sampled worlds;
// the port of bots/master.py (see there and docs/computer-players.md for the why).
// A decision takes one 64-bit draw of the game's generator, seeds a PortableRandom
// with it, and spends at most `plan.budget` rollout moves (work, never a clock): the
// same view and seed decide the same action as Python.

import { ActionKind } from "../engine/actions.js";
import { apply } from "../engine/match.js";
import { Phase } from "../engine/round.js";
import { discardable } from "./base.js";
import { EXPERT, Expert, PLAN } from "./expert.js";
import { lowestKnock, style } from "./heuristic.js";
import { read } from "./knowledge.js";
import { Learned } from "./learned.js";
import { PortableRandom } from "./random.js";
import { WorldError, belief, playOutWithin, sampleWorlds } from "./worlds.js";

/** @typedef {import("./base.js").SeatView} SeatView */
/** @typedef {import("./base.js").Action} Action */
/** @typedef {import("./base.js").Card} Card */

/**
 * How much `master` looks ahead: Python's MasterPlan (the same fields and defaults).
 * @typedef {Readonly<{worlds: number, discards: number, spread: number, margin: number,
 *   sure: number, knocks: boolean, budget: number, improve: number, particles: number,
 *   fit: number, knocked: number, lateKnock: number, verify: number}>} MasterPlan
 */

/** A plan with Python's defaults, `changes` on top; refuses what Python refuses.
 * @param {Partial<MasterPlan>} [changes] @returns {MasterPlan} */
export function masterPlan(changes = {}) {
  const plan = Object.freeze({
    worlds: 12, // worlds sampled per decision
    discards: 2, // discard candidates at most (the expert's best first)
    spread: 3.0, // ... each scored by the expert within this much of its best
    margin: 1.0, // round points a candidate must gain over the expert's choice
    sure: 1.0, // ... and standard errors of that gain
    knocks: false, // search whether to knock too (measured worse)
    budget: 8000, // rollout moves per decision, at most
    // The worlds' opponent hands (worlds.js's Belief; Master refuses a bad one, as Python):
    // the filter of 4 hands, each improved by at most 3 draws (as bots/master.py).
    improve: 3,
    particles: 4,
    fit: 3.0,
    knocked: 1.0,
    // The most deadwood the rollouts' player knocks with below 4 stock cards (the last
    // step of the expert's knock table: 10), a stand-in for the expert's undercut check.
    lateKnock: 5,
    // Searches of `worlds` fresh worlds a switch from the expert's choice is checked on,
    // the two alone (0: none): the winner's curse of one search (as bots/master.py).
    verify: 2,
    ...changes,
  });
  if (plan.worlds < 1 || plan.discards < 1 || plan.budget < 0 || plan.verify < 0)
    throw new RangeError(
      "a plan needs worlds >= 1, discards >= 1, budget >= 0 and verify >= 0",
    );
  if (!(plan.lateKnock >= 0 && plan.lateKnock <= 10))
    throw new RangeError("a plan needs 0 <= lateKnock <= 10");
  if (plan.particles > 1 && plan.worlds * plan.particles > 52)
    throw new RangeError("a plan with particles draws at most 52 hands a decision");
  return plan;
}

export const MASTER_PLAN = masterPlan();

/** @type {readonly string[]} */
const TAKES = [ActionKind.GIN, ActionKind.BIG_GIN];

/** What one decision's search found: the candidates (the expert's choice first), each
 * one's round points in every world played in full, and the rollout moves spent. */
export class Search {
  /** @param {readonly Action[]} candidates @param {readonly (readonly number[])[]} points
   * @param {number} moves */
  constructor(candidates, points, moves) {
    this.candidates = candidates;
    this.points = points;
    this.moves = moves;
  }

  get worlds() {
    return this.points.length ? this.points[0].length : 0;
  }

  /** The candidate with the best mean when it beats the expert's choice by more than
   * `margin` points a round and by more than `sure` standard errors of the paired
   * differences; otherwise the expert's choice.
   * @param {number} margin @param {number} sure @returns {Action} */
  best(margin, sure) {
    const n = this.worlds;
    if (n < 2) return this.candidates[0];
    const totals = this.points.map((p) => p.reduce((a, b) => a + b, 0));
    let top = 0; // the best total, the first on a tie (Python's max by (total, -i))
    for (let i = 1; i < totals.length; i++) if (totals[i] > totals[top]) top = i;
    const diffs = this.points[top].map((a, i) => a - this.points[0][i]);
    let sum = 0;
    for (const d of diffs) sum += d; // integers: exact
    const mean = sum / n;
    // A plain left-to-right float sum, as Python 3.11's sum() adds (3.12 compensates).
    let squares = 0.0;
    for (const d of diffs) squares += (d - mean) * (d - mean);
    const variance = squares / (n - 1);
    if (mean > margin && mean * mean * n > sure * sure * variance)
      return this.candidates[top];
    return this.candidates[0];
  }
}

export class Master {
  /** @param {MasterPlan} [plan] */
  constructor(plan = MASTER_PLAN) {
    this.plan = plan;
    // The base player: the expert with the learned discard (bots/master.py says why).
    /** @type {Expert} */
    this.expert = new Learned();
    this.belief = belief({
      improveCap: plan.improve,
      particles: plan.particles,
      fit: plan.fit,
      knocked: plan.knocked,
    });
    // The expert's knock table with its last step's deadwood from the plan.
    /** @type {(readonly [number, number])[]} */
    const knock = EXPERT.knock.map(([stock, most], i, all) =>
      i === all.length - 1 ? [stock, plan.lateKnock] : [stock, most],
    );
    const rollout = new Expert({ ...PLAN, samples: 0 }, style({ ...EXPERT, knock }));
    /** @type {import("./base.js").Chooser} */
    this.rollout = (view, rng) => rollout.choose(view, rng);
  }

  /** @param {SeatView} view @param {PortableRandom} rng @returns {Action} */
  choose(view, rng) {
    // One draw from the game's generator per decision, whatever the decision costs.
    const local = new PortableRandom(rng.getrandbits64());
    const legal = view.legalActions;
    if (legal.length === 1) return legal[0];
    const choice = this.expert.choose(view, local);
    if (
      TAKES.includes(choice.kind) ||
      (choice.kind === ActionKind.KNOCK && !this.plan.knocks)
    )
      return choice;
    const candidates = this.candidates(view, choice);
    if (candidates.length === 1) return choice;
    const plan = this.plan;
    const found = this.search(view, candidates, local, plan.budget);
    const pick = found.best(plan.margin, plan.sure);
    if (pick === choice || !plan.verify) return pick;
    return this.check(view, [choice, pick], found.moves, local).best(
      plan.margin,
      plan.sure,
    );
  }

  /** The expert's choice and the search's pick (`pair`) played again on `plan.verify`
   * searches of fresh worlds, within what is left of the budget after `spent` moves.
   * @param {SeatView} view @param {readonly [Action, Action]} pair @param {number} spent
   * @param {PortableRandom} rng @returns {Search} */
  check(view, pair, spent, rng) {
    /** @type {[number[], number[]]} */
    const columns = [[], []];
    let moves = 0;
    for (let i = 0; i < this.plan.verify; i++) {
      const again = this.search(view, pair, rng, this.plan.budget - spent - moves);
      again.points.forEach((points, c) => columns[c].push(...points));
      moves += again.moves;
    }
    return new Search(pair, columns, moves);
  }

  /** The actions worth a search, the expert's `choice` first.
   * @param {SeatView} view @param {Action} choice @returns {Action[]} */
  candidates(view, choice) {
    const legal = view.legalActions;
    if (view.table.roundPhase !== Phase.DISCARD)
      return [choice, ...legal.filter((a) => a !== choice)];
    const out = [choice];
    const know = read(view);
    const scored = this.expert.scores(know.hand, know, this.expert.odds(know));
    const knocks = legal.filter((a) => a.kind === ActionKind.KNOCK);
    if (knocks.length && this.plan.knocks) {
      const knock = lowestKnock(knocks, scored)[0];
      if (!out.includes(knock)) out.push(knock);
    }
    /** @type {Map<Card, Action>} */
    const plain = new Map();
    for (const a of legal)
      if (a.kind === ActionKind.DISCARD && a.card !== null) plain.set(a.card, a);
    /** @type {[number, number, Card][]} */
    const ranked = [];
    for (const c of discardable(view)) {
      if (!plain.has(c)) continue;
      ranked.push([/** @type {[number, number]} */ (scored.get(c.index))[1], c.index, c]);
    }
    // Python sorts (score, index, card) tuples: by score, then by the (distinct) index.
    ranked.sort((a, b) => (a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] - b[1]));
    if (ranked.length) {
      const floor = ranked[0][0];
      let wanted = out.filter((a) => a.kind === ActionKind.DISCARD).length;
      for (const [score, , card] of ranked) {
        if (wanted >= this.plan.discards || score > floor + this.plan.spread) break;
        const action = /** @type {Action} */ (plain.get(card));
        if (!out.includes(action)) {
          out.push(action);
          wanted++;
        }
      }
    }
    return out;
  }

  /** Play `candidates` out on sampled worlds of `view` within `budget` rollout moves (by
   * default the plan's).
   * @param {SeatView} view @param {readonly Action[]} candidates @param {PortableRandom} rng
   * @param {number} [budget] @returns {Search} */
  search(view, candidates, rng, budget = this.plan.budget) {
    const plan = this.plan;
    let worlds;
    try {
      worlds = sampleWorlds(view, plan.worlds, rng, this.belief);
    } catch (exc) {
      if (exc instanceof WorldError) return new Search(candidates, [], 0);
      throw exc;
    }
    const seeds = worlds.map(() => rng.getrandbits64());
    /** @type {number[][]} */
    const columns = candidates.map(() => []);
    let moves = 0;
    for (const [w, world] of worlds.entries()) {
      const points = [];
      for (const action of candidates) {
        const played = playOutWithin(
          apply(world, action),
          view.seat,
          new PortableRandom(seeds[w]),
          this.rollout,
          budget - moves,
        );
        if (played === null) return new Search(candidates, columns, budget);
        moves += played[1];
        points.push(played[0]);
      }
      points.forEach((value, i) => columns[i].push(value));
    }
    return new Search(candidates, columns, moves);
  }
}
