// The showdown after a knock and the points of a round (docs/rules.md §3.4, §3.5); the
// port of engine/showdown.py. The knocker's arrangement is chosen among all those
// within the knock limit to maximise the knocker's net result given the defender's
// best reply; the defender's own melds and layoffs are chosen together to minimise the
// defender's deadwood. Ties go the reference's way (the first found, in its order).

import { cardFromIndex, checkDistinct, toMask } from "./cards.js";
import { HandSizeError, NotAKnockError } from "./errors.js";
import { BIT, andNot52, bitCount52, hasBit, highIndex, lowIndex } from "./masks.js";
import {
  Arrangement,
  Meld,
  MeldKind,
  arrangementOfMask,
  meldChoices,
  meldKindOf,
  valueOfMask,
} from "./melds.js";

/** @typedef {import("./cards.js").Card} Card */
/** @typedef {import("./rules.js").Rules} Rules */

export const ShowdownKind = Object.freeze({
  KNOCK: "knock",
  GIN: "gin",
  BIG_GIN: "big_gin",
  UNDERCUT: "undercut",
});
export const Side = Object.freeze({ KNOCKER: "knocker", DEFENDER: "defender" });

/** A defender's card added to one of the knocker's melds (`onto` as laid out).
 * @typedef {Readonly<{card: Card, onto: Meld}>} Layoff */

/**
 * Everything a score line needs: both arrangements, the layoffs, the points.
 * @typedef {Readonly<{
 *   kind: string, knocker: Arrangement, defender: Arrangement, layoffs: readonly Layoff[],
 *   knockerDeadwood: number, defenderDeadwood: number, winner: string, basePoints: number,
 *   bonus: number, multiplier: number, points: number, defenderDeadwoodCards: readonly Card[]
 * }>} Showdown
 * defender: the defender's own melds (its unmatched cards include the layoffs);
 * defenderDeadwood: after layoffs; basePoints: difference (or D for gin), before bonus
 * and doubling; multiplier: 2 when Oklahoma spade doubling applies.
 */

/** @typedef {[number, number, number, number]} RunTarget meld, lowest index, highest index, first index of its suit */
/** @typedef {[number, number]} SetTarget meld, the missing card's bit */

/** Where cards can be laid off: the knocker's runs, then its sets of three.
 * @param {readonly number[]} knockerMelds @returns {[RunTarget[], SetTarget[]]} */
function targets(knockerMelds) {
  /** @type {RunTarget[]} */
  const runs = [];
  /** @type {SetTarget[]} */
  const sets = [];
  for (const meld of knockerMelds) {
    const lo = lowIndex(meld);
    if (meldKindOf(meld) === MeldKind.RUN) {
      runs.push([meld, lo, highIndex(meld), lo - (lo % 13)]);
    } else if (bitCount52(meld) === 3) {
      const r = lo % 13;
      const rankBits = BIT[r] + BIT[r + 13] + BIT[r + 26] + BIT[r + 39];
      sets.push([meld, andNot52(rankBits, meld)]);
    }
  }
  return [runs, sets];
}

/** Lay off every card of `unmatched` that fits ([card bit, meld mask]), chains
 * included. Laying off never hurts the defender, and the cards that can be laid off
 * form a closure: every card chained to an end of a knocker run, then the fourth card
 * of a knocker set. Runs go first: a card that fits both can carry a chain on the run.
 * @param {number} unmatched @param {[RunTarget[], SetTarget[]]} where @returns {[number, number][]} */
function lay(unmatched, [runs, sets]) {
  /** @type {[number, number][]} */
  const out = [];
  let free = unmatched;
  for (const [meld, lo, hi, suitBase] of runs) {
    for (let k = hi + 1; k < suitBase + 13 && hasBit(free, k); k++) {
      out.push([BIT[k], meld]);
      free -= BIT[k];
    }
    for (let k = lo - 1; k >= suitBase && hasBit(free, k); k--) {
      out.push([BIT[k], meld]);
      free -= BIT[k];
    }
  }
  for (const [meld, missing] of sets) {
    if (hasBit(free, lowIndex(missing))) {
      out.push([missing, meld]);
      free -= missing;
    }
  }
  return out;
}

/** @typedef {[number, number[], number]} DefenderOption own deadwood, melds, unmatched mask */

/** The defender's melds and layoffs that minimise the defender's deadwood.
 * @param {number} defenderMask @param {readonly number[]} knockerMelds */
export function defenderReply(defenderMask, knockerMelds) {
  return reply(defenderArrangements(defenderMask), knockerMelds);
}

/** @param {DefenderOption[]} options @param {readonly number[]} knockerMelds
 * @returns {[Arrangement, [number, number][], number]} */
function reply(options, knockerMelds) {
  const where = targets(knockerMelds);
  /** @type {[number, number[], [number, number][], number] | null} */
  let best = null;
  for (const [ownDeadwood, melds, unmatched] of options) {
    const lays = lay(unmatched, where);
    let laid = 0;
    for (const [bit] of lays) laid += bit;
    const deadwood = ownDeadwood - valueOfMask(laid);
    if (best === null || deadwood < best[3]) best = [ownDeadwood, melds, lays, deadwood];
  }
  if (best === null) throw new Error("the empty arrangement is always an option");
  const hand = options[0][2]; // the first choice melds nothing: every card is unmatched
  return [new Arrangement(hand, 0, best[0], best[1]), best[2], best[3]];
}

