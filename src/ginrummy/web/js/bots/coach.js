// The "learn with tips" coach (docs/rules.md §6): advice from the own hand alone; the
// port of src/ginrummy/hints/coach.py. `advise` takes the own hand, the legal actions
// and the open discard card, so it cannot see history or anything hidden; it returns
// the action and the reason as a message key with parameters (the texts live in i18n).

import { ActionKind } from "../engine/actions.js";
import { fromMask } from "../engine/cards.js";
import { and52, or52, xor52 } from "../engine/masks.js";
import { Meld, arrangementOfMask, deadwoodOfMask } from "../engine/melds.js";
import { cardOfAction, maskOf, minBy } from "./base.js";

/** @typedef {import("./base.js").SeatView} SeatView */
/** @typedef {import("./base.js").Action} Action */
/** @typedef {import("./base.js").Card} Card */
/** @typedef {Readonly<{action: Action, key: string, params: Readonly<Record<string, string | number>>}>} Tip */

/** @param {Action} action @param {string} key @param {Record<string, string | number>} [params] @returns {Tip} */
const tipOf = (action, key, params = {}) =>
  Object.freeze({ action, key, params: Object.freeze(params) });

/** The coach's tip for a seat view (its own hand, legal actions and the pile top).
 * @param {SeatView} view @returns {Tip} */
export function tip(view) {
  return advise(view.hand, view.legalActions, view.table.discardPile.at(-1) ?? null);
}

/** The recommended action among `legalActions` and its reason.
 * @param {readonly Card[]} hand @param {readonly Action[]} legalActions @param {Card | null} discard @returns {Tip} */
export function advise(hand, legalActions, discard) {
  if (legalActions.length === 0)
    throw new RangeError("no decision to advise on: there are no legal actions");
  const mask = maskOf(hand);
  const kinds = new Set(legalActions.map((a) => a.kind));
  if (kinds.has(ActionKind.BIG_GIN))
    return tipOf(of(legalActions, ActionKind.BIG_GIN), "big_gin");
  if (
    kinds.has(ActionKind.DISCARD) ||
    kinds.has(ActionKind.KNOCK) ||
    kinds.has(ActionKind.GIN)
  ) {
    return discardTip(mask, legalActions);
  }
  return drawTip(mask, legalActions, discard);
}

/** @param {readonly Action[]} actions @param {string} kind @returns {Action} */
function of(actions, kind) {
  const found = actions.find((a) => a.kind === kind);
  if (found === undefined) throw new Error(`no ${kind} among the legal actions`);
  return found;
}

/** @param {number} mask @param {Card} card */
function meldWith(mask, card) {
  const m = arrangementOfMask(mask).meldMasks.find((x) => and52(x, card.bit) !== 0);
  return m === undefined ? null : new Meld(m);
}

/** @param {number} mask @param {readonly Action[]} actions @param {Card | null} top @returns {Tip} */
function drawTip(mask, actions, top) {
  const kinds = new Set(actions.map((a) => a.kind));
  const takeKind = kinds.has(ActionKind.TAKE) ? ActionKind.TAKE : ActionKind.DRAW_DISCARD;
  const before = deadwoodOfMask(mask);
  if (!kinds.has(takeKind) || top === null) {
    // The last discard with the stock used up (alternative stock rule): only pass.
    if (!kinds.has(ActionKind.DRAW_STOCK))
      return tipOf(of(actions, ActionKind.PASS), "pass_only", { deadwood: before });
    return tipOf(of(actions, ActionKind.DRAW_STOCK), "draw_stock_only", {
      deadwood: before,
    });
  }
  const grown = or52(mask, top.bit);
  const keep = minBy(
    fromMask(mask).map((c) => xor52(grown, c.bit)),
    (m) => [deadwoodOfMask(m), m],
  );
  const after = deadwoodOfMask(keep);
  const meld = meldWith(keep, top);
  if (meld !== null && after < before) {
    return tipOf(of(actions, takeKind), "take_completes_meld", {
      card: top.text,
      meld: meld.text,
      before,
      after,
    });
  }
  const other = kinds.has(ActionKind.PASS) ? ActionKind.PASS : ActionKind.DRAW_STOCK;
  const key = other === ActionKind.PASS ? "pass_no_meld" : "draw_stock_no_meld";
  return tipOf(of(actions, other), key, { card: top.text, deadwood: before });
}

/** How many other cards of the hand could meld with `card`. @param {number} mask @param {Card} card */
function pairs(mask, card) {
  let n = 0;
  for (const other of fromMask(xor52(mask, card.bit))) {
    if (
      other.rank === card.rank ||
      (other.suit === card.suit && Math.abs(other.rank - card.rank) <= 2)
    )
      n++;
  }
  return n;
}

/** @param {number} mask @param {Action} action */
const dwWithout = (mask, action) => deadwoodOfMask(xor52(mask, cardOfAction(action).bit));

/** @param {number} mask @param {readonly Action[]} actions @returns {Tip} */
function discardTip(mask, actions) {
  const gins = actions.filter((a) => a.kind === ActionKind.GIN);
  if (gins.length) return tipOf(gins[0], "gin", { card: cardOfAction(gins[0]).text });
  const knocks = actions.filter((a) => a.kind === ActionKind.KNOCK);
  if (knocks.length) {
    const best = minBy(knocks, (a) => [
      dwWithout(mask, a),
      -cardOfAction(a).value,
      cardOfAction(a).index,
    ]);
    return tipOf(best, "knock", {
      card: cardOfAction(best).text,
      deadwood: dwWithout(mask, best),
    });
  }
  const discards = actions.filter((a) => a.kind === ActionKind.DISCARD);
  const best = minBy(discards, (a) => {
    const c = cardOfAction(a);
    return [dwWithout(mask, a), pairs(mask, c), -c.value, c.index];
  });
  const card = cardOfAction(best);
  const loose = and52(arrangementOfMask(mask).unmatchedMask, card.bit) !== 0;
  return tipOf(best, loose ? "discard_loose" : "discard_least_deadwood", {
    card: card.text,
    deadwood: dwWithout(mask, best),
  });
}
