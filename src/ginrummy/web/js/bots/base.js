// What every computer player is: `choose(view, rng) -> action` over a seat view; the port
// of src/ginrummy/bots/base.py. A bot gets what a human in its seat sees and a
// PortableRandom, and returns one of `view.legalActions`.

import { toMask } from "../engine/cards.js";

/** @typedef {import("../engine/views.js").SeatView} SeatView */
/** @typedef {import("../engine/actions.js").Action} Action */
/** @typedef {import("../engine/cards.js").Card} Card */
/** @typedef {import("./random.js").PortableRandom} PortableRandom */
/** @typedef {(view: SeatView, rng: PortableRandom) => Action} Chooser */

/** The mask of some cards. @param {Iterable<Card>} cards */
export const maskOf = (cards) => toMask(cards);

/** The legal action of `kind` (with `card`), if there is one.
 * @param {SeatView} view @param {string} kind @param {Card | null} [card] @returns {Action | null} */
export function find(view, kind, card = null) {
  for (const action of view.legalActions) {
    if (action.kind === kind && action.card === card) return action;
  }
  return null;
}

/** @param {SeatView} view @param {...string} kinds */
export function ofKind(view, ...kinds) {
  return view.legalActions.filter((a) => kinds.includes(a.kind));
}

/** The cards that may be discarded now (the card just taken may not). @param {SeatView} view */
export function discardable(view) {
  return view.hand.filter((c) => c !== view.taken);
}

/** @param {Action} action @returns {Card} */
export function cardOfAction(action) {
  if (action.card === null) throw new Error(`${action.text} has no card`);
  return action.card;
}

/** The least element by a key compared as Python compares tuples (the first on a tie).
 * @template T @param {readonly T[]} items @param {(item: T) => readonly number[]} key @returns {T} */
export function minBy(items, key) {
  let best = items[0];
  let bestKey = key(best);
  for (let i = 1; i < items.length; i++) {
    const k = key(items[i]);
    if (lessThan(k, bestKey)) {
      best = items[i];
      bestKey = k;
    }
  }
  return best;
}

/** @param {readonly number[]} a @param {readonly number[]} b */
function lessThan(a, b) {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i] < b[i];
  }
  return false;
}