/** @param {number} mask @returns {DefenderOption[]} */
function defenderArrangements(mask) {
  return meldChoices(mask).map(([deadwood, melds]) => {
    let covered = 0;
    for (const meld of melds) covered += meld;
    return /** @type {DefenderOption} */ ([deadwood, melds, mask - covered]);
  });
}

/** @param {Omit<Showdown, "defenderDeadwoodCards">} fields @returns {Showdown} */
function makeShowdown(fields) {
  let laid = 0;
  for (const lo of fields.layoffs) laid += lo.card.bit;
  const defenderDeadwoodCards = Object.freeze(
    fields.defender.unmatched.filter((c) => !hasBit(laid, c.index)),
  );
  return Object.freeze({
    ...fields,
    layoffs: Object.freeze([...fields.layoffs]),
    defenderDeadwoodCards,
  });
}

/**
 * Score a knock: `knocker` is the knocker's hand after the knock discard (10 cards;
 * 11 for Big Gin), `defender` the defender's 10 cards. Throws NotAKnockError if the
 * knocker's deadwood is above the knock limit (`knockLimit` overrides the rules', e.g.
 * for Oklahoma).
 * @param {readonly Card[]} knocker @param {readonly Card[]} defender @param {Rules} rules
 * @param {{knockLimit?: number | null, doubled?: boolean}} [options] @returns {Showdown}
 */
export function settle(
  knocker,
  defender,
  rules,
  { knockLimit = null, doubled = false } = {},
) {
  checkDistinct([...knocker, ...defender]);
  if (
    (knocker.length !== 10 && knocker.length !== 11) ||
    (knocker.length === 11 && rules.bigGinBonus === null)
  ) {
    throw new HandSizeError(
      `the knocker must hold 10 cards after the knock discard, got ${knocker.length}` +
        (knocker.length === 11 ? " (Big Gin with 11 is off in these rules)" : ""),
    );
  }
  if (defender.length !== 10)
    throw new HandSizeError(`the defender must hold 10 cards, got ${defender.length}`);
  const limit = knockLimit === null ? rules.knockLimit : knockLimit;
  const kMask = toMask(knocker),
    dMask = toMask(defender);
  const best = arrangementOfMask(kMask);
  const multiplier = doubled ? 2 : 1;
  if (knocker.length === 11 && best.deadwood !== 0) {
    throw new NotAKnockError(
      `Big Gin needs all 11 cards melded; deadwood is ${best.deadwood}`,
    );
  }
  if (best.deadwood === 0)
    return ginShowdown(
      best,
      arrangementOfMask(dMask),
      knocker.length === 11,
      rules,
      multiplier,
    );
  if (best.deadwood > limit) {
    throw new NotAKnockError(
      `cannot knock: deadwood ${best.deadwood} is above the knock limit ${limit}` +
        (limit === 0 ? " (gin only)" : ""),
    );
  }
  /** @type {[number, Arrangement, [number, number][], number, Arrangement] | null} */
  let chosen = null;
  const dOptions = defenderArrangements(dMask); // the same for every knocker arrangement
  for (const [kDeadwood, kMelds] of meldChoices(kMask)) {
    if (kDeadwood > limit) continue;
    const [dArr, lays, dDw] = reply(dOptions, kMelds);
    const net = kDeadwood < dDw ? dDw - kDeadwood : -(kDeadwood - dDw);
    // Best net result for the knocker, then the lower knocker deadwood.
    if (
      chosen === null ||
      net > chosen[0] ||
      (net === chosen[0] && kDeadwood < chosen[4].deadwood)
    ) {
      chosen = [net, dArr, lays, dDw, new Arrangement(kMask, 0, kDeadwood, kMelds)];
    }
  }
  if (chosen === null) throw new Error("the optimal arrangement is within the limit");
  const [, dArr, lays, dDw, kArr] = chosen;
  const layoffs = lays.map(([bit, meld]) =>
    Object.freeze({ card: cardFromIndex(lowIndex(bit)), onto: new Meld(meld) }),
  );
  const kDw = kArr.deadwood;
  const knocks = kDw < dDw;
  const base = knocks ? dDw - kDw : kDw - dDw;
  const bonus = knocks ? 0 : rules.undercutBonus;
  return makeShowdown({
    kind: knocks ? ShowdownKind.KNOCK : ShowdownKind.UNDERCUT,
    knocker: kArr,
    defender: dArr,
    layoffs,
    knockerDeadwood: kDw,
    defenderDeadwood: dDw,
    winner: knocks ? Side.KNOCKER : Side.DEFENDER,
    basePoints: base,
    bonus,
    multiplier,
    points: (base + bonus) * multiplier,
  });
}

/** Gin: no layoffs (docs/rules.md §3.4); the defender only forms own melds.
 * @param {Arrangement} knocker @param {Arrangement} defender @param {boolean} big
 * @param {Rules} rules @param {number} multiplier */
function ginShowdown(knocker, defender, big, rules, multiplier) {
  const bonus = big ? (rules.bigGinBonus ?? 0) : rules.ginBonus;
  return makeShowdown({
    kind: big ? ShowdownKind.BIG_GIN : ShowdownKind.GIN,
    knocker,
    defender,
    layoffs: [],
    knockerDeadwood: 0,
    defenderDeadwood: defender.deadwood,
    winner: Side.KNOCKER,
    basePoints: defender.deadwood,
    bonus,
    multiplier,
    points: (defender.deadwood + bonus) * multiplier,
  });
}
